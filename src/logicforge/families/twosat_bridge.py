"""``2sat/mono-bridge``: a positive-monotone part, a negative-monotone part and one
cross-polarity bridge clause placed at a chosen position (paper §3.4). Always SAT: all of P
true, q* true and the rest of N false satisfies every clause (asserted).

Knobs and choices:

* ``n_clauses`` — |C| = m₊ + m₋ + 1 (exact; at least 3).
* ``var_density`` ∈ [0, 1] — (|P| + |N|) / (2|C|), the variables that occur in the emitted
  clauses. Each part first gets a random cover (every one of its variables in some clause), then
  random distinct pairs. Clamped where needed: each part needs enough variables for its distinct
  pairs (at least 2) and no more than its clauses can cover (2m), so the realised range at |C| is
  about [√(2|C|)/|C|, 1 − 1/|C|] (``var_density_actual`` records it).
* ``positive_ratio`` ∈ [0, 1] — m₊ / (|C| − 1), the size of the positive part.
* ``bridge_position`` ∈ [0, 1] — s = 1 + round(bridge_position · (|C| − 2)), the bridge's 1-based
  index in [1, |C| − 1] as in the paper.
* ``order`` — ``grouped`` (positive part, then negative) or ``shuffled`` (the two parts mixed);
  the bridge is inserted at s after ordering.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import certify
from ..fields import choice, integer, params
from ..registry import FAMILIES
from ._twosat import MAX_SIZE, Clause, knob_field, label, rename
from .base import DeclaredFamily
from .knobs import TOL, Knob, clause_count, clauses_of, occurring, ratio
from .levels import by_clauses
from .shape import Built

NAME = "2sat/mono-bridge"


def _vars_for(m: int, want: int) -> int:
    """``want`` variables for a part of m clauses, clamped to [enough for m distinct pairs (at
    least 2), 2m (all coverable)]; a part with no clause keeps the bridge's one variable."""
    if m == 0:
        return 1
    lo = 2
    while math.comb(lo, 2) < m:
        lo += 1
    return min(max(lo, want), 2 * m)


def _part(vs: list[int], m: int, sign: int, rng: np.random.Generator) -> list[Clause]:
    """m distinct monotone clauses over ``vs``, every variable in one (a random cover first)."""
    if not m:
        return []
    order = [vs[i] for i in rng.permutation(len(vs))]
    picked: list[tuple[int, int]] = []
    for i in range(0, len(order) - 1, 2):
        picked.append((order[i], order[i + 1]))
    if len(order) % 2:  # the odd one out joins a random other variable
        other = order[int(rng.integers(0, len(order) - 1))]
        picked.append((order[-1], other))
    seen = {frozenset(q) for q in picked}
    rest = [
        (vs[i], vs[j])
        for i in range(len(vs))
        for j in range(i + 1, len(vs))
        if frozenset((vs[i], vs[j])) not in seen
    ]
    extra = (
        rng.choice(len(rest), m - len(picked), replace=False).tolist() if m > len(picked) else []
    )
    picked += [rest[i] for i in extra]
    certify(len(picked) == m and len(set(map(frozenset, picked))) == m, "m distinct pairs")
    out = [(sign * a, sign * b) for a, b in picked]
    return [out[i] for i in rng.permutation(m)]


@params
class MonoBridgeParams:
    n_clauses: int = integer(3, MAX_SIZE, default=20)
    var_density: float = knob_field()
    positive_ratio: float = knob_field()
    bridge_position: float = knob_field()
    order: str = choice("grouped", "shuffled", default="grouped")


def _bridge(problem: Mapping[str, Any]) -> int:
    """0-based index of the one mixed-polarity clause."""
    mixed = [i for i, c in enumerate(problem["clauses"]) if (c[0] > 0) != (c[-1] > 0)]
    certify(len(mixed) == 1, "a mono-bridge formula has exactly one mixed clause")
    return mixed[0]


def _density_range(p: MonoBridgeParams) -> float:
    """Distance of the request from what the clamps allow, plus one variable of rounding."""
    c = p.n_clauses
    mp = round(p.positive_ratio * (c - 1))
    lo = (_vars_for(mp, 0) + _vars_for(c - 1 - mp, 0)) / (2 * c)
    hi = (_vars_for(mp, 2 * c) + _vars_for(c - 1 - mp, 2 * c)) / (2 * c)
    return max(lo - p.var_density, p.var_density - hi, 0.0) + 1 / c + TOL


class MonoBridgeFamily(
    DeclaredFamily, name=NAME, kind="cnf", params=MonoBridgeParams, example={"n_clauses": 10}
):
    knobs = (
        clause_count("clauses emitted"),
        Knob(
            "var_density",
            lambda prob, _: ratio(len(occurring(clauses_of(prob))), 2 * len(prob["clauses"])),
            _density_range,
            "variables occurring in the emitted clauses over 2|C|, within the clamps above",
            at={"n_clauses": 75},
        ),
        Knob(
            "positive_ratio",
            lambda prob, _: ratio(
                sum(c[0] > 0 and c[-1] > 0 for c in prob["clauses"]), len(prob["clauses"]) - 1
            ),
            lambda p: 0.5 / (p.n_clauses - 1) + TOL,
            "all-positive clauses over |C| − 1",
            at={"n_clauses": 75},
        ),
        Knob(
            "bridge_position",
            lambda prob, _: ratio(_bridge(prob), len(prob["clauses"]) - 2),
            lambda p: 0.5 / (p.n_clauses - 2) + TOL,
            "(s − 1)/(|C| − 2), s the bridge's 1-based place in the emitted order",
            at={"n_clauses": 75},
        ),
    )
    levels = by_clauses(10, 9)

    def generate(self, p: MonoBridgeParams, rng: np.random.Generator) -> Built:
        c = p.n_clauses
        mono = c - 1
        mp = round(p.positive_ratio * mono)
        mn = mono - mp
        total_vars = round(p.var_density * 2 * c)
        share = mp / mono if mono else 0.5
        nP = _vars_for(mp, round(total_vars * share))
        nN = _vars_for(mn, total_vars - round(total_vars * share))
        P = list(range(1, nP + 1))
        N = list(range(nP + 1, nP + nN + 1))

        cpos, cneg = _part(P, mp, 1, rng), _part(N, mn, -1, rng)
        clauses = cpos + cneg
        if p.order == "shuffled":
            clauses = [clauses[i] for i in rng.permutation(len(clauses))]
        p_star, q_star = int(rng.choice(P)), int(rng.choice(N))
        s = 1 + round(p.bridge_position * (c - 2))
        clauses.insert(s - 1, (-p_star, q_star))
        n = nP + nN
        witness = {v: True for v in P} | {v: v == q_star for v in N}
        certify(_satisfied(clauses, witness), "the planted witness must satisfy the formula")
        clauses, perm = rename(clauses, n, rng)
        cnf, res, meta = label(clauses, n, expect="SAT")
        meta.update(
            positive_vars=nP,
            negative_vars=nN,
            positive_clauses=mp,
            negative_clauses=mn,
            bridge_position=s,
            bridge_index=s - 1,
            order=p.order,
            trigger_index=s - 1,
        )
        oracle = meta.pop("oracle")
        return cnf.to_json(), res.label, oracle, meta


def _satisfied(clauses: list[Clause], val: dict[int, bool]) -> bool:
    return all(any((x > 0) == val[abs(x)] for x in c) for c in clauses)


FAMILIES.register(NAME, MonoBridgeFamily())
