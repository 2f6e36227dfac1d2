"""The shared shape of a solution-puzzle family, so that its module states its rules (``check``,
``encode``), its construction (``generate``) and its words (a prompt in words and one in formal
notation), and nothing else.

- :func:`solved` — what ``generate`` returns for a puzzle built with one certified solution;
- :func:`ask` — the closing request of a prompt, given the answer's JSON shape (:data:`GRID_ASK`
  for a grid given as rows);
- :class:`PromptRenderer` — a renderer given by a function from the problem's data to its prompt;
- :func:`register_solution_puzzle` — registers the kind, the family and its two renderers in one
  call (the family's contract is checked there, :mod:`logicforge.families.contract`).

Example:
    >>> from logicforge.registry import RENDERERS
    >>> RENDERERS.get("kenken-formal").name
    'kenken-formal'
    >>> solved({"cells": []}, "glucose4", {"size": 3})[1:]
    ('SAT', {'solver': 'glucose4', 'unique': True}, {'size': 3})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..kinds.items import build_kind_item
from ..kinds.puzzle import Check, Encode, PuzzleKind, register_puzzle
from ..registry import FAMILIES, RENDERERS
from ..schema import Item, LabelledProblem
from .base import Built

Prompt = Callable[[dict[str, Any]], str]


def ask(shape: str) -> str:
    """The request that ends a puzzle's prompt: reasoning first if the model likes, then one JSON
    object of ``shape`` on a line of its own."""
    return (
        "Reply with your reasoning if you like, then end with one final JSON object on its own "
        f"line: {shape}"
    )


GRID_ASK = ask('{"solution": [[row 1 values], [row 2 values], ...]}')


def given_line(d: dict[str, Any], what: str = "Given cells") -> str:
    """The prompt's line of given cells, ``"\\n<what>: r1c2 = 3, ….\\n"``, or "" when none."""
    if not d["givens"]:
        return ""
    return f"\n{what}: {', '.join(f'{k} = {v}' for k, v in d['givens'].items())}.\n"


def solved(data: dict[str, Any], solver: str, meta: dict[str, Any], **oracle: Any) -> Built:
    """``generate``'s result for a puzzle with one solution, proved unique by ``solver``
    (further oracle statistics as keywords)."""
    return data, "SAT", {"solver": solver, "unique": True, **oracle}, meta


@dataclass(frozen=True)
class PromptRenderer:
    """A renderer given by ``prompt(problem_data) -> text``; the answer schema, if any, rides
    along with the item."""

    name: str
    kind: str
    prompt: Prompt
    schema: dict[str, Any] | None = None

    def render(self, problem: LabelledProblem) -> Item:
        return build_kind_item(problem, self.name, self.prompt(problem.problem), self.schema)


def register_solution_puzzle(
    family: Any,
    check: Check,
    encode: Encode,
    words: Prompt,
    formal: Prompt,
    *,
    formal_name: str = "",
    schema: dict[str, Any] | None = None,
) -> None:
    """Register a solution-puzzle family: its kind (named after the family's ``kind``, its
    answer the one solution), the family, the renderer in words (named as the kind) and the
    formal one (``<kind>-formal`` unless ``formal_name``)."""
    kind = family.kind
    formal_name = formal_name or f"{kind}-formal"
    register_puzzle(PuzzleKind(kind, check, encode, kind, formal_name))
    FAMILIES.register(family.name, family)
    RENDERERS.register(kind, PromptRenderer(kind, kind, words, schema))
    RENDERERS.register(formal_name, PromptRenderer(formal_name, kind, formal, schema))
