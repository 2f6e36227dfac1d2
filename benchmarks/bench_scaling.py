"""Generation scaling across local processes. Prints figures; asserts nothing.

Instances per second for random 3-SAT (N = 75, α = 4.26, labelled by the solver) and 6×6 zebra
puzzles (certified unique, irredundant, re-checked) with 1 and 2 worker processes, and the speed-up:
problems as JSON lines (``generate_lines``: what ``problems.jsonl`` holds, written by the workers),
and beside it as Python objects rebuilt in the parent (``generate_problems``).
Every run also checks that the two outputs are identical (same seed ⇒ same problems).

Usage: python benchmarks/bench_scaling.py
"""

from __future__ import annotations

import os
import statistics
import time

from logicforge.families.base import generate_lines, generate_problems

REPEAT = 3  # runs of each configuration; the median is printed
CASES = [
    ("ksat/random", {"n_vars": 75, "alpha": 4.26}, 4000),
    ("zebra", {"n_houses": 6, "n_attributes": 6}, 2000),
]


def timed(
    family: str, params: dict, count: int, workers: int, executor: str = "local"
) -> tuple[float, list[str]]:
    t = time.perf_counter()
    out = list(generate_lines(family, params, count, 7, workers, executor=executor))
    return time.perf_counter() - t, out


def timed_objects(family: str, params: dict, count: int, workers: int) -> float:
    """The same problems as Python objects in this process (the parent rebuilds each)."""
    t = time.perf_counter()
    for _ in generate_problems(family, params, count, 7, workers):
        pass
    return time.perf_counter() - t


def main() -> None:
    print(
        f"cores: {os.cpu_count()}; the process pool's start-up (fork) is included; the Ray cluster "
        "(2 CPUs) is started after the local runs (its driver threads would slow them) and before "
        f"its own timing, its workers warmed by a first small run; median of {REPEAT} runs each"
    )
    lines, baselines = [], []
    for family, params, count in CASES:
        timed(family, params, 64, 1)  # warm the per-size caches of this process
        ones, twos = [], []
        for _ in range(REPEAT):  # interleaved, the median of each: a shared machine drifts
            t, a = timed(family, params, count, 1)
            ones.append(t)
            t, b = timed(family, params, count, 2)
            twos.append(t)
            assert a == b, "workers must not change the output"
        t1, t2 = statistics.median(ones), statistics.median(twos)
        line = (
            f"    {family:12s} {count} instances: 1 worker {count / t1:8,.0f}/s, "
            f"2 workers {count / t2:8,.0f}/s ({t1 / t2:.2f}×, target ≥ 1.8×)"
        )
        to = timed_objects(family, params, count, 2)
        line += f"; as objects in the parent, 2 workers {count / to:8,.0f}/s ({t1 / to:.2f}×)"
        lines.append(line)
        baselines.append((t1, a))
    try:
        import ray

        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except ImportError:
        print("\n".join(lines) + "\n    (ray not installed: no Ray column)")
        return
    for k, (family, params, count) in enumerate(CASES):
        t1, a = baselines[k]
        timed(family, params, 256, 1, "ray")  # warm the Ray workers' imports and caches
        rays = []
        for _ in range(REPEAT):
            t, c = timed(family, params, count, 1, "ray")
            rays.append(t)
            assert a == c, "Ray must not change the output"
        t3 = statistics.median(rays)
        lines[k] += f", Ray 2 CPUs {count / t3:8,.0f}/s ({t1 / t3:.2f}×, target ≥ 1.8×)"
    print("\n".join(lines))
    ray.shutdown()


if __name__ == "__main__":
    main()
