"""Unique-SAT: a k-CNF with exactly one satisfying assignment; give it. The kind ``uniquesat``;
the family ``uniquesat`` — the model-finding counterpart of ``ksat/random``'s decision task,
where a right answer cannot be a lucky guess of "SAT".

Construction: a hidden assignment from the item's stream; 2n random k-clauses that it
satisfies (a random clause, one literal flipped where it was false), then, while one
incremental solver holding the clause that excludes the hidden assignment still finds another
model, one more clause that the hidden assignment keeps and that model breaks (a variable
where they differ, with the hidden polarity, and k − 1 others with the polarity the other
model falsifies) — at most ``max_clauses`` in all. Uniqueness is
proved again from scratch by another solver; the tests count models by brute force.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ConfigError, GenerationError, certify
from ..fields import integer, params
from ..kinds.puzzle import certify_unique
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "uniquesat"


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n = len(d["cells"])

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {f"x{i}": "1" if model.get(i) else "0" for i in range(1, n + 1)}

    return CNF(d["clauses"], n), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    if any(v not in ("0", "1") for v in sol.values()):
        return "every variable is 1 (true) or 0 (false)"
    for c in d["clauses"]:
        if not any((sol[f"x{abs(x)}"] == "1") == (x > 0) for x in c):
            return (
                "the clause ("
                + " ∨ ".join(f"{'¬' if x < 0 else ''}x{abs(x)}" for x in c)
                + ") is false"
            )
    return ""


@params
class UniqueSatParams:
    n_vars: int = integer(2, 300, default=8)
    k: int = integer(2, 7, default=3, note="at most n_vars")
    # a setting, the give-up bound; 0: 20 · n_vars
    max_clauses: int = integer(0, 100_000, default=0)

    def validate(self) -> None:
        if self.k > self.n_vars:
            raise ConfigError("k", self.k, "must be an integer in 2..min(n_vars, 7)")


class UniqueSatFamily(DeclaredFamily, name=NAME, params=UniqueSatParams, example={"n_vars": 6}):
    def generate(self, p: UniqueSatParams, rng: np.random.Generator) -> Built:
        from ..logic.sat import new_solver

        n, k = p.n_vars, p.k
        most = p.max_clauses or 20 * n
        hidden = rng.random(n) < 0.5
        if hidden.all() or not hidden.any():  # a constant answer would be right: flip one
            hidden[int(rng.integers(n))] ^= True
        lits = [i + 1 if hidden[i] else -(i + 1) for i in range(n)]
        clauses: list[list[int]] = []
        with new_solver("minisat22", [[-x for x in lits]]) as s:
            while len(clauses) < 2 * n:  # the random part: clauses the hidden assignment keeps
                vs = (rng.permutation(n)[:k] + 1).tolist()
                c = [v if sg else -v for v, sg in zip(vs, rng.random(k) < 0.5, strict=True)]
                if not any((x > 0) == hidden[abs(x) - 1] for x in c):  # make it true under hidden
                    j = int(rng.integers(k))
                    c[j] = -c[j]
                clauses.append(sorted(c, key=abs))
                s.add_clause(c)
            while s.solve():  # another model: one more clause the hidden keeps and it breaks
                if len(clauses) >= most:
                    raise GenerationError(
                        f"{NAME}: still several models after {most} clauses; raise max_clauses"
                    )
                other = {abs(x): x > 0 for x in s.get_model() or []}
                diff = [v for v in range(1, n + 1) if other.get(v, False) != hidden[v - 1]]
                d = diff[int(rng.integers(len(diff)))]
                rest = [int(v) for v in rng.permutation(n) + 1 if v != d][: k - 1]
                c = [d if hidden[d - 1] else -d] + [-v if other.get(v, False) else v for v in rest]
                clauses.append(sorted(c, key=abs))
                s.add_clause(c)
        data: dict[str, Any] = {
            "clauses": clauses, "cells": [f"x{i}" for i in range(1, n + 1)], "domain": ["0", "1"],
            "solution": {f"x{i + 1}": "1" if hidden[i] else "0" for i in range(n)},
        }  # fmt: skip
        cnf, _ = encode(data)
        certify_unique(cnf, list(range(1, n + 1)), lits)
        certify(check(data, data["solution"]) == "", "the hidden assignment satisfies every clause")
        meta = {"n_vars": n, "n_clauses": len(clauses)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob("n_vars", lambda prob, _: len(prob["cells"]), exact, "variables", levels=(4, 10)),
        Knob("k", lambda prob, _: len(prob["clauses"][0]), exact, "literals per clause", levels=(2, 3, 4), at={"n_vars": 8}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"n_vars": 5 + 3 * lv, "k": 3},
        "variables",
        lambda p: float(len(p.problem["cells"])),
        "n_vars = 5 + 3 · level (5 … 35), 3-clauses; the measure is the number of variables",
    )


ASK = ask('{"solution": {"x1": 1 or 0, "x2": 1 or 0, ...}} (1 = true) for every variable')


def _clause(c: list[int]) -> str:
    return "(" + " ∨ ".join(f"{'¬' if x < 0 else ''}x{abs(x)}" for x in c) + ")"


def words(d: dict[str, Any]) -> str:
    return (
        f"This formula over x1 … x{len(d['cells'])} has exactly one satisfying assignment. Find it.\n\n"
        + " ∧\n".join(_clause(c) for c in d["clauses"])
        + f"\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    """DIMACS, as solvers read it."""

    body = f"p cnf {len(d['cells'])} {len(d['clauses'])}\n" + "\n".join(
        " ".join(map(str, c)) + " 0" for c in d["clauses"]
    )
    return f"This DIMACS CNF has exactly one model; variable i is x<i>. Give it.\n\n{body}\n\n{ASK}"


register_solution_puzzle(
    UniqueSatFamily(), check, encode, words, formal, formal_name="uniquesat-dimacs"
)
