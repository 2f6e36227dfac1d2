"""Skyscrapers: an n × n Latin square of building heights 1 … n; a clue outside the grid says
how many buildings are visible from there along its row or column (a taller building hides
every shorter one behind it). The kind ``skyscrapers``; the family ``skyscrapers``.

Construction: a Latin square (as :mod:`logicforge.families.latinsquare`); all 4n edge clues
and all n² heights are candidate clues, dropped in a random order while the square stays
unique (:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved again by another
solver; the tests enumerate solutions by backtracking over the rows' permutations.

Encoding: the Latin rules; an edge clue as "the line is one of the permutations with that many
visible" — an auxiliary per such permutation (at most n! = 720 for n = 6).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from ..fields import integer, params
from ..kinds.puzzle import digit_decode, formal_cell, minimal_clues
from ..logic.cnf import CNF
from . import _latin as latin
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "skyscrapers"
SIDES = ("top", "bottom", "left", "right")


def visible(line: list[int] | tuple[int, ...]) -> int:
    """How many buildings one sees from the start of ``line``.

    Example:
        >>> visible([2, 1, 4, 3])
        2
    """
    seen, tallest = 0, 0
    for h in line:
        if h > tallest:
            seen, tallest = seen + 1, h
    return seen


@functools.lru_cache(maxsize=64)
def _perms(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(p for p in itertools.permutations(range(1, n + 1)) if visible(p) == k)


def line_cells(n: int, side: str, k: int) -> list[tuple[int, int]]:
    """The cells of the line a clue on ``side`` at index ``k`` looks along, nearest first."""
    if side == "top":
        return [(i, k) for i in range(n)]
    if side == "bottom":
        return [(i, k) for i in reversed(range(n))]
    if side == "left":
        return [(k, j) for j in range(n)]
    return [(k, j) for j in reversed(range(n))]


def _clue(n: int, side: str, k: int, count: int, top: int) -> tuple[list[list[int]], int]:
    cells = line_cells(n, side, k)
    pats = _perms(n, count)
    aux = list(range(top + 1, top + 1 + len(pats)))
    cl = [aux]
    for a, pat in zip(aux, pats, strict=True):
        cl += [[-a, latin.var(n, *c, h - 1)] for c, h in zip(cells, pat, strict=True)]
    return cl, top + len(pats)


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    cl: list[Any] = list(latin.rules(n))
    top = n**3
    for c in d["clues"]:
        more, top = _clue(n, c["side"], c["index"], c["count"], top)
        cl += more
    cl += latin.given_clauses(n, d["givens"])
    return CNF(cl, top), digit_decode(n, latin.var)


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    why = latin.check_latin(d, sol)  # the latin.givens and the Latin latin.rules first
    if why:
        return why
    n = d["rows"]
    for c in d["clues"]:
        line = [int(sol[f"r{i + 1}c{j + 1}"]) for i, j in line_cells(n, c["side"], c["index"])]
        if visible(line) != c["count"]:
            return f"from the {c['side']} of line {c['index'] + 1}, {c['count']} buildings must be visible"
    return ""


@params
class SkyscrapersParams:
    size: int = integer(3, 7, default=4, note="a clue's permutations: n!")


class SkyscrapersFamily(DeclaredFamily, name=NAME, params=SkyscrapersParams, example={"size": 4}):
    def generate(self, p: SkyscrapersParams, rng: np.random.Generator) -> Built:
        n = p.size
        sq = latin.latin_square(n, rng)
        edges = [(s, k) for s in SIDES for k in range(n)]
        count = {(s, k): visible([sq[i][j] for i, j in line_cells(n, s, k)]) for s, k in edges}
        lits = latin.literals(n, sq)
        top = n**3
        clues = []
        for s, k in edges:
            more, top = _clue(n, s, k, count[(s, k)], top)
            clues.append(more)
        clues += [[[x]] for x in lits]
        kept = minimal_clues(latin.rules(n), top, clues, lits, rng)
        e = len(edges)  # clue k < e is edge k's count, clue k ≥ e cell k − e's digit
        fields = {
            "clues": [{"side": edges[k][0], "index": edges[k][1], "count": count[edges[k]]} for k in kept if k < e],
            "givens": latin.givens(sq, (k - e for k in kept if k >= e)),
        }  # fmt: skip
        data = latin.finish(sq, fields, encode, check, "the square keeps every clue")
        meta = {"size": n, "n_clues": len(data["clues"]), "n_givens": len(data["givens"])}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(3, 4, 5)),)
    levels = Levels(
        lambda lv: {"size": (3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6)[lv]},
        "log10 search space",
        latin.full_space,
        "size 3 (levels 0-2), 4 (3-5), 5 (6-8), 6 (9-10), minimal clue sets; log10 search space = "
        "cells · log10 n"
        "; 7 × 7 at 11",
        beyond=lambda lv: {"size": 7},
        highest=11,
        ceiling="the largest grid is 7 × 7 (a clue is encoded by its line's n! orders)",
    )


ASK = ask('{"solution": [[row 1 heights], [row 2 heights], ...]}')


def _board(d: dict[str, Any]) -> str:
    n = d["rows"]
    at = {(c["side"], c["index"]): str(c["count"]) for c in d["clues"]}
    out = ["    " + " ".join(at.get(("top", j), " ") for j in range(n))]
    for i in range(n):
        row = " ".join(str(d["givens"].get(f"r{i + 1}c{j + 1}", ".")) for j in range(n))
        out.append(f"{at.get(('left', i), ' ')} | {row} | {at.get(('right', i), ' ')}")
    out.append("    " + " ".join(at.get(("bottom", j), " ") for j in range(n)))
    return "\n".join(out)


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    return (
        f"Skyscrapers on a {n}×{n} grid. Put a building of height 1 to {n} in every cell so that every row "
        f"and every column holds each height once. A number outside the grid says how many buildings "
        "are visible from there looking along that row or column: a taller building hides every "
        f"shorter one behind it. '.' is an empty cell; a blank outside the grid is no clue.\n\n{_board(d)}\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = d["rows"]
    lines = [f"Variables: h[i][j] for i, j in 1..{n}, each in {{1..{n}}}.",
             "Every row and every column: alldifferent.",
             "visible(a1, …, an) = the number of k with ak > max(a1, …, a(k−1))."]  # fmt: skip
    for c in d["clues"]:
        cells = ", ".join(f"h[{i + 1}][{j + 1}]" for i, j in line_cells(n, c["side"], c["index"]))
        lines.append(f"visible({cells}) = {c['count']}")
    lines += [f"{formal_cell(k, 'h')} = {v}" for k, v in d["givens"].items()]
    return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(SkyscrapersFamily(), check, encode, words, formal)
