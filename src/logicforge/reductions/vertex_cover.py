"""CNF → Vertex Cover (Karp's reduction), as problem kind ``vc``.

Nodes: for each variable v a positive literal node 2v−1 and a negative literal node 2v joined by
an edge; for each clause Cᵢ one node per literal, joined pairwise (a triangle for width 3) and
each joined to its literal's node. The budget is k = n + Σ(|Cᵢ| − 1).

The formula is satisfiable iff the graph has a cover of at most k nodes. Any cover needs one node
per variable edge and |Cᵢ| − 1 per clause clique, so a cover of size ≤ k has exactly that; the
clause node left out has its literal edge covered by the literal's node, so x_v := (node 2v−1 in the
cover) makes that literal true — a satisfying assignment (:func:`cover_to_assignment`).
Conversely, a model gives the cover "true literals' nodes, plus every clause node but one whose
literal is true" (:func:`assignment_to_cover`).

The model answers YES / NO and, for YES, the cover as a JSON list of node numbers; the verifier
checks the size bound and that every edge is covered.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import ConfigError
from ..kinds import yes_no_head, yes_no_verdict
from ..kinds.items import build_kind_item, decision_schema
from ..logic.cnf import CNF
from ..registry import RENDERERS
from ..schema import Answer, Item, LabelledProblem, Verdict
from .base import mapped_back, oracle_answer, register_reduced_kind

KIND = "vc"
ANSWER_SCHEMA = decision_schema(
    ["YES", "NO"], "cover", {"type": "array", "items": {"type": "integer"}}
)


def reduce_cnf(cnf: CNF) -> dict[str, Any]:
    n = cnf.num_vars
    edges = [[2 * v - 1, 2 * v] for v in range(1, n + 1)]
    clause_nodes: list[list[int]] = []
    nxt = 2 * n + 1
    for i, c in enumerate(cnf.clauses):
        if not c:
            raise ConfigError("clause", i, "an empty clause has no Vertex Cover gadget")
        ids = list(range(nxt, nxt + len(c)))
        nxt += len(c)
        clause_nodes.append(ids)
        edges += [[a, b] for x, a in enumerate(ids) for b in ids[x + 1 :]]
        edges += [
            [a, 2 * abs(lit) - 1 if lit > 0 else 2 * abs(lit)]
            for a, lit in zip(ids, c, strict=True)
        ]
    k = n + sum(len(c) - 1 for c in cnf.clauses)
    return {
        "num_nodes": nxt - 1,
        "edges": edges,
        "k": k,
        "num_vars": n,
        "clause_nodes": clause_nodes,
        "cnf": cnf.to_json(),
    }


def cover_to_assignment(problem: dict[str, Any], cover: set[int]) -> dict[int, bool]:
    return {v: (2 * v - 1) in cover for v in range(1, problem["num_vars"] + 1)}


def assignment_to_cover(problem: dict[str, Any], val: dict[int, bool]) -> list[int]:
    cnf = CNF.from_json(problem["cnf"])
    cover = [2 * v - 1 if val.get(v, False) else 2 * v for v in range(1, cnf.num_vars + 1)]
    for c, ids in zip(cnf.clauses, problem["clause_nodes"], strict=True):
        keep = next(j for j, lit in enumerate(c) if val.get(abs(lit), False) == (lit > 0))
        cover += [a for j, a in enumerate(ids) if j != keep]
    return sorted(cover)


def check_cover(problem: dict[str, Any], cover: list[int]) -> str:
    """'' if ``cover`` is a vertex cover within the budget, else the reason it is not."""
    s = set(cover)
    if len(s) != len(cover):
        return "cover lists a node twice"
    bad = [x for x in s if not 1 <= x <= problem["num_nodes"]]
    if bad:
        return f"unknown nodes {sorted(bad)[:5]}"
    if len(s) > problem["k"]:
        return f"cover has {len(s)} nodes, more than k = {problem['k']}"
    for u, v in problem["edges"]:
        if u not in s and v not in s:
            return f"edge {u}-{v} is not covered"
    return ""


class VCRenderer:
    name = "vc"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        if problem.kind != KIND:
            raise ConfigError("renderer", "vc", f"renders vc problems, not {problem.kind!r}")
        d = problem.problem
        edges = ", ".join(f"{u}-{v}" for u, v in d["edges"])
        prompt = (
            f"Consider an undirected graph with nodes 1 to {d['num_nodes']} and these {len(d['edges'])} edges:\n"
            f"{edges}\n\n"
            "A vertex cover is a set of nodes such that every edge has at least one endpoint in the set.\n"
            f"Is there a vertex cover with at most {d['k']} nodes?\n\n"
            "Reply with your reasoning if you like, then end with one final JSON object on its own line.\n"
            'If such a cover exists: {"answer": "YES", "cover": [list of node numbers]}\n'
            'If none exists: {"answer": "NO"}'
        )
        return build_kind_item(problem, "vc", prompt, ANSWER_SCHEMA)


_COVER_LINE = re.compile(r"cover[^:=\n\[\d]*[:=]?\s*[\[{]?\s*((?:\d+\s*,\s*)*\d+)\s*[\]}]?", re.I)


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    final, rule = yes_no_head(body, objs)
    if final is not None:
        return final
    for obj in reversed(objs):
        if isinstance(obj.get("cover"), list):
            try:
                nodes = [int(str(x).strip().lstrip("vn")) for x in obj["cover"]]
            except ValueError:
                return Answer(label="SAT", rule=rule, parse_error="cover holds a non-number")
            return Answer(label="SAT", rule=rule, certificate={"cover": nodes})
    lines = _COVER_LINE.findall(body)
    if lines:
        return Answer(
            label="SAT",
            rule=rule,
            certificate={"cover": [int(x) for x in re.findall(r"\d+", lines[-1])]},
        )
    return Answer(label="SAT", rule=rule)


def verify(item: Item, answer: Answer) -> Verdict:
    def check(cover: list[int]) -> str:
        why = check_cover(item.problem, cover)
        return mapped_back(item, why, lambda: cover_to_assignment(item.problem, set(cover)))

    return yes_no_verdict(item, answer, "cover", check)


def oracle(item: Item) -> Answer:
    return oracle_answer(item, "cover", assignment_to_cover)


register_reduced_kind(KIND, reduce_cnf, "cover", parse, verify, oracle, lambda it: [])
RENDERERS.register("vc", VCRenderer())
