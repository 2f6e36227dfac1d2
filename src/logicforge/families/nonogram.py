"""Nonograms (Griddlers, Picross): an r × c grid whose every row and column is described by the
lengths of its runs of filled cells, in order; fill the grid. The kind ``nonogram``; the family
``nonogram``.

Construction: a random picture (each cell filled with probability ``density``, from the item's
stream) and its run clues; where the clues alone allow several pictures, filled and empty cells
are given back as clues, dropped in a random order while the picture stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved again by another solver;
the tests enumerate every picture by brute force on small grids.

Encoding: each line is one of the patterns its clue allows (enumerated; an auxiliary per
pattern, exactly one chosen, each implying its cells).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from ..errors import certify
from ..fields import integer, number, params
from ..kinds import puzzle
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, given_line, register_solution_puzzle, solved

NAME = KIND = "nonogram"


@params
class NonogramParams:
    rows: int = integer(2, 30, default=5)
    cols: int = integer(2, 30, default=5)
    density: float = number(0, 1, default=0.55, open_lo=True, open_hi=True)


def runs(line: tuple[int, ...] | list[int]) -> list[int]:
    """The lengths of the runs of 1s in a line, in order ([] for an empty line).

    Example:
        >>> runs([1, 1, 0, 1, 0])
        [2, 1]
    """
    return [len(list(g)) for v, g in itertools.groupby(line) if v]


@functools.lru_cache(maxsize=4096)
def patterns(clue: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """Every line of length ``n`` whose runs are ``clue``."""
    if not clue:
        return ((0,) * n,)
    out = []
    first, rest = clue[0], clue[1:]
    need = sum(rest) + len(rest)
    for start in range(n - first - need + 1):
        head = (0,) * start + (1,) * first
        if rest:
            for tail in patterns(rest, n - len(head) - 1):
                out.append(head + (0,) + tail)
        else:
            out.append(head + (0,) * (n - len(head)))
    return tuple(out)


def _x(c: int, i: int, j: int) -> int:
    return i * c + j + 1


def rules(d: dict[str, Any]) -> tuple[list[list[int]], int]:
    r, c = d["rows"], d["cols"]
    top = r * c
    cl: list[list[int]] = []
    lines = [([_x(c, i, j) for j in range(c)], tuple(d["row_clues"][i])) for i in range(r)]
    lines += [([_x(c, i, j) for i in range(r)], tuple(d["col_clues"][j])) for j in range(c)]
    for cells, clue in lines:
        pats = patterns(clue, len(cells))
        aux = list(range(top + 1, top + 1 + len(pats)))
        top += len(pats)
        cl.append(aux)  # at least one pattern; each chosen pattern fixes every cell
        for a, pat in zip(aux, pats, strict=True):
            cl += [[-a, v if bit else -v] for v, bit in zip(cells, pat, strict=True)]
        for k, v in enumerate(cells):  # a cell's value picks among the patterns agreeing there
            on = [a for a, pat in zip(aux, pats, strict=True) if pat[k]]
            off = [a for a, pat in zip(aux, pats, strict=True) if not pat[k]]
            cl.append([-v, *on])
            cl.append([v, *off])
    return cl, top


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    c = d["cols"]
    return puzzle.binary_grid_cnf(d, rules(d), lambda i, j: _x(c, i, j))


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    r, c = d["rows"], d["cols"]
    if any(v not in ("0", "1") for v in sol.values()):
        return "every cell is 1 (filled) or 0 (empty)"
    why = puzzle.check_givens(d, sol)
    if why:
        return why
    for i in range(r):
        if runs([int(sol[f"r{i + 1}c{j + 1}"]) for j in range(c)]) != d["row_clues"][i]:
            return f"row {i + 1} does not read {d['row_clues'][i] or [0]}"
    for j in range(c):
        if runs([int(sol[f"r{i + 1}c{j + 1}"]) for i in range(r)]) != d["col_clues"][j]:
            return f"column {j + 1} does not read {d['col_clues'][j] or [0]}"
    return ""


class NonogramFamily(
    DeclaredFamily, name=NAME, params=NonogramParams, example={"rows": 4, "cols": 4}
):
    def generate(self, p: NonogramParams, rng: np.random.Generator) -> Built:
        r, c = p.rows, p.cols
        pic = (rng.random((r, c)) < p.density).astype(int)
        cells = puzzle.grid_cells(r, c)
        data: dict[str, Any] = {
            "rows": r, "cols": c, "cells": cells, "domain": ["0", "1"],
            "row_clues": [runs(pic[i].tolist()) for i in range(r)],
            "col_clues": [runs(pic[:, j].tolist()) for j in range(c)], "givens": {},
            "solution": {f"r{i + 1}c{j + 1}": str(int(pic[i, j])) for i in range(r) for j in range(c)},
        }  # fmt: skip
        base, top = rules(data)
        lits = [_x(c, i, j) if pic[i, j] else -_x(c, i, j) for i in range(r) for j in range(c)]
        kept = puzzle.minimal_clues(base, top, [[[x]] for x in lits], lits, rng)
        data["givens"] = {cells[k]: int(pic[k // c, k % c]) for k in kept}
        cnf, _ = encode(data)
        puzzle.certify_unique(cnf, list(range(1, r * c + 1)), lits)
        certify(check(data, data["solution"]) == "", "the picture reads its own clues")
        meta = {"rows": r, "cols": c, "n_givens": len(kept)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob("rows", lambda prob, _: prob["rows"], exact, "grid rows", levels=(3, 6), at={"cols": 5}),
        Knob("cols", lambda prob, _: prob["cols"], exact, "grid columns", levels=(3, 6), at={"rows": 5}),
        Knob("density", lambda prob, _: sum(v == "1" for v in prob["solution"].values()) / len(prob["cells"]),
             lambda p: 0.05, "share of filled cells (mean over items)", levels=(0.4, 0.6),
             at={"rows": 6, "cols": 6}, stochastic=True),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"rows": 4 + lv // 2 + lv % 2, "cols": 4 + lv // 2},
        "hidden cells",
        lambda p: float(p.problem["rows"] * p.problem["cols"] - len(p.problem["givens"])),
        "grids 4×4, 5×4, 5×5, 6×5, 6×6 … 9×9 (rows = 4 + ⌈level / 2⌉, cols = 4 + ⌊level / 2⌋); "
        "the measure is the number of cells not given",
    )


ASK = ask('{"solution": ["row 1 as 0s and 1s", "row 2 …", ...]} (1 = filled)')


def _clue(cl: list[int]) -> str:
    return " ".join(map(str, cl)) or "0"


def words(d: dict[str, Any]) -> str:
    rows = "\n".join(f"row {i + 1}: {_clue(cl)}" for i, cl in enumerate(d["row_clues"]))
    cols = "\n".join(f"column {j + 1}: {_clue(cl)}" for j, cl in enumerate(d["col_clues"]))
    given = given_line(d)
    return (
        f"Solve this {d['rows']}×{d['cols']} nonogram. Each clue lists, in order, the lengths of the runs of "
        "filled cells in that row (left to right) or column (top to bottom), separated by at least one "
        f"empty cell; 0 means the line is empty.\n\n{rows}\n\n{cols}\n{given}\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    lines = [f"Variables: b[i][j] in {{0, 1}} for i in 1..{d['rows']}, j in 1..{d['cols']}.",
             "runs(line) = the lengths of its maximal blocks of 1s, in order."]  # fmt: skip
    lines += [f"runs(b[{i + 1}][·]) = {cl}" for i, cl in enumerate(d["row_clues"])]
    lines += [f"runs(b[·][{j + 1}]) = {cl}" for j, cl in enumerate(d["col_clues"])]
    lines += [f"{puzzle.formal_cell(k, 'b')} = {v}" for k, v in d["givens"].items()]
    return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(NonogramFamily(), check, encode, words, formal)
