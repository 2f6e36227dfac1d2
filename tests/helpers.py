"""Shared test helpers."""

from __future__ import annotations

import logicforge as lf


def render_any(problems, renderer: str):
    """``lf.render``, or for a story renderer ``narrate`` with a baseline writer: its text never
    passes the round trip, so every condition is the exact template and the item deterministic."""
    if getattr(lf.RENDERERS.get(renderer), "needs_writer", False):
        from logicforge.runner.narrate import narrate

        return narrate(problems, renderer, writer="oracle")
    return lf.render(problems, renderer)
