"""Label-preserving presentation perturbations (2-SAT robustness paper §5.2–5.4).

* ``shuffle`` — a uniformly random clause order (``mode=random``) or the reverse order.
* ``rename`` — a uniformly random permutation of the variable indices, so every entity name maps
  to a different variable.
* ``filler`` — ``ratio`` · m (or ``count``) extra clauses over fresh variables at the formula's
  variable density
  (fresh variables = max(2, round(extra · n / m))), each satisfied by one planted assignment of
  the fresh variables, with the formula's clause width; ``layout`` appends or interleaves them.
* ``duplicate`` — Φ ∧ ρ(Φ) for a fresh renaming ρ (e.g. 50 → 100 clauses), ``grouped`` (the
  copy forms the last half) or ``interleaved`` (a random merge of the two that keeps each copy's
  internal order, as the paper's §5.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..fields import choice, number, params
from ..logic.cnf import CNF
from ..registry import TRANSFORMS
from ..rng import shuffled
from .base import MOVED


def _layout(default: str) -> Any:
    """The ``layout`` field: the added clauses as one block after the formula, or interleaved."""
    return choice("grouped", "interleaved", default=default)


def _interleave(
    a: list[tuple[int, ...]], b: list[tuple[int, ...]], rng: np.random.Generator
) -> tuple[list[tuple[int, ...]], list[int]]:
    """A random merge of a and b that keeps each list's internal order, and where each clause
    of ``a`` went."""
    from_a = np.zeros(len(a) + len(b), dtype=bool)
    from_a[rng.choice(len(a) + len(b), len(a), replace=False)] = True
    ia, ib = iter(a), iter(b)
    return [next(ia) if x else next(ib) for x in from_a], np.flatnonzero(from_a).tolist()


@params
class Shuffle:
    mode: str = choice("random", "reverse", default="random")
    name = "shuffle"
    kind = "cnf"
    effect = "preserves"

    def apply(self, cnf: CNF, rng: np.random.Generator) -> tuple[CNF, dict[str, Any]]:
        order = (
            shuffled(rng, cnf.num_clauses)
            if self.mode == "random"
            else list(range(cnf.num_clauses))[::-1]
        )
        moved = [0] * len(order)
        for new, old in enumerate(order):
            moved[old] = new
        return CNF([cnf.clauses[i] for i in order], cnf.num_vars), {"order": order, MOVED: moved}


@dataclass(frozen=True)
class Rename:
    name = "rename"
    kind = "cnf"
    effect = "preserves"

    def apply(self, cnf: CNF, rng: np.random.Generator) -> tuple[CNF, dict[str, Any]]:
        perm = (rng.permutation(cnf.num_vars) + 1).tolist()
        cl = [tuple(perm[abs(x) - 1] * (1 if x > 0 else -1) for x in c) for c in cnf.clauses]
        return CNF(cl, cnf.num_vars), {"permutation": perm}


@params
class Filler:
    ratio: float = number(0, 10, default=0.5, note="fillers per original clause")
    layout: str = _layout("interleaved")
    count: int | None = None  # exactly this many fillers instead of ratio · m (the paper's r)
    name = "filler"
    kind = "cnf"
    effect = "preserves"

    def validate(self) -> None:
        if self.count is not None and (
            not isinstance(self.count, int)
            or isinstance(self.count, bool)
            or not 0 <= self.count <= 100_000
        ):
            raise ConfigError("count", self.count, "must be a whole number of clauses, 0..100000")

    def apply(self, cnf: CNF, rng: np.random.Generator) -> tuple[CNF, dict[str, Any]]:
        m, n = cnf.num_clauses, cnf.num_vars
        extra = round(self.ratio * m) if self.count is None else self.count
        width = max((len(c) for c in cnf.clauses), default=2)
        fresh = max(width, round(extra * n / m) if m else width)
        vs = np.arange(n + 1, n + fresh + 1)
        planted = rng.random(fresh) < 0.5
        fill: list[tuple[int, ...]] = []
        for _ in range(extra):
            pick = rng.choice(fresh, width, replace=False)
            signs = rng.random(width) < 0.5
            if not (signs == planted[pick]).any():  # make the planted assignment satisfy it
                signs[int(rng.integers(width))] ^= True
            fill.append(
                tuple(int(vs[i]) if s else -int(vs[i]) for i, s in zip(pick, signs, strict=True))
            )
        old = list(cnf.clauses)
        if self.layout == "grouped":
            return CNF(old + fill, n + fresh), {"fillers": extra, "fresh_vars": fresh}
        clauses, moved = _interleave(old, fill, rng)
        return CNF(clauses, n + fresh), {"fillers": extra, "fresh_vars": fresh, MOVED: moved}


@params
class Duplicate:
    layout: str = _layout("grouped")
    name = "duplicate"
    kind = "cnf"
    effect = "preserves"

    def apply(self, cnf: CNF, rng: np.random.Generator) -> tuple[CNF, dict[str, Any]]:
        n = cnf.num_vars
        perm = (rng.permutation(n) + 1 + n).tolist()
        copy = [tuple(perm[abs(x) - 1] * (1 if x > 0 else -1) for x in c) for c in cnf.clauses]
        old = list(cnf.clauses)
        if self.layout == "grouped":
            return CNF(old + copy, 2 * n), {"copies": 2}
        clauses, moved = _interleave(old, copy, rng)
        return CNF(clauses, 2 * n), {"copies": 2, MOVED: moved}


TRANSFORMS.register("shuffle", Shuffle)
TRANSFORMS.register("rename", Rename)
TRANSFORMS.register("filler", Filler)
TRANSFORMS.register("duplicate", Duplicate)
