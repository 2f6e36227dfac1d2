"""The ``coloring`` kind's rules and answers: the standard CNF encoding of graph k-colouring
(as SATLIB's edge2cnf: x(v, c) = v·k + c + 1; per node at least and at most one colour; per
edge and colour ¬x(u,c) ∨ ¬x(v,c)), the colouring a model or an answer gives, its check, and the
answer format's parser, verifier, oracle and budgeted solver. The family, its loaders and twins
are :mod:`logicforge.families.coloring`.

Example:
    >>> check_colouring(2, [[1, 2]], 2, {1: 1, 2: 1})
    'edge 1-2 joins two nodes of colour 1'
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from ..logic.cnf import CNF
from ..logic.sat import solve
from ..schema import Answer, Item, Verdict
from .base import yes_no_head, yes_no_verdict

KIND = "coloring"


def encode(num_nodes: int, edges: list[list[int]], k: int) -> CNF:
    """The standard CNF encoding (nodes numbered 1..n in ``edges``)."""

    def x(v: int, c: int) -> int:
        return (v - 1) * k + c + 1

    cl: list[list[int]] = []
    for v in range(1, num_nodes + 1):
        cl.append([x(v, c) for c in range(k)])
        cl += [[-x(v, a), -x(v, b)] for a, b in itertools.combinations(range(k), 2)]
    for u, v in edges:
        cl += [[-x(u, c), -x(v, c)] for c in range(k)]
    return CNF(cl, num_nodes * k)


def colouring_from_model(model: dict[int, bool], num_nodes: int, k: int) -> dict[int, int]:
    return {
        v: next(c for c in range(k) if model.get((v - 1) * k + c + 1, False))
        for v in range(1, num_nodes + 1)
    }


def check_colouring(num_nodes: int, edges: list[list[int]], k: int, col: dict[int, int]) -> str:
    """'' if ``col`` properly k-colours the graph, else why not."""
    missing = [v for v in range(1, num_nodes + 1) if v not in col]
    if missing:
        return f"nodes without a colour: {missing[:5]}"
    extra = [v for v in col if not 1 <= v <= num_nodes]
    if extra:
        return f"unknown nodes {extra[:5]}"
    bad = [c for c in col.values() if not (isinstance(c, int) and 0 <= c < k)]
    if bad:
        return f"colours must be integers 0..{k - 1}"
    for u, v in edges:
        if col[u] == col[v]:
            return f"edge {u}-{v} joins two nodes of colour {col[u]}"
    return ""


_LINE = re.compile(
    r"^\s*(?:node\s*)?(\d+)\s*[:=→-]+\s*(?:colou?r\s*)?(\d+)\s*[,;.]?\s*$", re.I | re.M
)


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    final, rule = yes_no_head(body, objs)
    if final is not None:
        return final
    for obj in reversed(objs):
        col = obj.get("colouring", obj.get("coloring"))
        if isinstance(col, dict):
            try:
                return Answer(
                    label="SAT",
                    rule=rule,
                    certificate={
                        "colouring": {
                            str(int(str(a).strip().lstrip("nv"))): int(b) for a, b in col.items()
                        }
                    },
                )
            except (TypeError, ValueError):
                return Answer(label="SAT", rule=rule, parse_error="colouring holds a non-number")
    pairs = _LINE.findall(body)
    if pairs:
        return Answer(
            label="SAT", rule=rule, certificate={"colouring": {a: int(b) for a, b in pairs}}
        )
    return Answer(label="SAT", rule=rule)


def verify(item: Item, answer: Answer) -> Verdict:
    d = item.problem

    def check(col: dict[str, int]) -> str:
        return check_colouring(
            d["num_nodes"], d["edges"], d["k"], {int(a): b for a, b in col.items()}
        )

    return yes_no_verdict(item, answer, "colouring", check)


def oracle(item: Item) -> Answer:
    return _decided(
        item, solve(encode(item.problem["num_nodes"], item.problem["edges"], item.problem["k"]))
    )


def budgeted(item: Item, conflicts: int) -> Answer | None:
    """The colouring (or NO) MiniSat finds on the encoding within ``conflicts`` conflicts."""
    from ..logic.sat import solve_within

    d = item.problem
    sol = solve_within(encode(d["num_nodes"], d["edges"], d["k"]), conflicts)
    return None if sol.label == "UNKNOWN" else _decided(item, sol)


def _decided(item: Item, sol: Any) -> Answer:
    d = item.problem
    if sol.label != "SAT":
        return Answer(label="UNSAT")
    col = colouring_from_model(sol.assignment or {}, d["num_nodes"], d["k"])
    return Answer(label="SAT", certificate={"colouring": {str(v): c for v, c in col.items()}})
