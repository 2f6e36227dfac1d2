"""DirectSolver makes PySAT's C calls without its wrappers: same answers, cores and models."""

from __future__ import annotations

import numpy as np
import pytest
from pysat.solvers import Solver

from logicforge.errors import ConfigError
from logicforge.families.zebra.generate import _preferred
from logicforge.logic.sat_direct import DirectSolver


def _random_cnf(rng: np.random.Generator, n: int, m: int) -> list[list[int]]:
    out = []
    for _ in range(m):
        vs = rng.choice(n, 3, replace=False) + 1
        out.append([int(v) if rng.random() < 0.5 else -int(v) for v in vs])
    return out


@pytest.mark.parametrize("name", ["minisat22", "glucose4"])
def test_same_answers_models_and_cores_as_pysat(name: str) -> None:
    rng = np.random.default_rng(4)
    for _ in range(30):
        n = 20
        cnf = _random_cnf(rng, n, int(rng.integers(40, 90)))
        sels = list(range(n + 1, n + 11))
        guarded = [[*c, -sels[i % 10]] for i, c in enumerate(_random_cnf(rng, n, 40))]
        with Solver(name=name, bootstrap_with=cnf) as ref, DirectSolver(name, cnf) as s:
            for c in guarded:
                ref.add_clause(c)
            s.add(guarded)
            for _ in range(5):
                k = int(rng.integers(1, 11))
                assume = sorted(rng.choice(sels, k, replace=False).tolist())
                a, b = ref.solve(assumptions=assume), s.solve(assume)
                assert a == b
                if a:
                    assert ref.get_model() == s.model()
                else:
                    assert sorted(ref.get_core() or []) == sorted(s.core())


def test_trivially_unsatisfiable_and_unknown_name() -> None:
    with DirectSolver("minisat22", [[1]]) as s:
        assert s.ok
        s.add([[-1], [2, 3]])
        assert not s.ok and not s.solve()
    with pytest.raises(ConfigError, match="solver"):
        DirectSolver("cadical195")
    s = DirectSolver("glucose4", [[1, 2]])
    s.close()
    s.close()  # closing twice is harmless


@pytest.mark.parametrize("k", [1, 5, 40, 200])
def test_preferred_is_the_full_sort_prefix_even_with_ties(k: int) -> None:
    rng = np.random.default_rng(9)
    for trial in range(40):
        keys = rng.random(1000)
        if trial % 2:  # ties inside the head, across its boundary and in the rest
            keys = np.round(keys * 50) / 50
        assert _preferred(keys, k) == np.argsort(-keys)[:k].tolist()


@pytest.mark.parametrize("name", ["minisat22", "glucose4"])
def test_shrink_core_is_an_irreducible_unsatisfiable_subset(name: str) -> None:
    """Checked with an independent solver (z3): the formula is unsatisfiable under the shrunk
    set and satisfiable with any one of it left out."""
    from . import xsat

    rng = np.random.default_rng(9)
    seen = 0
    for _ in range(40):
        n = 12
        cnf = _random_cnf(rng, n, 30)
        sels = list(range(n + 1, n + 31))
        guarded = [[*c, -sels[i]] for i, c in enumerate(_random_cnf(rng, n, 30))]
        with DirectSolver(name, cnf + guarded) as s:
            if s.solve(sels):
                continue
            core = s.shrink_core()
        seen += 1
        assert core == sorted(core) and set(core) <= set(sels)
        assert xsat.solve(cnf + guarded + [[x] for x in core]) == "UNSAT"
        for x in core:
            rest = [[y] for y in core if y != x]
            assert xsat.solve(cnf + guarded + rest) != "UNSAT", (core, x)
    assert seen >= 10
