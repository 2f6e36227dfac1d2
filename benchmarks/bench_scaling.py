"""Generation scaling across local processes. Prints figures; asserts nothing.

Instances per second for random 3-SAT (N = 75, α = 4.26, labelled by the solver) and 6×6 zebra
puzzles (certified unique, irredundant, re-checked) with 1 and 2 worker processes, and the speed-up.
Every run also checks that the two outputs are identical (same seed ⇒ same problems).

Usage: python benchmarks/bench_scaling.py
"""

from __future__ import annotations

import os
import time

from logicforge.families.base import generate_problems

CASES = [
    ("ksat/random", {"n_vars": 75, "alpha": 4.26}, 4000),
    ("zebra", {"n_houses": 6, "n_attributes": 6}, 2000),
]


def timed(family: str, params: dict, count: int, workers: int) -> tuple[float, list[str]]:
    t = time.perf_counter()
    out = [p.problem_id + p.label for p in generate_problems(family, params, count, 7, workers)]
    return time.perf_counter() - t, out


def main() -> None:
    print(f"cores: {os.cpu_count()}; start-up of the pool (fork) included in the 2-worker figure")
    for family, params, count in CASES:
        timed(family, params, 64, 1)  # warm the per-size caches of this process
        t1, a = timed(family, params, count, 1)
        t2, b = timed(family, params, count, 2)
        assert a == b, "workers must not change the output"
        print(
            f"    {family:12s} {count} instances: 1 worker {count / t1:8,.0f}/s, "
            f"2 workers {count / t2:8,.0f}/s, speed-up {t1 / t2:.2f}× (target ≥ 1.8×)"
        )


if __name__ == "__main__":
    main()
