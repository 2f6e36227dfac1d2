"""Kakurasu: shade cells of an n × n grid so that, in every row, the column numbers (1 … n) of
its shaded cells add up to the row's clue, and in every column the row numbers of its shaded
cells add up to the column's clue. The kind ``kakurasu``; the family ``kakurasu``.

Construction: a random shading (each cell with probability ``density``, from the item's stream)
and its sums; where the sums alone allow several shadings, cells are given back as clues,
dropped in a random order while the shading stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved again by another solver;
the tests enumerate every shading by brute force on small grids.

Encoding, check and the construction's end are the line-sum grids' (:mod:`._linesum`), the
weights here the column numbers in a row and the row numbers in a column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..fields import integer, number, params
from ..kinds.puzzle import grid_cells
from ._linesum import LineSum
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, given_line, register_solution_puzzle

NAME = KIND = "kakurasu"

GRID = LineSum(
    lambda d: [list(range(1, d["rows"] + 1))] * d["rows"],  # in a row: the column number
    lambda d: [[i + 1] * d["rows"] for i in range(d["rows"])],  # in a column: the row number
    "every cell is 1 (shaded) or 0",
    "s",
)


@params
class KakurasuParams:
    size: int = integer(2, 12, default=5)
    density: float = number(0, 1, default=0.5, open_lo=True, open_hi=True)


class KakurasuFamily(DeclaredFamily, name=NAME, params=KakurasuParams, example={"size": 4}):
    def generate(self, p: KakurasuParams, rng: np.random.Generator) -> Built:
        n = p.size
        shade = (rng.random((n, n)) < p.density).astype(int)
        if shade.all() or not shade.any():  # a constant answer would be right: flip one cell
            k = int(rng.integers(n * n))
            shade[k // n, k % n] ^= 1
        cells = grid_cells(n, n)
        data: dict[str, Any] = {
            "rows": n, "cols": n, "cells": cells, "domain": ["0", "1"], "givens": {},
            "row_sums": [int(sum(j + 1 for j in range(n) if shade[i, j])) for i in range(n)],
            "col_sums": [int(sum(i + 1 for i in range(n) if shade[i, j])) for j in range(n)],
            "solution": {f"r{i + 1}c{j + 1}": str(int(shade[i, j])) for i in range(n) for j in range(n)},
        }  # fmt: skip
        return GRID.finish(data, shade, rng)

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(3, 5, 7)),
        Knob("density", lambda prob, _: sum(v == "1" for v in prob["solution"].values()) / len(prob["cells"]),
             lambda p: 0.05, "share of shaded cells (mean over items)", levels=(0.3, 0.6),
             at={"size": 6}, stochastic=True),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"size": (3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9)[lv]},
        "cells",
        lambda p: float(p.problem["rows"] ** 2),
        "size 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9 over levels 0-10; the measure is the number of "
        "cells (log2 of the shadings)"
        "; past 10 the side grows by 1 every 2 levels (10 at 11-12, 11 at 13-14)",
        beyond=lambda lv: {"size": 9 + (lv - 9) // 2},
        highest=14,
        ceiling="past 11 × 11 proving a shading unique takes minutes (12 × 12: over 40 s on "
        "2 cores)",
    )


ASK = ask('{"solution": ["row 1 as 0s and 1s", "row 2 …", ...]} (1 = shaded)')


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    rows = ", ".join(f"row {i + 1}: {s}" for i, s in enumerate(d["row_sums"]))
    cols = ", ".join(f"column {j + 1}: {s}" for j, s in enumerate(d["col_sums"]))
    given = given_line(d)
    return (
        f"Kakurasu on a {n}×{n} grid. Shade some cells so that in every row the column numbers (1 to {n}, "
        f"left to right) of the shaded cells add up to the row's number, and in every column the row "
        f"numbers (1 to {n}, top to bottom) of its shaded cells add up to the column's number.\n\n"
        f"Row sums: {rows}.\nColumn sums: {cols}.\n{given}\n{ASK}"
    )


register_solution_puzzle(KakurasuFamily(), GRID.check, GRID.encode, words, GRID.formal(ASK))
