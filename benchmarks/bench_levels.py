"""Difficulty levels benchmark. Prints figures; asserts nothing.

For every registered family and level 0..10: the parameters the level sets, the mean of the
measure the family names (``families/levels.py``), and the accuracy of the conflict-budgeted
reference solver ``budget:B`` (MiniSat on the problem's CNF or SAT encoding, a seeded guess when
the budget runs out; "—" for answer formats without one) over the same problems.

Usage: python benchmarks/bench_levels.py [--count 20] [--budget 20]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import logicforge as lf
from logicforge.kinds import answer_format, get_kind
from logicforge.registry import FAMILIES


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--budget", type=int, default=20)
    a = ap.parse_args()
    print(
        f"logicforge {lf.__version__}; {a.count} problems per level, reference: budget:{a.budget}"
    )
    table: dict[str, list[float | None]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for family in FAMILIES.names():
            table[family] = []
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
                    table[family].append(frac)
                else:
                    table[family].append(None)
                shown: dict[str, object] = {}
                for k, v in lv.params(level).items():  # nested parameters flattened
                    shown |= (
                        {f"{k}.{kk}": vv for kk, vv in v.items()} if isinstance(v, dict) else {k: v}
                    )
                print(f"  {level:>5}  {mean:>12.2f}  {acc:>10}  {shown}")
    calibration(table, a.budget)


def calibration(table: dict[str, list[float | None]], budget: int) -> None:
    """The cross-family view: budget:B accuracy per family and level, and the first level where
    it falls below 1/2 — the reference a calibrated level map would align (the level maps are
    not yet aligned to it; this table is the measurement that calibration starts from)."""
    print(f"\ncalibration reference: budget:{budget} accuracy by level (— : no budgeted solver)")
    print(f"  {'family':<24}" + "".join(f"{lv:>6}" for lv in range(11)) + "   first < 0.5")
    for family, accs in table.items():
        cells = "".join(f"{'—':>6}" if x is None else f"{x:>6.2f}" for x in accs)
        below = next((lv for lv, x in enumerate(accs) if x is not None and x < 0.5), None)
        known = any(x is not None for x in accs)
        print(
            f"  {family:<24}{cells}   {below if below is not None else ('never' if known else '—')}"
        )


if __name__ == "__main__":
    main()
