"""Graph colouring completion: a graph with a few nodes already coloured; colour the rest with
k colours so that no edge joins two nodes of one colour — the colouring being the only one.
The kind ``graphcolour``; the family ``graphcolour`` (the model-finding counterpart of
``coloring/planted``'s YES/NO question).

Construction: a planted k-colouring and edges across its classes (as ``coloring/planted``);
every node's colour is a candidate clue, dropped in a random order while the colouring stays
the only one (:func:`~logicforge.kinds.puzzle.minimal_clues` over the standard encoding of
:mod:`logicforge.families.coloring`). Uniqueness is proved again by another solver; the tests
enumerate every colouring by brute force on small graphs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..fields import integer, number, params
from ..kinds.puzzle import certify_unique, minimal_clues
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .coloring import check_colouring, planted_graph
from .coloring import encode as colour_cnf
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "graphcolour"
COLOURS = ("red", "green", "blue", "yellow", "purple", "orange")


def _x(k: int, v: int, c: int) -> int:
    return (v - 1) * k + c + 1


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    n, k = d["n_nodes"], d["k"]
    base = colour_cnf(n, d["edges"], k)
    units = [[_x(k, int(v[1:]), COLOURS.index(c))] for v, c in d["givens"].items()]

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {
            f"v{v}": next((COLOURS[c] for c in range(k) if model.get(_x(k, v, c))), "?")
            for v in range(1, n + 1)
        }

    return CNF([list(c) for c in base.clauses] + units, n * k), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    n, k = d["n_nodes"], d["k"]
    dom = COLOURS[:k]
    if any(v not in dom for v in sol.values()):
        return f"every node gets one of {', '.join(dom)}"
    for v, c in d["givens"].items():
        if sol.get(v) != c:
            return f"{v} is given as {c}"
    col = {int(v[1:]): dom.index(c) for v, c in sol.items()}
    return check_colouring(n, d["edges"], k, col)


@params
class GraphColourParams:
    n_nodes: int = integer(3, 500, default=8)
    k: int = integer(2, len(COLOURS), default=3, note="at most n_nodes")
    edge_density: float = number(0, 20, default=2.0, open_lo=True, note="edges per node")

    def validate(self) -> None:
        if self.k > self.n_nodes:
            raise ConfigError("k", self.k, "must be an integer in 2..n_nodes")


class GraphColourFamily(
    DeclaredFamily, name=NAME, params=GraphColourParams, example={"n_nodes": 6}
):
    def generate(self, p: GraphColourParams, rng: np.random.Generator) -> Built:
        n, k = p.n_nodes, p.k
        planted, edges = planted_graph(n, k, p.edge_density, rng)
        col = {v: planted[v - 1] for v in range(1, n + 1)}
        certify(check_colouring(n, edges, k, col) == "", "the planted colouring is proper")
        lits = [_x(k, v, c) for v in range(1, n + 1) for c in range(k) if planted[v - 1] == c]
        base = [list(c) for c in colour_cnf(n, edges, k).clauses]
        kept = minimal_clues(base, n * k, [[[x]] for x in lits], lits, rng)
        data: dict[str, Any] = {
            "n_nodes": n, "k": k, "edges": edges, "cells": [f"v{v}" for v in range(1, n + 1)],
            "domain": list(COLOURS[:k]),
            "givens": {f"v{kk + 1}": COLOURS[planted[kk]] for kk in kept},
            "solution": {f"v{v}": COLOURS[planted[v - 1]] for v in range(1, n + 1)},
        }  # fmt: skip
        cnf, _ = encode(data)
        full = [x if x in set(lits) else -x for x in range(1, n * k + 1)]
        certify_unique(cnf, list(range(1, n * k + 1)), full)
        certify(check(data, data["solution"]) == "", "the colouring keeps every edge")
        meta = {"n_nodes": n, "k": k, "n_edges": len(edges), "n_givens": len(kept)}
        return solved(data, "minisat22+glucose4", meta)

    knobs = (
        Knob("n_nodes", lambda prob, _: prob["n_nodes"], exact, "nodes", levels=(5, 10)),
        Knob("k", lambda prob, _: prob["k"], exact, "colours", levels=(2, 3, 4), at={"n_nodes": 10}),
        Knob("edge_density", lambda prob, _: len(prob["edges"]) / prob["n_nodes"],
             lambda p: 0.5 / p.n_nodes + 1e-6, "edges per node (as many as the planted classes allow)",
             levels=(1.0, 2.0), at={"n_nodes": 10}),
    )  # fmt: skip
    levels = Levels(
        lambda lv: {
            "n_nodes": 6 + 3 * lv,
            "k": 3 if lv < 6 else 4,
            "edge_density": 2.0 if lv < 6 else 3.0,
        },
        "hidden nodes",
        lambda p: float(p.problem["n_nodes"] - len(p.problem["givens"])),
        "n_nodes = 6 + 3 · level; 3 colours at 2 edges per node up to level 5, then 4 colours at 3; "
        "the measure is the number of nodes without a given colour",
    )


ASK = ask('{"solution": {"v1": "colour", "v2": "colour", ...}} for every node')


def words(d: dict[str, Any]) -> str:
    edges = ", ".join(f"v{u}–v{v}" for u, v in d["edges"])
    given = ", ".join(f"{v} is {c}" for v, c in d["givens"].items()) or "none"
    return (
        f"A graph has nodes v1 … v{d['n_nodes']} and these edges: {edges}.\n\nColour every node {', '.join(d['domain'][:-1])} "
        f"or {d['domain'][-1]} so that the two ends of every edge have different colours. Already coloured: {given}. "
        f"Exactly one way completes it.\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    lines = [f"c: {{v1..v{d['n_nodes']}}} → {{{', '.join(d['domain'])}}}"]
    lines += [f"c(v{u}) ≠ c(v{v})" for u, v in d["edges"]]
    lines += [f"c({v}) = {c}" for v, c in d["givens"].items()]
    return "Find c.\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(GraphColourFamily(), check, encode, words, formal)
