"""Minesweeper inference: a board with some cells revealed (each showing how many of its up to
eight neighbours hold a mine) and the total number of mines; say where every mine is. The
kind ``minesweeper``; the family ``minesweeper``.

Construction: ``n_mines`` mines placed uniformly from the item's stream; every safe cell is a
candidate clue (revealed: it is safe and shows its count); clues are dropped in a random order
while the mine map stays the only one consistent with the revealed cells and the mine total
(:func:`~logicforge.kinds.puzzle.minimal_clues`), down to ``n_revealed``. Uniqueness is proved
again by another solver; the tests enumerate every mine map on small boards.

Encoding: m(i, j) true for a mine; a revealed cell is ¬m and "exactly its count among the
neighbours" (sequential counters); the total is one more cardinality constraint.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import integer, params
from ..kinds.puzzle import binary_decode, cell_index, certify_unique, grid_cells, minimal_clues
from ..logic.cnf import CNF
from ..rng import shuffled
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "minesweeper"


def neighbours(r: int, c: int, i: int, j: int) -> list[tuple[int, int]]:
    return [(i + a, j + b) for a, b in itertools.product((-1, 0, 1), repeat=2)
            if (a or b) and 0 <= i + a < r and 0 <= j + b < c]  # fmt: skip


def _m(c: int, i: int, j: int) -> int:
    return i * c + j + 1


@functools.lru_cache(maxsize=32)
def _total(r: int, c: int, n_mines: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    from pysat.card import CardEnc, EncType

    enc = CardEnc.equals(
        lits=list(range(1, r * c + 1)), bound=n_mines, top_id=r * c, encoding=EncType.seqcounter
    )
    return tuple(map(tuple, enc.clauses)), max(enc.nv, r * c)


def _clue(r: int, c: int, i: int, j: int, count: int, top: int) -> tuple[list[list[int]], int]:
    """The clauses of "cell (i, j) is safe and shows ``count``", auxiliaries from ``top`` + 1."""
    from pysat.card import CardEnc, EncType

    lits = [_m(c, a, b) for a, b in neighbours(r, c, i, j)]
    enc = CardEnc.equals(lits=lits, bound=count, top_id=top, encoding=EncType.seqcounter)
    return [[-_m(c, i, j)], *enc.clauses], max(enc.nv, top)


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    r, c = d["rows"], d["cols"]
    base, top = _total(r, c, d["n_mines"])
    cl = [list(x) for x in base]
    for k, count in d["revealed"].items():
        i, j = cell_index(k)
        more, top = _clue(r, c, i, j, count, top)
        cl += more

    decode = binary_decode(r, c, lambda i, j: _m(c, i, j))

    return CNF(cl, top), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    r, c = d["rows"], d["cols"]
    if any(v not in ("0", "1") for v in sol.values()):
        return "every cell is 1 (mine) or 0 (safe)"
    mine = {(i, j): sol[f"r{i + 1}c{j + 1}"] == "1" for i in range(r) for j in range(c)}
    if sum(mine.values()) != d["n_mines"]:
        return f"{sum(mine.values())} mines marked, the board has {d['n_mines']}"
    for k, count in d["revealed"].items():
        i, j = cell_index(k)
        if mine[(i, j)]:
            return f"{k} is revealed, so it holds no mine"
        if sum(mine[n] for n in neighbours(r, c, i, j)) != count:
            return f"{k} shows {count}, but its neighbours hold another number of mines"
    return ""


@params
class MinesweeperParams:
    rows: int = integer(2, 30, default=5)
    cols: int = integer(2, 30, default=5)
    n_mines: int = integer(1, default=5, note="fewer than the cells")
    # stop hiding revealed cells at this many (0: as few as uniqueness allows)
    n_revealed: int = integer(0, default=0, note="at most the safe cells")

    def validate(self) -> None:
        cells = self.rows * self.cols
        if self.n_mines >= cells:
            raise ConfigError("n_mines", self.n_mines, f"must be an integer in 1..{cells - 1}")
        if self.n_revealed > cells - self.n_mines:
            raise ConfigError(
                "n_revealed",
                self.n_revealed,
                f"must be in 0..{cells - self.n_mines} (the safe cells)",
            )


LEVEL_MAP = [(4, 4, 3), (4, 5, 4), (5, 5, 5), (5, 6, 6), (6, 6, 7), (6, 7, 8), (7, 7, 10),
    (7, 8, 11), (8, 8, 13), (9, 9, 16), (10, 10, 20)]  # fmt: skip


class MinesweeperFamily(
    DeclaredFamily,
    name=NAME,
    params=MinesweeperParams,
    example={"rows": 4, "cols": 4, "n_mines": 3},
):
    def generate(self, p: MinesweeperParams, rng: np.random.Generator) -> Built:
        r, c = p.rows, p.cols
        where = set(shuffled(rng, r * c)[: p.n_mines])
        mine = {(k // c, k % c) for k in where}
        safe = [(i, j) for i in range(r) for j in range(c) if (i, j) not in mine]
        counts = {s: sum(n in mine for n in neighbours(r, c, *s)) for s in safe}
        base, top = _total(r, c, p.n_mines)
        clues = []
        for s in safe:
            more, top = _clue(r, c, *s, counts[s], top)
            clues.append(more)
        lits = [_m(c, i, j) if (i, j) in mine else -_m(c, i, j) for i in range(r) for j in range(c)]
        kept = minimal_clues(base, top, clues, lits, rng, keep_at_least=p.n_revealed)
        cells = grid_cells(r, c)
        data: dict[str, Any] = {
            "rows": r, "cols": c, "cells": cells, "domain": ["0", "1"], "n_mines": p.n_mines,
            "revealed": {f"r{safe[k][0] + 1}c{safe[k][1] + 1}": counts[safe[k]] for k in kept},
            "solution": {f"r{i + 1}c{j + 1}": "1" if (i, j) in mine else "0" for i in range(r) for j in range(c)},
        }  # fmt: skip
        cnf, _ = encode(data)
        certify_unique(cnf, list(range(1, r * c + 1)), lits)
        certify(check(data, data["solution"]) == "", "the mine map keeps every revealed count")
        meta = {"rows": r, "cols": c, "n_mines": p.n_mines, "n_revealed_actual": len(kept)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob("rows", lambda prob, _: prob["rows"], exact, "board rows", levels=(3, 5), at={"cols": 5}),
        Knob("cols", lambda prob, _: prob["cols"], exact, "board columns", levels=(3, 5), at={"rows": 5}),
        Knob("n_mines", lambda prob, _: prob["n_mines"], exact, "mines", levels=(2, 6)),
        Knob("n_revealed", lambda prob, _: len(prob["revealed"]), exact,
             "revealed cells (a floor: hiding stops there)", levels=(16, 18)),
    )  # fmt: skip
    levels = Levels(
        lambda lv: dict(zip(("rows", "cols", "n_mines"), LEVEL_MAP[lv], strict=True)),
        "hidden cells",
        lambda p: float(p.problem["rows"] * p.problem["cols"] - len(p.problem["revealed"])),
        "boards 4×4 (3 mines) … 10×10 (20 mines), a minimal set of revealed cells; the measure is "
        "the number of hidden cells"
        "; past 10 the side grows by 1 every 2 levels with a fifth of the cells mines (11 × 11 at 11 … 30 × 30 at 49)",
        beyond=lambda lv: {
            "rows": 10 + (lv - 9) // 2,
            "cols": 10 + (lv - 9) // 2,
            "n_mines": round(0.2 * (10 + (lv - 9) // 2) ** 2),
        },  # fmt: skip
    )


def _board(d: dict[str, Any]) -> str:
    return "\n".join(
        " ".join(str(d["revealed"].get(f"r{i}c{j}", "?")) for j in range(1, d["cols"] + 1))
        for i in range(1, d["rows"] + 1)
    )


ASK = ask('{"solution": [[row 1: 1 = mine, 0 = safe], [row 2 …], ...]} for every cell')


def words(d: dict[str, Any]) -> str:
    return (
        f"A {d['rows']}×{d['cols']} Minesweeper board hides exactly {d['n_mines']} mines. A number is a "
        "revealed cell (it holds no mine) and says how many of its up to eight neighbours "
        "(horizontal, vertical and diagonal) hold a mine; '?' is a hidden cell.\n\n"
        f"{_board(d)}\n\nWhere are all the mines?\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    r, c = d["rows"], d["cols"]
    v = lambda i, j: f"m[{i + 1}][{j + 1}]"  # noqa: E731
    lines = [f"Variables: m[i][j] in {{0, 1}} for i in 1..{r}, j in 1..{c}.",
             f"sum of all m = {d['n_mines']}"]  # fmt: skip
    for k, count in d["revealed"].items():
        i, j = cell_index(k)
        ns = " + ".join(v(a, b) for a, b in neighbours(r, c, i, j))
        lines.append(f"{v(i, j)} = 0;  {ns} = {count}")
    return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(MinesweeperFamily(), check, encode, words, formal)
