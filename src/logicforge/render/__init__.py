"""Renderers: ``LabelledProblem -> Item`` (prompt messages, gold, name mapping, metadata)."""

from .base import ANSWER_SCHEMA, Renderer, render_problem
from .formula import FormulaRenderer
from .templates import SCHEMES, TemplateRenderer

__all__ = [
    "ANSWER_SCHEMA",
    "Renderer",
    "render_problem",
    "FormulaRenderer",
    "TemplateRenderer",
    "SCHEMES",
]
