"""Graph k-colouring: a loader for SATLIB "flat" instances, the planted family
``coloring/planted``, UNSAT twins made by a minimal graph edit, the reduction to CNF, the
renderer, and the registration of the kind ``coloring`` (its encoding and answers are
:mod:`logicforge.kinds.coloring`).

``coloring/planted``: nodes split into k planted colour classes as evenly as possible, then edges
drawn uniformly between nodes of different classes until the edge count is reached — so the
graph is k-colourable by construction (asserted with the planted colouring and the solver).

Twins (:func:`uncolourable_twin`): add one edge {u, v} such that the graph stops being
k-colourable — u and v must share a colour in every k-colouring — tried over non-edges in a random
order and verified by the solver; sources with no such edge within the budget are skipped and
counted, never paired by clause tricks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError, DimacsError, certify
from ..fields import integer, number, params
from ..kinds import Kind, register_kind, yes_no_format
from ..kinds.coloring import (
    KIND,
    budgeted,
    check_colouring,
    colouring_from_model,
    encode,
    oracle,
    parse,
    verify,
)
from ..kinds.items import build_kind_item, decision_schema
from ..logic.cnf import read_dimacs
from ..logic.sat import solve
from ..registry import DATASETS, FAMILIES, REDUCTIONS, RENDERERS, TWINS
from ..rng import shuffled
from ..schema import Item, LabelledProblem
from .base import Built, Dataset, DeclaredFamily
from .knobs import TOL, Knob, exact, ratio
from .levels import Levels, log10


def load_flat(path: str | Path) -> tuple[int, list[list[int]], int]:
    """Read a SATLIB "flat" graph-colouring CNF back into (nodes, edges, k); checks that the file is
    exactly the standard encoding of that graph."""
    cnf = read_dimacs(path)
    widths = {len(c) for c in cnf.clauses if all(x > 0 for x in c)}
    if len(widths) != 1:
        raise DimacsError(
            "not a colouring encoding: expected one positive 'at least one colour' width",
            None,
            str(path),
        )
    k = widths.pop()
    if cnf.num_vars % k:
        raise DimacsError(
            f"{cnf.num_vars} variables do not split into {k} colours per node", None, str(path)
        )
    n = cnf.num_vars // k
    edges = set()
    for c in cnf.clauses:
        if len(c) == 2 and c[0] < 0 and c[1] < 0:
            a, b = -c[0] - 1, -c[1] - 1
            u, v = a // k + 1, b // k + 1
            if u != v:
                if a % k != b % k:
                    raise DimacsError(f"clause {c} mixes colours across an edge", None, str(path))
                edges.add((min(u, v), max(u, v)))
    out = [list(e) for e in sorted(edges)]
    if {tuple(sorted(c)) for c in encode(n, out, k).clauses} != {
        tuple(sorted(c)) for c in cnf.clauses
    }:
        raise DimacsError(
            "the clauses are not exactly the standard colouring encoding of the recovered graph",
            None,
            str(path),
        )
    return n, out, k


def load_flat_problem(path: str | Path, index: int = 0) -> LabelledProblem:
    """A SATLIB flat instance as a labelled ``coloring`` problem (graph, k, solver label);
    ``index`` (its place in a folder) seeds its own stream, e.g. for the pairing edit."""
    n, edges, k = load_flat(path)
    data, label, oracle = colour_problem(n, edges, k)
    name = Path(path).stem
    return LabelledProblem(
        problem_id=f"satlib-{name}",
        family="coloring/satlib-flat",
        kind=KIND,
        params={"file": Path(path).name},
        seed=0,
        spawn_key=[0, index],
        problem=data,
        label=label,
        oracle=oracle,
        metadata=_meta(n, edges, k, oracle),
    )


def _meta(n: int, edges: list[Any], k: int, oracle: dict[str, Any]) -> dict[str, Any]:
    """A colouring problem's metadata (the generated and the SATLIB ones alike)."""
    return {
        "n_nodes": n, "n_edges": len(edges), "k": k, "n_vars": n * k,
        "decisions": oracle["stats"].get("decisions"),
    }  # fmt: skip


def colour_problem(
    num_nodes: int, edges: list[list[int]], k: int
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    cnf = encode(num_nodes, edges, k)
    sol = solve(cnf, stats=True)
    oracle = sol.to_json()
    if sol.label == "SAT":
        col = colouring_from_model(sol.assignment or {}, num_nodes, k)
        certify(
            check_colouring(num_nodes, edges, k, col) == "",
            'check_colouring(num_nodes, edges, k, col) == ""',
        )
        oracle["colouring"] = {str(v): c for v, c in col.items()}
    return {"num_nodes": num_nodes, "edges": edges, "k": k}, sol.label, oracle


@params
class PlantedColoringParams:
    n_nodes: int = integer(2, 100_000, default=20)
    k: int = integer(2, default=3, note="at most n_nodes")
    edge_density: float = number(0, default=2.0, note="edges per node")

    def validate(self) -> None:
        if self.k > self.n_nodes:
            raise ConfigError("k", self.k, "must be an integer in 2..n_nodes")


def _edge_cap(p: PlantedColoringParams) -> float:
    """Edges per node the planted classes allow at most (pairs across classes), over n."""
    sizes = [p.n_nodes // p.k + (c < p.n_nodes % p.k) for c in range(p.k)]
    across = (p.n_nodes**2 - sum(s * s for s in sizes)) // 2
    return across / p.n_nodes


def planted_graph(
    n: int, k: int, edge_density: float, rng: np.random.Generator
) -> tuple[list[int], list[list[int]]]:
    """A planted k-colouring of nodes 1 … n (classes as even as possible, in a random order)
    and ``round(edge_density · n)`` edges drawn uniformly among the pairs across classes (as
    many as there are, where fewer). The colouring is proper by construction; callers certify it.
    """
    planted = [int(c) for c in rng.permutation(np.arange(n) % k)]
    cand = [
        (u, v)
        for u in range(1, n + 1)
        for v in range(u + 1, n + 1)
        if planted[u - 1] != planted[v - 1]
    ]
    m = min(len(cand), round(edge_density * n))
    edges = sorted([list(cand[i]) for i in rng.choice(len(cand), m, replace=False)]) if m else []
    return planted, edges


class PlantedColoringFamily(
    DeclaredFamily,
    name="coloring/planted",
    kind=KIND,
    params=PlantedColoringParams,
    example={"n_nodes": 6, "k": 3},
):
    knobs = (
        Knob("n_nodes", lambda prob, _: prob["num_nodes"], exact, "nodes", levels=(5, 20, 60)),
        Knob("k", lambda prob, _: prob["k"], exact, "colours", levels=(2, 3, 5)),
        Knob(
            "edge_density",
            lambda prob, _: ratio(len(prob["edges"]), prob["num_nodes"]),
            lambda p: max(0.0, p.edge_density - _edge_cap(p)) + 0.5 / p.n_nodes + TOL,
            "edges per node; at most the pairs across the planted classes allow",
            levels=(0.0, 2.0, 4.5),
            at={"n_nodes": 20},
        ),
    )
    levels = Levels(
        lambda lv: {"n_nodes": 6 + 3 * lv, "k": 3},
        "log10 search space",
        lambda p: p.problem["num_nodes"] * log10(p.problem["k"]),
        "a planted 3-colouring of n_nodes = 6 + 3 · level (6 … 36) at 2 edges per node; "
        "log10 search space = n_nodes · log10 k",
    )

    def generate(self, p: PlantedColoringParams, rng: np.random.Generator) -> Built:
        n, k = p.n_nodes, p.k
        planted, edges = planted_graph(n, k, p.edge_density, rng)
        certify(
            check_colouring(n, edges, k, {v: planted[v - 1] for v in range(1, n + 1)}) == "",
            'check_colouring(n, edges, k, {v: planted[v - 1] for v in range(1, n + 1)}) == ""',
        )
        data, label, oracle = colour_problem(n, edges, k)
        certify(label == "SAT", "a planted colouring exists, so the encoding must be SAT")
        return data, label, oracle, _meta(n, edges, k, oracle)


def uncolourable_twin(
    p: LabelledProblem, rng: np.random.Generator, max_candidates: int = 2000
) -> tuple[LabelledProblem, LabelledProblem] | None:
    """Add one edge that makes a k-colourable graph non-k-colourable (solver-verified), or None."""
    d = p.problem
    n, k = d["num_nodes"], d["k"]
    have = {tuple(e) for e in d["edges"]}
    non = [(u, v) for u in range(1, n + 1) for v in range(u + 1, n + 1) if (u, v) not in have]
    for idx in shuffled(rng, len(non))[:max_candidates]:
        u, v = non[idx]
        edges = sorted([*d["edges"], [u, v]])
        data, label, oracle = colour_problem(n, edges, k)
        if label == "UNSAT":
            certify(
                solve(encode(n, edges, k), solver="minisat22").label == "UNSAT",
                'solve(encode(n, edges, k), solver="minisat22").label == "UNSAT"',
            )
            info = {
                "pair_id": p.problem_id,
                "edit": {"kind": "add-edge", "edge": [u, v], "distance": 1},
            }
            src = p.model_copy(update={"metadata": p.metadata | info | {"pair_role": "SAT"}})
            twin = p.model_copy(
                update={
                    "problem_id": f"{p.problem_id}~twin",
                    "problem": data,
                    "label": "UNSAT",
                    "oracle": oracle,
                    "metadata": p.metadata
                    | info
                    | {
                        "pair_role": "UNSAT",
                        "n_edges": len(edges),
                        "decisions": oracle["stats"].get("decisions"),
                    },
                }
            )
            return src, twin
    return None


def coloring_to_cnf(p: LabelledProblem) -> LabelledProblem:
    """The same instance as a CNF problem (the standard encoding)."""
    d = p.problem
    cnf = encode(d["num_nodes"], d["edges"], d["k"])
    meta = p.metadata | {
        "representation": "cnf",
        "source_problem_id": p.problem_id,
        "n_vars": cnf.num_vars,
        "n_clauses": cnf.num_clauses,
    }
    return p.model_copy(
        update={
            "problem_id": f"{p.problem_id}>cnf",
            "kind": "cnf",
            "problem": cnf.to_json(),
            "metadata": meta,
        }
    )


_ASK = (
    "Reply with your reasoning if you like, then end with one final JSON object on its own line.\n"
    'If yes: {"answer": "YES", "colouring": {"1": colour, "2": colour, ...}} giving every node a colour\n'
    'If no: {"answer": "NO"}'
)
_SCHEMA = decision_schema(
    ["YES", "NO"], "colouring", {"type": "object", "additionalProperties": {"type": "integer"}}
)


class ColoringRenderer:
    name = "coloring"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        d = problem.problem
        edges = ", ".join(f"{u}-{v}" for u, v in d["edges"])
        k = d["k"]
        prompt = (
            f"Consider an undirected graph with nodes 1 to {d['num_nodes']} and these {len(d['edges'])} edges:\n{edges}\n\n"
            f"Can every node get one of {k} colours (numbered 0 to {k - 1}) so that the two ends of every edge "
            f"have different colours?\n\n{_ASK}"
        )
        return build_kind_item(problem, self.name, prompt, _SCHEMA)


class ColoringFormalRenderer:
    """``coloring-formal``: the same question as a constraint system over colour variables."""

    name = "coloring-formal"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        d = problem.problem
        k, n = d["k"], d["num_nodes"]
        lines = [f"c[v] ∈ {{0, …, {k - 1}}} for v in 1..{n}"]
        lines += [f"c[{u}] ≠ c[{v}]" for u, v in d["edges"]]
        prompt = (
            "Is this constraint system satisfiable (is there a value for every c[v])?\n\n"
            + "\n".join(lines)
            + "\n\n"
            + _ASK.replace('"colouring": {"1": colour', '"colouring": {"1": c[1]')
            .replace('"2": colour', '"2": c[2]')
            .replace("giving every node a colour", "giving every c[v]")
        )
        return build_kind_item(problem, self.name, prompt, _SCHEMA)


def _twin(
    p: LabelledProblem, rng: np.random.Generator, max_candidates: int = 4000, **_: Any
) -> tuple[LabelledProblem, LabelledProblem] | None:
    """A minimal graph edit, never a clause trick (colourable sources only)."""
    return uncolourable_twin(p, rng, max_candidates) if p.label == "SAT" else None


register_kind(
    Kind(
        KIND,
        ("SAT", "UNSAT"),
        (
            yes_no_format(
                "yes-no+colouring",
                "colouring",
                parse,
                verify,
                oracle,
                lambda it: {str(v): 1 for v in range(1, it.problem["num_nodes"] + 1)},
                budgeted,
            ),
        ),
        words_renderer="coloring",
        formal_renderer="coloring-formal",
        group_columns=("n_vars",),
    )
)
TWINS.register(KIND, _twin)
REDUCTIONS.register(f"{KIND}->cnf", coloring_to_cnf)
RENDERERS.register("coloring", ColoringRenderer())
RENDERERS.register("coloring-formal", ColoringFormalRenderer())
FAMILIES.register("coloring/planted", PlantedColoringFamily())


def load_flat_folder(path: Path) -> list[LabelledProblem]:
    """Every ``*.cnf`` SATLIB flat instance of a folder (or one file), in natural name order
    (flat30-1, flat30-2, …, flat30-10)."""

    def key(f: Path) -> list[Any]:
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", f.name)]

    files = sorted(path.glob("*.cnf"), key=key) if path.is_dir() else [path]
    if not files:
        raise DimacsError("no *.cnf files in the folder", None, str(path))
    return [load_flat_problem(f, i) for i, f in enumerate(files)]


DATASETS.register(
    "coloring/satlib-flat",
    Dataset(load_flat_folder, what="SATLIB flat graph-colouring CNFs (a folder or one .cnf)"),
)
