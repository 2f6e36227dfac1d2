"""``2sat/symmetry``: d ≥ 2 disjoint renamed copies of a base 2-CNF (paper §3.5).

Φ = Ψ ∧ ρ₂(Ψ) ∧ … ∧ ρ_d(Ψ) over pairwise disjoint variable sets: SAT iff Ψ is, with M^d models
when Ψ has M (asserted by counting for small cases).

Knobs and choices:

* ``base_family`` / ``base_params`` — any registered 2-SAT family and its parameters (the base is
  drawn from its own child stream).
* ``copies`` — d ≥ 2.
* ``layout`` — ``grouped`` (copy after copy) or ``interleaved`` (round-robin; each copy keeps
  its internal order).
* ``shuffle_copies`` — permute the clause order inside each copy after the first.
* ``permute_vars`` — give each copy its own random variable permutation (otherwise copy i uses
  variables offset by i·n in the base's order, so indices align).
* ``trigger`` — where each later copy puts the base's trigger clause (``trigger_index`` in the
  base metadata, e.g. mono-bridge's bridge or the core's first clause): ``keep``, ``first`` or
  ``last``.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import choice, integer, params
from ..registry import FAMILIES
from ._twosat import Clause, label
from .base import DeclaredFamily
from .knobs import Knob, exact, ratio
from .levels import Levels
from .shape import Built

NAME = "2sat/symmetry"


@params
class SymmetryParams:
    base_family: str = "2sat/implication-cycle"
    base_params: dict[str, Any] = field(default_factory=dict)
    copies: int = integer(2, default=2)
    layout: str = choice("grouped", "interleaved", default="grouped")
    shuffle_copies: bool = False
    permute_vars: bool = True
    trigger: str = choice("keep", "first", "last", default="keep")

    def validate(self) -> None:
        if not self.base_family.startswith("2sat/") or self.base_family == NAME:
            raise ConfigError("base_family", self.base_family, "must be another 2sat/ family")


class SymmetryFamily(
    DeclaredFamily,
    name=NAME,
    kind="cnf",
    params=SymmetryParams,
    example={"base_params": {"n_clauses": 8}},
):
    knobs = (
        Knob(
            "copies",
            lambda prob, meta: ratio(len(prob["clauses"]), meta["base_n_clauses"]),
            exact,
            "emitted clauses over the base formula's",
            levels=(2, 3, 4),
            at={"base_params": {}},
        ),
    )
    levels = Levels(
        lambda lv: {"base_params": {"n_clauses": 10 + 5 * lv}, "copies": 2},
        "clauses",
        lambda p: float(len(p.problem["clauses"])),
        "two copies of an implication-cycle formula of n_clauses = 10 + 5 · level",
    )

    def generate(self, p: SymmetryParams, rng: np.random.Generator) -> Built:
        from .base import make_params

        base_fam: Any = FAMILIES.get(p.base_family)
        bp = make_params(base_fam, p.base_params)
        bjson, blabel, _, bmeta = base_fam.generate(bp, rng.spawn(1)[0])
        base: list[Clause] = [tuple(c) for c in bjson["clauses"]]
        n = int(bjson["num_vars"])
        trig = bmeta.get("trigger_index", (bmeta.get("core_clauses") or [0])[0])
        copies: list[list[Clause]] = []
        for i in range(p.copies):
            perm = (
                (rng.permutation(n) + 1).tolist()
                if (p.permute_vars and i)
                else list(range(1, n + 1))
            )
            cl = [tuple((perm[abs(x) - 1] + i * n) * (1 if x > 0 else -1) for x in c) for c in base]
            if i:
                t = cl[trig]
                rest = cl[:trig] + cl[trig + 1 :]
                if p.shuffle_copies:
                    rest = [rest[j] for j in rng.permutation(len(rest))]
                if p.trigger == "first":
                    cl = [t, *rest]
                elif p.trigger == "last":
                    cl = [*rest, t]
                else:
                    cl = rest[:trig] + [t] + rest[trig:]
            copies.append(cl)
        if p.layout == "grouped":
            clauses = [c for cl in copies for c in cl]
        else:
            clauses = [cl[j] for j in range(len(base)) for cl in copies]
        total = n * p.copies
        cnf, res, meta = label(clauses, total, expect=blabel)
        if "model_count" in meta and "model_count" in bmeta:
            certify(
                meta["model_count"] == bmeta["model_count"] ** p.copies,
                "d copies must have M^d models",
            )
        meta.update(
            copies=p.copies,
            layout=p.layout,
            base_family=p.base_family,
            base_n_vars=n,
            base_n_clauses=len(base),
            base_metadata={k: v for k, v in bmeta.items() if k != "core_clauses"},
        )
        oracle = meta.pop("oracle")
        return cnf.to_json(), res.label, oracle, meta


FAMILIES.register(NAME, SymmetryFamily())
