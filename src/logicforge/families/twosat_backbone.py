"""``2sat/backbone``: SAT 2-CNFs with a planted backbone (paper §3.3).

For each backbone variable x with planted value b(x) and a fresh auxiliary a_x:
(x ∨ a_x) ∧ (x ∨ ¬a_x) when b(x) = 1, (¬x ∨ a_x) ∧ (¬x ∨ ¬a_x) when b(x) = 0 — two clauses that
force x using 2-clauses only. The other variables F carry monotone clauses: (y ∨ z) for
orientation ``positive``, (¬y ∨ ¬z) for ``negative``; they never force anything, so the backbone
is exactly B with the planted values (asserted).

Knobs and choices:

* ``n_clauses`` — target |C| = 2|B| + m_mono (met within ±1).
* ``backbone_fraction`` β ∈ [0, 1] — |B| = β · (|B| + |F|) (auxiliaries not counted). F counts
  every declared variable outside B and the auxiliaries, also those no mono clause uses (free
  variables the problem declares). Realised: ``backbone_fraction_actual``, read off the emitted
  formula with the solver's forced literals; an odd |C| needs one mono clause, so β = 1 at 75
  realises 37/39 ≈ 0.95.
* ``mono_density`` ∈ [0, 1] — 2·m_mono / |F|², capped by the C(|F|, 2) distinct pairs, so at most
  (|F| − 1)/|F| (≈ 0.91 at |C| = 75); sizes are chosen to match β and this density, then m_mono
  is adjusted to hit |C| (``mono_density_actual`` records the realised density).
* ``orientation`` — ``positive`` or ``negative`` (π).
* ``order`` — ``shuffled`` (all clauses permuted, the default) or ``construction`` (the backbone
  pairs variable by variable, then the monotone clauses: the construction order of §5.3).
  Variable indices are always randomly permuted.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import CertificationError, certify
from ..fields import choice, integer, params
from ..logic.cnf import CNF
from ..logic.twosat import forced_literals
from ..registry import FAMILIES
from ._twosat import MAX_SIZE, Clause, knob_field, label, rename
from .base import DeclaredFamily
from .knobs import TOL, Knob, clause_count, clauses_of, occurring, per_problem, ratio
from .levels import by_clauses
from .shape import Built

NAME = "2sat/backbone"


@functools.lru_cache(maxsize=256)
def _sizes(c: int, beta: float, rho: float) -> tuple[int, int, int]:
    """(|B|, |F|, m_mono): 2|B| + m_mono within 1 of c, then β and the density as close as
    possible (searched over every feasible size; cached per knob setting)."""
    best: tuple[tuple[bool, int, float], int, int, int] | None = None
    for b in range(c // 2 + 1):
        for f in range(0, 2 * c + 3):
            m = min(math.comb(f, 2), max(0, c - 2 * b))
            err = abs(2 * b + m - c)
            beta_err = abs(b / (b + f) - beta) if b + f else 1.0
            dens_err = abs(2 * m / f**2 - rho) if f else (0.0 if m == 0 else 1.0)
            key = (err > 1, err, beta_err + dens_err)
            if best is None or key < best[0]:
                best = (key, b, f, m)
    if best is None:
        raise CertificationError("certification failed: some backbone orientation was found")
    return best[1], best[2], best[3]


@params
class BackboneParams:
    n_clauses: int = integer(2, MAX_SIZE, default=20)
    backbone_fraction: float = knob_field()
    mono_density: float = knob_field()
    orientation: str = choice("positive", "negative", default="positive")
    order: str = choice("shuffled", "construction", default="shuffled")


@per_problem
def _parts(problem: Mapping[str, Any]) -> tuple[int, int, int]:
    """(|B|, |F|, m_mono) read off the emitted formula: B the solver-forced variables, the mono
    part the clauses with no forced variable, the auxiliaries the variables that occur only
    beside a forced one, F every other declared variable (one no clause uses is free, and
    counted: ``num_vars`` declares it)."""
    cl = clauses_of(problem)
    n = int(problem["num_vars"])
    forced = set(forced_literals(CNF(cl, n)))
    mono = [c for c in cl if not forced & {abs(x) for x in c}]
    aux = occurring(cl) - forced - occurring(mono)
    return len(forced), n - len(forced) - len(aux), len(mono)


def _beta(problem: Mapping[str, Any], _: Any) -> float | None:
    b, f, _m = _parts(problem)
    return ratio(b, b + f)


def _density(problem: Mapping[str, Any], _: Any) -> float | None:
    _b, f, m = _parts(problem)
    return ratio(2 * m, f * f)


def _size_error(p: BackboneParams) -> tuple[float, float]:
    """How far the best feasible (|B|, |F|, m) at this |C| is from β and the density."""
    b, f, m = _sizes(p.n_clauses, p.backbone_fraction, p.mono_density)
    beta = b / (b + f) if b + f else p.backbone_fraction
    dens = 2 * m / f**2 if f else p.mono_density
    return abs(beta - p.backbone_fraction), abs(dens - p.mono_density)


class BackboneFamily(
    DeclaredFamily, name=NAME, kind="cnf", params=BackboneParams, example={"n_clauses": 12}
):
    knobs = (
        clause_count("clauses emitted; within ±1 of the target (2|B| + m_mono)", lambda p: 1.0),
        Knob(
            "backbone_fraction",
            _beta,
            lambda p: _size_error(p)[0] + TOL,
            "solver-forced variables over forced + mono-part variables (auxiliaries not counted); "
            "the nearest value whole sizes allow at this |C|",
            at={"n_clauses": 75},
        ),
        Knob(
            "mono_density",
            _density,
            lambda p: _size_error(p)[1] + TOL,
            "2·m_mono / |F|² over the mono part read off the formula; at most (|F| − 1)/|F| "
            "(distinct pairs only), so 1 realises about 0.9 at |C| = 75",
            at={"n_clauses": 75},
        ),
    )
    # from 14 clauses (5 backbone variables): the all-true answer satisfies a formula exactly
    # when every planted value is true, 1/2^|B| of the time (1/8 at the other families' 10)
    levels = by_clauses(14, 9)

    def generate(self, p: BackboneParams, rng: np.random.Generator) -> Built:
        nb, nf, m = _sizes(p.n_clauses, p.backbone_fraction, p.mono_density)
        n = 2 * nb + nf  # backbone, auxiliaries, F
        planted = {x: bool(v) for x, v in zip(range(1, nb + 1), rng.random(nb) < 0.5, strict=True)}
        clauses: list[Clause] = []
        for x in range(1, nb + 1):
            a = nb + x
            lit = x if planted[x] else -x
            clauses += [(lit, a), (lit, -a)]
        fvars = list(range(2 * nb + 1, n + 1))
        pairs = [(fvars[i], fvars[j]) for i in range(nf) for j in range(i + 1, nf)]
        sign = 1 if p.orientation == "positive" else -1
        for idx in rng.choice(len(pairs), m, replace=False) if m else []:
            y, z = pairs[int(idx)]
            clauses.append((sign * y, sign * z))
        perm_order = rng.permutation(len(clauses))  # drawn either way: same stream, same formula
        if p.order == "shuffled":
            clauses = [clauses[i] for i in perm_order]
        clauses, perm = rename(clauses, n, rng)
        cnf, res, meta = label(clauses, n, expect="SAT")
        want = {perm[x - 1]: v for x, v in planted.items()}
        certify(forced_literals(cnf) == want, "the backbone must be exactly the planted variables")
        meta.update(
            backbone=sorted(want),
            backbone_values=[want[v] for v in sorted(want)],
            aux_vars=nb,
            mono_vars=nf,
            mono_clauses=m,
            orientation=p.orientation,
            order=p.order,
        )
        oracle = meta.pop("oracle")
        return cnf.to_json(), res.label, oracle, meta


FAMILIES.register(NAME, BackboneFamily())
