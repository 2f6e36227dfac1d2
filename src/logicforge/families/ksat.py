"""Random k-SAT (``ksat/random``): the uniform fixed-width model of the phase-transition studies.

Each clause picks ``k`` distinct variables uniformly from ``n_vars`` and each literal's polarity by
a fair coin. The clause count is ``n_clauses`` or ``round(alpha * n_vars)``. With
``distinct_clauses`` no clause (as a set of literals) repeats. With ``target_label`` instances are
redrawn from the same stream until the MiniSat label matches — e.g. the low-α UNSAT sweep of the
ADR paper — for at most ``max_attempts`` draws, after which :class:`GenerationError` says so.

Every instance is labelled by MiniSat 2.2 with statistics (decisions, conflicts, propagations).

Example:
    >>> import numpy as np
    >>> cnf = random_ksat(KSATParams(n_vars=10, alpha=4.0), np.random.default_rng(0))
    >>> cnf.num_vars, cnf.num_clauses, {len(c) for c in cnf.clauses}
    (10, 40, {3})
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..errors import ConfigError, GenerationError
from ..logic.cnf import CNF
from ..logic.sat import solve
from ..registry import FAMILIES

NAME = "ksat/random"
KIND = "cnf"


@dataclass(frozen=True)
class KSATParams:
    """Parameters of random k-SAT; give exactly one of ``n_clauses`` and ``alpha``."""

    n_vars: int = 20
    k: int = 3
    n_clauses: int | None = None
    alpha: float | None = None
    distinct_clauses: bool = False
    target_label: Literal["SAT", "UNSAT"] | None = None
    max_attempts: int = 1000

    def __post_init__(self) -> None:
        if not isinstance(self.n_vars, int) or self.n_vars < 1:
            raise ConfigError("n_vars", self.n_vars, "must be an integer ≥ 1")
        if not isinstance(self.k, int) or not 1 <= self.k <= self.n_vars:
            raise ConfigError("k", self.k, f"must be an integer in 1..n_vars ({self.n_vars})")
        if (self.n_clauses is None) == (self.alpha is None):
            raise ConfigError("alpha", self.alpha, "give exactly one of n_clauses and alpha")
        if self.n_clauses is not None and (
            not isinstance(self.n_clauses, int) or self.n_clauses < 0
        ):
            raise ConfigError("n_clauses", self.n_clauses, "must be an integer ≥ 0")
        if self.alpha is not None and (
            not isinstance(self.alpha, int | float) or not 0 <= self.alpha <= 1e4
        ):
            raise ConfigError("alpha", self.alpha, "must be a number in [0, 10000]")
        if self.n_vars > 10_000_000:
            raise ConfigError("n_vars", self.n_vars, "must be ≤ 10,000,000")
        if self.target_label not in (None, "SAT", "UNSAT"):
            raise ConfigError("target_label", self.target_label, "must be 'SAT', 'UNSAT' or null")
        if not isinstance(self.max_attempts, int) or self.max_attempts < 1:
            raise ConfigError("max_attempts", self.max_attempts, "must be an integer ≥ 1")
        if self.distinct_clauses:
            possible = math.comb(self.n_vars, self.k) * 2**self.k
            if self.num_clauses > possible:
                raise ConfigError(
                    "n_clauses",
                    self.num_clauses,
                    f"only {possible} distinct {self.k}-clauses exist over {self.n_vars} variables",
                )

    @property
    def num_clauses(self) -> int:
        if self.n_clauses is not None:
            return self.n_clauses
        assert self.alpha is not None
        return int(round(self.alpha * self.n_vars))


def _draw_vars(rng: np.random.Generator, m: int, n: int, k: int) -> np.ndarray:
    """``m`` rows of ``k`` distinct variables in 1..n, uniform over ordered k-tuples."""
    if k > n // 2:  # dense: a permutation prefix per row
        return np.argsort(rng.random((m, n)), axis=1)[:, :k] + 1
    out = rng.integers(1, n + 1, size=(m, k))
    while True:
        s = np.sort(out, axis=1)
        bad = np.nonzero((s[:, 1:] == s[:, :-1]).any(axis=1))[0] if k > 1 else np.empty(0, int)
        if bad.size == 0:
            return out
        out[bad] = rng.integers(1, n + 1, size=(bad.size, k))


def random_ksat(p: KSATParams, rng: np.random.Generator) -> CNF:
    """Draw one formula (unlabelled) from the random k-SAT model."""
    m, n, k = p.num_clauses, p.n_vars, p.k
    lits = _draw_vars(rng, m, n, k) * np.where(rng.random((m, k)) < 0.5, -1, 1)
    clauses = [tuple(int(x) for x in row) for row in lits]
    if p.distinct_clauses:
        seen: set[frozenset[int]] = set()
        for i in range(m):
            while frozenset(clauses[i]) in seen:
                row = _draw_vars(rng, 1, n, k)[0] * np.where(rng.random(k) < 0.5, -1, 1)
                clauses[i] = tuple(int(x) for x in row)
            seen.add(frozenset(clauses[i]))
    cnf = CNF(clauses, n)
    assert cnf.num_clauses == m and all(len(set(map(abs, c))) == k for c in cnf.clauses)
    return cnf


class KSATFamily:
    name = NAME
    kind = KIND
    Params = KSATParams

    def generate(
        self, p: KSATParams, rng: np.random.Generator
    ) -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]:
        for attempt in range(1, p.max_attempts + 1):
            cnf = random_ksat(p, rng)
            sol = solve(cnf, stats=True)
            if p.target_label is None or sol.label == p.target_label:
                if sol.model is not None:  # the oracle's own witness must check out
                    assert cnf.evaluate(sol.assignment or {}), (
                        "solver model does not satisfy the formula"
                    )
                meta = {
                    "n_vars": cnf.num_vars,
                    "n_clauses": cnf.num_clauses,
                    "k": p.k,
                    "alpha": round(cnf.alpha, 6),
                    "attempts": attempt,
                    "decisions": sol.stats.get("decisions"),
                    "conflicts": sol.stats.get("conflicts"),
                }
                return cnf.to_json(), sol.label, sol.to_json(), meta
        raise GenerationError(
            f"{NAME}: no {p.target_label} instance in {p.max_attempts} draws at n_vars={p.n_vars}, "
            f"n_clauses={p.num_clauses}; raise max_attempts or move alpha toward the {p.target_label} side"
        )


FAMILIES.register(NAME, KSATFamily())
