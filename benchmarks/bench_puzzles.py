"""Solution-puzzle generation speed, beside reasoning-gym's same tasks in the same run. Prints
figures; asserts nothing.

For every solution-puzzle family (sudoku, futoshiki, binairo, lightsout, knights, xorsat, … —
every family that names an example): ms per certified-unique puzzle at levels 0, 5 and 10. Then, where reasoning-gym has the same task, both
generators on matched settings, as the median of interleaved rounds (so a busy machine slows
both sides alike): logicforge's puzzle is proved unique (sudoku 9×9 and futoshiki by two
solvers, 4×4 sudoku and knights by enumerating every grid / assignment at once), reasoning-gym's
as its own generator does it (its sudoku and futoshiki by backtracking; knights and knaves by
enumeration).

Usage: python benchmarks/bench_puzzles.py [--count 40] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import logicforge as lf

# every solution-puzzle family (those that name an example)
FAMILIES = tuple(
    n for n in lf.FAMILIES.names() if getattr(lf.FAMILIES.get(n), "example", None) is not None
)
TARGET = 10.0  # × reasoning-gym, the target


def per_item(fn: Callable[[int], object], n: int) -> float:
    t0 = time.perf_counter()
    fn(n)
    return (time.perf_counter() - t0) / n * 1000


def ours(family: str, params: dict) -> Callable[[int], object]:
    return lambda n: lf.generate(family, params, count=n, seed=1)


def theirs(name: str, cfg: dict) -> Callable[[int], object] | None:
    try:
        import reasoning_gym as rg
    except ImportError:
        return None

    def go(n: int) -> object:
        ds = rg.create_dataset(name, size=n, seed=1, **cfg)
        return [ds[i] for i in range(n)]

    return go


PAIRS = [  # (task, logicforge family and params, reasoning-gym dataset and config)
    ("sudoku 9×9, 40 empty", "sudoku", {"size": 9, "n_givens": 41}, "sudoku", {"min_empty": 40, "max_empty": 40}),
    ("sudoku 4×4", "sudoku", {"size": 4, "n_givens": 6}, "mini_sudoku", {"min_empty": 10, "max_empty": 10}),
    ("futoshiki 5×5", "futoshiki", {"size": 5}, "futoshiki", {"min_board_size": 5, "max_board_size": 5}),
    ("knights & knaves, 4 people", "knights", {"n_people": 4}, "knights_knaves", {"n_people": 4}),
]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print(
        f"logicforge {lf.__version__}; {a.count} puzzles per measurement, median of {a.rounds} rounds"
    )
    print(f"\n{'family':<13} {'level 0':>10} {'level 5':>10} {'level 10':>10}   (ms per puzzle)")
    for fam in FAMILIES:
        cells = []
        for level in (0, 5, 10):
            n = max(4, a.count // (4 if level == 10 else 1))
            t = [
                per_item(lambda k, lv=level, f=fam: lf.generate(f, level=lv, count=k, seed=2), n)
                for _ in range(a.rounds)
            ]
            cells.append(f"{statistics.median(t):10.2f}")
        print(f"{fam:<13} {' '.join(cells)}")
    print(f"\n{'task':<28} {'logicforge':>11} {'reasoning-gym':>14} {'ratio':>8} {'target':>8}")
    for task, fam, params, rg_name, cfg in PAIRS:
        mine, other = ours(fam, params), theirs(rg_name, cfg)
        if other is None:
            print(f"{task:<28} reasoning-gym is not installed (pip install reasoning-gym)")
            continue
        mine(2), other(2)  # imports and caches warm on both sides
        tm, to = [], []
        for _ in range(a.rounds):  # interleaved
            tm.append(per_item(mine, a.count))
            to.append(per_item(other, a.count))
        m, o = statistics.median(tm), statistics.median(to)
        ok = "✅" if o / m >= TARGET else "❌"
        print(f"{task:<28} {m:9.2f}ms {o:12.2f}ms {o / m:7.1f}× {TARGET:>6.0f}× {ok}")


if __name__ == "__main__":
    main()
