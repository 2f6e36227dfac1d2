"""Shared rendering machinery: the renderer protocol, the answer instructions, lookup.

The Item builders live in :mod:`logicforge.kinds.items` (kind modules render too)."""

from __future__ import annotations

import json
from typing import Any, Protocol, runtime_checkable

from ..errors import ConfigError
from ..kinds.items import ANSWER_SCHEMA, build_item, build_kind_item
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem


@runtime_checkable
class Renderer(Protocol):
    name: str
    kind: str  # the problem kind it renders

    def render(self, problem: LabelledProblem) -> Item: ...


def get_renderer(name: str) -> Renderer:
    """The registered renderer ``name``, typed (an unknown name: the registry's error).

    Example:
        >>> get_renderer("formula").kind
        'cnf'
    """
    r = RENDERERS.get(name)
    if not isinstance(r, Renderer):
        raise ConfigError("renderer", name, "is registered but is not a renderer (no render())")
    return r


def answer_instructions(
    names: list[str],
    true_word: str = "true",
    false_word: str = "false",
    legend: str | None = None,
) -> str:
    """The closing instruction: a decision, and when SAT an assignment as JSON (``legend``, e.g.
    `` (true = is innocent, false = is guilty)``, says what the values mean)."""
    if legend is None:
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


def render_problem(problem: LabelledProblem, renderer: str = "formula") -> Item:
    """Render one labelled problem with a registered renderer.

    Example:
        >>> from logicforge.families import generate_problems
        >>> p = next(generate_problems("ksat/random", {"n_vars": 4, "n_clauses": 3}, 1, seed=0))
        >>> render_problem(p, "logic").gold["label"] in ("SAT", "UNSAT")
        True
    """
    r = get_renderer(renderer)
    if problem.kind != r.kind:
        raise ConfigError("renderer", renderer, f"renders {r.kind} problems, not {problem.kind!r}")
    return r.render(problem)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


__all__ = [
    "ANSWER_SCHEMA",
    "Renderer",
    "answer_instructions",
    "build_item",
    "build_kind_item",
    "dumps",
    "render_problem",
]
