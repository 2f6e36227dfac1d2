"""The line-sum grids, written once: a 0/1 grid of n × n cells where, in every row and every
column, the weights of the cells set to 1 add up to that line's target. Kakurasu weighs a cell
by its column number in its row and by its row number in its column; sumplete by its digit in
both. A family says how a cell is weighed (:class:`LineSum`); the encoding, the check, the end
of the construction (clue reduction, certificates) and the formal rendering are here.

Encoding: each line is one of the subsets of its cells with its sum (enumerated), an auxiliary
per subset as in :mod:`logicforge.families.nonogram`.

Example:
    >>> kakurasu = LineSum(lambda d: [list(range(1, d["rows"] + 1))] * d["rows"],
    ...                    lambda d: [[i + 1] * d["rows"] for i in range(d["rows"])],
    ...                    "every cell is 1 (shaded) or 0", "s")
    >>> d = {"rows": 2, "row_sums": [1, 2], "col_sums": [1, 2], "givens": {}}
    >>> kakurasu.check(d, {"r1c1": "1", "r1c2": "0", "r2c1": "0", "r2c2": "1"})
    ''
    >>> kakurasu.check(d, {"r1c1": "0", "r1c2": "1", "r2c1": "0", "r2c2": "1"})
    'row 1 does not add up to 1'
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import certify
from ..kinds.puzzle import (
    binary_grid_cnf,
    certify_unique,
    check_givens,
    formal_cell,
    minimal_clues,
)
from ..logic.cnf import CNF
from .shape import Built, solved

Weights = Callable[[dict[str, Any]], list[list[int]]]  # problem -> weight of cell (i, j)


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


def x(n: int, i: int, j: int) -> int:
    """The variable of cell (i, j), 0-based: true when the cell is 1."""
    return i * n + j + 1


@dataclass(frozen=True)
class LineSum:
    """How one line-sum puzzle weighs its cells: ``row_weights(d)[i][j]`` counts towards row
    i's target, ``col_weights(d)[i][j]`` towards column j's; ``values`` is the check's message
    for a cell that is neither 0 nor 1, ``letter`` the cells' variable in the formal rendering."""

    row_weights: Weights
    col_weights: Weights
    values: str
    letter: str

    def rules(self, d: dict[str, Any]) -> tuple[list[list[int]], int]:
        n, w, v = d["rows"], self.row_weights(d), self.col_weights(d)
        lines = [([x(n, i, j) for j in range(n)], tuple(w[i]), d["row_sums"][i]) for i in range(n)]
        lines += [
            ([x(n, i, j) for i in range(n)], tuple(v[i][j] for i in range(n)), d["col_sums"][j])
            for j in range(n)
        ]
        return line_rules(lines, n * n)

    def encode(self, d: dict[str, Any]) -> tuple[CNF, Any]:
        n = d["rows"]
        return binary_grid_cnf(d, self.rules(d), lambda i, j: x(n, i, j))

    def check(self, d: dict[str, Any], sol: dict[str, str]) -> str:
        n, w, v = d["rows"], self.row_weights(d), self.col_weights(d)
        if any(s not in ("0", "1") for s in sol.values()):
            return self.values
        why = check_givens(d, sol)
        if why:
            return why
        for i in range(n):
            if (
                sum(w[i][j] for j in range(n) if sol[f"r{i + 1}c{j + 1}"] == "1")
                != d["row_sums"][i]
            ):
                return f"row {i + 1} does not add up to {d['row_sums'][i]}"
        for j in range(n):
            if (
                sum(v[i][j] for i in range(n) if sol[f"r{i + 1}c{j + 1}"] == "1")
                != d["col_sums"][j]
            ):
                return f"column {j + 1} does not add up to {d['col_sums'][j]}"
        return ""

    def finish(self, data: dict[str, Any], ones: np.ndarray, rng: np.random.Generator) -> Built:
        """The construction's end, given the problem without givens and its 0/1 solution
        ``ones``: cells given back while the targets alone allow several grids, dropped in a
        random order while the grid stays unique; uniqueness proved again by another solver."""
        n, cells = data["rows"], data["cells"]
        base, top = self.rules(data)
        lits = [x(n, i, j) if ones[i, j] else -x(n, i, j) for i in range(n) for j in range(n)]
        kept = minimal_clues(base, top, [[[lit]] for lit in lits], lits, rng)
        data["givens"] = {cells[k]: int(ones[k // n, k % n]) for k in kept}
        cnf, _ = self.encode(data)
        certify_unique(cnf, list(range(1, n * n + 1)), lits)
        certify(self.check(data, data["solution"]) == "", "the solution makes its own sums")
        return solved(data, "minisat22+glucose4", {"size": n, "n_givens": len(kept)})

    def formal(self, ask: str) -> Callable[[dict[str, Any]], str]:
        """The ``<kind>-formal`` prompt: the puzzle as equations over 0/1 variables, one per line
        and one per given cell, closed by ``ask``."""
        return functools.partial(self._formal, ask=ask)

    def _formal(self, d: dict[str, Any], ask: str) -> str:
        n, w, v, s = d["rows"], self.row_weights(d), self.col_weights(d), self.letter
        lines = [f"Variables: {s}[i][j] in {{0, 1}} for i, j in 1..{n}."]
        lines += [
            " + ".join(f"{w[i][j]}·{s}[{i + 1}][{j + 1}]" for j in range(n)) + f" = {t}"
            for i, t in enumerate(d["row_sums"])
        ]
        lines += [
            " + ".join(f"{v[i][j]}·{s}[{i + 1}][{j + 1}]" for i in range(n)) + f" = {t}"
            for j, t in enumerate(d["col_sums"])
        ]
        lines += [f"{formal_cell(k, s)} = {val}" for k, val in d["givens"].items()]
        return "Find the values of all variables.\n\n" + "\n".join(lines) + f"\n\n{ask}"
