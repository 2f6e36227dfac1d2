"""``2sat/mono-bridge``: a positive-monotone part, a negative-monotone part and one
cross-polarity bridge clause placed at a chosen position (paper §3.4). Always SAT: all of P
true, q* true and the rest of N false satisfies every clause (asserted).

Knobs and choices:

* ``n_clauses`` — |C| = m₊ + m₋ + 1 (exact; at least 3).
* ``var_density`` ∈ [0, 1] — (|P| + |N|) / (2|C|); raised where needed so each part has at least
  2 variables and enough distinct pairs. Recorded: ``var_density_declared`` (the variables the
  construction declares) and ``var_density_actual`` (those that occur in the emitted clauses —
  fewer when the picked pairs leave some declared variables unused).
* ``positive_ratio`` ∈ [0, 1] — m₊ / (|C| − 1), the size of the positive part.
* ``bridge_position`` ∈ [0, 1] — s = 1 + round(bridge_position · (|C| − 2)), the bridge's 1-based
  index in [1, |C| − 1] as in the paper.
* ``order`` — ``grouped`` (positive part, then negative) or ``shuffled`` (the two parts mixed);
  the bridge is inserted at s after ordering.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import certify
from ..registry import FAMILIES
from ._twosat import Clause, choice, knob, label, positive_int, rename

NAME = "2sat/mono-bridge"


def _vars_for(m: int, want: int) -> int:
    """At least ``want`` and at least 2 variables, and enough for m distinct pairs."""
    v = max(2, want)
    while math.comb(v, 2) < m:
        v += 1
    return v


@dataclass(frozen=True)
class MonoBridgeParams:
    n_clauses: int = 20
    var_density: float = 0.5
    positive_ratio: float = 0.5
    bridge_position: float = 0.5
    order: str = "grouped"

    def __post_init__(self) -> None:
        positive_int("n_clauses", self.n_clauses, 3)
        for k in ("var_density", "positive_ratio", "bridge_position"):
            knob(k, getattr(self, k))
        choice("order", self.order, ("grouped", "shuffled"))


class MonoBridgeFamily:
    name = NAME
    kind = "cnf"
    Params = MonoBridgeParams

    def generate(
        self, p: MonoBridgeParams, rng: np.random.Generator
    ) -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]:
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

        def part(vs: list[int], m: int, sign: int) -> list[Clause]:
            pairs = [(vs[i], vs[j]) for i in range(len(vs)) for j in range(i + 1, len(vs))]
            picks: list[int] = rng.choice(len(pairs), m, replace=False).tolist() if m else []
            return [(sign * pairs[i][0], sign * pairs[i][1]) for i in picks]

        cpos, cneg = part(P, mp, 1), part(N, mn, -1)
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
            # realised from the emitted formula: the variables that occur, over 2|C|
            var_density_actual=round(len({abs(x) for cl in cnf.clauses for x in cl}) / (2 * c), 6),
            var_density_declared=round(n / (2 * c), 6),
            order=p.order,
            trigger_index=s - 1,
        )
        oracle = meta.pop("oracle")
        return cnf.to_json(), res.label, oracle, meta


def _satisfied(clauses: list[Clause], val: dict[int, bool]) -> bool:
    return all(any((x > 0) == val[abs(x)] for x in c) for c in clauses)


FAMILIES.register(NAME, MonoBridgeFamily())
