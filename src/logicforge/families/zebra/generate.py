"""``zebra`` family: certified-unique, irredundant logic-grid puzzles (ZebraLogic, §2.3).

Generation, per puzzle, on the shared canonical pool of its size (see :mod:`.encoding`):

1. order the candidate clues by weighted random keys (u^(1/w), weights per clue type — simpler
   types have higher weights and are kept more often);
2. in a fresh incremental MiniSat (structure + a clause blocking the canonical grid), add the
   clues behind selectors in that order, in growing chunks, until the grid is the only solution
   (UNSAT under the selectors), and shrink to the solver's core;
3. deletion pass, least-preferred first: drop a clue whenever the rest still forces uniqueness
   (shrinking to each new core). The result is irredundant — every remaining clue is needed;
4. relabel: pick the M attributes (Name always) and N values of each from the pool and a random
   permutation per attribute, which turns the canonical grid into the hidden solution;
5. re-check independently: a fresh solver of another kind (Glucose) on a fresh encoding of the
   emitted, relabelled clues must find the hidden grid as a model and nothing else.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any

import numpy as np

from ...errors import ConfigError, certify
from ...registry import FAMILIES
from ...rng import samples, shuffled
from ..base import Built, DeclaredFamily
from ..knobs import Knob, exact
from ..levels import Levels
from .clues import TYPES, Clue
from .encoding import encoded, size_pool, structure_clauses, var
from .pool import ATTRIBUTES
from .z3measure import (  # noqa: F401
    Z3_ENCODINGS,
    Z3_MEASURE,
    Z3_TIMEOUT_MS,
    z3_cache_dir,
    z3_complexity,
)

NAME = "zebra"
KIND = "zebra"
ALL_TYPES = tuple(TYPES)
N_VALUES = len(ATTRIBUTES[0].values)  # relabelling draws every attribute's values together
certify(
    all(len(a.values) == N_VALUES for a in ATTRIBUTES),
    "every attribute of the pool has the same number of values",
)
SIZE_GROUPS = [(1e3, "Small"), (1e6, "Medium"), (1e10, "Large"), (math.inf, "X-Large")]


def size_group(n: int, m: int) -> str:
    """The paper's groups by search space (N!)^M: Small < 10³ ≤ Medium < 10⁶ ≤ Large < 10¹⁰ ≤ X-Large."""
    s = math.factorial(n) ** m
    return next(g for lim, g in SIZE_GROUPS if s < lim)


@functools.cache
def _size_meta(n: int, m: int) -> tuple[tuple[str, Any], ...]:
    """The metadata fields that depend on the grid size only (read once per size)."""
    return (
        ("n_houses", n),
        ("n_attributes", m),
        ("size", f"{n}*{m}"),
        ("log10_search_space", round(m * math.log10(math.factorial(n)), 4)),
        ("size_group", size_group(n, m)),
    )


@dataclass(frozen=True)
class ZebraParams:
    n_houses: int = 4
    n_attributes: int = 4
    clue_types: tuple[str, ...] = ALL_TYPES
    weights: dict[str, float] = field(default_factory=dict)  # per clue type; default: clues.TYPES
    z3_runs: int = (
        0  # Z3 solves with shuffled clue order and seeds, for the conflicts measure (paper: 32)
    )
    # "positions" (the paper's measure), or "clue-expansion" (measure version 1)
    z3_encoding: str = field(default=Z3_ENCODINGS[0], metadata={"stored": "unless-default"})

    def __post_init__(self) -> None:
        for k, most in (("n_houses", N_VALUES), ("n_attributes", len(ATTRIBUTES))):
            v = getattr(self, k)
            if isinstance(v, bool) or not isinstance(v, int) or not 2 <= v <= most:
                raise ConfigError(k, v, f"must be an integer in 2..{most}")
        types = tuple(self.clue_types)
        unknown = [t for t in types if t not in TYPES]
        if unknown or not types:
            raise ConfigError(
                "clue_types", list(self.clue_types), f"choose from {', '.join(TYPES)}"
            )
        object.__setattr__(self, "clue_types", types)
        if not isinstance(self.z3_runs, int) or not 0 <= self.z3_runs <= 1000:
            raise ConfigError("z3_runs", self.z3_runs, "must be an integer in 0..1000")
        if self.z3_encoding not in Z3_ENCODINGS:
            raise ConfigError("z3_encoding", self.z3_encoding, f"choose from {Z3_ENCODINGS}")
        for k, w in self.weights.items():
            if k not in TYPES or not isinstance(w, int | float) or w <= 0:
                raise ConfigError("weights", {k: w}, "keys are clue types, values positive numbers")


_EXPONENTS: dict[tuple[int, tuple[tuple[str, float], ...]], np.ndarray] = {}


def _exponents(pool: Any, weights: dict[str, float]) -> np.ndarray:
    """1 / weight per candidate clue of ``pool`` (pools live for the process: keyed by identity)."""
    key = (id(pool), tuple(sorted(weights.items())))
    e = _EXPONENTS.get(key)
    if e is None:
        per_type = np.array([weights.get(t, TYPES[t].weight) for t in TYPES])
        e = _EXPONENTS[key] = 1.0 / per_type[pool.type_ids]
    return e


def _preferred(keys: np.ndarray, k: int) -> list[int]:
    """``np.argsort(-keys).tolist()[:k]``, from a partition and a sort of the ``k`` largest keys
    when they are distinct and strictly above the rest (which fixes the prefix whatever sort
    runs), from the full sort otherwise."""
    neg = -keys
    if 8 * k < len(neg):  # below that the full sort is as fast
        part = np.argpartition(neg, k)
        head = part[:k]
        hv = neg[head]
        by = np.argsort(hv)
        head, hv = head[by], hv[by]
        # part[k] is the k-th smallest, every later one at least as large: the rest's minimum
        if bool((hv[1:] > hv[:-1]).all()) and hv[-1] < neg[part[k]]:
            return head.tolist()
    return np.argsort(neg)[:k].tolist()


def _reduce(pool: Any, rng: np.random.Generator, weights: dict[str, float]) -> list[int]:
    """Irredundant clue set (indices into ``pool.clues``, most preferred first).

    One fresh MiniSat per puzzle holds the structure, the block on the canonical grid and, behind
    one selector each, the candidate clues in preference order. Uniqueness of a clue set is
    unsatisfiability under its selectors, and every UNSAT answer's core shrinks the set at once.
    The solver is fresh and its call sequence is fixed by ``rng``, so cores — and so the puzzle —
    depend only on the seed, not on the puzzles made before.
    """
    from ...logic.sat_direct import DirectSolver

    keys = rng.random(len(pool.type_ids)) ** _exponents(pool, weights)
    total, chunk = len(keys), max(4, (3 * pool.n * pool.m) // 4)
    # the preference order, most preferred first; three doublings of the chunk cover most puzzles
    order = _preferred(keys, 7 * chunk)
    top = pool.n * pool.n * pool.m  # selector of order[r] is top + 1 + r
    guarded = pool.guarded
    with DirectSolver("minisat22", pool.base) as s:
        added = 0
        while True:  # add clues in preference order until they force the grid
            upto = min(total, added + chunk)
            if upto > len(order):
                order = _preferred(keys, total)
            batch: list[list[int]] = []
            with pool.lock:  # the pool's clause lists, this puzzle's selectors written in
                sels = range(-(top + 1 + added), -(top + 1 + upto), -1)  # -selector by rank
                for sel, i in zip(sels, order[added:upto], strict=True):
                    cls = guarded[i]
                    for cl in cls:
                        cl[-1] = sel
                    batch += cls
                s.add(batch)
            added = upto
            if not s.solve(range(top + 1, top + 1 + added)):
                break
            if added == total:
                raise AssertionError("all true clues together must determine the grid")
            chunk *= 2
        current = s.shrink_core()  # deletion pass, least preferred (largest selector) first
    return [order[x - top - 1] for x in current]


def recheck(n: int, m: int, clues: list[Clue], pos: list[list[int]]) -> None:
    """Independent certificate: a fresh Glucose (generation uses MiniSat) on a fresh encoding of the
    emitted clues finds the hidden grid and no other."""
    from ...logic.sat_direct import DirectSolver

    hidden = [var(n, a, v, h) for a, row in enumerate(pos) for v, h in enumerate(row)]
    with DirectSolver("glucose4", structure_clauses(n, m)) as s:
        s.add(chain.from_iterable(map(encoded, repeat(n), clues)))
        certify(s.solve(hidden), "the hidden grid must satisfy every clue")
        s.add([[-x for x in hidden]])
        certify(not s.solve(), "the puzzle must have exactly one solution")


# level → (houses, attributes), strictly increasing in log10 search space; from 3 × 3, so that a
# grid filled without reading the clues (values as listed) is right at most (1/3!)³ of the time
# at level 0 (2 × 2 and 2 × 4 grids let it earn 1/4 and 1/16, 3 × 2 1/36)
LEVEL_SIZES = (
    (3, 3),
    (3, 4),
    (4, 3),
    (4, 4),
    (4, 5),
    (5, 4),
    (5, 5),
    (6, 4),
    (5, 6),
    (6, 5),
    (6, 6),
)


def _beyond(lv: int) -> dict[str, int]:
    """Past level 10: a house, then an attribute, in turn up to 10 × 10, then attributes."""
    if lv <= 18:
        return {"n_houses": min(10, 6 + (lv - 9) // 2), "n_attributes": 6 + (lv - 10) // 2}
    return {"n_houses": 10, "n_attributes": 10 + (lv - 18)}


class ZebraFamily(
    DeclaredFamily,
    name=NAME,
    kind=KIND,
    params=ZebraParams,
    example={"n_houses": 3, "n_attributes": 3},
):
    # parameters that only add measurements to the metadata (the puzzle, its label and its text
    # are the same without them): a suite's dry run leaves them at their defaults
    measures = ("z3_runs",)
    # ``weights`` is a sampling preference with no realised target: the clue reduction keeps the
    # clues uniqueness needs, so the realised mix is ``metadata.clue_types`` (a histogram).
    knobs = (
        Knob("n_houses", lambda prob, _: prob["n_houses"], exact, "houses", levels=(2, 4, 6)),
        Knob(
            "n_attributes",
            lambda prob, _: len(prob["attributes"]),
            exact,
            "attributes",
            levels=(2, 4, 6),
        ),
    )
    levels = Levels(
        lambda lv: dict(zip(("n_houses", "n_attributes"), LEVEL_SIZES[lv], strict=True)),
        "log10 search space",
        lambda p: p.metadata["log10_search_space"],
        "grid sizes in order of log10 search space M · log10 N!: "
        + ", ".join(f"{n}×{m}" for n, m in LEVEL_SIZES)
        + "; past 10 a house, then an attribute, in turn (7×6, 7×7, 8×7 … 10×10 at 18), then one "
        "attribute a level (10×25 at 33)",
        beyond=_beyond,
    )

    def generate(self, p: ZebraParams, rng: np.random.Generator) -> Built:
        n, m = p.n_houses, p.n_attributes
        pool = size_pool(n, m, p.clue_types)
        chosen = _reduce(pool, rng, p.weights)
        canon = [pool.clues[i] for i in chosen]
        # relabel: attributes (Name first), values, and a permutation per attribute
        # the draws of rng.choice for the other attributes, then n values of each (every
        # attribute has the same number of values, so the samples are drawn together)
        others, *picks = samples(rng, [(len(ATTRIBUTES) - 1, m - 1)] + [(N_VALUES, n)] * m)
        attrs = [ATTRIBUTES[0], *(ATTRIBUTES[i + 1] for i in others)]
        values = [[a.values[i] for i in pick] for a, pick in zip(attrs, picks, strict=True)]
        perm = [shuffled(rng, n) for _ in range(m)]  # canonical value v -> puzzle value perm[a][v]
        clue = tuple.__new__  # a Clue from its fields, without the named tuple's Python __new__
        clues: list[Clue] = [
            clue(Clue, (t, (a, perm[a][v]), s if isinstance(s, int) else (s[0], perm[s[0]][s[1]])))
            for t, (a, v), s in canon
        ]
        order = shuffled(rng, len(clues))  # present clues in random order
        clues = [clues[i] for i in order]
        # canonical value v sits in house v: puzzle value x of attribute a is where perm[a] has it
        pos = [list(map(pa.index, range(n))) for pa in perm]
        certify(all(c.holds(pos) for c in clues), "all(c.holds(pos) for c in clues)")
        recheck(n, m, clues, pos)
        # house h holds the puzzle value that canonical value h became: perm[a][h]
        grid = [[values[a][perm[a][h]] for a in range(m)] for h in range(n)]
        hist: dict[str, int] = {}
        for c in clues:
            hist[c.type] = hist.get(c.type, 0) + 1
        problem = {
            "n_houses": n,
            "n_attributes": m,
            "attributes": [a.name for a in attrs],
            "values": values,
            "clues": [c.to_json() for c in clues],
            "solution": {
                "header": ["House", *(a.name for a in attrs)],
                "rows": [[str(h + 1), *grid[h]] for h in range(n)],
            },
        }
        meta = dict(_size_meta(n, m))
        meta["n_clues"] = len(clues)
        meta["clue_types"] = hist
        if p.z3_runs:
            meta |= z3_complexity(n, m, clues, p.z3_runs, rng, p.z3_encoding)
            meta["z3_encoding"] = p.z3_encoding
        return problem, "SAT", {"solver": "minisat22+glucose4", "unique": True}, meta


FAMILIES.register(NAME, ZebraFamily())
