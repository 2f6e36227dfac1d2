"""KenKen (Calcudoku): an n × n Latin square cut into cages, each with a target and an
operation — the cage's digits add up to (``+``) or multiply to (``×``) the target, or, for a
two-cell cage, differ by (``−``) or divide to (``÷``) it. The kind ``kenken``; the family
``kenken``.

Construction: a Latin square (as :mod:`logicforge.families.latinsquare`); cages of one to
``max_cage`` cells grown by a random flood fill, each given an operation its digits allow
(drawn from the item's stream) and the target they make; where the cages alone leave several
squares, given digits are added back, dropped in a random order while the square stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`). Uniqueness is proved again by another
solver; the tests count solutions with OR-Tools CP-SAT, whose model states the arithmetic.

Encoding: the Latin rules; each cage by its truth table — every tuple of digits its operation
rejects is one excluded clause (n^size clauses at most: n ≤ 7, cages ≤ 3 cells).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..fields import integer, params
from ..kinds.puzzle import cell_index, digit_decode, formal_cell, minimal_clues
from ..logic.cnf import CNF
from . import _latin as latin
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import GRID_ASK, Built, given_line, register_solution_puzzle, solved

NAME = KIND = "kenken"
SIGN = {"+": "+", "*": "×", "-": "−", "/": "÷", "=": ""}


def makes(op: str, target: int, vals: tuple[int, ...]) -> bool:
    """Whether the digits ``vals`` make ``target`` under ``op``."""
    if op == "=":
        return vals == (target,)
    if op == "+":
        return sum(vals) == target
    if op == "*":
        return math.prod(vals) == target
    a, b = max(vals), min(vals)
    return a - b == target if op == "-" else a == b * target


def _cage_clauses(n: int, cage: dict[str, Any]) -> list[list[int]]:
    cells = [cell_index(k) for k in cage["cells"]]
    out = []
    for vals in itertools.product(range(1, n + 1), repeat=len(cells)):
        if not makes(cage["op"], cage["target"], vals):
            out.append([-latin.var(n, *c, v - 1) for c, v in zip(cells, vals, strict=True)])
    return out


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    cl: list[Any] = list(latin.rules(n))
    for cage in d["cages"]:
        cl += _cage_clauses(n, cage)
    cl += latin.given_clauses(n, d["givens"])
    return CNF(cl, n**3), digit_decode(n, latin.var)


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    why = latin.check_latin(d, sol)  # the latin.givens and the Latin latin.rules first
    if why:
        return why
    for cage in d["cages"]:
        vals = tuple(int(sol[k]) for k in cage["cells"])
        if not makes(cage["op"], cage["target"], vals):
            return f"the cage {'+'.join(cage['cells'])} does not make {cage['target']}{SIGN[cage['op']]}"
    return ""


@params
class KenKenParams:
    size: int = integer(3, 9, default=4)
    max_cage: int = integer(1, 3, default=3, note="cells per cage")


def _cages(
    n: int, sq: list[list[int]], max_cage: int, rng: np.random.Generator
) -> list[dict[str, Any]]:
    free = {(i, j) for i in range(n) for j in range(n)}
    cages = []
    for start in [(i, j) for i in range(n) for j in range(n)]:
        if start not in free:
            continue
        size = int(rng.integers(1, max_cage + 1))
        cage = [start]
        free.discard(start)
        while len(cage) < size:
            nbrs = sorted(
                {(i + a, j + b) for i, j in cage for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0))}
                & free
            )
            if not nbrs:
                break
            nxt = nbrs[int(rng.integers(len(nbrs)))]
            cage.append(nxt)
            free.discard(nxt)
        vals = tuple(sq[i][j] for i, j in cage)
        if len(cage) == 1:
            op = "="
        else:
            ops = (
                ["+", "*"]
                + (["-"] if len(cage) == 2 else [])
                + (["/"] if len(cage) == 2 and max(vals) % min(vals) == 0 else [])
            )
            op = ops[int(rng.integers(len(ops)))]
        target = {"=": vals[0], "+": sum(vals), "*": math.prod(vals), "-": max(vals) - min(vals),
                  "/": max(vals) // min(vals)}[op]  # fmt: skip
        cages.append(
            {"cells": [f"r{i + 1}c{j + 1}" for i, j in sorted(cage)], "op": op, "target": target}
        )
    return cages


class KenKenFamily(DeclaredFamily, name=NAME, params=KenKenParams, example={"size": 4}):
    def generate(self, p: KenKenParams, rng: np.random.Generator) -> Built:
        n = p.size
        sq = latin.latin_square(n, rng)
        cages = _cages(n, sq, p.max_cage, rng)
        base: list[Any] = list(latin.rules(n))
        for cage in cages:
            base += _cage_clauses(n, cage)
        lits = latin.literals(n, sq)
        kept = minimal_clues(base, n**3, [[[x]] for x in lits], lits, rng)
        fields = {"cages": cages, "givens": latin.givens(sq, kept)}
        data = latin.finish(sq, fields, encode, check, "the square keeps every cage")
        meta = {"size": n, "n_cages": len(cages), "n_givens": len(kept)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(3, 4, 5)),
        Knob("max_cage", lambda prob, _: max(len(c["cells"]) for c in prob["cages"]),
             lambda p: 1.0, "largest cage (within one cell: cages grow up to it where the grid lets them)",
             levels=(2, 3)),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {
            "size": (3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7)[lv],
            "max_cage": 3,
        },
        "log10 search space",
        latin.full_space,
        "size 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7 with cages up to 3 cells; log10 search space = "
        "cells · log10 n (given digits are few: the cages fix most squares alone)"
        "; past 10: 8 × 8 at 11-15, 9 × 9 at 16-20",
        beyond=lambda lv: {"size": 7 + (lv - 6) // 5, "max_cage": 3},
    )


def _cage_line(c: dict[str, Any]) -> str:
    cells = ", ".join(c["cells"])
    if c["op"] == "=":
        return f"- {cells}: {c['target']}"
    return f"- {cells}: {c['target']}{SIGN[c['op']]}"


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    given = given_line(d, "Given digits")
    return (
        f"Solve this {n}×{n} KenKen. Fill the grid with digits 1 to {n} so that every row and every column "
        "contains each digit exactly once, and the digits of every cage make its target with its "
        "operation: + (they add up to it), × (they multiply to it), − (the larger minus the smaller), "
        "÷ (the larger divided by the smaller); a cage with no operation is a single cell holding its "
        f"target. Cells are named r<row>c<column>.\n\nCages:\n"
        + "\n".join(_cage_line(c) for c in d["cages"])
        + f"\n{given}\n{GRID_ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = d["rows"]
    v = formal_cell
    lines = [
        f"Variables: x[i][j] for i, j in 1..{n}, each in {{1..{n}}}.",
        "Every row and every column: alldifferent.",
    ]
    for c in d["cages"]:
        xs = [v(k) for k in c["cells"]]
        if c["op"] == "=":
            lines.append(f"{xs[0]} = {c['target']}")
        elif c["op"] in "+*":
            lines.append(f" {'+' if c['op'] == '+' else '*'} ".join(xs) + f" = {c['target']}")
        elif c["op"] == "-":
            lines.append(f"|{xs[0]} - {xs[1]}| = {c['target']}")
        else:
            lines.append(f"max({xs[0]}, {xs[1]}) = {c['target']} * min({xs[0]}, {xs[1]})")
    lines += [f"{v(k)} = {x}" for k, x in d["givens"].items()]
    return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{GRID_ASK}"


register_solution_puzzle(KenKenFamily(), check, encode, words, formal)
