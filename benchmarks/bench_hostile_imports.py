"""Hostile import files: each refused on its own, how fast and in how much memory.

Writes the probe's hostile files (a literal beyond the header, ``p cnf 99999999 1``, gzipped
clause and digit floods, 300- and 10⁶-house ZebraLogic grids, deep JSON, corrupt Parquet) and
runs ``logicforge import`` on each beside a good file, in a fresh process: wall time, peak
memory (the process's maximum resident set), exit code, what was imported and the one-line
reason. Then 20 Parquet imports in a row (their exit codes). Prints figures; asserts nothing.

Target (issue "What a user and an attacker hit, round three"): each refused in under 2 s with
under 200 MB, the good file imported beside it; 20 Parquet imports exit 0.

Usage: python benchmarks/bench_hostile_imports.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.hostile_files import write_dimacs, write_rows  # noqa: E402


def measured(args: list[str]) -> tuple[int, float, float, str]:
    """As :func:`run`, with the child's own peak memory (``wait4``)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(
        [sys.executable, "-m", "logicforge", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert p.stderr is not None
    err = p.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, time.perf_counter() - t0, usage.ru_maxrss / 1024, err


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="lf-hostile-"))
    dimacs = write_dimacs(tmp / "dimacs")
    rows = write_rows(tmp / "rows")
    good = dimacs.pop("good")
    rc, dt, mb, _ = measured(["import", "dimacs", str(good), "--out", str(tmp / "o-base")])
    print(f"baseline: one good DIMACS file: exit {rc}, {dt:.2f} s, {mb:.0f} MB\n")
    print(f"{'file':<40} {'bytes':>8} {'exit':>4} {'s':>6} {'MB':>5}  imported  reason")
    worst_s = worst_mb = 0.0
    cases = [("dimacs", n, p) for n, p in dimacs.items()]
    cases += [("zebralogic", n, p) for n, p in rows.items()]
    for dataset, name, path in cases:
        out = tmp / f"o-{path.stem}"
        extra = [str(good)] if dataset == "dimacs" else []
        rc, dt, mb, err = measured(["import", dataset, str(path), *extra, "--out", str(out)])
        rep = json.loads((out / "import_report.json").read_text()) if out.exists() else {}
        reason = (rep.get("rejected") or [{}])[0].get("message", err.strip()[-120:])
        worst_s, worst_mb = max(worst_s, dt), max(worst_mb, mb)
        print(
            f"{name:<40} {path.stat().st_size:>8} {rc:>4} {dt:>6.2f} {mb:>5.0f}  "
            f"{rep.get('imported', '-')!s:>8}  {reason[:110]}"
        )
    codes = []
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        shared = Path(__file__).resolve().parents[2] / "shared" / "data"
        real = shared / "zeroeval" / "zebra-grid_Meta-Llama-3.1-405B-Instruct@hyperbolic.json"
        got = json.loads(real.read_text())
        got = got if isinstance(got, list) else got.get("rows", got.get("data", []))
        keep = [{k: r[k] for k in ("id", "puzzle", "solution") if k in r} for r in got]
        pq.write_table(pa.Table.from_pylist(keep), tmp / "rows.parquet")
        for i in range(20):
            rc, _, _, _ = measured(
                ["import", "zebralogic", str(tmp / "rows.parquet"), "--out", str(tmp / f"pq{i}")]
            )
            codes.append(rc)
    except ImportError:
        print("pyarrow not installed: Parquet rounds skipped")
    print(f"\nworst: {worst_s:.2f} s, {worst_mb:.0f} MB (target: under 2 s and 200 MB each)")
    if codes:
        print(f"20 Parquet imports in a row: exit codes {sorted(set(codes))}")


if __name__ == "__main__":
    main()
