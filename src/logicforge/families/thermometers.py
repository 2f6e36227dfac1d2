"""Thermometers: an n × n grid tiled by straight thermometers; fill some cells with mercury so
that every row and column holds its clue's number of filled cells, and mercury always starts
at a thermometer's bulb and rises without gaps. The kind ``thermometers``; the family
``thermometers``.

Construction: a tiling by straight thermometers of 1 to ``max_length`` cells in random
directions and a random fill level for each (from the item's stream), the row and column
counts of that filling; where the counts alone allow several fillings, cells are given back as
clues, dropped in a random order while the filling stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved again by another
solver; the tests enumerate every filling by brute force on small grids.

Encoding: f(i, j) true when filled; along a thermometer, a filled cell implies the one before
it (toward the bulb); the counts as cardinality constraints (sequential counters).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import certify
from ..fields import integer, params
from ..kinds import puzzle
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, given_line, register_solution_puzzle, solved

NAME = KIND = "thermometers"


def _f(n: int, i: int, j: int) -> int:
    return i * n + j + 1


def rules(d: dict[str, Any]) -> tuple[list[list[int]], int]:
    from pysat.card import CardEnc, EncType

    n = d["rows"]
    cl: list[list[int]] = []
    for t in d["thermometers"]:  # cells from the bulb up
        for (a, b), (x, y) in zip(t, t[1:], strict=False):
            cl.append([-_f(n, x, y), _f(n, a, b)])
    top = n * n
    lines = [([_f(n, i, j) for j in range(n)], d["row_counts"][i]) for i in range(n)]
    lines += [([_f(n, i, j) for i in range(n)], d["col_counts"][j]) for j in range(n)]
    for lits, k in lines:
        enc = CardEnc.equals(lits=lits, bound=k, top_id=top, encoding=EncType.seqcounter)
        cl += enc.clauses
        top = max(top, enc.nv)
    return cl, top


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    return puzzle.binary_grid_cnf(d, rules(d), lambda i, j: _f(n, i, j))


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    n = d["rows"]
    if any(v not in ("0", "1") for v in sol.values()):
        return "every cell is 1 (mercury) or 0 (empty)"
    why = puzzle.check_givens(d, sol)
    if why:
        return why
    filled = {(i, j) for i in range(n) for j in range(n) if sol[f"r{i + 1}c{j + 1}"] == "1"}
    for t in d["thermometers"]:
        level = [tuple(c) in filled for c in t]
        if level != sorted(level, reverse=True):
            a, b = t[0]
            return f"the thermometer from r{a + 1}c{b + 1} is not filled from its bulb without gaps"
    for i in range(n):
        if sum((i, j) in filled for j in range(n)) != d["row_counts"][i]:
            return f"row {i + 1} must hold {d['row_counts'][i]} filled cells"
    for j in range(n):
        if sum((i, j) in filled for i in range(n)) != d["col_counts"][j]:
            return f"column {j + 1} must hold {d['col_counts'][j]} filled cells"
    return ""


@params
class ThermometersParams:
    size: int = integer(2, 25, default=5)
    max_length: int = integer(1, 25, default=4, note="cut to the grid's side")


def _tiling(n: int, max_length: int, rng: np.random.Generator) -> list[list[list[int]]]:
    free = {(i, j) for i in range(n) for j in range(n)}
    out = []
    for start in [(i, j) for i in range(n) for j in range(n)]:
        if start not in free:
            continue
        want = int(rng.integers(1, min(max_length, n) + 1))
        dirs = [(0, 1), (1, 0)]
        d = dirs[int(rng.integers(2))]
        cells = [start]
        while len(cells) < want:
            nxt = (cells[-1][0] + d[0], cells[-1][1] + d[1])
            if nxt not in free or nxt in cells:
                break
            cells.append(nxt)
        for c in cells:
            free.discard(c)
        if rng.random() < 0.5:  # the bulb at either end
            cells.reverse()
        out.append([list(c) for c in cells])
    return out


class ThermometersFamily(DeclaredFamily, name=NAME, params=ThermometersParams, example={"size": 4}):
    def generate(self, p: ThermometersParams, rng: np.random.Generator) -> Built:
        n = p.size
        thermos = _tiling(n, p.max_length, rng)
        filled: set[tuple[int, int]] = set()
        for t in thermos:
            level = int(rng.integers(0, len(t) + 1))
            filled |= {(c[0], c[1]) for c in t[:level]}
        if not filled or len(filled) == n * n:  # a constant answer would be right: change one
            t = thermos[int(rng.integers(len(thermos)))]
            if filled:
                filled.discard((t[-1][0], t[-1][1]))
            else:
                filled.add((t[0][0], t[0][1]))
        cells = puzzle.grid_cells(n, n)
        data: dict[str, Any] = {
            "rows": n, "cols": n, "cells": cells, "domain": ["0", "1"], "thermometers": thermos, "givens": {},
            "row_counts": [sum((i, j) in filled for j in range(n)) for i in range(n)],
            "col_counts": [sum((i, j) in filled for i in range(n)) for j in range(n)],
            "solution": {f"r{i + 1}c{j + 1}": "1" if (i, j) in filled else "0" for i in range(n) for j in range(n)},
        }  # fmt: skip
        certify(
            check(data, data["solution"]) == "", "the filling keeps every thermometer and count"
        )
        base, top = rules(data)
        lits = [
            _f(n, i, j) if (i, j) in filled else -_f(n, i, j) for i in range(n) for j in range(n)
        ]
        kept = puzzle.minimal_clues(base, top, [[[x]] for x in lits], lits, rng)
        data["givens"] = {cells[k]: int((k // n, k % n) in filled) for k in kept}
        cnf, _ = encode(data)
        puzzle.certify_unique(cnf, list(range(1, n * n + 1)), lits)
        meta = {"size": n, "n_thermometers": len(thermos), "n_givens": len(kept)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(3, 5, 7)),
        Knob("max_length", lambda prob, _: max(len(t) for t in prob["thermometers"]), lambda p: 1.0,
             "longest thermometer (within one cell: the grid's edge and earlier ones stop it)",
             levels=(2, 4), at={"size": 6}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"size": (3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9)[lv], "max_length": 4},
        "cells",
        lambda p: float(p.problem["rows"] ** 2),
        "size 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9 with thermometers up to 4 cells; the measure is the "
        "number of cells (log2 of the fillings)"
        "; past 10 the side grows by 1 every 2 levels (10 at 11 … 25 at 41)",
        beyond=lambda lv: {"size": 9 + (lv - 9) // 2, "max_length": 4},
    )


ASK = ask('{"solution": ["row 1 as 0s and 1s", "row 2 …", ...]} (1 = filled)')


def words(d: dict[str, Any]) -> str:

    def name(c: list[int]) -> str:
        return f"r{c[0] + 1}c{c[1] + 1}"

    thermos = "\n".join("- " + " → ".join(name(c) for c in t) for t in d["thermometers"])
    given = given_line(d)
    return (
        f"Thermometers on a {d['rows']}×{d['cols']} grid (cells r<row>c<column>). Each thermometer below is "
        "listed from its bulb to its top. Fill some cells with mercury: on every thermometer the "
        "mercury starts at the bulb and goes up without gaps (a thermometer may also stay empty), "
        f"and every row and column holds the number of filled cells given.\n\n{thermos}\n\n"
        f"Filled cells per row: {d['row_counts']}\nFilled cells per column: {d['col_counts']}\n{given}\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = d["rows"]
    v = lambda c: f"f[{c[0] + 1}][{c[1] + 1}]"  # noqa: E731
    lines = [f"Variables: f[i][j] in {{0, 1}} for i, j in 1..{n}."]
    for t in d["thermometers"]:
        lines += [f"{v(b)} → {v(a)}" for a, b in zip(t, t[1:], strict=False)]
    lines += [
        " + ".join(v((i, j)) for j in range(n)) + f" = {k}" for i, k in enumerate(d["row_counts"])
    ]
    lines += [
        " + ".join(v((i, j)) for i in range(n)) + f" = {k}" for j, k in enumerate(d["col_counts"])
    ]
    lines += [f"{puzzle.formal_cell(k, 'f')} = {x}" for k, x in d["givens"].items()]
    return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(ThermometersFamily(), check, encode, words, formal)
