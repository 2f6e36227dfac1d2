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

import itertools
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..errors import CertificationError, ConfigError, GenerationError, certify
from ..logic.cnf import CNF
from ..logic.sat import solve
from ..registry import FAMILIES
from .base import Built, DeclaredFamily
from .knobs import TOL, Knob, exact, ratio
from .levels import Levels, conflicts

NAME = "ksat/random"
KIND = "cnf"


THRESHOLDS = {2: 1.0, 3: 4.26, 4: 9.93, 5: 21.12, 6: 43.37, 7: 87.79}
"""The clause/variable ratio at which random k-SAT turns from mostly SAT to mostly UNSAT
(k = 2 exactly; k ≥ 3 the one-step replica-symmetry-breaking estimates of Mertens, Mézard and
Zecchina 2006): ``alpha``'s default when no clause count is given."""


@dataclass(frozen=True)
class KSATParams:
    """Parameters of random k-SAT; give at most one of ``n_clauses``, ``alpha`` and
    ``alpha_choices``. With none, ``alpha`` is k's satisfiability threshold (4.26 for 3-SAT,
    :data:`THRESHOLDS`), so the family's own defaults generate the phase-transition point."""

    n_vars: int = 20
    k: int = 3
    n_clauses: int | None = None
    alpha: float | None = None
    alpha_choices: tuple[float, ...] | None = None
    distinct_clauses: bool = False
    target_label: Literal["SAT", "UNSAT"] | None = None
    max_attempts: int = 1000
    solver_timeout: float | None = None  # seconds per label; past it the label is UNKNOWN

    def __post_init__(self) -> None:
        if self.solver_timeout is not None and (
            not isinstance(self.solver_timeout, int | float) or not self.solver_timeout > 0
        ):
            raise ConfigError("solver_timeout", self.solver_timeout, "must be seconds > 0 or null")
        if not isinstance(self.n_vars, int) or self.n_vars < 1:
            raise ConfigError("n_vars", self.n_vars, "must be an integer ≥ 1")
        if not isinstance(self.k, int) or not 1 <= self.k <= self.n_vars:
            raise ConfigError("k", self.k, f"must be an integer in 1..n_vars ({self.n_vars})")
        if self.alpha_choices is not None:
            choices = tuple(self.alpha_choices)
            if not choices or not all(
                isinstance(a, int | float) and 0 <= a <= 1e4 for a in choices
            ):
                raise ConfigError(
                    "alpha_choices",
                    self.alpha_choices,
                    "must be a non-empty list of numbers in [0, 10000]",
                )
            if self.alpha is not None or self.n_clauses is not None:
                raise ConfigError(
                    "alpha_choices",
                    self.alpha_choices,
                    "give alpha_choices instead of alpha / n_clauses",
                )
            object.__setattr__(self, "alpha_choices", choices)
        elif self.n_clauses is not None and self.alpha is not None:
            raise ConfigError(
                "alpha", self.alpha, "give one of n_clauses, alpha and alpha_choices, not both"
            )
        elif self.n_clauses is None and self.alpha is None:
            if self.k not in THRESHOLDS:
                raise ConfigError(
                    "alpha", None, f"give n_clauses or alpha (no threshold is known for k={self.k})"
                )
            object.__setattr__(self, "alpha", THRESHOLDS[self.k])
        if self.n_clauses is not None and (
            not isinstance(self.n_clauses, int) or not 0 <= self.n_clauses <= 100_000_000
        ):
            raise ConfigError("n_clauses", self.n_clauses, "must be an integer in 0..100,000,000")
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
        biggest = max(
            [self.num_clauses, *(round(a * self.n_vars) for a in self.alpha_choices or ())]
        )
        if biggest > 100_000_000:
            raise ConfigError(
                "alpha", self.alpha, f"gives {biggest:,} clauses; at most 100,000,000 per instance"
            )
        if self.distinct_clauses:
            possible = math.comb(self.n_vars, self.k) * 2**self.k
            most = (
                max((round(a * self.n_vars) for a in self.alpha_choices), default=0)
                if self.alpha_choices
                else 0
            )
            if max(most, self.num_clauses if self.alpha_choices is None else 0) > possible:
                raise ConfigError(
                    "n_clauses",
                    self.num_clauses,
                    f"only {possible} distinct {self.k}-clauses exist over {self.n_vars} variables",
                )

    @property
    def num_clauses(self) -> int:
        """The clause count (for ``alpha_choices``: that of the first choice; instances draw their own)."""
        if self.n_clauses is not None:
            return self.n_clauses
        if self.alpha_choices is not None:
            return int(round(self.alpha_choices[0] * self.n_vars))
        if self.alpha is None:
            raise CertificationError(
                "certification failed: a clause count comes from n_clauses, alpha or alpha_choices"
            )
        return int(round(self.alpha * self.n_vars))


def _repeated(rows: np.ndarray, k: int) -> np.ndarray:
    """Per row of ``rows`` (``· × k``): does a variable occur twice?"""
    if len(rows) < 32:  # a few redrawn rows: Python sets beat a dozen small array operations
        return np.array([len(set(r)) < k for r in rows.tolist()], dtype=bool)
    if k <= 4:  # a repeat is an equal pair of columns (cheaper than sorting small rows)
        rep = np.zeros(len(rows), dtype=bool)
        for a, b in itertools.combinations(range(k), 2):
            rep |= rows[:, a] == rows[:, b]
        return rep
    s = np.sort(rows, axis=1)
    return (s[:, 1:] == s[:, :-1]).any(axis=1)


def _draw_vars(rng: np.random.Generator, m: int, n: int, k: int) -> np.ndarray:
    """``m`` rows of ``k`` distinct variables in 1..n, uniform over ordered k-tuples.

    Rows with a repeated variable are redrawn until none is left. Every row is tested once, and
    after that every redrawn row again (the others did not change): the loop exits only once no
    row has two equal entries, which is the distinctness guarantee itself."""
    if k > n // 2:  # dense: a permutation prefix per row
        return np.argsort(rng.random((m, n)), axis=1)[:, :k] + 1
    out = rng.integers(1, n + 1, size=(m, k))
    if k < 2:
        return out
    bad = np.flatnonzero(_repeated(out, k))
    while bad.size:
        out[bad] = rng.integers(1, n + 1, size=(bad.size, k))
        bad = bad[_repeated(out[bad], k)]
    return out


def _draw(p: KSATParams, rng: np.random.Generator, m: int | None = None) -> np.ndarray:
    """The clause matrix (``m × k`` signed literals) of one random formula, checked."""
    m = p.num_clauses if m is None else m
    n, k = p.n_vars, p.k
    vars_ = _draw_vars(rng, m, n, k)
    if p.distinct_clauses:
        lits = vars_ * np.where(rng.random((m, k)) < 0.5, -1, 1)
        seen: set[frozenset[int]] = set()
        for i in range(m):
            while frozenset(lits[i].tolist()) in seen:
                lits[i] = _draw_vars(rng, 1, n, k)[0] * np.where(rng.random(k) < 0.5, -1, 1)
            seen.add(frozenset(lits[i].tolist()))
        vars_ = np.abs(lits)
    else:
        lits = np.where(rng.random((m, k)) < 0.5, -vars_, vars_)
    # distinct variables per clause are checked by _draw_vars' exit test; shape and range here
    certify(
        lits.shape == (m, k) and (m == 0 or (vars_.min() >= 1 and vars_.max() <= n)),
        "lits.shape == (m, k) and (m == 0 or (vars_.min() >= 1 and vars_.max() <= n))",
    )
    return lits


def random_ksat(p: KSATParams, rng: np.random.Generator) -> CNF:
    """Draw one formula (unlabelled) from the random k-SAT model."""
    return CNF.trusted(tuple(map(tuple, _draw(p, rng).tolist())), p.n_vars)


class KSATFamily(
    DeclaredFamily, name=NAME, kind=KIND, params=KSATParams, example={"n_vars": 5, "alpha": 2.0}
):
    knobs = (
        Knob(
            "n_vars",
            lambda prob, _: prob["num_vars"],
            exact,
            "declared variables",
            levels=(5, 20, 50),
            at={"alpha": 3.0},
        ),
        Knob(
            "k",
            lambda prob, _: ratio(sum(map(len, prob["clauses"])), len(prob["clauses"])),
            exact,
            "literals per clause (every clause has k distinct variables)",
            levels=(2, 3, 4),
            at={"n_vars": 20, "alpha": 3.0},
        ),
        Knob(
            "alpha",
            lambda prob, _: ratio(len(prob["clauses"]), prob["num_vars"]),
            lambda p: 0.5 / p.n_vars + TOL,
            "clauses over variables, m = round(α · n)",
            levels=(0.5, 4.26, 8.0),
            at={"n_vars": 40},
        ),
    )
    levels = Levels(
        lambda lv: {"n_vars": 8 + 6 * lv, "alpha": 4.26, "k": 3},
        "MiniSat conflicts",
        conflicts,
        "random 3-SAT at the threshold α = 4.26 with n_vars = 8 + 6 · level (8 … 68)",
    )

    def generate(self, p: KSATParams, rng: np.random.Generator) -> Built:
        for attempt in range(1, p.max_attempts + 1):
            m, alpha = None, p.alpha
            if p.alpha_choices is not None:  # α drawn per attempt, uniformly from the choices
                alpha = float(p.alpha_choices[int(rng.integers(len(p.alpha_choices)))])
                m = int(round(alpha * p.n_vars))
            lits = _draw(p, rng, m)
            cnf = CNF.trusted(tuple(map(tuple, lits.tolist())), p.n_vars)
            sol = solve(cnf, stats=True, timeout=p.solver_timeout)
            if p.target_label is None or sol.label == p.target_label:
                if sol.model is not None and lits.size:  # the oracle's own witness must check out
                    # model[v - 1] is ±v: a literal holds when the model has it as it is
                    model = np.array(sol.model)
                    ok = (model[np.abs(lits) - 1] == lits).any(axis=1).all()
                    certify(ok, "solver model does not satisfy the formula")
                meta = {
                    "n_vars": cnf.num_vars,
                    "n_clauses": cnf.num_clauses,
                    "k": p.k,
                    # α as asked (the sweep's value, e.g. 4.26), the realised m / n beside it
                    "alpha": round(cnf.alpha if alpha is None else float(alpha), 6),
                    "clause_ratio": round(cnf.alpha, 6),
                    "attempts": attempt,
                    "decisions": sol.stats.get("decisions"),
                    "conflicts": sol.stats.get("conflicts"),
                }
                if sol.label == "UNKNOWN":  # never guessed: excluded from scoring, counted
                    meta["label_timed_out"] = True
                return cnf.to_json(), sol.label, sol.to_json(), meta
        raise GenerationError(
            f"{NAME}: no {p.target_label} instance in {p.max_attempts} draws at n_vars={p.n_vars}, "
            f"n_clauses={p.num_clauses}; raise max_attempts or move alpha toward the {p.target_label} side"
        )


FAMILIES.register(NAME, KSATFamily())
