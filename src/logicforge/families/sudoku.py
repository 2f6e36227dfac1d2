"""Sudoku, n × n with r × c boxes (4 × 4, 6 × 6, 9 × 9): fill the grid so that every row,
column and box holds 1 … n once. The kind ``sudoku``; the family ``sudoku``.

Construction: a full grid from the canonical pattern ``(c·(i mod r) + ⌊i / r⌋ + j) mod n``
under random symmetries (digits relabelled, rows within bands, bands, columns within stacks,
stacks — all drawn from the item's stream) and, at 6 × 6 and 9 × 9, a random walk of cycle
swaps that leaves the symmetry class (:func:`full_grid`); then the givens are removed one at a time in a
random order while the solution stays unique (:func:`~logicforge.kinds.puzzle.minimal_clues`),
down to ``n_givens`` or until no given can go. Uniqueness is proved again by another solver
(:func:`~logicforge.kinds.puzzle.certify_unique`). At 4 × 4 the grid is drawn uniformly from
all 288 (:func:`grids4`, found by enumeration; the symmetry construction reaches only 96 of
them) and the same removal is decided on all of them at once instead (a grid per bit; the
grids a clue set allows are the AND of its clues' bit sets, and unique means one bit), which
gives the same givens as the SAT path for the same grid and order. The tests count the
solutions with OR-Tools CP-SAT, a different model and solver.

Encoding: x(i, j, v) = (i·n + j)·n + v + 1 (0-based); each cell one value, each row, column and
box each value once.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import at_most, integer, params
from ..kinds.puzzle import (
    check_givens,
    digit_decode,
    formal_cell,
    givens_grid,
    grid_cells,
    minimal_clues,
)
from ..logic.cnf import CNF
from ..rng import shuffled
from . import _latin as latin
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import GRID_ASK, Built, register_solution_puzzle, solved

NAME = KIND = "sudoku"
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}


@functools.lru_cache(maxsize=16)
def groups(n: int) -> list[list[tuple[int, int]]]:
    """The rows, columns and boxes of an n × n sudoku (0-based cells)."""
    r, c = BOXES[n]
    rows = [[(i, j) for j in range(n)] for i in range(n)]
    cols = [[(i, j) for i in range(n)] for j in range(n)]
    boxes = [
        [(bi * r + a, bj * c + b) for a in range(r) for b in range(c)]
        for bi in range(n // r)
        for bj in range(n // c)
    ]
    return rows + cols + boxes


@functools.lru_cache(maxsize=16)
def rules(n: int) -> tuple[tuple[int, ...], ...]:
    """Every cell exactly one value; every group every value exactly once."""
    cl = latin.cell_rules(n)
    for g in groups(n):
        for v in range(n):
            cl += latin.exactly_one([latin.var(n, i, j, v) for i, j in g])
    return tuple(map(tuple, cl))


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    cl = rules(n) + tuple(latin.given_clauses(n, d["givens"]))
    return CNF.trusted(cl, n**3), digit_decode(n, latin.var)  # built here: every literal in range


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    """'' when ``sol`` fills the grid by the rules and keeps the givens, else why not."""
    n = d["rows"]
    why = check_givens(d, sol)
    if why:
        return why
    want = {str(v) for v in range(1, n + 1)}
    for g in groups(n):
        got = [sol.get(f"r{i + 1}c{j + 1}") for i, j in g]
        if set(got) != want:
            a, b = g[0], g[-1]
            return f"the group r{a[0] + 1}c{a[1] + 1}…r{b[0] + 1}c{b[1] + 1} does not hold 1…{n} once each"
    return ""


WALK = (4, 6)  # rounds, swaps per side and round: 48 cycle swaps per grid (see full_grid)


_PAIRS = {k: list(itertools.combinations(range(k), 2)) for k in (2, 3, 4, 5)}  # line pairs in a box


def _swap_cycle(a: list[int], b: list[int], k: int) -> None:
    """Swap ``a[k]`` with ``b[k]`` and then wherever the swap left a value twice in ``a``, until
    ``a`` and ``b`` again hold the values they held (a cycle of the map a[k] ↦ b[k])."""
    start, ks = a[k], [k]
    while b[k] != start:
        k = a.index(b[k])
        ks.append(k)
    for k in ks:
        a[k], b[k] = b[k], a[k]


def _walk(grid: list[list[int]], n: int, rng: np.random.Generator) -> list[list[int]]:
    """Random cycle swaps, each between two rows of one band (over a cycle of columns) or two
    columns of one stack (over a cycle of rows): in each of ``WALK[0]`` rounds, ``WALK[1]`` of
    rows, then as many of columns (rows of the transpose). Each keeps every row, column and box
    a permutation: the two lines trade values only in cells that share a box, and the cycle
    closes, so each line ends with the values it had. Unlike the symmetries, a swap changes the
    grid's pattern (which digits share a row within a box)."""
    rounds, per = WALK
    for rnd in rng.random((rounds, 2, per, 3)).tolist():
        for draws, lines in zip(rnd, BOXES[n], strict=True):  # rows per box, then columns
            pairs = _PAIRS[lines]
            for x, y, k in draws:
                a, b = pairs[int(y * len(pairs))]
                base = int(x * (n // lines)) * lines
                _swap_cycle(grid[base + a], grid[base + b], int(k * n))
            grid = [list(t) for t in zip(*grid, strict=True)]  # the other side's lines as rows
    return grid


def full_grid(n: int, rng: np.random.Generator) -> list[list[int]]:
    """A full sudoku grid (values 1 … n): the canonical pattern under random symmetries, then
    (6 × 6 and 9 × 9) a random walk of 48 cycle swaps (:func:`_walk`). The symmetries
    alone reach one equivalence class of grids; the walk reaches the others, and after it the
    grids' patterns look like random ones: distinct digit sets in a row of a box, 23.0 on
    average over 300 9 × 9 grids (22.8 for 200 grids filled by random backtracking, 9 without
    the walk), 5.4 at 6 × 6 (5.4; 6)."""
    r, c = BOXES[n]
    base = [[(c * (i % r) + i // r + j) % n for j in range(n)] for i in range(n)]
    digits = shuffled(rng, n)
    bands = shuffled(rng, n // r)
    rows = [b * r + x for b in bands for x in shuffled(rng, r)]
    stacks = shuffled(rng, n // c)
    cols = [s * c + x for s in stacks for x in shuffled(rng, c)]
    grid = [[digits[base[i][j]] + 1 for j in cols] for i in rows]
    if n == 4:  # the construction's own check: one of the enumerated (checked) grids
        certify(tuple(v for row in grid for v in row) in grids4()[0], "the grid is a sudoku grid")
        return grid
    grid = _walk(grid, n, rng)
    for g in groups(n):  # the construction's own check: every group a permutation of 1…n
        certify(sorted(grid[i][j] for i, j in g) == list(range(1, n + 1)), "grid groups hold 1…n")
    return grid


@functools.lru_cache(maxsize=1)
def grids4() -> tuple[dict[tuple[int, ...], int], tuple[tuple[int, ...], ...]]:
    """Every 4 × 4 sudoku grid (values 1 … 4, cells row by row), found by exhaustive
    backtracking and checked (there are 288), and for each cell and value the set of grids
    holding that value there, as a 288-bit integer (bit g for grid g): the grids as a map to
    their bit, and the sets."""
    gs = groups(4)
    of = [[k for k, g in enumerate(gs) if (i, j) in g] for i in range(4) for j in range(4)]
    found: list[tuple[int, ...]] = []
    cells = [0] * 16

    def fill(c: int) -> None:
        if c == 16:
            found.append(tuple(cells))
            return
        for v in range(1, 5):
            if all(cells[i * 4 + j] != v for k in of[c] for i, j in gs[k] if i * 4 + j < c):
                cells[c] = v
                fill(c + 1)
        cells[c] = 0

    fill(0)
    certify(len(found) == len(set(found)) == 288, "there are 288 4 × 4 sudoku grids")
    for grid in found:
        certify(check_rows4(grid), "every enumerated grid keeps the rules")
    masks = tuple(
        tuple(sum(1 << g for g, grid in enumerate(found) if grid[c] == v) for v in range(5))
        for c in range(16)
    )
    return {grid: g for g, grid in enumerate(found)}, masks


def check_rows4(grid: Sequence[int]) -> bool:
    return all(sorted(grid[i * 4 + j] for i, j in g) == [1, 2, 3, 4] for g in groups(4))


@functools.lru_cache(maxsize=1)
def unique4() -> dict[tuple[int, ...], bytes]:
    """For every 4 × 4 grid, a table over the 2¹⁶ clue sets (bit k: cell k given): 1 where the
    set's values fix that grid, i.e. no other grid agrees with it on every given cell. A grid's
    table is shared with every grid that differs from it by a relabelling of the digits (12 in
    all). Built from :func:`grids4`: the sets another grid h agrees with are the subsets of
    their agreement; their union is the closure of those 287 masks under subsets."""
    found, _ = grids4()
    grids = list(found)
    cells = np.arange(16)
    sets = np.arange(1 << 16)
    tables: dict[tuple[int, ...], bytes] = {}
    out: dict[tuple[int, ...], bytes] = {}
    for grid in grids:
        seen: dict[int, int] = {}
        pattern = tuple(seen.setdefault(v, len(seen)) for v in grid)
        if pattern not in tables:
            g = np.array(grid)
            agree = [int(((np.array(h) == g) << cells).sum()) for h in grids if h != grid]
            fooled = np.zeros(1 << 16, dtype=bool)
            fooled[agree] = True
            for b in range(16):  # fooled by a set ⇒ fooled by every subset of it
                lo = sets[(sets >> b) & 1 == 0]
                fooled[lo] |= fooled[lo | (1 << b)]
            tables[pattern] = (~fooled).astype(np.uint8).tobytes()
        out[grid] = tables[pattern]
    return out


def _keep4(flat: tuple[int, ...], rng: np.random.Generator, keep: int) -> list[int]:
    """The greedy removal on a grid given row by row, each step one look-up in the grid's
    :func:`unique4` table; the result is proved again on the enumeration itself (the AND of
    the givens' grid sets is the solution's bit alone)."""
    found, masks = grids4()
    table = unique4()[flat]
    kept, left = (1 << 16) - 1, 16
    for i in shuffled(rng, 16):
        if left <= keep:
            break
        if table[without := kept & ~(1 << i)]:
            kept, left = without, left - 1
    out = [k for k in range(16) if kept >> k & 1]
    allowed = (1 << len(found)) - 1
    for k in out:
        allowed &= masks[k][flat[k]]
    certify(allowed == 1 << found[flat], "the givens allow one grid, the solution")
    return out


@functools.lru_cache(maxsize=1)
def _grid_list4() -> tuple[tuple[int, ...], ...]:
    return tuple(grids4()[0])


def _generate4(rng: np.random.Generator, keep: int) -> dict[str, Any]:
    """A 4 × 4 puzzle: the grid drawn uniformly from all 288 (the enumeration proves each one),
    then the greedy removal of :func:`_keep4`."""
    grids = _grid_list4()
    flat = grids[int(rng.integers(len(grids)))]
    return _data(4, flat, _keep4(flat, rng, keep))


_DIGITS = tuple(map(str, range(26)))


@params
class SudokuParams:
    size: int = 4
    # stop removing givens at this many (0: as few as uniqueness allows)
    n_givens: int = integer(0, default=0, note="at most size²")

    def validate(self) -> None:
        if self.size not in BOXES:
            raise ConfigError("size", self.size, f"choose one of {', '.join(map(str, BOXES))}")
        at_most("n_givens", self.n_givens, self.size**2)


LEVEL_MAP = [(4, 10), (4, 8), (4, 6), (6, 24), (6, 20), (6, 16), (9, 45), (9, 38), (9, 32),
    (9, 28), (9, 0)]  # fmt: skip


class SudokuFamily(DeclaredFamily, name=NAME, params=SudokuParams, example={"size": 4}):
    def generate(self, p: SudokuParams, rng: np.random.Generator) -> Built:
        n = p.size
        if n == 4:  # decided on all 288 grids at once: the proof is the enumeration
            return _emit(_generate4(rng, p.n_givens), "enumeration", checked=True)
        grid = full_grid(n, rng)
        sol_lits = latin.literals(n, grid)
        clues = [[[lit]] for lit in sol_lits]
        kept = minimal_clues(
            rules(n),
            n**3,
            clues,
            sol_lits,
            rng,
            keep_at_least=p.n_givens,
            warm=True,
            solver="cadical153",
        )
        data = _data(n, tuple(v for row in grid for v in row), kept)
        cnf, _ = encode(data)
        latin.certify_solution(cnf, n, sol_lits, base=rules(n), solver="minisat22")
        return _emit(data, "cadical153+minisat22")

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(4, 6, 9)),
        Knob("n_givens", lambda prob, _: len(prob["givens"]), exact,
             "given digits (a floor: removal stops there, or earlier where none can go)",
             levels=(30, 40), at={"size": 9}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"size": LEVEL_MAP[lv][0], "n_givens": LEVEL_MAP[lv][1]},
        "log10 search space",
        latin.empty_space,
        "size 4 at levels 0-2 (10, 8, 6 givens), 6 at 3-5 (24, 20, 16), 9 at 6-10 (45, 38, 32, 28, "
        "minimal); past 10: 16 × 16 at 11-15 (150, 130, 115, 100 givens, minimal), then 25 × 25 "
        "from 450 givens down by 25 a level; log10 search space = empty cells · log10 n",
        beyond=lambda lv: (
            {"size": 16, "n_givens": (150, 130, 115, 100, 0)[lv - 11]}
            if lv <= 15
            else {"size": 25, "n_givens": 450 - 25 * (lv - 16)}
        ),
        highest=22,
        ceiling="25 × 25 is the largest grid, and below 300 givens its uniqueness proofs take "
        "minutes",
    )


@functools.cache
def _cells(n: int) -> tuple[str, ...]:
    return tuple(grid_cells(n, n))


def _data(n: int, flat: Sequence[int], kept: Sequence[int]) -> dict[str, Any]:
    """The puzzle's data from its solution (cells row by row) and the indices of its givens."""
    cells = _cells(n)
    return {
        "rows": n, "cols": n, "box": list(BOXES[n]), "cells": list(cells),
        "domain": list(_DIGITS[1 : n + 1]),
        "givens": {cells[k]: flat[k] for k in kept},
        "solution": {c: _DIGITS[v] for c, v in zip(cells, flat, strict=True)},
    }  # fmt: skip


def _emit(
    data: dict[str, Any], proof: str, checked: bool = False
) -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]:
    if not checked:
        certify(check(data, data["solution"]) == "", "the solution keeps every rule")
    n, k = data["rows"], len(data["givens"])
    meta = {"size": n, "n_givens_actual": k, "n_empty": n * n - k}
    return solved(data, proof, meta)


def words(d: dict[str, Any]) -> str:
    n, (r, c) = d["rows"], d["box"]
    return (
        f"Solve this {n}×{n} sudoku. Fill every empty cell (.) with a digit from 1 to {n} so that "
        f"each row, each column and each {r}×{c} box contains every digit from 1 to {n} exactly once.\n\n"
        f"{givens_grid(d)}\n\n{GRID_ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    """The same puzzle as constraints: domains, all-different groups and the givens."""

    n = d["rows"]
    gs = groups(n)
    lines = [f"Variables: x[i][j] for i, j in 1..{n}, each in {{1..{n}}}.", "Constraints:"]
    for g in gs:
        lines.append("alldifferent(" + ", ".join(f"x[{i + 1}][{j + 1}]" for i, j in g) + ")")
    lines.append(
        "Givens: " + ", ".join(f"{formal_cell(k, 'x')} = {v}" for k, v in d["givens"].items())
    )
    return (
        "Find the values of all variables.\n\n"
        + "\n".join(lines)
        + "\n\n"
        + GRID_ASK.replace("row 1", "x[1][·]").replace("row 2", "x[2][·]")
    )


register_solution_puzzle(SudokuFamily(), check, encode, words, formal)
