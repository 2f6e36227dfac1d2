"""Difficulty levels benchmark. Prints figures; asserts nothing.

For every registered family and level 0..10: the parameters the level sets, the mean of the
measure the family names (``families/levels.py``), and the accuracy of the conflict-budgeted
reference solver ``budget:B`` (MiniSat on the problem's CNF or SAT encoding, a seeded guess when
the budget runs out; "—" for answer formats without one) over the same problems.

Then the cross-family calibration (``logicforge.calibration``): the reference's ease per family
and level and the fitted map from common to native levels; ``--write PATH`` saves it (the
shipped table: ``--calibration-only --write src/logicforge/calibration_table.json``).

With ``--highest`` (alone): per family, the highest level that generates one problem within
``--limit`` seconds (10) — found by doubling the level from 10 and then bisecting, each problem
built in a process of its own that is killed at the limit — with the time it took, and the
family's measure at levels 0, 10, 20 and at that highest level (or its documented ceiling).

Usage: python benchmarks/bench_levels.py [--count 20] [--budget 20] [--calibration-count 24]
       [--calibration-only] [--write PATH] | --highest [--limit 10] [--families F ...]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import tempfile
from pathlib import Path
from typing import Any

import logicforge as lf
from logicforge.families.levels import ceiling_of
from logicforge.kinds import answer_format, get_kind
from logicforge.registry import FAMILIES


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--budget", type=int, default=20)
    ap.add_argument("--calibration-count", type=int, default=24)
    ap.add_argument("--calibration-only", action="store_true")
    ap.add_argument("--write", help="save the calibration table here (calibration_table.json)")
    ap.add_argument("--highest", action="store_true")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per problem (--highest)")
    ap.add_argument("--families", nargs="*", help="these families only (--highest)")
    a = ap.parse_args()
    if a.highest:
        highest(a.families or FAMILIES.names(), a.limit)
        return
    if a.calibration_only:
        calibration(a.calibration_count, a.write)
        return
    print(
        f"logicforge {lf.__version__}; {a.count} problems per level, reference: budget:{a.budget}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for family in FAMILIES.names():
            lv = FAMILIES.get(family).levels
            print(f"\n{family} — measure: {lv.measure}")
            print(f"  {'level':>5}  {'mean measure':>12}  {'budget acc':>10}  parameters")
            for level in range(11):
                ps = lf.generate(family, level=level, count=a.count, seed=level)
                vals = [v for v in map(lv.of, ps) if v is not None]
                mean = sum(vals) / len(vals) if vals else float("nan")
                items = lf.render(ps, get_kind(ps[0].kind).renderer)
                acc = "—"
                if answer_format(items[0]).budgeted is not None:
                    out = Path(tmp) / f"{family.replace('/', '-')}-{level}.jsonl"
                    lf.run(items, f"budget:{a.budget}", out, manifest=False)
                    recs = [json.loads(x) for x in out.read_text().splitlines()]
                    frac = sum(r["verdict"]["correct"] for r in recs) / len(recs)
                    acc = f"{frac:.2f}"
                shown: dict[str, object] = {}
                for k, v in lv.params(level).items():  # nested parameters flattened
                    shown |= (
                        {f"{k}.{kk}": vv for kk, vv in v.items()} if isinstance(v, dict) else {k: v}
                    )
                print(f"  {level:>5}  {mean:>12.2f}  {acc:>10}  {shown}")
    calibration(a.calibration_count, a.write)


def _one(family: str, level: int, out: Any) -> None:
    import time

    t = time.perf_counter()
    (p,) = lf.generate(family, level=level, count=1, seed=0)
    out.put((time.perf_counter() - t, FAMILIES.get(family).levels.of(p)))


def _timed(family: str, level: int, limit: float) -> tuple[float, float | None] | None:
    """(seconds, measure) of one problem at ``level``, or None past ``limit`` (killed)."""
    ctx = mp.get_context("fork")  # logicforge is imported already: the child starts at once
    out = ctx.Queue()
    proc = ctx.Process(target=_one, args=(family, level, out))
    proc.start()
    proc.join(limit + 2)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return None
    res = None if out.empty() else out.get()
    return res if res is not None and res[0] <= limit else None


def highest(families: list[str], limit: float) -> None:
    """The highest level each family generates within ``limit`` seconds, and its measure."""
    print(f"logicforge {lf.__version__}; one problem per level (seed 0), limit {limit:g} s each")
    print(f"  {'family':<24}{'highest':>8}{'s':>7}   measure at 0 / 10 / 20 / highest   ceiling")
    for family in families:
        lv = FAMILIES.get(family).levels
        top, why = ceiling_of(FAMILIES.get(family))
        ok, bad, probe = 10, None, 20
        best = _timed(family, 10, limit)
        while best is not None and bad is None and ok < top:
            probe = min(probe, top)
            got = _timed(family, probe, limit)
            if got is None:
                bad = probe
            else:
                ok, best, probe = probe, got, probe * 2
        while bad is not None and bad - ok > 1:
            mid = (ok + bad) // 2
            got = _timed(family, mid, limit)
            if got is None:
                bad = mid
            else:
                ok, best = mid, got
        ms = [_timed(family, lvl, limit) if lvl <= top else None for lvl in (0, 10, 20)]
        cells = " / ".join("—" if m is None else f"{m[1]:.3g}" for m in ms)
        at_best = "—" if best is None else f"{best[1]:.3g}"
        secs = "—" if best is None else f"{best[0]:.2f}"
        shown = ok if best is not None else "<10"
        ceiling = f"ceiling {top}: {why}" if ok == top and why else ""
        print(f"  {family:<24}{shown:>8}{secs:>7}   {cells} / {at_best}   {ceiling}", flush=True)
        print(f"  {'':<24}{'':>8}{'':>7}   parameters at {ok}: {lv.at(ok)}", flush=True)


def calibration(count: int, write: str | None) -> None:
    """The cross-family calibration (``logicforge.calibration``): the reference's ease per
    family and level, whether it grades the family, and the native level each common level
    maps to; with ``--write`` the table is saved where ``generate_mixture(calibrated=True)``
    reads it."""
    from logicforge import calibration as cal

    budgets = ", ".join(map(str, cal.BUDGETS))
    print(
        f"\ncalibration: ease = share of the budget ladder ({budgets} conflicts) solved, by level"
    )
    doc = cal.build(FAMILIES.names(), count=count)
    head = "".join(f"{lv:>6}" for lv in range(11))
    print(f"  {'family':<24}{head}   graded")
    for family, row in doc["families"].items():
        cells = "".join(f"{'—':>6}" if x is None else f"{x:>6.2f}" for x in row["ease"])
        print(f"  {family:<24}{cells}   {'yes' if row['graded'] else 'no (own map kept)'}")
    print("\ncalibrated map: the native level generate_mixture(calibrated=True) uses at each level")
    print(f"  {'family':<24}{head}")
    for family, row in doc["families"].items():
        if row["graded"]:
            print(f"  {family:<24}" + "".join(f"{x:>6}" for x in row["native"]))
    if write:
        Path(write).write_text(cal.dumps(doc))
        print(f"\nwritten: {write}")


if __name__ == "__main__":
    main()
