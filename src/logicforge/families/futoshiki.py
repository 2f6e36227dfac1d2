"""Futoshiki, n × n: a Latin square (every row and column holds 1 … n once) with inequality
signs between neighbouring cells and a few given digits. The kind ``futoshiki``; the family
``futoshiki``.

Construction: a Latin square from the cyclic square under random row, column and symbol
permutations; every given digit and every neighbour inequality of that square is a candidate
clue; clues are dropped in a random order while the solution stays unique
(:func:`~logicforge.kinds.puzzle.minimal_clues`), down to ``n_clues``. Uniqueness is proved
again by another solver; the tests count solutions with OR-Tools CP-SAT.

Encoding: x(i, j, v) and the Latin rules of :mod:`logicforge.families._latin`; ``a < b`` as ¬(a = u ∧ b = w) for
every u ≥ w.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..fields import integer, params
from ..kinds.puzzle import cell_index, digit_decode, formal_cell, minimal_clues
from ..logic.cnf import CNF
from . import _latin as latin
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import GRID_ASK, Built, register_solution_puzzle, solved

NAME = KIND = "futoshiki"


@functools.lru_cache(maxsize=4096)
def less(n: int, a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Clauses for value(a) < value(b)."""
    return tuple(
        (-latin.var(n, *a, u), -latin.var(n, *b, w)) for u in range(n) for w in range(u + 1)
    )


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    cl: list[tuple[int, ...]] = list(latin.rules(n))
    cl += latin.given_clauses(n, d["givens"])
    for a, b in d["less"]:
        cl += less(n, cell_index(a), cell_index(b))
    return CNF.trusted(tuple(cl), n**3), digit_decode(
        n, latin.var
    )  # built here: every literal in range


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    why = latin.check_latin(d, sol)  # the latin.givens and the Latin latin.rules, then the signs
    if why:
        return why
    for a, b in d["less"]:
        if not int(sol[a]) < int(sol[b]):
            return f"{a} < {b} does not hold"
    return ""


@params
class FutoshikiParams:
    size: int = integer(3, 15, default=4)
    # stop dropping clues at this many (0: as few as uniqueness allows)
    n_clues: int = integer(0, default=0)


LEVEL_MAP = [(3, 6), (3, 0), (4, 10), (4, 0), (5, 14), (5, 0), (6, 20), (6, 0), (7, 26),
    (7, 0), (8, 0)]  # fmt: skip


class FutoshikiFamily(DeclaredFamily, name=NAME, params=FutoshikiParams, example={"size": 4}):
    def generate(self, p: FutoshikiParams, rng: np.random.Generator) -> Built:
        n = p.size
        sq = latin.latin_square(n, rng)
        pairs = [((i, j), (i, j + 1)) for i in range(n) for j in range(n - 1)]
        pairs += [((i, j), (i + 1, j)) for i in range(n - 1) for j in range(n)]
        ineq = [(a, b) if sq[a[0]][a[1]] < sq[b[0]][b[1]] else (b, a) for a, b in pairs]
        sol_lits = latin.literals(n, sq)
        clues = [[[lit]] for lit in sol_lits] + [less(n, a, b) for a, b in ineq]
        kept = minimal_clues(
            latin.rules(n),
            n**3,
            clues,
            sol_lits,
            rng,
            keep_at_least=p.n_clues,
            warm=True,
            solver="cadical153",
        )
        name = lambda c: f"r{c[0] + 1}c{c[1] + 1}"  # noqa: E731
        given = latin.givens(sq, (k for k in kept if k < n * n))
        lt = [[name(a), name(b)] for a, b in (ineq[k - n * n] for k in kept if k >= n * n)]
        data = latin.finish(
            sq, {"givens": given, "less": lt}, encode, check, "the solution keeps every rule",
            base=latin.rules(n), solver="minisat22",
        )  # fmt: skip
        meta = {"size": n, "n_givens": len(given), "n_inequalities": len(lt)}
        return solved(data, "cadical153+minisat22", meta)

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(3, 5, 7)),
        Knob("n_clues", lambda prob, _: len(prob["givens"]) + len(prob["less"]), exact,
             "given digits plus inequalities (a floor: dropping stops there)",
             levels=(30, 40), at={"size": 5}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"size": LEVEL_MAP[lv][0], "n_clues": LEVEL_MAP[lv][1]},
        "log10 search space",
        latin.empty_space,
        "size 3 … 8 rising every two levels, a capped clue count then a minimal one; log10 search "
        "space = cells without a given digit · log10 n"
        "; past 10 the side grows by 1 every 3 levels (9 at 11 … 15 at 29), minimal clues",
        beyond=lambda lv: {"size": 8 + (lv - 8) // 3, "n_clues": 0},
    )


def _board(d: dict[str, Any]) -> str:
    """The grid with '<', '>' between row neighbours and '^', 'v' between column neighbours."""
    n = d["rows"]
    lt = {tuple(x) for x in d["less"]}

    def sign(a: str, b: str, small: str, big: str) -> str:
        return small if (a, b) in lt else big if (b, a) in lt else " "

    out = []
    for i in range(1, n + 1):
        row = ""
        for j in range(1, n + 1):
            row += str(d["givens"].get(f"r{i}c{j}", "."))
            if j < n:
                row += f" {sign(f'r{i}c{j}', f'r{i}c{j + 1}', '<', '>')} "
        out.append(row)
        if i < n:
            out.append(
                "    ".join(sign(f"r{i}c{j}", f"r{i + 1}c{j}", "^", "v") for j in range(1, n + 1))
            )
    return "\n".join(out)


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    return (
        f"Solve this {n}×{n} Futoshiki puzzle. Fill every cell with a digit from 1 to {n} so that each "
        f"row and each column contains every digit exactly once, and every inequality holds: '<' or "
        "'>' between two cells of a row, '^' (the upper cell is smaller) or 'v' (the upper cell is "
        f"larger) between two cells of a column. Empty cells are shown as '.'.\n\n{_board(d)}\n\n{GRID_ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = d["rows"]
    v = formal_cell
    lines = [f"Variables: x[i][j] for i, j in 1..{n}, each in {{1..{n}}}.",
             "Every row and every column: alldifferent.",
             "Givens: " + (", ".join(f"{v(k)} = {x}" for k, x in d["givens"].items()) or "none"),
             "Inequalities: " + (", ".join(f"{v(a)} < {v(b)}" for a, b in d["less"]) or "none")]  # fmt: skip
    return "Find the values of all variables.\n\n" + "\n".join(lines) + "\n\n" + GRID_ASK


register_solution_puzzle(FutoshikiFamily(), check, encode, words, formal)
