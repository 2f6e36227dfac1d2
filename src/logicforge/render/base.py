"""Shared rendering machinery: the Item builder and the answer instructions."""

from __future__ import annotations

import json
from typing import Any, Protocol

from ..errors import ConfigError
from ..logic.cnf import CNF
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem, Message

ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "enum": ["SAT", "UNSAT"]},
        "assignment": {"type": "object", "additionalProperties": {"type": "boolean"}},
    },
    "required": ["answer"],
}


class Renderer(Protocol):
    name: str
    kind: str  # the problem kind it renders

    def render(self, problem: LabelledProblem) -> Item: ...


def answer_instructions(
    names: list[str], true_word: str = "true", false_word: str = "false"
) -> str:
    """The closing instruction: a decision, and when SAT an assignment as JSON."""
    legend = (
        ""
        if (true_word, false_word) == ("true", "false")
        else f" (true = {true_word}, false = {false_word})"
    )
    ex = ", ".join(f'"{n}": {"true" if i % 2 == 0 else "false"}' for i, n in enumerate(names[:3]))
    return (
        "Reply with your reasoning if you like, then end with one final JSON object on its own line.\n"
        f'If a satisfying assignment exists: {{"answer": "SAT", "assignment": {{{ex}, ...}}}} '
        f"giving every variable a value{legend}.\n"
        'If no assignment can satisfy every constraint: {"answer": "UNSAT"}'
    )


def build_item(
    problem: LabelledProblem, rendering: str, cnf: CNF, prompt: str, names: list[str]
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
        answer_schema=ANSWER_SCHEMA,
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


def render_problem(problem: LabelledProblem, renderer: str = "formula") -> Item:
    """Render one labelled problem with a registered renderer.

    Example:
        >>> from logicforge.families import generate_problems
        >>> p = next(generate_problems("ksat/random", {"n_vars": 4, "n_clauses": 3}, 1, seed=0))
        >>> render_problem(p, "logic").gold["label"] in ("SAT", "UNSAT")
        True
    """
    r: Renderer = RENDERERS.get(renderer)  # type: ignore[assignment]
    kind = getattr(r, "kind", "cnf")
    if problem.kind != kind:
        raise ConfigError("renderer", renderer, f"renders {kind} problems, not {problem.kind!r}")
    return r.render(problem)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)
