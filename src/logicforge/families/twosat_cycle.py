"""``2sat/implication-cycle``: UNSAT 2-CNFs whose core is one contradiction cycle (paper §3.1).

Core over L literals ℓ1 … ℓL (distinct variables, random polarities):

    ℓ1 → ℓ2 → … → ℓk → ¬ℓ1        (k implications)
    ¬ℓ1 → ℓ(k+1) → … → ℓL → ℓ1    (L − k + 1 implications)

so the core has L + 1 clauses (a → b is the clause ¬a ∨ b; k = 1 or k = L makes one implication a
unit clause). Fillers are random 2-clauses over variables outside the core, satisfied by a planted
assignment, so they neither touch nor help the contradiction.

Knobs and choices (the paper leaves the exact parametrisation open):

* ``n_clauses`` — the target |C| (exact): core L + 1 plus r fillers; at least 3.
* ``filler_ratio`` ∈ [0, 1] — r = round(filler_ratio · (|C| − 3)), so 0 gives a pure core and
  1 the smallest core (L = 2).
* ``imbalance`` ∈ [0, 1] — the twist position k = 1 + round(imbalance · (L − 1)); both ends make
  one direction of the cycle long and the other short. Realised: ``imbalance_actual`` =
  (k − 1)/(L − 1), with k measured as the shortest implication path ℓ1 ⇝ ¬ℓ1 in the emitted
  formula (``twist_literal`` records ℓ1).
* ``extra_vars`` ∈ [0, 1] — variables outside the core: max(2, round(r · (0.5 + extra_vars)))
  when there are fillers (so n ≥ L), none otherwise. The fillers cover every one of them, so
  ``extra_vars_actual`` (filler variables per filler − ½) matches; undefined without fillers.
* ``core_share`` ∈ (0, 1] or unset — the paper's L/n (§3.1 (iv)): the core's share of all n
  variables, the other n − L occurring only in fillers. When set it replaces ``extra_vars``:
  n − L = round(L / core_share) − L, at least 2 and at most 2r with r fillers (each filler
  brings at most two new variables), and 0 without fillers (then L/n = 1). Realised:
  ``core_share_actual`` = L / n.
* ``order`` — ``ordered`` (core along the chain, then fillers) or ``shuffled`` (all clauses
  permuted, core interleaved with fillers). Variable indices are always randomly permuted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import choice, integer, params
from ..registry import FAMILIES
from ._twosat import (
    MAX_SIZE,
    Clause,
    knob_field,
    label,
    planted_fillers,
    rename,
)
from .base import DeclaredFamily
from .knobs import (
    TOL,
    Knob,
    clause_count,
    clauses_of,
    component_roots,
    implication_distance,
    occurring,
    per_problem,
    ratio,
)
from .levels import by_clauses
from .shape import Built

NAME = "2sat/implication-cycle"


@params
class ImplicationCycleParams:
    n_clauses: int = integer(3, MAX_SIZE, default=20)
    imbalance: float = knob_field()
    filler_ratio: float = knob_field()
    extra_vars: float = knob_field()
    order: str = choice("ordered", "shuffled", default="shuffled")
    core_share: float | None = field(default=None, metadata={"stored": "unless-default"})

    def validate(self) -> None:
        if self.core_share is not None and (
            isinstance(self.core_share, bool)
            or not isinstance(self.core_share, int | float)
            or not 0 < self.core_share <= 1
        ):
            raise ConfigError("core_share", self.core_share, "must be in (0, 1] (it is L/n)")


@per_problem
def _split(
    problem: Mapping[str, Any], meta: Mapping[str, Any]
) -> tuple[list[Clause], list[Clause]]:
    """(core, fillers) of the emitted formula: the core is every clause connected, through shared
    variables, to the recorded twist literal ℓ1; the fillers are the rest."""
    cl = clauses_of(problem)
    roots = component_roots(cl, int(problem["num_vars"]))
    core = roots[abs(int(meta["twist_literal"]))]
    return [c for c in cl if roots[abs(c[0])] == core], [c for c in cl if roots[abs(c[0])] != core]


def _imbalance(problem: Mapping[str, Any], meta: Mapping[str, Any]) -> float | None:
    """(k − 1)/(L − 1): k the implications from ℓ1 to ¬ℓ1 in the emitted formula, L its core's
    variables."""
    core, _ = _split(problem, meta)
    lit = int(meta["twist_literal"])
    k = implication_distance(core, lit, -lit)
    L = len(occurring(core))
    return None if k is None else ratio(k - 1, L - 1)


def _filler_ratio(problem: Mapping[str, Any], meta: Mapping[str, Any]) -> float | None:
    _, fillers = _split(problem, meta)
    return ratio(len(fillers), len(problem["clauses"]) - 3)


def _extra_vars(problem: Mapping[str, Any], meta: Mapping[str, Any]) -> float | None:
    """Variables the fillers use, per filler, minus ½ (the construction's offset)."""
    _, fillers = _split(problem, meta)
    return len(occurring(fillers)) / len(fillers) - 0.5 if fillers else None


def _core_len(p: ImplicationCycleParams) -> int:
    return p.n_clauses - round(p.filler_ratio * (p.n_clauses - 3)) - 1


def _n_extra(p: ImplicationCycleParams, r: int, L: int) -> int:
    """Variables outside the core: by ``core_share`` (L/n) when set, else by ``extra_vars``."""
    if not r:
        return 0
    if p.core_share is None:
        return max(2, round(r * (0.5 + p.extra_vars)))
    return min(2 * r, max(2, round(L / p.core_share) - L))


def _core_share(problem: Mapping[str, Any], meta: Mapping[str, Any]) -> float | None:
    """L / n: the core's variables over every variable of the emitted formula."""
    core, _ = _split(problem, meta)
    return ratio(len(occurring(core)), len(occurring(clauses_of(problem))))


def _share_tolerance(p: ImplicationCycleParams) -> float:
    """Rounding n to a whole number, and the bounds on n − L (a few fillers cannot bring many
    new variables; none bring none) — what is asked beyond them is not reachable."""
    L = _core_len(p)
    r = p.n_clauses - L - 1
    got = L / (L + _n_extra(p, r, L))
    return (
        abs(got - float(p.core_share or 1.0))
        + 0.5 * L / (L / float(p.core_share or 1.0)) ** 2
        + TOL
    )


def _extra_tolerance(p: ImplicationCycleParams) -> float:
    r = round(p.filler_ratio * (p.n_clauses - 3))
    if not r:
        return 0.0
    want = round(r * (0.5 + p.extra_vars))
    return (max(2, want) - want + 0.5) / r + TOL


class ImplicationCycleFamily(
    DeclaredFamily, name=NAME, kind="cnf", params=ImplicationCycleParams, example={"n_clauses": 10}
):
    knobs = (
        clause_count("clauses emitted (core L + 1 plus fillers)"),
        Knob(
            "imbalance",
            _imbalance,
            lambda p: 0.5 / (_core_len(p) - 1) + TOL,
            "(k − 1)/(L − 1), k the shortest implication path ℓ1 ⇝ ¬ℓ1 in the emitted core",
            at={"n_clauses": 75},
        ),
        Knob(
            "filler_ratio",
            _filler_ratio,
            lambda p: 0.5 / (p.n_clauses - 3) + TOL,
            "clauses outside the contradiction core over |C| − 3",
            at={"n_clauses": 75},
        ),
        Knob(
            "extra_vars",
            _extra_vars,
            _extra_tolerance,
            "filler variables per filler clause − ½ (every filler variable occurs); undefined "
            "without fillers; at least 2 variables, so a few fillers realise more",
            at={"n_clauses": 75},
        ),
        Knob(
            "core_share",
            _core_share,
            _share_tolerance,
            "L/n: core variables over all variables (set only when asked for)",
            levels=(0.4, 0.6, 0.8),
            at={"n_clauses": 75},
            only_when="core_share",
        ),
    )
    levels = by_clauses(10, 9)

    def generate(self, p: ImplicationCycleParams, rng: np.random.Generator) -> Built:
        r = round(p.filler_ratio * (p.n_clauses - 3))
        L = p.n_clauses - r - 1
        k = 1 + round(p.imbalance * (L - 1))
        n_extra = _n_extra(p, r, L)
        n = L + n_extra
        lits = [v if s else -v for v, s in zip(range(1, L + 1), rng.random(L) < 0.5, strict=True)]
        chain = [lits[0], *lits[1:k], -lits[0], *lits[k:], lits[0]]  # ℓ1 … ℓk ¬ℓ1 ℓk+1 … ℓL ℓ1
        core: list[Clause] = []
        for a, b in zip(chain, chain[1:], strict=False):
            core.append((-a,) if -a == b else (-a, b))  # a → b
        certify(len(core) == L + 1, "len(core) == L + 1")
        fillers, _ = planted_fillers(r, list(range(L + 1, n + 1)), rng)
        clauses = core + fillers
        is_core = [True] * len(core) + [False] * len(fillers)
        if p.order == "shuffled":
            order = rng.permutation(len(clauses))
            clauses = [clauses[i] for i in order]
            is_core = [is_core[i] for i in order]
        clauses, perm = rename(clauses, n, rng)
        cnf, res, meta = label(clauses, n, expect="UNSAT")
        core_idx = [i for i, c in enumerate(is_core) if c]
        certify(
            label([clauses[i] for i in core_idx], n, expect="UNSAT", count=False),
            'label([clauses[i] for i in core_idx], n, expect="UNSAT", count=False)',
        )
        if r:
            label(
                [c for c, ic in zip(clauses, is_core, strict=True) if not ic],
                n,
                expect="SAT",
                count=False,
            )
        meta.update(
            cycle_length=L,
            twist=k,
            twist_literal=perm[abs(lits[0]) - 1] * (1 if lits[0] > 0 else -1),
            core_size=L + 1,
            filler_count=r,
            core_vars=L,
            order=p.order,
            core_clauses=core_idx,
        )
        if p.core_share is not None:
            meta["core_share"] = p.core_share
        oracle = meta.pop("oracle")
        return cnf.to_json(), res.label, oracle, meta


FAMILIES.register(NAME, ImplicationCycleFamily())
