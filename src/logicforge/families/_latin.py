"""Digit grids: an n × n grid with a digit 1 … n in every cell, each row and each column holding
every digit once (the Latin-square, futoshiki, kenken and skyscrapers families; sudoku adds its
boxes to the same numbering).

Written once here: the variable x(i, j, v) = (i·n + j)·n + v + 1 (cell (i, j) holds v + 1), the
Latin rules, the random square, the puzzle data's common fields, the uniqueness certificate on
the solution's literals, the Latin check and the levels' search-space measure.

Example:
    >>> import numpy as np
    >>> sq = latin_square(3, np.random.default_rng(0))
    >>> sorted(sq[0]), len(rules(3)), literals(3, [[1, 2, 3]] * 3)[:3]
    ([1, 2, 3], 108, [1, 5, 9])
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ..errors import certify
from ..kinds.puzzle import cell_index, certify_unique, check_givens, grid_cells
from ..logic.cnf import CNF
from ..rng import shuffled


def var(n: int, i: int, j: int, v: int) -> int:
    """The variable "cell (i, j) holds v + 1" of an n × n digit grid (all 0-based)."""
    return (i * n + j) * n + v + 1


def exactly_one(lits: Sequence[int]) -> list[list[int]]:
    """``lits`` as a clause, then every pair of them forbidden together (pairwise, in order)."""
    return [list(lits), *([-a, -b] for a, b in itertools.combinations(lits, 2))]


def cell_rules(n: int) -> list[list[int]]:
    """Exactly one digit per cell, cell by cell in reading order."""
    cl: list[list[int]] = []
    for i, j in itertools.product(range(n), repeat=2):
        cl += exactly_one([var(n, i, j, v) for v in range(n)])
    return cl


@functools.lru_cache(maxsize=16)
def rules(n: int) -> tuple[tuple[int, ...], ...]:
    """Exactly one digit per cell, and each digit exactly once per row and per column."""
    cl = cell_rules(n)
    for k in range(n):
        for v in range(n):
            for line in ([(k, j) for j in range(n)], [(i, k) for i in range(n)]):
                cl += exactly_one([var(n, i, j, v) for i, j in line])
    return tuple(map(tuple, cl))


def latin_square(n: int, rng: np.random.Generator) -> list[list[int]]:
    """The cyclic square under random row, column and symbol permutations (values 1 … n)."""
    rows, cols, sym = (shuffled(rng, n) for _ in range(3))
    sq = [[sym[(rows[i] + cols[j]) % n] + 1 for j in range(n)] for i in range(n)]
    for k in range(n):
        certify(
            sorted(sq[k]) == sorted(r[k] for r in sq) == list(range(1, n + 1)), "a Latin square"
        )
    return sq


def literals(n: int, sq: Sequence[Sequence[int]]) -> list[int]:
    """The true literal of every cell of the filled grid ``sq`` (values 1 … n), row by row."""
    return [var(n, i, j, sq[i][j] - 1) for i in range(n) for j in range(n)]


def given_clauses(n: int, givens: dict[str, Any]) -> list[tuple[int]]:
    """One unit clause per given digit (``{"r1c2": 3, …}``)."""
    return [(var(n, *cell_index(k), int(v) - 1),) for k, v in givens.items()]


def head(n: int) -> tuple[list[str], dict[str, Any]]:
    """The cell names row by row and the data fields every digit grid starts with."""
    cells = grid_cells(n, n)
    return cells, {
        "rows": n, "cols": n, "cells": cells, "domain": [str(v) for v in range(1, n + 1)],
    }  # fmt: skip


def givens(sq: Sequence[Sequence[int]], kept: Iterable[int]) -> dict[str, int]:
    """The given digits of the cells numbered ``kept`` (row by row) of the filled grid ``sq``."""
    n = len(sq)
    cells = grid_cells(n, n)
    return {cells[k]: sq[k // n][k % n] for k in kept}


def solution(cells: Sequence[str], sq: Sequence[Sequence[int]]) -> dict[str, str]:
    """The answer's cells: every digit of the filled grid ``sq`` as text."""
    n = len(sq)
    return {cells[k]: str(sq[k // n][k % n]) for k in range(n * n)}


def certify_solution(cnf: CNF, n: int, lits: Iterable[int], **kw: Any) -> None:
    """:func:`~logicforge.kinds.puzzle.certify_unique` on the grid's n³ variables, with the model
    whose true literals are ``lits`` (keywords go to it: ``base``, ``solver``)."""
    primary = list(range(1, n**3 + 1))
    true = set(lits)
    certify_unique(cnf, primary, [v if v in true else -v for v in primary], **kw)


def finish(
    sq: Sequence[Sequence[int]],
    fields: dict[str, Any],
    encode: Callable[[dict[str, Any]], tuple[CNF, Any]],
    check: Callable[[dict[str, Any], dict[str, str]], str],
    what: str,
    **kw: Any,
) -> dict[str, Any]:
    """The puzzle data of the filled grid ``sq``: the common fields, the family's own ``fields``
    (``givens`` among them), the solution — proved the only one of ``encode(data)``
    (:func:`certify_solution`, keywords to it) and kept by ``check`` (``what`` names the rule)."""
    n = len(sq)
    cells, data = head(n)
    data |= {**fields, "solution": solution(cells, sq)}
    cnf, _ = encode(data)
    certify_solution(cnf, n, literals(n, sq), **kw)
    certify(check(data, data["solution"]) == "", what)
    return data


def check_latin(d: dict[str, Any], sol: dict[str, str]) -> str:
    """'' when ``sol`` keeps the givens and every row and column holds 1 … n once, else why not."""
    n = d["rows"]
    want = {str(v) for v in range(1, n + 1)}
    why = check_givens(d, sol)
    if why:
        return why
    for k in range(1, n + 1):
        if {sol.get(f"r{k}c{j}") for j in range(1, n + 1)} != want:
            return f"row {k} does not hold 1…{n} once each"
        if {sol.get(f"r{i}c{k}") for i in range(1, n + 1)} != want:
            return f"column {k} does not hold 1…{n} once each"
    return ""


def empty_space(p: Any) -> float:
    """log10 search space of a problem: the cells without a given digit · log10 n."""
    n = p.problem["rows"]
    return (n**2 - len(p.problem["givens"])) * float(np.log10(n))


def full_space(p: Any) -> float:
    """log10 search space with every cell open: n² · log10 n."""
    n = p.problem["rows"]
    return n**2 * float(np.log10(n))
