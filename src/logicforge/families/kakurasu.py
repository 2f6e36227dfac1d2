"""Kakurasu: shade cells of an n × n grid so that, in every row, the column numbers (1 … n) of
its shaded cells add up to the row's clue, and in every column the row numbers of its shaded
cells add up to the column's clue. The kind ``kakurasu``; the family ``kakurasu``.

Construction: a random shading (each cell with probability ``density``, from the item's stream)
and its sums; where the sums alone allow several shadings, cells are given back as clues,
dropped in a random order while the shading stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved again by another solver;
the tests enumerate every shading by brute force on small grids.

Encoding: each line is one of the subsets of 1 … n with its sum (enumerated), an auxiliary per
subset as in :mod:`logicforge.families.nonogram`.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..kinds.items import build_kind_item
from ..kinds.puzzle import (
    PuzzleKind,
    binary_decode,
    cell_index,
    certify_unique,
    check_givens,
    grid_cells,
    minimal_clues,
    register_puzzle,
)
from ..logic.cnf import CNF
from ..registry import FAMILIES, RENDERERS
from ..schema import Item, LabelledProblem
from .knobs import Knob, exact
from .levels import Levels

NAME = KIND = "kakurasu"


@functools.lru_cache(maxsize=4096)
def subsets(weights: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...]:
    """Every 0/1 line whose chosen weights add up to ``total``.

    Example:
        >>> subsets((1, 2, 3), 3)
        ((0, 0, 1), (1, 1, 0))
    """
    return tuple(
        bits for bits in itertools.product((0, 1), repeat=len(weights))
        if sum(w for w, b in zip(weights, bits, strict=True) if b) == total
    )  # fmt: skip


def line_rules(
    lines: list[tuple[list[int], tuple[int, ...], int]], top: int
) -> tuple[list[list[int]], int]:
    """Each (cells, weights, total) line as one of its subsets: an auxiliary per subset, at
    least one chosen, each fixing every cell (two subsets differ on a cell, so at most one can
    hold); auxiliaries from ``top`` + 1."""
    cl: list[list[int]] = []
    for cells, weights, total in lines:
        pats = subsets(weights, total)
        aux = list(range(top + 1, top + 1 + len(pats)))
        top += len(pats)
        cl.append(aux)
        for a, pat in zip(aux, pats, strict=True):
            cl += [[-a, v if bit else -v] for v, bit in zip(cells, pat, strict=True)]
    return cl, top


def _x(n: int, i: int, j: int) -> int:
    return i * n + j + 1


def rules(d: dict[str, Any]) -> tuple[list[list[int]], int]:
    n = d["rows"]
    idx = tuple(range(1, n + 1))
    lines = [([_x(n, i, j) for j in range(n)], idx, d["row_sums"][i]) for i in range(n)]
    lines += [([_x(n, i, j) for i in range(n)], idx, d["col_sums"][j]) for j in range(n)]
    return line_rules(lines, n * n)


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    cl, top = rules(d)
    for k, v in d["givens"].items():
        i, j = cell_index(k)
        cl.append([_x(n, i, j) if str(v) == "1" else -_x(n, i, j)])

    decode = binary_decode(n, n, lambda i, j: _x(n, i, j))

    return CNF(cl, top), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    n = d["rows"]
    if any(v not in ("0", "1") for v in sol.values()):
        return "every cell is 1 (shaded) or 0"
    why = check_givens(d, sol)
    if why:
        return why
    for i in range(n):
        if sum(j + 1 for j in range(n) if sol[f"r{i + 1}c{j + 1}"] == "1") != d["row_sums"][i]:
            return f"row {i + 1} does not add up to {d['row_sums'][i]}"
    for j in range(n):
        if sum(i + 1 for i in range(n) if sol[f"r{i + 1}c{j + 1}"] == "1") != d["col_sums"][j]:
            return f"column {j + 1} does not add up to {d['col_sums'][j]}"
    return ""


@dataclass(frozen=True)
class KakurasuParams:
    size: int = 5
    density: float = 0.5

    def __post_init__(self) -> None:
        if not isinstance(self.size, int) or not 2 <= self.size <= 12:
            raise ConfigError("size", self.size, "must be an integer in 2..12")
        if not isinstance(self.density, int | float) or not 0 < self.density < 1:
            raise ConfigError("density", self.density, "must be a number in (0, 1)")


class KakurasuFamily:
    name = NAME
    kind = KIND
    Params = KakurasuParams
    example = {"size": 4}
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
        "cells (log2 of the shadings)",
    )

    def generate(
        self, p: KakurasuParams, rng: np.random.Generator
    ) -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]:
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
        base, top = rules(data)
        lits = [_x(n, i, j) if shade[i, j] else -_x(n, i, j) for i in range(n) for j in range(n)]
        kept = minimal_clues(base, top, [[[x]] for x in lits], lits, rng)
        data["givens"] = {cells[k]: int(shade[k // n, k % n]) for k in kept}
        cnf, _ = encode(data)
        certify_unique(cnf, list(range(1, n * n + 1)), lits)
        certify(check(data, data["solution"]) == "", "the shading makes its own sums")
        return (
            data,
            "SAT",
            {"solver": "minisat22+glucose4", "unique": True},
            {"size": n, "n_givens": len(kept)},
        )


ASK = (
    "Reply with your reasoning if you like, then end with one final JSON object on its own line: "
    '{"solution": ["row 1 as 0s and 1s", "row 2 …", ...]} (1 = shaded)'
)


class KakurasuRenderer:
    name = "kakurasu"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        d = problem.problem
        n = d["rows"]
        rows = ", ".join(f"row {i + 1}: {s}" for i, s in enumerate(d["row_sums"]))
        cols = ", ".join(f"column {j + 1}: {s}" for j, s in enumerate(d["col_sums"]))
        given = (
            f"\nGiven cells: {', '.join(f'{k} = {v}' for k, v in d['givens'].items())}.\n"
            if d["givens"]
            else ""
        )
        prompt = (
            f"Kakurasu on a {n}×{n} grid. Shade some cells so that in every row the column numbers (1 to {n}, "
            f"left to right) of the shaded cells add up to the row's number, and in every column the row "
            f"numbers (1 to {n}, top to bottom) of its shaded cells add up to the column's number.\n\n"
            f"Row sums: {rows}.\nColumn sums: {cols}.\n{given}\n{ASK}"
        )
        return build_kind_item(problem, self.name, prompt, None)


class KakurasuFormalRenderer:
    name = "kakurasu-formal"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        d = problem.problem
        n = d["rows"]
        lines = [f"Variables: s[i][j] in {{0, 1}} for i, j in 1..{n}."]
        lines += [
            " + ".join(f"{j + 1}·s[{i + 1}][{j + 1}]" for j in range(n)) + f" = {t}"
            for i, t in enumerate(d["row_sums"])
        ]
        lines += [
            " + ".join(f"{i + 1}·s[{i + 1}][{j + 1}]" for i in range(n)) + f" = {t}"
            for j, t in enumerate(d["col_sums"])
        ]
        lines += [
            f"s[{k[1 : k.index('c')]}][{k[k.index('c') + 1 :]}] = {v}"
            for k, v in d["givens"].items()
        ]
        prompt = "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{ASK}"
        return build_kind_item(problem, self.name, prompt, None)


register_puzzle(PuzzleKind(KIND, check, encode, default_renderer="kakurasu"))
FAMILIES.register(NAME, KakurasuFamily())
RENDERERS.register("kakurasu", KakurasuRenderer())
RENDERERS.register("kakurasu-formal", KakurasuFormalRenderer())
