"""Latin-square (quasigroup) completion: an n × n grid with some digits given; fill the rest so
that every row and column holds 1 … n once — the classic combinatorial benchmark (Gomes and
Selman's quasigroup completion problem). The kind ``latinsquare``; the family ``latinsquare``.

Construction: a Latin square from the cyclic square under random row, column and symbol
permutations; givens dropped in a random order while the completion stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`), down to ``n_givens``. Uniqueness is proved
again by another solver; the tests count completions with OR-Tools CP-SAT.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..fields import at_most, integer, params
from ..kinds.puzzle import digit_decode, formal_cell, givens_grid, minimal_clues
from ..logic.cnf import CNF
from . import _latin as latin
from ._latin import check_latin as check
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import GRID_ASK, Built, register_solution_puzzle, solved

NAME = KIND = "latinsquare"


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    cl = latin.rules(n) + tuple(latin.given_clauses(n, d["givens"]))
    return CNF.trusted(cl, n**3), digit_decode(n, latin.var)  # built here: every literal in range


@params
class LatinSquareParams:
    size: int = integer(3, 30, default=5)
    n_givens: int = integer(0, default=0)

    def validate(self) -> None:
        at_most("n_givens", self.n_givens, self.size**2)


class LatinSquareFamily(DeclaredFamily, name=NAME, params=LatinSquareParams, example={"size": 4}):
    def generate(self, p: LatinSquareParams, rng: np.random.Generator) -> Built:
        n = p.size
        sq = latin.latin_square(n, rng)
        lits = latin.literals(n, sq)
        kept = minimal_clues(
            latin.rules(n),
            n**3,
            [[[x]] for x in lits],
            lits,
            rng,
            keep_at_least=p.n_givens,
            warm=True,
            solver="cadical153",
        )
        data = latin.finish(
            sq, {"givens": latin.givens(sq, kept)}, encode, check, "the square keeps every rule",
            base=latin.rules(n), solver="minisat22",
        )  # fmt: skip
        meta = {"size": n, "n_givens_actual": len(kept)}
        return solved(data, "cadical153+minisat22", meta)

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(3, 5, 7)),
        Knob("n_givens", lambda prob, _: len(prob["givens"]), exact,
             "given digits (a floor: removal stops there)", levels=(20, 25), at={"size": 6}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"size": 3 + lv // 2, "n_givens": 0},
        "log10 search space",
        latin.empty_space,
        "size = 3 + ⌊level / 2⌋ (3 … 8), minimal givens; log10 search space = empty cells · log10 n",
    )


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    grid = givens_grid(d)
    return (
        f"Complete this {n}×{n} Latin square: fill every empty cell (.) with a number from 1 to {n} so "
        f"that every row and every column contains each number exactly once.\n\n{grid}\n\n{GRID_ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = d["rows"]
    v = formal_cell
    lines = [f"Variables: x[i][j] for i, j in 1..{n}, each in {{1..{n}}}.",
             "Every row and every column: alldifferent.",
             "Givens: " + (", ".join(f"{v(k)} = {x}" for k, x in d["givens"].items()) or "none")]  # fmt: skip
    return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{GRID_ASK}"


register_solution_puzzle(LatinSquareFamily(), check, encode, words, formal)
