"""3-SAT → discrete 3D packing, as problem kind ``packing``.

Container: n columns (x = 1..n, one per variable) × 2 rows (y = 0, 1) × m layers (z = 1..m, one
per clause), every cell a unit cube of space.

* Rod Rᵥ (1 × 1 × m) must lie in column v, in row 0 or row 1, filling all m layers.
* Cube Cⱼ (1 × 1 × 1) must lie in layer j, at one of its literals' cells: (v, 0, j) for a literal
  xᵥ and (v, 1, j) for ¬xᵥ.
* No two objects may share a cell.

Claim: a placement exists iff the formula is satisfiable. Read xᵥ := (Rᵥ in row 1). A rod in row 1
leaves the row-0 cells of its column free — exactly the cells of the positive literal — and a rod
in row 0 leaves the negative literal's cells free. So the cell (v, 0, j) is free iff xᵥ is true and
(v, 1, j) is free iff ¬xᵥ is true. A cube Cⱼ can be placed iff some literal of clause j is true; cubes
never collide because each has its own layer. Hence every placement maps to a model
(:func:`placement_to_assignment`), and every model gives a placement (:func:`assignment_to_placement`).

The verifier checks the **placement itself** — every object present, inside the container, at an
allowed position, no shared cell — and only then maps it back to an assignment (asserted to be a
model).
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from ..kinds import yes_no_head, yes_no_verdict
from ..kinds.items import build_kind_item, decision_schema
from ..logic.cnf import CNF
from ..registry import RENDERERS
from ..schema import Answer, Item, LabelledProblem, Verdict
from .base import mapped_back, oracle_answer, register_reduced_kind

KIND = "packing"
ANSWER_SCHEMA = decision_schema(
    ["YES", "NO"],
    "placement",
    {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}},
)


def reduce_cnf(cnf: CNF) -> dict[str, Any]:
    cubes = []
    for j, c in enumerate(cnf.clauses, start=1):
        if not c:
            raise ConfigError("clause", j - 1, "an empty clause gives a cube with nowhere to go")
        cubes.append(sorted({(abs(lit), 0 if lit > 0 else 1, j) for lit in c}))
    return {
        "columns": cnf.num_vars,
        "rows": 2,
        "layers": cnf.num_clauses,
        "cube_cells": [[list(cell) for cell in cells] for cells in cubes],
        "cnf": cnf.to_json(),
    }


def assignment_to_placement(problem: dict[str, Any], val: dict[int, bool]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {
        f"R{v}": [v, 1 if val.get(v, False) else 0, 1] for v in range(1, problem["columns"] + 1)
    }
    for j, cells in enumerate(problem["cube_cells"], start=1):
        free = next(c for c in cells if val.get(c[0], False) == (c[1] == 0))
        out[f"C{j}"] = list(free)
    return out


def placement_to_assignment(
    problem: dict[str, Any], placement: dict[str, list[int]]
) -> dict[int, bool]:
    return {v: placement[f"R{v}"][1] == 1 for v in range(1, problem["columns"] + 1)}


def check_placement(problem: dict[str, Any], placement: dict[str, Any]) -> str:
    """'' if the placement is complete, in bounds, allowed and overlap-free; else why not."""
    n, m = problem["columns"], problem["layers"]
    want = {f"R{v}" for v in range(1, n + 1)} | {f"C{j}" for j in range(1, m + 1)}
    missing, extra = sorted(want - placement.keys()), sorted(placement.keys() - want)
    if missing:
        return f"objects not placed: {missing[:5]}"
    if extra:
        return f"unknown objects: {extra[:5]}"
    used: dict[tuple[int, int, int], str] = {}
    for name, pos in placement.items():
        if not (
            isinstance(pos, list | tuple) and len(pos) == 3 and all(isinstance(x, int) for x in pos)
        ):
            return f"{name}: position must be three integers [x, y, z]"
        x, y, z = pos
        if name.startswith("R"):
            v = int(name[1:])
            if x != v or y not in (0, 1) or z != 1:
                return f"{name} must lie in column {v}, row 0 or 1, starting at layer 1"
            cells = [(x, y, k) for k in range(1, m + 1)]
        else:
            j = int(name[1:])
            if not (1 <= x <= n and y in (0, 1) and 1 <= z <= m):
                return f"{name} at {pos} is outside the container"
            if [x, y, z] not in problem["cube_cells"][j - 1]:
                return f"{name} at {pos} is not one of its allowed cells"
            cells = [(x, y, z)]
        for cell in cells:
            if cell in used:
                return f"{name} and {used[cell]} overlap at {list(cell)}"
            used[cell] = name
    return ""


class PackingRenderer:
    name = "packing"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        if problem.kind != KIND:
            raise ConfigError(
                "renderer", "packing", f"renders packing problems, not {problem.kind!r}"
            )
        d = problem.problem
        n, m = d["columns"], d["layers"]
        cubes = "\n".join(
            f"C{j}: " + " or ".join(f"[{x}, {y}, {z}]" for x, y, z in cells)
            for j, cells in enumerate(d["cube_cells"], start=1)
        )
        prompt = (
            f"A box has {n} columns (x = 1..{n}), 2 rows (y = 0 or 1) and {m} layers (z = 1..{m}); every cell holds "
            "at most one object.\n"
            f"Rods R1..R{n}: rod Rv is 1 x 1 x {m}; it must lie in column v, in row 0 or row 1, filling every layer "
            "(its position is written [v, row, 1]).\n"
            f"Cubes C1..C{m}: each is one cell and may only be placed at one of these cells [x, y, z]:\n{cubes}\n\n"
            "Can every rod and cube be placed without two objects sharing a cell?\n\n"
            "Reply with your reasoning if you like, then end with one final JSON object on its own line.\n"
            'If yes: {"answer": "YES", "placement": {"R1": [1, row, 1], ..., "C1": [x, y, z], ...}} with every object\n'
            'If no: {"answer": "NO"}'
        )
        return build_kind_item(problem, "packing", prompt, ANSWER_SCHEMA)


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    final, rule = yes_no_head(body, objs)
    if final is not None:
        return final
    for obj in reversed(objs):
        pl = obj.get("placement")
        if isinstance(pl, dict):
            return Answer(
                label="SAT",
                rule=rule,
                certificate={"placement": {str(k): v for k, v in pl.items()}},
            )
    return Answer(label="SAT", rule=rule)


def verify(item: Item, answer: Answer) -> Verdict:
    def check(placement: dict[str, Any]) -> str:
        why = check_placement(item.problem, placement)  # the placement itself, then the map back
        return mapped_back(item, why, lambda: placement_to_assignment(item.problem, placement))

    return yes_no_verdict(item, answer, "placement", check)


def oracle(item: Item) -> Answer:
    return oracle_answer(item, "placement", assignment_to_placement)


register_reduced_kind(KIND, reduce_cnf, "placement", parse, verify, oracle, lambda it: {})
RENDERERS.register("packing", PackingRenderer())
