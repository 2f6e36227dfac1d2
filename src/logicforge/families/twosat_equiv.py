"""``2sat/equivalence-core``: SAT 2-CNFs whose models are exactly the 2^f choices of f free
variables (paper §3.2).

Every bound variable y gets a parent p(y) among the free variables and a literal
τ(y) ∈ {p(y), ¬p(y)}, and the two clauses of y ↔ τ(y). Each assignment of the free set extends
uniquely, so the formula has exactly 2^f models (asserted by counting for small n).

Knobs and choices:

* ``n_clauses`` — target |C| = 2(n − f); an odd target gives |C| − 1 (the paper's ±1).
* ``free_ratio`` ∈ [0, 1] — the free-to-bound ratio f/(n − f): f = max(1, round(free_ratio · (n − f))).
* ``negation`` ∈ [0, 1] — the probability that τ(y) = ¬p(y).
* ``parents`` — ``uniform`` (each bound variable picks any free parent) or ``chain`` (a bound
  variable may also take an earlier bound variable as parent, so propagation runs deeper; the
  model count is unchanged because every variable still depends on exactly one free root).
* ``order`` — ``shuffled``, ``definitions-early`` (each definition's clauses in the order the
  variables were defined) or ``definitions-late`` (that order reversed, the deepest first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import certify
from ..fields import choice, integer, params
from ..registry import FAMILIES
from ._twosat import MAX_SIZE, Clause, knob_field, label, rename
from .base import DeclaredFamily
from .knobs import MEAN_OF, TOL, Knob, clause_count, clauses_of, component_roots, ratio
from .levels import by_clauses
from .shape import Built

NAME = "2sat/equivalence-core"


@params
class EquivalenceCoreParams:
    n_clauses: int = integer(2, MAX_SIZE, default=20)
    free_ratio: float = knob_field()
    negation: float = knob_field()
    parents: str = choice("uniform", "chain", default="uniform")
    order: str = choice("shuffled", "definitions-early", "definitions-late", default="shuffled")


def _free_ratio(problem: Mapping[str, Any], _: Any) -> float | None:
    """f / (n − f) with f the connected components of the emitted formula's variables (each has
    one free root; a variable in no clause is a component of its own)."""
    n = int(problem["num_vars"])
    f = len(set(component_roots(clauses_of(problem), n)[1:]))
    return ratio(f, n - f)


def _negation(problem: Mapping[str, Any], _: Any) -> float | None:
    """Definitions y ↔ ¬p: their clauses (y ∨ p), (¬y ∨ ¬p) have one polarity; y ↔ p gives mixed."""
    cl = clauses_of(problem)
    return ratio(sum((c[0] > 0) == (c[-1] > 0) for c in cl), len(cl))


class EquivalenceCoreFamily(
    DeclaredFamily, name=NAME, kind="cnf", params=EquivalenceCoreParams, example={"n_clauses": 10}
):
    knobs = (
        clause_count("clauses emitted, 2(n − f); an odd target gives one fewer", lambda p: 1.0),
        Knob(
            "free_ratio",
            _free_ratio,
            lambda p: 1.0 / (p.n_clauses // 2) + TOL,
            "free variables (components) over bound ones; at least one free variable, so 0 "
            "realises 1/(n − f)",
            at={"n_clauses": 20},
        ),
        Knob(
            "negation",
            _negation,
            lambda p: (
                3 * (p.negation * (1 - p.negation) / (p.n_clauses // 2) / MEAN_OF) ** 0.5 + TOL
            ),
            "definitions with τ(y) = ¬p(y), read off the clause polarities; a probability, so "
            "the tolerance (3σ) holds for the mean of 40 items",
            at={"n_clauses": 20},
            stochastic=True,
        ),
    )
    levels = by_clauses(14, 9)  # from 14: at 10 clauses the all-true answer satisfied 1 in 50

    def generate(self, p: EquivalenceCoreParams, rng: np.random.Generator) -> Built:
        bound = p.n_clauses // 2
        f = max(1, round(p.free_ratio * bound))
        n = f + bound
        defs: list[list[Clause]] = []
        root = {v: v for v in range(1, f + 1)}
        for y in range(f + 1, n + 1):
            if p.parents == "chain" and y > f + 1 and rng.random() < 0.5:
                par = int(rng.integers(f + 1, y))
            else:
                par = int(rng.integers(1, f + 1))
            root[y] = root[par]
            tau = -par if rng.random() < p.negation else par
            defs.append([(-y, tau), (y, -tau)])  # y → τ, τ → y
        if p.order == "definitions-late":
            defs.reverse()
        clauses = [c for d in defs for c in d]
        if p.order == "shuffled":
            clauses = [clauses[i] for i in rng.permutation(len(clauses))]
        clauses, perm = rename(clauses, n, rng)
        cnf, res, meta = label(clauses, n, expect="SAT")
        if "model_count" in meta:
            certify(meta["model_count"] == 2**f, "equivalence core must have exactly 2^f models")
        certify(meta["backbone_size"] == 0, 'meta["backbone_size"] == 0')
        meta.update(
            free_vars=f,
            bound_vars=bound,
            expected_model_count=2**f,
            free_var_ids=sorted(perm[v - 1] for v in range(1, f + 1)),
            order=p.order,
            parents=p.parents,
        )
        oracle = meta.pop("oracle")
        return cnf.to_json(), res.label, oracle, meta


FAMILIES.register(NAME, EquivalenceCoreFamily())
