"""Lights Out, r × c: pressing a cell toggles it and its orthogonal neighbours; given which
lights are on, say which cells to press (each once or not at all) to switch every light off.
The kind ``lightsout``; the family ``lightsout``.

Over GF(2) the lights are A·p for the press pattern p, with A the board's toggle matrix; the
answer is unique exactly when A is invertible, so only such boards are offered (5 × 5, famous
for its two-dimensional kernel, is refused with the reason). Construction: a random non-empty
press pattern from the item's stream, its lights computed; the certificate is GF(2) Gauss–Jordan
elimination recovering that pattern with full rank (full rank: no other pattern gives these
lights), and the pattern checked against the lights by the rule itself. The tests re-check
uniqueness independently: by brute force over every pattern on small boards, and with a SAT
solver on the XOR encoding (each light the parity of its presses) on larger ones — CDCL is
slow on XOR chains, so generation does not pay for it.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import integer, number, params
from ..kinds.puzzle import binary_decode, grid_cells
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle

NAME = KIND = "lightsout"


@functools.lru_cache(maxsize=64)
def _toggles(r: int, c: int) -> np.ndarray:
    a = _build_toggles(r, c)
    a.setflags(write=False)
    return a


def toggles(r: int, c: int) -> np.ndarray:
    """The toggle matrix (a read-only cached copy; see :func:`_build_toggles`)."""
    return _toggles(r, c)


def _build_toggles(r: int, c: int) -> np.ndarray:
    """The (r·c) × (r·c) toggle matrix over GF(2): column k is what pressing cell k toggles."""
    a = np.zeros((r * c, r * c), dtype=np.uint8)
    for i, j in itertools.product(range(r), range(c)):
        k = i * c + j
        for di, dj in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= i + di < r and 0 <= j + dj < c:
                a[(i + di) * c + j + dj, k] = 1
    return a


def gf2_solve(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray | None, int]:
    """A solution of a·x = b over GF(2) (None if there is none) and the rank of ``a``
    (Gauss–Jordan elimination, one vectorised row operation per pivot).

    Example:
        >>> x, r = gf2_solve(np.array([[1, 1], [0, 1]]), np.array([1, 1]))
        >>> x.tolist(), r
        ([0, 1], 2)
    """
    m = np.concatenate([a % 2, (b.reshape(-1, 1) % 2)], axis=1).astype(bool)
    rows, cols = a.shape
    piv: list[int] = []
    r = 0
    for col in range(cols):
        hits = np.flatnonzero(m[r:, col])
        if hits.size == 0:
            continue
        hit = r + int(hits[0])
        m[[r, hit]] = m[[hit, r]]
        others = np.flatnonzero(m[:, col])
        others = others[others != r]
        m[others] ^= m[r]
        piv.append(col)
        r += 1
        if r == rows:
            break
    if m[r:, -1].any():
        return None, r
    x = np.zeros(cols, dtype=np.uint8)
    for i, col in enumerate(piv):
        x[col] = m[i, -1]
    return x, r


@functools.lru_cache(maxsize=64)
def rank(r: int, c: int) -> int:
    """The GF(2) rank of an r × c board's toggle matrix (full: r · c presses, one answer)."""
    return gf2_solve(toggles(r, c), np.zeros(r * c, dtype=np.uint8))[1]


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    """Each light's parity: the XOR of the presses that toggle it equals its state (clauses
    excluding every assignment of the wrong parity; at most 5 presses per light)."""
    r, c = d["rows"], d["cols"]
    a = toggles(r, c)
    on = [int(d["lights"][i][j]) for i in range(r) for j in range(c)]
    cl: list[list[int]] = []
    for k in range(r * c):
        vs = [int(x) + 1 for x in np.flatnonzero(a[k])]
        for signs in itertools.product((0, 1), repeat=len(vs)):
            if sum(signs) % 2 != on[k]:  # forbid this assignment
                cl.append([-v if s else v for v, s in zip(vs, signs, strict=True)])

    decode = binary_decode(r, c, lambda i, j: i * c + j + 1)

    return CNF(cl, r * c), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    r, c = d["rows"], d["cols"]
    if any(v not in ("0", "1") for v in sol.values()):
        return "every cell is 1 (press) or 0 (no press)"
    p = np.array(
        [int(sol[f"r{i + 1}c{j + 1}"]) for i in range(r) for j in range(c)], dtype=np.uint8
    )
    left = (toggles(r, c).astype(int) @ p + np.array(d["lights"]).reshape(-1)) % 2
    return "" if not left.any() else f"{int(left.sum())} lights stay on"


@params
class LightsOutParams:
    rows: int = integer(1, 30, default=3)
    cols: int = integer(1, 30, default=3)
    # the share of cells pressed in the hidden pattern
    density: float = number(0, 1, default=0.5, open_lo=True)

    def validate(self) -> None:
        if rank(self.rows, self.cols) < self.rows * self.cols:
            raise ConfigError(
                "rows", self.rows,
                f"a {self.rows} × {self.cols} board's toggle matrix is singular over GF(2): its "
                "puzzles have several answers; choose another size (e.g. 3 × 3, 6 × 6, 7 × 7)",
            )  # fmt: skip


# square boards past 12 × 12 whose toggle matrix is invertible over GF(2) (one answer each)
SQUARES = (13, 15, 18, 20, 21, 22, 25, 26, 27, 28)
LEVEL_MAP = [(3, 3), (2, 6), (3, 4), (4, 3), (3, 6), (6, 6), (7, 7), (8, 8), (10, 10),
    (12, 12), (12, 12)]  # fmt: skip


class LightsOutFamily(
    DeclaredFamily, name=NAME, params=LightsOutParams, example={"rows": 3, "cols": 3}
):
    def generate(self, p: LightsOutParams, rng: np.random.Generator) -> Built:
        r, c = p.rows, p.cols
        press = (rng.random(r * c) < p.density).astype(np.uint8)
        if not press.any():
            press[int(rng.integers(r * c))] = 1
        a = toggles(r, c)
        lights = (a.astype(int) @ press) % 2
        x, rk = gf2_solve(a, lights)
        certify(
            rk == r * c and x is not None and bool((x == press).all()),
            "GF(2) elimination recovers the one press pattern",
        )
        cells = grid_cells(r, c)
        data: dict[str, Any] = {
            "rows": r, "cols": c, "cells": cells, "domain": ["0", "1"],
            "lights": [[int(lights[i * c + j]) for j in range(c)] for i in range(r)],
            "solution": {cells[k]: str(int(press[k])) for k in range(r * c)},
        }  # fmt: skip
        certify(check(data, data["solution"]) == "", "the presses switch every light off")
        meta = {
            "rows": r,
            "cols": c,
            "n_presses": int(press.sum()),
            "n_lights_on": int(lights.sum()),
        }
        return data, "SAT", {"solver": "gf2", "unique": True, "rank": rk}, meta

    knobs = (
        Knob("rows", lambda prob, _: prob["rows"], exact, "board rows", levels=(2, 3, 6), at={"cols": 6}),
        Knob("cols", lambda prob, _: prob["cols"], exact, "board columns", levels=(3, 6), at={"rows": 3}),
        Knob("density", lambda prob, _: sum(v == "1" for v in prob["solution"].values()) / len(prob["cells"]),
             lambda p: 0.06, "share of cells pressed in the hidden pattern (mean over items; an empty "
             "pattern gets one press)", levels=(0.2, 0.5, 0.8), at={"rows": 6, "cols": 6}, stochastic=True),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"rows": LEVEL_MAP[lv][0], "cols": LEVEL_MAP[lv][1]},
        "cells",
        lambda p: float(p.problem["rows"] * p.problem["cols"]),
        "boards 3×3, 2×6, 3×4, 4×3, 3×6, 6×6, 7×7, 8×8, 10×10, 12×12 (level 10: 12×12 at density "
        "0.5 too; all invertible); the measure is the number of cells (log2 of the press "
        "patterns); level 0 has 512 patterns, so no constant answer is right more than by chance"
        "; past 10 the next square board whose toggle matrix is invertible every 2 levels (13 × 13 at 11, 15 × 15 at 13 … 28 × 28 at 29)",
        beyond=lambda lv: dict.fromkeys(("rows", "cols"), SQUARES[(lv - 11) // 2]),
        highest=30,
        ceiling="the largest board is 28 × 28 (the invertible square sides to 30)",
    )


ASK = ask('{"solution": [[row 1: 1 = press, 0 = do not press], [row 2 …], ...]}')


def words(d: dict[str, Any]) -> str:
    grid = "\n".join(" ".join(str(v) for v in row) for row in d["lights"])
    return (
        f"Lights Out on a {d['rows']}×{d['cols']} board. Pressing a cell toggles that light and the "
        "lights directly above, below, left and right of it (on becomes off, off becomes on). "
        "This is the board (1 = on, 0 = off):\n\n"
        f"{grid}\n\nWhich cells must be pressed, each at most once, to switch every light off?\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    """The same puzzle as a linear system over GF(2)."""

    r, c = d["rows"], d["cols"]
    a = toggles(r, c)
    eqs = []
    for k in range(r * c):
        terms = " ⊕ ".join(f"p[{v // c + 1}][{v % c + 1}]" for v in np.flatnonzero(a[k]).tolist())
        eqs.append(f"{terms} = {d['lights'][k // c][k % c]}")
    return (
        f"Solve this system over GF(2) (⊕ is XOR) for p[i][j] ∈ {{0, 1}}, i in 1..{r}, j in 1..{c}:\n\n"
        + "\n".join(eqs)
        + f"\n\n{ASK}"
    )


register_solution_puzzle(LightsOutFamily(), check, encode, words, formal)
