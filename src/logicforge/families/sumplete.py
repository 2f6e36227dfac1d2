"""Sumplete: an n × n grid of digits with a target per row and per column; cross out digits so
that the digits kept in every row and every column add up to its target. The kind
``sumplete``; the family ``sumplete``.

Construction: digits 1 … 9 and a random keep/cross pattern (each digit kept with probability
``keep``) from the item's stream, the targets its sums; where the targets alone allow several
patterns, cells are given back as clues (kept or crossed), dropped in a random order while the
pattern stays unique (:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved
again by another solver; the tests enumerate every pattern by brute force on small grids.
Encoding, check and the construction's end are the line-sum grids' (:mod:`._linesum`), each
cell weighed by its digit in its row and in its column.
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

NAME = KIND = "sumplete"

GRID = LineSum(
    lambda d: d["digits"],
    lambda d: d["digits"],
    "every cell is 1 (kept) or 0 (crossed out)",
    "k",
)


@params
class SumpleteParams:
    size: int = integer(2, 12, default=4)
    keep: float = number(0, 1, default=0.6, open_lo=True, open_hi=True)


class SumpleteFamily(DeclaredFamily, name=NAME, params=SumpleteParams, example={"size": 3}):
    def generate(self, p: SumpleteParams, rng: np.random.Generator) -> Built:
        n = p.size
        digits = rng.integers(1, 10, size=(n, n))
        keep = (rng.random((n, n)) < p.keep).astype(int)
        if keep.all() or not keep.any():  # a constant answer would be right: flip one cell
            k = int(rng.integers(n * n))
            keep[k // n, k % n] ^= 1
        cells = grid_cells(n, n)
        data: dict[str, Any] = {
            "rows": n, "cols": n, "cells": cells, "domain": ["0", "1"], "givens": {},
            "digits": digits.tolist(),
            "row_sums": [int((digits[i] * keep[i]).sum()) for i in range(n)],
            "col_sums": [int((digits[:, j] * keep[:, j]).sum()) for j in range(n)],
            "solution": {f"r{i + 1}c{j + 1}": str(int(keep[i, j])) for i in range(n) for j in range(n)},
        }  # fmt: skip
        return GRID.finish(data, keep, rng)

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(3, 5)),
        Knob("keep", lambda prob, _: sum(v == "1" for v in prob["solution"].values()) / len(prob["cells"]),
             lambda p: 0.05, "share of digits kept (mean over items)", levels=(0.4, 0.7),
             at={"size": 6}, stochastic=True),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"size": (3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8)[lv]},
        "cells",
        lambda p: float(p.problem["rows"] ** 2),
        "size 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8 over levels 0-10; the measure is the number of "
        "cells (log2 of the patterns)"
        "; past 10 the side grows by 1 every 4 levels (9 at 12, 10 at 16, 11 at 20, 12 at 24-27)",
        beyond=lambda lv: {"size": 8 + (lv - 8) // 4},
        highest=27,
        ceiling="past 12 × 12 proving a pattern unique takes minutes (12 × 12: about 6 s)",
    )


ASK = ask('{"solution": ["row 1 as 1 (kept) and 0 (crossed out)", "row 2 …", ...]}')


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    grid = "\n".join(
        " ".join(map(str, row)) + f"  | {t}"
        for row, t in zip(d["digits"], d["row_sums"], strict=True)
    )
    grid += "\n" + " ".join("-" for _ in range(n)) + "\n" + " ".join(map(str, d["col_sums"]))
    given = given_line(d, "Given cells (1 kept, 0 crossed out)")
    return (
        f"Sumplete on a {n}×{n} grid of digits. Cross out some digits so that the digits left in every row "
        "add up to the number after the bar, and the digits left in every column add up to the number "
        f"below it.\n\n{grid}\n{given}\n{ASK}"
    )


register_solution_puzzle(SumpleteFamily(), GRID.check, GRID.encode, words, GRID.formal(ASK))
