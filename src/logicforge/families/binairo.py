"""Binairo (Takuzu), n × n with n even: fill every cell with 0 or 1 so that each row and column
holds n/2 of each, no three equal digits are adjacent in a row or column, and no two rows (nor
two columns) are the same. The kind ``binairo``; the family ``binairo``.

Construction: a full grid is the model MiniSat finds for the rules with random initial phases
(drawn from the item's stream; the grid is checked against the rules); given digits are then
dropped in a random order while the solution stays unique, down to ``n_givens``. Uniqueness is
proved again by another solver; the tests enumerate every grid by brute force for n = 4 and 6.

Encoding: x(i, j) = i·n + j + 1 true for a 1; balance by cardinality constraints (PySAT's
sequential counters), "no three" as two clauses per triple, distinct lines through XOR
auxiliaries.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import at_most, integer, params
from ..kinds.puzzle import (
    binary_decode,
    cell_index,
    certify_unique,
    check_givens,
    formal_cell,
    givens_grid,
    grid_cells,
    minimal_clues,
)
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "binairo"


def _x(n: int, i: int, j: int) -> int:
    return i * n + j + 1


@functools.lru_cache(maxsize=16)
def rules(n: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The rules' clauses and the number of variables they use (cells first)."""
    from pysat.card import CardEnc, EncType

    cl: list[list[int]] = []
    top = n * n
    lines = [[_x(n, i, j) for j in range(n)] for i in range(n)]
    lines += [[_x(n, i, j) for i in range(n)] for j in range(n)]
    for line in lines:
        enc = CardEnc.equals(lits=line, bound=n // 2, top_id=top, encoding=EncType.seqcounter)
        cl += enc.clauses
        top = max(top, enc.nv)
        for a, b, c in zip(line, line[1:], line[2:], strict=False):
            cl += [[a, b, c], [-a, -b, -c]]
    for group in (lines[:n], lines[n:]):
        for la, lb in itertools.combinations(group, 2):
            diff = []
            for a, b in zip(la, lb, strict=True):
                top += 1
                d = top  # d ↔ a xor b
                cl += [[-d, a, b], [-d, -a, -b], [d, -a, b], [d, a, -b]]
                diff.append(d)
            cl.append(diff)
    return tuple(map(tuple, cl)), top


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = d["rows"]
    base, top = rules(n)
    units = tuple(
        (_x(n, *cell_index(k)) if str(v) == "1" else -_x(n, *cell_index(k)),)
        for k, v in d["givens"].items()
    )

    decode = binary_decode(n, n, lambda i, j: _x(n, i, j))

    return CNF.trusted(base + units, top), decode  # built here, every literal in range


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    n = d["rows"]
    why = check_givens(d, sol)
    if why:
        return why
    if any(v not in ("0", "1") for v in sol.values()):
        return "every cell holds 0 or 1"
    rows = ["".join(sol[f"r{i}c{j}"] for j in range(1, n + 1)) for i in range(1, n + 1)]
    cols = ["".join(sol[f"r{i}c{j}"] for i in range(1, n + 1)) for j in range(1, n + 1)]
    for what, lines in (("row", rows), ("column", cols)):
        for k, line in enumerate(lines, start=1):
            if line.count("1") != n // 2:
                return f"{what} {k} does not hold {n // 2} ones and {n // 2} zeros"
            if "000" in line or "111" in line:
                return f"{what} {k} has three equal digits in a line"
        if len(set(lines)) != n:
            return f"two {what}s are the same"
    return ""


@params
class BinairoParams:
    size: int = integer(4, 30, default=6, note="even")
    n_givens: int = integer(0, default=0)

    def validate(self) -> None:
        if self.size % 2:
            raise ConfigError("size", self.size, "must be an even integer in 4..30")
        at_most("n_givens", self.n_givens, self.size**2)


LEVEL_MAP = [(4, 8), (4, 0), (6, 20), (6, 14), (6, 0), (8, 34), (8, 26), (8, 0), (10, 50),
    (10, 0), (12, 0)]  # fmt: skip


class BinairoFamily(DeclaredFamily, name=NAME, params=BinairoParams, example={"size": 4}):
    def generate(self, p: BinairoParams, rng: np.random.Generator) -> Built:
        from ..logic.sat import new_solver

        n = p.size
        base, top = rules(n)
        phases = [
            _x(n, i, j) * (1 if rng.random() < 0.5 else -1) for i in range(n) for j in range(n)
        ]
        with new_solver("minisat22", base) as s:
            s.set_phases(phases)
            certify(bool(s.solve()), "the rules have a model")
            model = {abs(v): v > 0 for v in s.get_model() or []}
        cells = grid_cells(n, n)
        sol = {
            f"r{i + 1}c{j + 1}": "1" if model.get(_x(n, i, j)) else "0"
            for i in range(n)
            for j in range(n)
        }
        data = {
            "rows": n,
            "cols": n,
            "cells": cells,
            "domain": ["0", "1"],
            "givens": {},
            "solution": sol,
        }
        certify(check(data, sol) == "", "the drawn grid keeps every rule")
        lits = [
            _x(n, i, j) if sol[f"r{i + 1}c{j + 1}"] == "1" else -_x(n, i, j)
            for i in range(n)
            for j in range(n)
        ]
        kept = minimal_clues(
            base, top, [[[lit]] for lit in lits], lits, rng, keep_at_least=p.n_givens
        )
        data["givens"] = {cells[k]: int(sol[cells[k]]) for k in kept}
        cnf, _ = encode(data)
        certify_unique(cnf, list(range(1, n * n + 1)), lits)
        meta = {"size": n, "n_givens_actual": len(kept), "n_empty": n * n - len(kept)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob("size", lambda prob, _: prob["rows"], exact, "grid side", levels=(4, 6, 8)),
        Knob("n_givens", lambda prob, _: len(prob["givens"]), exact,
             "given digits (a floor: removal stops there)", levels=(36, 44), at={"size": 8}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"size": LEVEL_MAP[lv][0], "n_givens": LEVEL_MAP[lv][1]},
        "empty cells",
        lambda p: float(p.problem["rows"] ** 2 - len(p.problem["givens"])),
        "size 4 … 12, at each size a capped number of givens then a minimal set; the measure is "
        "the number of empty cells (log2 of the search space)"
        "; past 10 the side grows by 2 every 4 levels (14 at 11, 16 at 15 … 30 at 43), minimal givens",
        beyond=lambda lv: {"size": 12 + 2 * ((lv - 7) // 4), "n_givens": 0},
    )


ASK = ask('{"solution": ["row 1 as digits", "row 2 as digits", ...]}')


def words(d: dict[str, Any]) -> str:
    n = d["rows"]
    grid = givens_grid(d)
    return (
        f"Solve this {n}×{n} binary puzzle (Binairo). Fill every empty cell (.) with 0 or 1 so that "
        f"every row and every column contains exactly {n // 2} zeros and {n // 2} ones, no three equal "
        "digits are next to each other in a row or a column, and no two rows and no two columns are "
        f"identical.\n\n{grid}\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = d["rows"]
    v = functools.partial(formal_cell, name="b")
    lines = [
        f"Variables: b[i][j] in {{0, 1}} for i, j in 1..{n}.",
        f"For every row and every column: sum = {n // 2}; no three consecutive equal values.",
        "All rows pairwise different; all columns pairwise different.",
        "Givens: " + (", ".join(f"{v(k)} = {x}" for k, x in d["givens"].items()) or "none"),
    ]
    return "Find the values of all variables.\n\n" + "\n".join(lines) + "\n\n" + ASK


register_solution_puzzle(BinairoFamily(), check, encode, words, formal)
