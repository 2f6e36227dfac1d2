from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import logicforge as lf
from logicforge import CNF, count_models, equivalent, read_dimacs, solve, unsat_core
from logicforge.families.ksat import KSATParams, random_ksat
from logicforge.logic.sat import entails

from . import xsat


def brute_force_models(f: CNF) -> int:
    """Count models by evaluating all 2^n assignments at once (independent of any SAT solver)."""
    n = f.num_vars
    bits = ((np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1).astype(bool)
    ok = np.ones(2**n, dtype=bool)
    for c in f.clauses:
        sat = np.zeros(2**n, dtype=bool)
        for lit in c:
            col = bits[:, abs(lit) - 1]
            sat |= col if lit > 0 else ~col
        ok &= sat
    return int(ok.sum())


def test_labels_cross_checked_on_1200_instances() -> None:
    rng = np.random.default_rng(2024)
    checked = 0
    for _ in range(700):  # brute force, N ≤ 12
        n = int(rng.integers(3, 13))
        p = KSATParams(n_vars=n, k=int(rng.integers(2, 4)), alpha=float(rng.uniform(1.0, 7.0)))
        f = random_ksat(p, rng)
        s = solve(f, stats=True)
        assert (s.label == "SAT") == (brute_force_models(f) > 0)
        if s.label == "SAT":
            assert f.evaluate(s.assignment or {})
        checked += 1
    for _ in range(500):  # second solver, N up to 80
        n = int(rng.integers(13, 81))
        f = random_ksat(KSATParams(n_vars=n, alpha=float(rng.uniform(3.5, 5.0))), rng)
        s = solve(f)
        other = xsat.solve([list(c) for c in f.clauses])
        assert (s.label == "SAT") == (other != "UNSAT")
        checked += 1
    assert checked >= 1000


def _files(shared: Path, sub: str) -> list[Path]:
    fs = sorted((shared / "satlib" / sub).glob("*.cnf"))
    assert fs, f"no files in {sub}"
    return fs


@pytest.mark.parametrize(
    "sub, label",
    [("uf20-91", "SAT"), ("uf50-218", "SAT"), ("uuf50-218", "UNSAT"), ("flat30-60", "SAT")],
)
def test_satlib_files_parse_and_label(shared_data: Path, sub: str, label: str) -> None:
    files = _files(shared_data, sub)
    for p in files:
        f = read_dimacs(p)
        s = solve(f)
        assert s.label == label, p.name
        if label == "SAT":
            assert f.evaluate(s.assignment or {})
    assert len(files) >= 100


def test_stats_use_minisat() -> None:
    f = lf.generate("ksat/random", {"n_vars": 30, "alpha": 4.26}, count=1, seed=1)[0]
    s = solve(CNF.from_json(f.problem), stats=True)
    assert s.solver == "minisat22" and {"decisions", "conflicts", "propagations"} <= s.stats.keys()


def test_unsat_core_is_unsat_subset() -> None:
    rng = np.random.default_rng(5)
    found = 0
    for _ in range(40):
        f = random_ksat(KSATParams(n_vars=12, alpha=7.0), rng)
        core = unsat_core(f)
        if core is None:
            assert solve(f).label == "SAT"
            continue
        sub = CNF([f.clauses[i] for i in core], f.num_vars)
        assert solve(sub).label == "UNSAT" and brute_force_models(sub) == 0
        found += 1
    assert found > 20


def test_count_models_matches_brute_force() -> None:
    rng = np.random.default_rng(9)
    for _ in range(60):
        f = random_ksat(KSATParams(n_vars=8, alpha=float(rng.uniform(0.5, 5))), rng)
        n, exact = count_models(f)
        assert exact and n == brute_force_models(f)
    n, exact = count_models(CNF([], 10), limit=100)
    assert (n, exact) == (100, False)


def test_equivalence() -> None:
    a = CNF([[1, 2], [1, -2]])
    assert equivalent(a, CNF([[1]], 2))
    assert not equivalent(a, CNF([[1, 2]]))
    assert entails(a, CNF([[1, 2]]))
    # equivalence agrees with brute force on random pairs
    rng = np.random.default_rng(4)
    for _ in range(30):
        f = random_ksat(KSATParams(n_vars=5, alpha=2.0), rng)
        g = CNF(f.clauses[:-1], f.num_vars)
        same = all(
            f.evaluate(dict(enumerate(bits, 1))) == g.evaluate(dict(enumerate(bits, 1)))
            for bits in itertools.product([False, True], repeat=5)
        )
        assert equivalent(f, g) == same


def test_timeout_returns_unknown() -> None:
    f = random_ksat(KSATParams(n_vars=400, alpha=4.26), np.random.default_rng(0))
    s = solve(f, timeout=0.2)
    assert s.label in ("UNKNOWN", "SAT", "UNSAT")  # never hangs; a hard instance gives UNKNOWN
    assert s.label == "UNKNOWN" or s.time_s < 0.2 + 5


def test_bad_solver_name() -> None:
    with pytest.raises(lf.ConfigError, match="solver"):
        solve(CNF([[1]]), solver="nosuch")
    with pytest.raises(lf.ConfigError, match="interrupted"):
        solve(CNF([[1]]), solver="cadical195", timeout=1.0)
