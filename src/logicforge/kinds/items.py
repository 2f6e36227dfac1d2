"""Building Items: the prompt, the gold answer, the name mapping and the metadata of a problem.

Renderers of every kind build their Items here, so a kind module that renders needs nothing from
the renderer layer.
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from ..logic.cnf import CNF
from ..schema import Item, LabelledProblem, Message


def decision_schema(labels: list[str], witness: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of a decision answer: ``answer`` one of ``labels`` (required) and an
    optional ``witness`` field of ``schema``.

    >>> decision_schema(["YES", "NO"], "cover", {"type": "array"})["required"]
    ['answer']
    """
    return {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": labels}, witness: schema},
        "required": ["answer"],
    }


ANSWER_SCHEMA = decision_schema(
    ["SAT", "UNSAT"], "assignment", {"type": "object", "additionalProperties": {"type": "boolean"}}
)


def cnf_answer_schema(names: list[str]) -> dict[str, Any]:
    """The decision schema with the assignment's keys bounded to the formula's own variable
    names (each at most once, in order): a constrained decoder cannot invent ``x21`` for a
    20-variable formula and run to its token limit. Without names, :data:`ANSWER_SCHEMA`.

    >>> cnf_answer_schema(["x1", "x2"])["properties"]["assignment"]["additionalProperties"]
    False
    """
    if not names:
        return ANSWER_SCHEMA
    boolean = {"type": "boolean"}
    assignment = {
        "type": "object",
        "properties": {n: boolean for n in names},
        "additionalProperties": False,
    }
    return ANSWER_SCHEMA | {"properties": ANSWER_SCHEMA["properties"] | {"assignment": assignment}}


def build_item(
    problem: LabelledProblem,
    rendering: str,
    cnf: CNF,
    prompt: str,
    names: list[str],
    answer_format: str = "",
) -> Item:
    if len(set(names)) != len(names):
        raise ConfigError("names", names[:5], "renderer produced duplicate variable names")
    return Item(
        item_id=f"{problem.problem_id}:{rendering}",
        problem_id=problem.problem_id,
        pair_id=problem.metadata.get("pair_id"),
        family=problem.family,
        kind=problem.kind,
        params=problem.params,
        seed=problem.seed,
        rendering=rendering,
        transforms=[t["name"] for t in problem.metadata.get("transforms", [])],
        messages=[Message(role="user", content=prompt)],
        gold={"label": problem.label},
        mapping={n: i for i, n in enumerate(names, start=1)},
        problem=cnf.to_json() | {"names": names},
        answer_schema=cnf_answer_schema(names),
        answer_format=answer_format,
        metadata=dict(problem.metadata) | {"spawn_key": problem.spawn_key},
    )


def build_kind_item(
    problem: LabelledProblem,
    rendering: str,
    prompt: str,
    answer_schema: dict[str, Any] | None,
    **update: Any,
) -> Item:
    """An Item for a non-CNF problem kind: the prompt, the problem data as it is, the kind's
    answer schema; ``update`` overrides further fields (e.g. ``gold``)."""
    item = build_item(problem, rendering, CNF([], 0), prompt, [])
    return item.model_copy(
        update={
            "problem": problem.problem,
            "kind": problem.kind,
            "answer_schema": answer_schema,
            **update,
        }
    )
