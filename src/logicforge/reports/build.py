"""Assemble the report directory: tables (CSV, Markdown), figures (PNG) and ``report.html``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..metrics.aggregate import row_of
from . import plots
from .analysis import Context, select
from .headline import choose, lead_order
from .html import render_html


def build_report(
    records: Sequence[Mapping[str, Any]],
    out_dir: str | Path,
    problems: Sequence[Mapping[str, Any]] = (),
    title: str = "logicforge report",
    command: str | None = None,
    table: Sequence[str] = (),
    items: Sequence[Mapping[str, Any]] = (),
    prices: Any = None,
    analyses: Sequence[str] | None = None,
    headline: Mapping[str, Any] | None = None,
    scale: str | None = None,
) -> Path:
    """Write tables, figures and a self-contained HTML report; returns the HTML path. With
    ``items`` (dicts), the record drill-down also shows each prompt. Every registered analysis
    that applies to the records runs (:mod:`logicforge.reports.analysis`), or only those named in
    ``analyses``. The first screen shows the ``headline`` table and figure (a suite's choice:
    ``table``, ``figure``, ``metric``; by default :data:`~.headline.DEFAULT_TABLES`)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = [row_of(r) for r in records]
    colours = plots.model_colours(sorted({r["model"] for r in rows}))
    ctx = Context(records, rows, problems, items, out, colours, table, prices)
    for a in select(analyses):
        if a.applies(ctx):
            a.run(ctx)
    tables = ctx.ordered_tables()
    figures = lead_order(ctx.figures)  # accuracy first, token counts last
    path = out / "report.html"
    prompts = {it["item_id"]: _prompt_of(it) for it in items}
    head = choose(tables, figures, headline)
    path.write_text(
        render_html(title, records, problems, tables, figures, out, command, prompts, head, scale),
        encoding="utf-8",
    )
    return path


def _prompt_of(item: Mapping[str, Any]) -> str:
    users = [m.get("content", "") for m in item.get("messages") or [] if m.get("role") == "user"]
    return users[-1] if users else ""
