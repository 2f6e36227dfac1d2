"""2-SAT benchmarks. Prints figures and ratios; asserts nothing.

(a) Exact 2-SAT oracle (implication graph + SCC + verified model or two-path certificate) on
    random 2-CNFs with 10⁵ and 10⁶ clauses, next to PySAT's CaDiCaL 1.9.5 on the same formulas.
(b) Generation rate (labelled, self-checked instances per second) of every 2-SAT family at |C| = 100.

Usage: python benchmarks/bench_twosat.py
"""

from __future__ import annotations

import time

import numpy as np
from pysat.solvers import Solver

import logicforge as lf
from logicforge.logic.cnf import CNF
from logicforge.logic.twosat import solve_2sat


def bench_oracle() -> None:
    rng = np.random.default_rng(0)
    print("(a) exact 2-SAT oracle vs CaDiCaL (same formulas, clauses already in memory)")
    for m in (100_000, 1_000_000):
        for ratio, tag in ((0.45, "UNSAT-leaning α≈2.2"), (2.0, "SAT-leaning α=0.5")):
            n = int(m * ratio)
            lits = rng.integers(1, n + 1, (m, 2)) * np.where(rng.random((m, 2)) < 0.5, -1, 1)
            f = CNF.trusted(tuple(map(tuple, lits.tolist())), n)
            t0 = time.perf_counter()
            r = solve_2sat(f)
            ours = time.perf_counter() - t0
            t0 = time.perf_counter()
            with Solver(name="cadical195", bootstrap_with=f.clauses) as s:
                cdcl = "SAT" if s.solve() else "UNSAT"
            theirs = time.perf_counter() - t0
            assert cdcl == r.label
            extra = (
                f", certificate {len(r.path_pos_to_neg)}+{len(r.path_neg_to_pos)} clauses"
                if r.label == "UNSAT"
                else ""
            )
            print(
                f"    {m:>9,} clauses, {n:>9,} vars ({tag}): {r.label:5} in {ours:.3f} s (model/certificate included{extra}); "
                f"CaDiCaL {theirs:.3f} s; ratio {theirs / ours:.1f}×"
            )


def bench_generation() -> None:
    print(
        "(b) generation at |C| = 100 (labelled by the SCC oracle, construction asserted, backbone and metadata)"
    )
    for fam in [
        "2sat/implication-cycle",
        "2sat/equivalence-core",
        "2sat/backbone",
        "2sat/mono-bridge",
    ]:
        lf.generate(fam, {"n_clauses": 100}, count=1, seed=99)  # warm caches
        t0 = time.perf_counter()
        lf.generate(fam, {"n_clauses": 100}, count=200, seed=0)
        dt = time.perf_counter() - t0
        print(f"    {fam:24} {200 / dt:8.0f} instances/s")
    t0 = time.perf_counter()
    lf.generate(
        "2sat/symmetry",
        {"base_family": "2sat/mono-bridge", "base_params": {"n_clauses": 50}},
        count=200,
        seed=0,
    )
    dt = time.perf_counter() - t0
    print(f"    {'2sat/symmetry (2×50)':24} {200 / dt:8.0f} instances/s")


if __name__ == "__main__":
    print(f"logicforge {lf.__version__}")
    bench_oracle()
    bench_generation()
