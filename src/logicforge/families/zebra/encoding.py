"""SAT encoding of zebra grids and clues, and the per-size candidate pool.

Variable x(a, v, h) — attribute a has value v in house h — is a·N² + v·N + h + 1. Each attribute's
values form a permutation of the houses (exactly one house per value, one value per house). A
clue is encoded from its type's relation R only: unary clauses pin or forbid one cell; a binary
clue becomes, for every house h of its first item, x(a, v, h) → ⋁_{h′ : R(h, h′)} x(b, w, h′).

Because relabelling the values of an attribute changes nothing, every puzzle of one size is built
on the *canonical* grid (value v of every attribute in house v): its candidate clues and their
clauses are built once and shared by all puzzles of that size.
"""

from __future__ import annotations

import itertools
import os
import threading
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ...errors import CertificationError
from .clues import TYPES, Clue


def var(n: int, a: int, v: int, h: int) -> int:
    return a * n * n + v * n + h + 1


@lru_cache(maxsize=16)
def structure_clauses(n: int, m: int) -> tuple[tuple[int, ...], ...]:
    """Each attribute's values form a permutation of the houses (pairwise at-most-one both ways,
    which the solver needs: without the per-house at-most-one, 8×8 generation is 13× slower)."""
    out: list[list[int]] = []
    for a in range(m):
        for v in range(n):  # each value in exactly one house
            lits = [var(n, a, v, h) for h in range(n)]
            out.append(lits)
            out += [[-x, -y] for x, y in itertools.combinations(lits, 2)]
        for h in range(n):  # each house exactly one value
            lits = [var(n, a, v, h) for v in range(n)]
            out.append(lits)
            out += [[-x, -y] for x, y in itertools.combinations(lits, 2)]
    return tuple(tuple(c) for c in out)


@lru_cache(maxsize=256)
def partners(n: int, type_name: str) -> tuple[tuple[int, ...], ...]:
    """For each house h, the houses h′ with R(h, h′) of the type's relation (read once per size)."""
    t = TYPES[type_name]
    return tuple(tuple(h2 for h2 in range(n) if t.holds(h, h2)) for h in range(n))


def clue_clauses(n: int, c: Clue) -> list[list[int]]:
    t = TYPES[c.type]
    a, v = c.a
    if t.unary:
        if not isinstance(c.second, int):
            raise CertificationError(
                "certification failed: a unary clue's second part is a house number"
            )
        keep = [h for h in range(n) if t.holds(h, c.second)]
        return (
            [[var(n, a, v, h) for h in keep]]
            if len(keep) == 1
            else [[-var(n, a, v, h)] for h in range(n) if h not in keep]
        )
    if not isinstance(c.second, tuple):
        raise CertificationError(
            "certification failed: a binary clue's second part is an (attribute, value) pair"
        )
    b, w = c.second
    first, second = var(n, a, v, 0), var(n, b, w, 0)  # house h adds h
    up = second.__add__
    return [[-(first + h), *map(up, rel)] for h, rel in enumerate(partners(n, c.type))]


@lru_cache(maxsize=1 << 16)
def encoded(n: int, c: Clue) -> tuple[tuple[int, ...], ...]:
    """:func:`clue_clauses`, kept per clue (tuples: one value shared by every puzzle that states
    the clue; the re-check of small puzzles states the same few thousand clues over and over)."""
    return tuple(map(tuple, clue_clauses(n, c)))


def canonical_pos(n: int, m: int) -> list[list[int]]:
    return [list(range(n)) for _ in range(m)]


def candidates(n: int, m: int, types: tuple[str, ...]) -> list[Clue]:
    """Every clue of the given types that is true of the canonical grid (value v in house v)."""
    pos = canonical_pos(n, m)
    items = [(a, v) for a in range(m) for v in range(n)]
    out: list[Clue] = []
    for tname in types:
        t = TYPES[tname]
        if t.unary:
            out += [
                Clue(tname, it, h)
                for it in items
                for h in range(n)
                if t.holds(pos[it[0]][it[1]], h)
            ]
            continue
        for i, j in itertools.permutations(items, 2):
            if tname == "SameHouse" and i[0] == j[0]:
                continue
            if tname in ("SameHouse", "SideBySide", "OneBetween", "TwoBetween") and i > j:
                continue  # symmetric relations: one orientation is enough
            c = Clue(tname, i, j)
            if c.holds(pos):
                out.append(c)
    return out


@dataclass(frozen=True)
class SizePool:
    """The shared, read-only machinery for one size: candidate clues and their clauses.

    ``base`` holds the structure clauses plus one clause blocking the canonical grid (any model of
    ``base`` and a clue set is a *second* solution). Solvers are built per puzzle from these lists,
    so each puzzle depends only on its own random stream, never on the puzzles made before it.

    ``guarded[i]`` holds candidate ``i``'s clauses, each with one more, last, place for the
    selector literal the puzzle gives the clue: a puzzle writes its selectors there and hands the
    lists to its solver (which copies them) while it holds ``lock``, instead of building a new
    list per clause (half that step's time).
    """

    n: int
    m: int
    clues: list[Clue]
    guarded: list[list[list[int]]]  # per candidate clue: its clauses + [selector slot]
    base: list[list[int]]
    type_ids: np.ndarray  # per candidate clue: its type's index in clues.TYPES
    lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)


_POOLS: dict[tuple[int, int, tuple[str, ...]], SizePool] = {}


def _fresh_locks() -> None:
    """In a forked child, every pool gets a lock of its own: one another thread of the parent
    held at the fork would otherwise stay held there for good."""
    for pool in _POOLS.values():
        object.__setattr__(pool, "lock", threading.Lock())


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks)


def size_pool(n: int, m: int, types: tuple[str, ...]) -> SizePool:
    """The shared pool of one size and clue-type set (built once per process)."""
    key = (n, m, types)
    if key not in _POOLS:
        clues = candidates(n, m, types)
        base = [list(c) for c in structure_clauses(n, m)]
        base.append([-var(n, a, h, h) for a in range(m) for h in range(n)])
        ids = np.array([list(TYPES).index(c.type) for c in clues], dtype=np.intp)
        guarded = [[[*cl, 0] for cl in clue_clauses(n, c)] for c in clues]
        _POOLS[key] = SizePool(n, m, clues, guarded, base, ids)
    return _POOLS[key]
