"""ADR-paper benchmarks. Prints figures; asserts nothing.

(a) Pairs per second (UNSAT source → minimally different SAT twin, both confirmed by two solvers)
    at N = 50 and N = 75, α drawn from {3.5, …, 4.0}; source generation timed separately.
(b) Reduction + verification time at N = 75 (α = 4.0): CNF → Vertex Cover and CNF → 3D packing,
    rendering, and verifying the oracle's certificate through the parser.

Usage: python benchmarks/bench_adr.py
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import logicforge as lf
from logicforge.kinds import parse_answer, verify
from logicforge.models.baselines import OracleBaseline
from logicforge.transforms.pair import make_pairs

ALPHAS = [3.5, 3.6, 3.7, 3.8, 3.9, 4.0]


def bench_pairs() -> None:
    print("(a) pairing: UNSAT sources → SAT twins (flip → replace → delete one clause)")
    for n in (50, 75):
        t0 = time.perf_counter()
        src = lf.generate(
            "ksat/random",
            {"n_vars": n, "alpha_choices": ALPHAS, "target_label": "UNSAT", "max_attempts": 5000},
            count=70,
            seed=5,
        )
        gen = time.perf_counter() - t0
        t0 = time.perf_counter()
        pairs, skipped = make_pairs(src)
        dt = time.perf_counter() - t0
        kinds = Counter(p.metadata["edit"]["kind"] for p in pairs[1::2])
        print(
            f"    N={n}: {len(pairs) // 2} pairs in {dt:.2f} s = {len(pairs) / 2 / dt:,.1f} pairs/s "
            f"(skipped {skipped}; edits {dict(kinds)}); sources: {70 / gen:,.1f} UNSAT formulas/s"
        )


def bench_reductions() -> None:
    print("(b) reduction + rendering + verification of the oracle's certificate, N = 75, α = 4.0")
    ps = lf.generate("ksat/random", {"n_vars": 75, "alpha": 4.0}, count=50, seed=6)
    oracle = OracleBaseline()
    for kind in ("vc", "packing"):
        t0 = time.perf_counter()
        reduced = lf.reduce(ps, kind)
        t1 = time.perf_counter()
        items = lf.render(reduced, kind)
        t2 = time.perf_counter()
        texts = [
            asyncio.run(oracle.generate(lf.Prompt.of(it), lf.Sampling(), 0)).text for it in items
        ]
        t3 = time.perf_counter()
        ok = sum(
            verify(it, parse_answer(tx, it)).correct for it, tx in zip(items, texts, strict=True)
        )
        t4 = time.perf_counter()
        size = reduced[0].problem.get("num_nodes") or reduced[0].problem["layers"]
        print(
            f"    {kind:8} reduce {1000 * (t1 - t0) / 50:6.2f} ms, render {1000 * (t2 - t1) / 50:6.2f} ms, "
            f"oracle answer {1000 * (t3 - t2) / 50:6.2f} ms, parse+verify {1000 * (t4 - t3) / 50:6.2f} ms per instance "
            f"({ok}/50 verified correct; size {size})"
        )


if __name__ == "__main__":
    print(f"logicforge {lf.__version__}")
    bench_pairs()
    bench_reductions()
