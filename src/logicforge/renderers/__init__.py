"""Renderers: ``LabelledProblem -> Item`` (prompt messages, gold, name mapping, metadata).

Renderers that ask a model to write (stories, the LLM verbaliser) live in :mod:`logicforge.llm`."""

from .base import ANSWER_SCHEMA, Renderer, render_problem
from .formula import FormulaRenderer
from .templates import SCHEMES, TemplateRenderer
from .trace import TraceRenderer

__all__ = [
    "ANSWER_SCHEMA",
    "Renderer",
    "render_problem",
    "FormulaRenderer",
    "TemplateRenderer",
    "TraceRenderer",
    "SCHEMES",
]
