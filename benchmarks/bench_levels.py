"""Difficulty levels benchmark. Prints figures; asserts nothing.

For every registered family and level 0..10: the parameters the level sets, the mean of the
measure the family names (``families/levels.py``), and the accuracy of the conflict-budgeted
reference solver ``budget:B`` (MiniSat on the problem's CNF or SAT encoding, a seeded guess when
the budget runs out; "—" for answer formats without one) over the same problems.

Then the cross-family calibration (``logicforge.calibration``): the reference's ease per family
and level and the fitted map from common to native levels; ``--write PATH`` saves it (the
shipped table: ``--calibration-only --write src/logicforge/calibration_table.json``).

Usage: python benchmarks/bench_levels.py [--count 20] [--budget 20] [--calibration-count 24]
       [--calibration-only] [--write PATH]
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
    ap.add_argument("--calibration-count", type=int, default=24)
    ap.add_argument("--calibration-only", action="store_true")
    ap.add_argument("--write", help="save the calibration table here (calibration_table.json)")
    a = ap.parse_args()
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
