"""Unique topological order: tasks with "X must come before Y" constraints that admit exactly
one order; give every task's position. The kind ``toposort``; the family ``toposort``.

Construction: a hidden order of the tasks (from the item's stream); the constraints are every
consecutive pair of that order — which makes it the only one — plus ``n_extra`` random
constraints consistent with it, all shuffled. Uniqueness is certified twice: Kahn's algorithm
finds exactly one available task at every step, and a solver proves the position encoding has
no other model; the tests enumerate every permutation on small sizes.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import integer, params
from ..kinds.puzzle import certify_unique
from ..logic.cnf import CNF
from ..rng import shuffled
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "toposort"
TASKS = ("wash", "dry", "fold", "iron", "pack", "label", "ship", "scan", "sort", "seal", "weigh",
         "print", "sign", "file", "check", "mail", "store", "clean", "paint", "glue", "cut", "drill",
         "sand", "test", "polish", "bend", "weld", "rinse", "coat", "bake", "cool", "trim", "pair",
         "box", "stack", "wrap", "tape", "count", "log", "load", "stamp", "bag", "tag", "return",
         "sweep", "buff", "mark", "crate", "reseal", "audit")  # fmt: skip
FIRST_TASKS = TASKS[:24]  # the names drawn from for up to 24 tasks (the pinned streams)


def kahn_unique(tasks: list[str], before: list[list[str]]) -> list[str] | None:
    """The one topological order, or None where a step has no or several available tasks."""
    indeg = dict.fromkeys(tasks, 0)
    out: dict[str, list[str]] = {t: [] for t in tasks}
    for a, b in before:
        indeg[b] += 1
        out[a].append(b)
    order = []
    ready = [t for t in tasks if indeg[t] == 0]
    while ready:
        if len(ready) > 1:
            return None
        t = ready.pop()
        order.append(t)
        for u in out[t]:
            indeg[u] -= 1
            if indeg[u] == 0:
                ready.append(u)
    return order if len(order) == len(tasks) else None


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    """p(t, k): task t at position k — a permutation matrix; "a before b" as ¬(p(a, i) ∧ p(b, j))
    for every j ≤ i."""
    tasks = d["cells"]
    n = len(tasks)
    ix = {t: i for i, t in enumerate(tasks)}

    def p(t: str, k: int) -> int:
        return ix[t] * n + k + 1

    cl: list[list[int]] = []
    for t in tasks:
        cl.append([p(t, k) for k in range(n)])
        cl += [[-p(t, a), -p(t, b)] for a, b in itertools.combinations(range(n), 2)]
    for k in range(n):
        cl.append([p(t, k) for t in tasks])
        cl += [[-p(a, k), -p(b, k)] for a, b in itertools.combinations(tasks, 2)]
    for a, b in d["before"]:
        cl += [[-p(a, i), -p(b, j)] for i in range(n) for j in range(i + 1)]

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {t: str(next((k + 1 for k in range(n) if model.get(p(t, k))), 0)) for t in tasks}

    return CNF(cl, n * n), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    n = len(d["cells"])
    if sorted(sol.get(t, "") for t in d["cells"]) != sorted(str(k) for k in range(1, n + 1)):
        return f"the positions must be 1 … {n}, each once"
    for a, b in d["before"]:
        if int(sol[a]) >= int(sol[b]):
            return f"{a} must come before {b}"
    return ""


@params
class TopoSortParams:
    n_tasks: int = integer(2, len(TASKS), default=6)
    n_extra: int = integer(0, default=3)

    def validate(self) -> None:
        most = self.n_tasks * (self.n_tasks - 1) // 2 - (self.n_tasks - 1)
        if self.n_extra > most:
            raise ConfigError(
                "n_extra",
                self.n_extra,
                f"must be an integer in 0..{most} (the other forward pairs)",
            )


class TopoSortFamily(
    DeclaredFamily, name=NAME, params=TopoSortParams, example={"n_tasks": 5, "n_extra": 2}
):
    def generate(self, p: TopoSortParams, rng: np.random.Generator) -> Built:
        n = p.n_tasks
        pool = len(FIRST_TASKS) if n <= len(FIRST_TASKS) else len(TASKS)  # levels 0-10 as before
        names = sorted(TASKS[k] for k in shuffled(rng, pool)[:n])
        order = [names[k] for k in shuffled(rng, n)]
        chain = [[order[k], order[k + 1]] for k in range(n - 1)]
        others = [[order[i], order[j]] for i in range(n) for j in range(i + 2, n)]
        extra = [others[k] for k in shuffled(rng, len(others))[: p.n_extra]]
        before = [(chain + extra)[k] for k in shuffled(rng, len(chain) + len(extra))]
        pos = {t: k + 1 for k, t in enumerate(order)}
        data: dict[str, Any] = {
            "cells": names, "domain": [str(k) for k in range(1, n + 1)], "before": before,
            "solution": {t: str(pos[t]) for t in names},
        }  # fmt: skip
        certify(kahn_unique(names, before) == order, "Kahn's algorithm finds the one order")
        cnf, _ = encode(data)
        lits = [names.index(t) * n + pos[t] for t in names]  # p(t, pos − 1)
        full = [v if v in set(lits) else -v for v in range(1, n * n + 1)]
        certify_unique(cnf, list(range(1, n * n + 1)), full)
        certify(check(data, data["solution"]) == "", "the order keeps every constraint")
        meta = {"n_tasks": n, "n_constraints": len(before)}
        return solved(data, "kahn+glucose4", meta)

    knobs = (
        Knob("n_tasks", lambda prob, _: len(prob["cells"]), exact, "tasks", levels=(4, 8)),
        Knob("n_extra", lambda prob, _: len(prob["before"]) - len(prob["cells"]) + 1, exact,
             "constraints beyond the chain", levels=(0, 4)),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {"n_tasks": 4 + 2 * lv, "n_extra": 2 + 2 * lv},
        "log10 search space",
        lambda p: math.lgamma(len(p.problem["cells"]) + 1) / math.log(10),
        "n_tasks = 4 + 2 · level (4 … 24), n_extra = 2 + 2 · level; the measure is log10 n! (the "
        "orders)",
    )


ASK = ask('{"solution": {"task": position, ...}} giving every task its position (1 = first)')


def words(d: dict[str, Any]) -> str:
    rules = "\n".join(f"- {a} must be done before {b}" for a, b in d["before"])
    return (
        f"These {len(d['cells'])} tasks are done one at a time: {', '.join(d['cells'])}.\n\n{rules}\n\n"
        f"Exactly one order keeps every rule. Which position does each task take?\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    n = len(d["cells"])
    lines = [f"pos: {{{', '.join(d['cells'])}}} → {{1..{n}}} is a bijection."]
    lines += [f"pos({a}) < pos({b})" for a, b in d["before"]]
    return "Find pos.\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(TopoSortFamily(), check, encode, words, formal)
