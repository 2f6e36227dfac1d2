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
                    lf.run(items, f"budget:{a.budget}", out)
                    recs = [json.loads(x) for x in out.read_text().splitlines()]
                    acc = f"{sum(r['verdict']['correct'] for r in recs) / len(recs):.2f}"
                shown: dict[str, object] = {}
                for k, v in lv.params(level).items():  # nested parameters flattened
                    shown |= (
                        {f"{k}.{kk}": vv for kk, vv in v.items()} if isinstance(v, dict) else {k: v}
                    )
                print(f"  {level:>5}  {mean:>12.2f}  {acc:>10}  {shown}")


if __name__ == "__main__":
    main()
