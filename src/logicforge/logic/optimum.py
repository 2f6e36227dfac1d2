"""Clause subsets and optima: which subsets of a formula are satisfiable, MaxSAT, MUS and MCS.

The checkers of the certificate answer formats (:mod:`logicforge.kinds.certificates`) stand on
these few functions:

* :class:`Subsets` — satisfiability of any subset of one clause list, incrementally (one selector
  variable per clause, MiniSat 2.2 under assumptions);
* :func:`maxsat` — the most clauses one assignment satisfies (RC2, PySAT's core-guided MaxSAT
  solver), with the assignment; the count is re-checked on the model, not taken from RC2;
* :func:`shrink_unsat` / :func:`shrink_correction` — a minimal unsatisfiable subset inside an
  unsatisfiable set, and a minimal correction set inside a correction set, by deletion.

A MUS ``S``: the clauses of ``S`` cannot all hold, and without any one of them they can
(unsatisfiability is preserved by supersets, so one deletion per member proves minimality).
An MCS ``S``: the other clauses can all hold, and adding back any one member of ``S`` makes them
unsatisfiable (likewise one addition per member proves minimality).

Example:
    >>> f = [[1], [-1], [2], [-2, 1]]
    >>> with Subsets(f, 2) as s:
    ...     s.sat([0, 2, 3]), s.is_mus([0, 1]), s.is_mcs([1])
    (True, True, True)
    >>> maxsat(f, 2)[0]
    3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ConfigError, certify


class Subsets:
    """Satisfiability of subsets of ``clauses`` (indices from 0), one solver for all the calls."""

    def __init__(self, clauses: Sequence[Sequence[int]], n_vars: int) -> None:
        from pysat.solvers import Solver

        self.m = len(clauses)
        self._sel0 = max([n_vars, *(abs(x) for c in clauses for x in c)])
        self._s: Any = Solver(name="minisat22")
        for i, c in enumerate(clauses):
            self._s.add_clause([*c, -(self._sel0 + 1 + i)])

    def sat(self, idx: Iterable[int]) -> bool:
        """True iff the clauses ``idx`` can all hold together."""
        chosen = sorted(set(idx))
        if chosen and not (chosen[0] >= 0 and chosen[-1] < self.m):
            raise ConfigError("clause index", chosen, f"must lie in 0..{self.m - 1}")
        return bool(self._s.solve(assumptions=[self._sel0 + 1 + i for i in chosen]))

    def is_mus(self, idx: Iterable[int]) -> bool:
        s = sorted(set(idx))
        return not self.sat(s) and all(self.sat([j for j in s if j != i]) for i in s)

    def is_mcs(self, idx: Iterable[int]) -> bool:
        s = set(idx)
        rest = [j for j in range(self.m) if j not in s]
        return self.sat(rest) and all(not self.sat([*rest, i]) for i in sorted(s))

    def close(self) -> None:
        self._s.delete()

    def __enter__(self) -> Subsets:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def shrink_unsat(s: Subsets, idx: Iterable[int]) -> list[int]:
    """A minimal unsatisfiable subset of the unsatisfiable set ``idx``, by deletion (ascending)."""
    keep = sorted(set(idx))
    certify(not s.sat(keep), "shrink_unsat needs an unsatisfiable set")
    for i in list(keep):
        rest = [j for j in keep if j != i]
        if not s.sat(rest):
            keep = rest
    return keep


def shrink_correction(s: Subsets, idx: Iterable[int]) -> list[int]:
    """A minimal correction set inside the correction set ``idx`` (removing ``idx`` leaves a
    satisfiable formula): each member that can be put back without losing satisfiability is."""
    drop = sorted(set(idx))
    kept = [j for j in range(s.m) if j not in set(drop)]
    certify(s.sat(kept), "shrink_correction needs a correction set")
    for i in list(drop):
        if s.sat([*kept, i]):
            kept.append(i)
            drop.remove(i)
    return drop


def satisfied(clauses: Sequence[Sequence[int]], values: dict[int, bool]) -> int:
    """How many clauses ``values`` satisfies (a variable without a value satisfies nothing)."""
    return sum(any(values.get(abs(x)) is (x > 0) for x in c) for c in clauses)


def maxsat(clauses: Sequence[Sequence[int]], n_vars: int) -> tuple[int, dict[int, bool]]:
    """The MaxSAT optimum of ``clauses`` (each clause weight 1) and an assignment reaching it.

    Example:
        >>> maxsat([[1], [-1], [1, 2]], 2)
        (2, {1: True, 2: False})
    """
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    w = WCNF()
    for c in clauses:
        w.append(list(c), weight=1)
    with RC2(w) as rc2:
        model = rc2.compute()
        certify(model is not None, "RC2 found no assignment of a formula without hard clauses")
        cost = int(rc2.cost)
    val = {abs(x): x > 0 for x in model}
    values = {v: val.get(v, False) for v in range(1, n_vars + 1)}
    opt = satisfied(clauses, values)
    certify(opt == len(clauses) - cost, f"RC2's model satisfies {opt}, its cost says otherwise")
    return opt, values


def minimum_correction_set(clauses: Sequence[Sequence[int]], n_vars: int) -> list[int]:
    """A smallest correction set (the clauses a MaxSAT optimum leaves false; minimal too)."""
    _, values = maxsat(clauses, n_vars)
    return [i for i, c in enumerate(clauses) if not any(values.get(abs(x)) is (x > 0) for x in c)]


def expected_random(clauses: Sequence[Sequence[int]]) -> float:
    """The clauses a uniformly random assignment satisfies on average: Σ 1 − 2^−|c| over
    clauses with distinct variables (the floor the MaxSAT partial credit is measured from)."""
    return sum(1.0 - 0.5 ** len({abs(x) for x in c}) for c in clauses if c)


def mus(clauses: Sequence[Sequence[int]], n_vars: int) -> list[int]:
    """A minimal unsatisfiable subset of an unsatisfiable formula (indices from 0)."""
    from .sat import minimal_unsat_core

    core = minimal_unsat_core([list(c) for c in clauses], n_vars)
    with Subsets(clauses, n_vars) as s:
        certify(s.is_mus(core), "the solver's core is not a minimal unsatisfiable subset")
    return core


__all__ = [
    "Subsets",
    "expected_random",
    "maxsat",
    "minimum_correction_set",
    "mus",
    "satisfied",
    "shrink_correction",
    "shrink_unsat",
]
