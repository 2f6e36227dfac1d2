"""XOR-SAT: a system of parity constraints (k variables each) over n Boolean variables with
exactly one solution. The kind ``xorsat``; the family ``xorsat``.

Construction: a hidden assignment and ``n_equations`` random equations of ``k`` distinct
variables from the item's stream, each's right-hand side the parity of the hidden values; the
system is redrawn (at most ``max_attempts`` times) until it has full column rank over GF(2) —
the certificate that the hidden assignment is the only solution (Gauss–Jordan elimination,
:func:`logicforge.families.lightsout.gf2_solve`, recovering it). The tests re-check uniqueness
by brute force over all 2^n assignments and by a SAT solver on the clause encoding.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..errors import ConfigError, GenerationError, certify
from ..fields import integer, params
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .lightsout import gf2_solve
from .shape import Built, ask, register_solution_puzzle

NAME = KIND = "xorsat"


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    """Each equation as the clauses excluding every assignment of its variables with the wrong
    parity (2^(k−1) clauses of width k)."""
    cl: list[list[int]] = []
    for vs, rhs in zip(d["equations"], d["rhs"], strict=True):
        for signs in itertools.product((0, 1), repeat=len(vs)):
            if sum(signs) % 2 != rhs:
                cl.append([-v if s else v for v, s in zip(vs, signs, strict=True)])
    n = len(d["cells"])

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {f"x{i}": "1" if model.get(i) else "0" for i in range(1, n + 1)}

    return CNF(cl, n), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    if any(v not in ("0", "1") for v in sol.values()):
        return "every variable is 0 or 1"
    for vs, rhs in zip(d["equations"], d["rhs"], strict=True):
        if sum(int(sol[f"x{v}"]) for v in vs) % 2 != rhs:
            return " ⊕ ".join(f"x{v}" for v in vs) + f" = {rhs} does not hold"
    return ""


@params
class XorSatParams:
    n_vars: int = integer(2, 400, default=6)
    k: int = integer(1, 7, default=3, note="odd, below n_vars")
    n_equations: int = integer(0, default=0, note="0: n_vars + 2")
    max_attempts: int = integer(1, 100_000, default=1000)

    def validate(self) -> None:
        if self.k >= min(self.n_vars, 9) or self.k % 2 == 0:
            # with k even, flipping every variable keeps every parity: never one solution
            raise ConfigError(
                "k", self.k, "must be odd and below min(n_vars, 9): with an even k, flipping every "
                "variable keeps every equation, so no system has one solution",
            )  # fmt: skip
        m = self.n_equations
        if (m and m < self.n_vars) or m > 4 * self.n_vars:
            raise ConfigError(
                "n_equations",
                m,
                "must be 0 (n_vars + 2) or in n_vars..4·n_vars: fewer cannot fix every variable",
            )

    @property
    def equations(self) -> int:
        return self.n_equations or self.n_vars + 2


class XorSatFamily(DeclaredFamily, name=NAME, params=XorSatParams, example={"n_vars": 5}):
    def generate(self, p: XorSatParams, rng: np.random.Generator) -> Built:
        n, m = p.n_vars, p.equations
        for attempt in range(1, p.max_attempts + 1):
            hidden = (rng.random(n) < 0.5).astype(np.uint8)
            eqs = [sorted((rng.permutation(n)[: p.k] + 1).tolist()) for _ in range(m)]
            a = np.zeros((m, n), dtype=np.uint8)
            for i, vs in enumerate(eqs):
                a[i, [v - 1 for v in vs]] = 1
            rhs = (a.astype(int) @ hidden) % 2
            x, rank = gf2_solve(a, rhs)
            if rank < n:
                continue  # another assignment fits too: draw again
            certify(
                x is not None and bool((x == hidden).all()), "elimination recovers the one solution"
            )
            cells = [f"x{i}" for i in range(1, n + 1)]
            data: dict[str, Any] = {
                "cells": cells, "domain": ["0", "1"], "equations": eqs, "rhs": [int(b) for b in rhs],
                "solution": {c: str(int(hidden[i])) for i, c in enumerate(cells)},
            }  # fmt: skip
            certify(check(data, data["solution"]) == "", "the solution keeps every equation")
            meta = {"n_vars": n, "k": p.k, "n_equations": m, "attempts": attempt}
            return data, "SAT", {"solver": "gf2", "unique": True, "rank": rank}, meta
        raise GenerationError(
            f"{NAME}: no full-rank system in {p.max_attempts} draws; add equations"
        )

    knobs = (
        Knob("n_vars", lambda prob, _: len(prob["cells"]), exact, "variables", levels=(4, 8, 16)),
        Knob("k", lambda prob, _: len(prob["equations"][0]), exact, "variables per equation", levels=(3, 5), at={"n_vars": 8}),
        Knob("n_equations", lambda prob, _: len(prob["equations"]), exact, "equations", levels=(8, 12), at={"n_vars": 8}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"n_vars": 7 + 3 * lv, "k": 3},
        "variables",
        lambda p: float(len(p.problem["cells"])),
        "n_vars = 7 + 3 · level (7 … 37; from 7, so that an all-0 or all-1 answer is right at "
        "most 1/128 of the time) with 3 variables per equation and n_vars + 2 equations; "
        "the measure is the number of variables (log2 of the assignments)",
        highest=33,
        ceiling="beyond, no full-rank system of n_vars + 2 equations in 1,000 draws (seed 0)",
    )


ASK = ask('{"solution": {"x1": 0 or 1, "x2": 0 or 1, ...}} giving every variable')


def words(d: dict[str, Any]) -> str:
    lines = [
        f"- an {'odd' if r else 'even'} number of {', '.join(f'x{v}' for v in vs)} are 1"
        for vs, r in zip(d["equations"], d["rhs"], strict=True)
    ]
    return (
        f"Each of the variables x1 … x{len(d['cells'])} is 0 or 1. Exactly one choice makes all "
        "of these true:\n" + "\n".join(lines) + f"\n\nFind it.\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    eqs = [
        " ⊕ ".join(f"x{v}" for v in vs) + f" = {r}"
        for vs, r in zip(d["equations"], d["rhs"], strict=True)
    ]
    return "Solve over GF(2) (⊕ is XOR):\n\n" + "\n".join(eqs) + f"\n\n{ASK}"


register_solution_puzzle(XorSatFamily(), check, encode, words, formal)
