"""Renderers: ``LabelledProblem -> Item`` (prompt messages, gold, name mapping, metadata)."""

from .base import ANSWER_SCHEMA, Renderer, render_problem
from .formula import FormulaRenderer
from .story import StoryConfig, StoryRenderer, story_stats
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
    "StoryConfig",
    "StoryRenderer",
    "story_stats",
]
