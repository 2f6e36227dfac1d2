"""Queens (one-star Star Battle): an n × n grid split into n coloured regions; place n queens so
that every row, every column and every region holds exactly one, and no two queens touch, not
even diagonally. The kind ``queens``; the family ``queens``.

Construction: a queen in every row, the columns a random permutation with no two neighbours
touching (drawn from the item's stream); the n regions grow from the queens by a random
multi-source flood fill, so each region holds one queen by construction. Where the regions alone
leave several placements, given queens are added back: every queen is a candidate clue and
clues are dropped in a random order while the placement stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved again by another solver;
the tests enumerate every placement by backtracking.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..errors import GenerationError, certify
from ..fields import integer, params
from ..kinds.puzzle import (
    binary_decode,
    cell_index,
    certify_unique,
    formal_cell,
    grid_cells,
    minimal_clues,
)
from ..logic.cnf import CNF
from ..rng import shuffled
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "queens"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _q(n: int, i: int, j: int) -> int:
    return i * n + j + 1


def _exactly_one(lits: list[int]) -> list[list[int]]:
    return [lits] + [[-a, -b] for a, b in itertools.combinations(lits, 2)]


def rules(n: int, regions: list[str]) -> list[list[int]]:
    cl: list[list[int]] = []
    for k in range(n):
        cl += _exactly_one([_q(n, k, j) for j in range(n)])
        cl += _exactly_one([_q(n, i, k) for i in range(n)])
    for letter in sorted(set("".join(regions))):
        cl += _exactly_one(
            [_q(n, i, j) for i in range(n) for j in range(n) if regions[i][j] == letter]
        )
    for i, j in itertools.product(range(n - 1), range(n)):
        for dj in (-1, 1):  # diagonal neighbours in the next row (same row / column: above)
            if 0 <= j + dj < n:
                cl.append([-_q(n, i, j), -_q(n, i + 1, j + dj)])
    return cl


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    cl = rules(n, d["regions"]) + [[_q(n, *cell_index(k))] for k in d["givens"]]

    decode = binary_decode(n, n, lambda i, j: _q(n, i, j))

    return CNF(cl, n * n), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    n = d["rows"]
    if any(v not in ("0", "1") for v in sol.values()):
        return "every cell is 1 (queen) or 0 (empty)"
    qs = [(i, j) for i in range(n) for j in range(n) if sol[f"r{i + 1}c{j + 1}"] == "1"]
    for k in d["givens"]:
        if sol.get(k) != "1":
            return f"{k} holds a given queen"
    if sorted(i for i, _ in qs) != list(range(n)):
        return "every row holds exactly one queen"
    if sorted(j for _, j in qs) != list(range(n)):
        return "every column holds exactly one queen"
    if sorted(d["regions"][i][j] for i, j in qs) != sorted(set("".join(d["regions"]))):
        return "every region holds exactly one queen"
    for (a, b), (x, y) in itertools.combinations(qs, 2):
        if abs(a - x) <= 1 and abs(b - y) <= 1:
            return f"the queens at r{a + 1}c{b + 1} and r{x + 1}c{y + 1} touch"
    return ""


@params
class QueensParams:
    size: int = integer(4, len(LETTERS), default=6)
    max_attempts: int = integer(1, 100_000, default=1000)


def _placement(n: int, rng: np.random.Generator, attempts: int) -> list[int]:
    for _ in range(attempts):
        cols = shuffled(rng, n)
        if all(abs(a - b) > 1 for a, b in zip(cols, cols[1:], strict=False)):
            return cols
    raise GenerationError(f"{NAME}: no non-touching placement on {n}×{n} in {attempts} draws")


def _regions(n: int, cols: list[int], rng: np.random.Generator) -> list[str]:
    owner = [[-1] * n for _ in range(n)]
    frontier: list[tuple[int, int, int]] = []
    for i, j in enumerate(cols):
        owner[i][j] = i
        frontier.append((i, j, i))
    while frontier:  # grow a random region by one cell next to it
        k = int(rng.integers(len(frontier)))
        i, j, who = frontier[k]
        free = [(i + a, j + b) for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= i + a < n and 0 <= j + b < n and owner[i + a][j + b] < 0]  # fmt: skip
        if not free:
            frontier.pop(k)
            continue
        x, y = free[int(rng.integers(len(free)))]
        owner[x][y] = who
        frontier.append((x, y, who))
    return ["".join(LETTERS[owner[i][j]] for j in range(n)) for i in range(n)]


class QueensFamily(DeclaredFamily, name=NAME, params=QueensParams, example={"size": 5}):
    def generate(self, p: QueensParams, rng: np.random.Generator) -> Built:
        n = p.size
        cols = _placement(n, rng, p.max_attempts)
        regions = _regions(n, cols, rng)
        lits = [_q(n, i, j) if cols[i] == j else -_q(n, i, j) for i in range(n) for j in range(n)]
        clues = [[[_q(n, i, cols[i])]] for i in range(n)]
        kept = minimal_clues(rules(n, regions), n * n, clues, lits, rng)
        cells = grid_cells(n, n)
        data: dict[str, Any] = {
            "rows": n, "cols": n, "cells": cells, "domain": ["0", "1"], "regions": regions,
            "givens": [f"r{i + 1}c{cols[i] + 1}" for i in kept],
            "solution": {f"r{i + 1}c{j + 1}": "1" if cols[i] == j else "0" for i in range(n) for j in range(n)},
        }  # fmt: skip
        cnf, _ = encode(data)
        certify_unique(cnf, list(range(1, n * n + 1)), lits)
        certify(check(data, data["solution"]) == "", "the placement keeps every rule")
        meta = {"size": n, "n_givens": len(kept)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob(
            "size", lambda prob, _: prob["rows"], exact, "grid side and regions", levels=(5, 7, 9)
        ),
    )
    levels = Levels(
        lambda lv: {"size": 4 + lv if lv < 6 else 9 + (lv - 6)},
        "log10 search space",
        lambda p: math.lgamma(p.problem["rows"] + 1) / math.log(10),
        "size 4, 5, 6, 7, 8, 9, 9, 10, 11, 12, 13 over levels 0-10; the measure is log10 n! (the "
        "placements with one queen per row and column)",
    )


ASK = ask('{"solution": [[row 1: 1 = queen, 0 = empty], [row 2 …], ...]}')


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    given = (
        f"\nGiven queens: {', '.join(d['givens'])} (r = row, c = column).\n" if d["givens"] else ""
    )
    return (
        f"Place {n} queens on this {n}×{n} grid of {n} regions (each letter is one region) so that every "
        "row, every column and every region holds exactly one queen, and no two queens touch — not "
        f"even diagonally.\n\n"
        + "\n".join(" ".join(row) for row in d["regions"])
        + f"\n{given}\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = d["rows"]
    v = lambda i, j: f"q[{i + 1}][{j + 1}]"  # noqa: E731
    lines = [f"Variables: q[i][j] in {{0, 1}} for i, j in 1..{n}.",
             "Every row and every column: sum = 1.",
             "No two 1s in horizontally, vertically or diagonally adjacent cells."]  # fmt: skip
    for letter in sorted(set("".join(d["regions"]))):
        cells = [v(i, j) for i in range(n) for j in range(n) if d["regions"][i][j] == letter]
        lines.append(f"region {letter}: " + " + ".join(cells) + " = 1")
    for k in d["givens"]:
        lines.append(f"{formal_cell(k, 'q')} = 1")
    return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(QueensFamily(), check, encode, words, formal)
