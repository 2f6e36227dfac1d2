"""The report's first screen: one headline table, one headline figure and one sentence that
reads them, chosen by the suite (``headline:``) or, by default, the first of the paper tables
that apply (Table 1, ADR, grid accuracy) and otherwise the metrics by model.

Example:
    >>> rows = [{"model": "a", "n": 40, "accuracy": 0.9, "accuracy_lo": 0.77, "accuracy_hi": 0.96},
    ...         {"model": "b", "n": 40, "accuracy": 0.5, "accuracy_lo": 0.35, "accuracy_hi": 0.65}]
    >>> reading(rows, "accuracy")
    'Highest accuracy: a, 90.0 % (95 % CI 77.0–96.0, n = 40); lowest: b, 50.0 % (95 % CI 35.0–65.0, n = 40).'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_TABLES = ("table1", "adr_by_model_rendering", "adr", "zebralogic_table1",
                  "metrics_by_model_rendering", "metrics_by_model")  # fmt: skip


@dataclass(frozen=True)
class Headline:
    """What the first screen shows: a table (by file name), a figure (file name, or its first
    characters; None: the first figure) and the metric the sentence reads."""

    title: str
    rows: list[dict[str, Any]]
    metric: str
    figure: tuple[str, str] | None
    sentence: str


def _fmt(v: float) -> str:
    return f"{100 * v:.1f}"


def _label(row: Mapping[str, Any], metric: str) -> str:
    skip = {"n", "errors", "unlabelled"}
    keys = [k for k, v in row.items() if isinstance(v, str) and k not in skip]
    return ", ".join(str(row[k]) for k in keys) or "all"


def reading(rows: Sequence[Mapping[str, Any]], metric: str) -> str:
    """One sentence: the groups with the highest and the lowest ``metric``, with their 95 %
    intervals (when the table has ``<metric>_lo`` / ``_hi``) and n."""
    have = [r for r in rows if isinstance(r.get(metric), int | float)]
    if not have:
        return f"No group has a defined {metric.replace('_', ' ')} (no scored records)."

    def say(r: Mapping[str, Any]) -> str:
        ci = ""
        lo, hi = r.get(f"{metric}_lo"), r.get(f"{metric}_hi")
        if isinstance(lo, int | float) and isinstance(hi, int | float):
            ci = f"95 % CI {_fmt(lo)}–{_fmt(hi)}, "
        n = f"n = {r['n']}" if r.get("n") is not None else f"{r.get('pairs')} pairs"
        return f"{_label(r, metric)}, {_fmt(r[metric])} % ({ci}{n})"

    best = max(have, key=lambda r: r[metric])
    worst = min(have, key=lambda r: r[metric])
    name = {"adr": "ADR"}.get(metric, metric.replace("_", " "))
    if best is worst or best[metric] == worst[metric]:
        return f"{name[0].upper()}{name[1:]}: {say(best)}" + (
            "." if len(have) == 1 else f"; all {len(have)} groups are equal."
        )
    return f"Highest {name}: {say(best)}; lowest: {say(worst)}."


def lead_order(figures: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The figures in the order a reader wants them when the suite names none: accuracy first
    (by size, by the swept knob), then the rest, and token counts, usage and cost last — a
    report does not lead with a reasoning-token histogram. Stable within each group.

    Example:
        >>> [f for f, _ in lead_order([("token_distributions.png", ""), ("complexity_heatmaps.png", ""),
        ...                            ("accuracy_vs_search_space.png", "")])]
        ['accuracy_vs_search_space.png', 'complexity_heatmaps.png', 'token_distributions.png']
    """

    def rank(fig: tuple[str, str]) -> int:
        name = fig[0].lower()
        if "accuracy" in name or name.startswith(("adr", "pass_at")):
            return 0
        if any(w in name for w in ("token", "usage", "latency", "cost")):
            return 2
        return 1

    return sorted(figures, key=rank)


def choose(
    tables: Sequence[tuple[str, list[dict[str, Any]]]],
    figures: Sequence[tuple[str, str]],
    spec: Mapping[str, Any] | None = None,
) -> Headline | None:
    """The headline for these tables and figures: the suite's choice (``spec`` with ``table``,
    ``figure``, ``metric``) or the default order of :data:`DEFAULT_TABLES`."""
    spec = spec or {}
    by_file = {title.split(" ")[0]: (title, rows) for title, rows in tables}
    # the suite's table where the records produced it (several names: the first that exists),
    # else the default order
    asked = spec.get("table")
    names = [*(asked if isinstance(asked, list | tuple) else [asked] if asked else []),
             *DEFAULT_TABLES]  # fmt: skip
    pick = next((by_file[n] for n in names if n in by_file), None)
    if pick is None:
        return None
    title, rows = pick
    metric = spec.get("metric") or next(
        (m for m in ("adr", "accuracy") if any(m in r for r in rows)), "accuracy"
    )
    # a table in the paper's own layout (Table 1: models as columns) is shown whole; the
    # sentence then reads the metrics by model, which carry n and the intervals
    wide = not any(metric in r for r in rows)
    read = by_file.get("metrics_by_model", (title, rows))[1] if wide else rows
    want = spec.get("figure")
    fig = next((f for f in figures if want and f[0].startswith(want)), None)
    if fig is None and figures:
        fig = figures[0]
    if wide:
        return Headline(title, rows, metric, fig, reading(read, metric))
    keep = [c for c in dict.fromkeys(k for r in rows for k in r)
            if isinstance(next((r[c] for r in rows if c in r), None), str)
            or c in ("n", "pairs", "errors", metric, f"{metric}_lo", f"{metric}_hi")]  # fmt: skip
    slim = [{c: r.get(c) for c in keep} for r in rows]
    return Headline(title, slim, metric, fig, reading(rows, metric))
