"""SAT encoding of zebra grids and clues, and the per-size candidate pool.

Variable x(a, v, h) — attribute a has value v in house h — is a·N² + v·N + h + 1. Each attribute's
values form a permutation of the houses (exactly one house per value, one value per house). A
clue is encoded from its type's relation R only: unary clauses pin or forbid one cell; a binary
clue becomes, for every house h of its first item, x(a, v, h) → ⋁_{h′ : R(h, h′)} x(b, w, h′).

Because relabelling the values of an attribute changes nothing, every puzzle of one size is built
on the *canonical* grid (value v of every attribute in house v): its candidate clues, their
encoding and one incremental solver are shared by all puzzles of that size.
"""

from __future__ import annotations

import atexit
import itertools
from dataclasses import dataclass

from .clues import TYPES, Clue


def var(n: int, a: int, v: int, h: int) -> int:
    return a * n * n + v * n + h + 1


def structure_clauses(n: int, m: int) -> list[list[int]]:
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
    return out


def clue_clauses(n: int, c: Clue) -> list[list[int]]:
    t = TYPES[c.type]
    a, v = c.a
    if t.unary:
        assert isinstance(c.second, int)
        keep = [h for h in range(n) if t.holds(h, c.second)]
        return (
            [[var(n, a, v, h) for h in keep]]
            if len(keep) == 1
            else [[-var(n, a, v, h)] for h in range(n) if h not in keep]
        )
    assert isinstance(c.second, tuple)
    b, w = c.second
    out = []
    for h in range(n):
        out.append([-var(n, a, v, h), *(var(n, b, w, h2) for h2 in range(n) if t.holds(h, h2))])
    return out


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


@dataclass
class SizePool:
    """The shared machinery for one size: candidates, selectors and one incremental solver."""

    n: int
    m: int
    clues: list[Clue]
    selectors: list[int]
    solver: object

    def unique_with(self, chosen: list[int]) -> bool:
        """True iff the canonical grid is the only model of the chosen candidate clues."""
        return not self.solver.solve(assumptions=[self.selectors[i] for i in chosen])  # type: ignore[attr-defined]

    def core(self, chosen: list[int]) -> list[int]:
        """Indices (subset of ``chosen``) in the solver's core after an UNSAT call on ``chosen``."""
        first = self.selectors[0] if self.selectors else 0
        core = self.solver.get_core() or []  # type: ignore[attr-defined]
        return sorted(x - first for x in core if x >= first)


_POOLS: dict[tuple[int, int, tuple[str, ...]], SizePool] = {}


@atexit.register
def _close_pools() -> None:
    """Free the shared solvers before interpreter teardown (PySAT's destructors need its module)."""
    for pool in _POOLS.values():
        pool.solver.delete()  # type: ignore[attr-defined]
    _POOLS.clear()


def size_pool(n: int, m: int, types: tuple[str, ...]) -> SizePool:
    """The shared pool of one size and clue-type set (built once per process)."""
    key = (n, m, types)
    if key not in _POOLS:
        _POOLS[key] = _build_pool(n, m, types)
    return _POOLS[key]


def _build_pool(n: int, m: int, types: tuple[str, ...]) -> SizePool:
    from pysat.solvers import Solver

    clues = candidates(n, m, types)
    solver = Solver(name="glucose4")
    for cl in structure_clauses(n, m):
        solver.add_clause(cl)
    # block the canonical grid: any other model is a second solution
    solver.add_clause([-var(n, a, h, h) for a in range(m) for h in range(n)])
    top = n * n * m
    selectors = []
    for i, c in enumerate(clues):
        s = top + 1 + i
        selectors.append(s)
        for cl in clue_clauses(n, c):
            solver.add_clause([*cl, -s])
    return SizePool(n, m, clues, selectors, solver)
