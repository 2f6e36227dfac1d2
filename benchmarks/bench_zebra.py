"""ZebraLogic generation benchmark. Prints figures; asserts nothing.

Median milliseconds per certified, irredundant puzzle with all nine clue types, one process, at
4×4 … 10×10: generation alone and including the independent MiniSat re-check. The per-size pool
(candidate clues and their clauses) is built once per process; its build time is reported
separately as start-up, like the interpreter start-up.

Usage: python benchmarks/bench_zebra.py
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import logicforge as lf
from logicforge.families.zebra import generate as zg
from logicforge.families.zebra.encoding import size_pool

TARGETS = {6: (2, 2.5), 8: (8, 10), 10: (50, 50)}  # ms per certified irredundant puzzle


def main() -> None:
    print(
        f"logicforge {lf.__version__}; peers, measured once on another 2-core "
        "machine (not re-run here): the ZebraLogic generator 6×6 ≈ 3.3 s, "
        "a packaged alternative 6×6 ≈ 2 s, 7×7 ≈ 10 s"
    )
    fam = zg.ZebraFamily()
    for n, count in ((4, 100), (5, 100), (6, 100), (7, 50), (8, 30), (10, 5)):
        t0 = time.perf_counter()
        size_pool(n, n, zg.ALL_TYPES)
        startup = time.perf_counter() - t0
        p = zg.ZebraParams(n_houses=n, n_attributes=n)
        gen, full = [], []
        real_recheck = zg.recheck
        spent = [0.0]

        def timed(*args: object, _real=real_recheck, _spent=spent) -> None:  # noqa: ANN001
            t = time.perf_counter()
            _real(*args)  # type: ignore[arg-type]
            _spent[0] += time.perf_counter() - t

        zg.recheck = timed  # type: ignore[assignment]
        for i in range(count):
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(1, spawn_key=(0, i))))
            spent[0] = 0.0
            t0 = time.perf_counter()
            fam.generate(p, rng)
            total = time.perf_counter() - t0
            full.append(total)
            gen.append(total - spent[0])
        zg.recheck = real_recheck
        g, f = 1000 * statistics.median(gen), 1000 * statistics.median(full)
        extra = f"; vs the ZebraLogic generator's 3.3 s: {3300 / f:,.0f}×" if n == 6 else ""
        goal = TARGETS.get(n)
        if goal:
            extra += f"  (target ≤ {goal[0]:g} ms, ≤ {goal[1]:g} ms with re-check)"
        print(
            f"    {n}×{n}: {g:7.2f} ms generation, {f:7.2f} ms with re-check (median of {count}); "
            f"pool start-up {1000 * startup:.0f} ms{extra}"
        )


if __name__ == "__main__":
    main()
