"""Assemble the report directory: tables (CSV, Markdown), figures (PNG) and ``report.html``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..metrics.aggregate import METRIC_NAMES, aggregate, row_of
from . import compute, plots, studies
from .html import render_html
from .tables import to_csv, to_markdown

GROUPINGS: list[tuple[str, ...]] = [
    ("model",),
    ("model", "label"),
    ("model", "alpha"),
    ("model", "size_group"),
    ("model", "size"),
    ("model", "log10_search_space"),
    ("model", "n_vars"),
]


def build_report(
    records: Sequence[Mapping[str, Any]],
    out_dir: str | Path,
    problems: Sequence[Mapping[str, Any]] = (),
    title: str = "logicforge report",
    command: str | None = None,
    table: Sequence[str] = (),
    items: Sequence[Mapping[str, Any]] = (),
    prices: Any = None,
) -> Path:
    """Write tables, figures and a self-contained HTML report; returns the HTML path. With
    ``items`` (dicts), the record drill-down also shows each prompt."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = [row_of(r) for r in records]
    colours = plots.model_colours(sorted({r["model"] for r in rows}))
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    for by in GROUPINGS:
        if any(r.get(c) is None for r in rows for c in by):
            continue
        agg = aggregate(records, by)
        name = "metrics_by_" + "_".join(by)
        shown = [*by, *(m for m in METRIC_NAMES if any(m in r for r in agg))]  # those that apply
        (out / f"{name}.csv").write_text(to_csv(agg, shown))
        (out / f"{name}.md").write_text(to_markdown(agg, shown))
        tables.append((name, agg))
    figures: list[tuple[str, str]] = []
    cap = plots.phase_transition(problems, rows, colours, out / "phase_transition.png")
    if cap:
        figures.append(("phase_transition.png", cap))
    agg_n = dict(tables).get("metrics_by_model_n_vars")
    if agg_n:
        cap = plots.metric_vs(
            agg_n, "n_vars", "accuracy", colours, out / "accuracy_vs_n.png", "Accuracy vs N"
        )
        if cap:
            figures.append(("accuracy_vs_n.png", cap))
    agg_a = dict(tables).get("metrics_by_model_alpha")
    if agg_a:
        cap = plots.metric_vs(
            agg_a, "alpha", "accuracy", colours, out / "accuracy_vs_alpha.png", "Accuracy vs α"
        )
        if cap:
            figures.append(("accuracy_vs_alpha.png", cap))
    cols = {k for r in rows for k in r}
    if table:
        t1 = studies.table1(records, table)
        _write(out, "table1", t1)
        tables.insert(0, ("table1 (Sat./Wit. %, per-formula means)", t1))
    if "sweep_knob" in cols:
        sw = studies.sweep_tests(records)
        _write(out, "sweep_tests", sw)
        tables.append(("sweep_tests (Friedman across levels, BH within family)", sw))
        figures += studies.sweep_figures(records, colours, out)
    if any((r.get("answer") or {}).get("stats") for r in records):
        st, fig = studies.solver_stats_comparison(records, colours, out)
        if st:
            _write(out, "reported_vs_solver", st)
            tables.append(("reported_vs_solver (Spearman ρ: reported counts vs MiniSat)", st))
        if fig:
            figures.append(fig)
    variants = {r.get("variant") for r in rows} - {None}
    if any(r.get("pair_id") for r in rows) and len(variants) > 1:
        from ..metrics.adr import adr_table

        t = adr_table(records, ("model", "variant"))
        _write(out, "adr_by_model_variant", t)
        tables.insert(0, ("adr_by_model_variant", t))
    if len(variants) > 1:
        ag = studies.representation_agreement(records)
        _write(out, "agreement", ag)
        tables.insert(0, ("agreement (decisions on the same source formula)", ag))
    if any(r.get("pair_id") for r in rows):
        for name, t in studies.adr_tables(records):
            _write(out, name, t)
            tables.insert(0, (name, t))
        fig = studies.adr_figure(records, colours, out)
        if fig:
            figures.insert(0, fig)
    if "variant" in cols and len({r.get("variant") for r in rows}) > 1:
        vt = studies.variant_tests(records)
        _write(out, "variant_tests", vt)
        tables.append(("variant_tests (paired t per formula)", vt))
    if any((r.get("sample") or 0) > 0 for r in rows):
        from ..metrics.ttc import majority_table, pass_at_k_table

        pk = pass_at_k_table(records)
        _write(out, "pass_at_k", pk)
        tables.append(("pass_at_k (unbiased estimator)", pk))
        mj = majority_table(records)
        _write(out, "majority_vote", mj)
        tables.append(("majority_vote", mj))
        cap = plots.pass_at_k_figure(pk, colours, out / "pass_at_k.png")
        if cap:
            figures.append(("pass_at_k.png", cap))
    if "z3_conflicts" in cols:
        zc, fig = compute.conflicts_figure(records, colours, out)
        _write(out, "accuracy_by_z3_conflicts", zc)
        tables.append(("accuracy_by_z3_conflicts", zc))
        if fig:
            figures.append(fig)
        tz = compute.tokens_vs_conflicts(records)
        if tz:
            _write(out, "reasoning_tokens_vs_z3_conflicts", tz)
            tables.append(("reasoning_tokens_vs_z3_conflicts (Spearman ρ per model)", tz))
    from ..metrics.usage import usage_table

    usage = usage_table(records, prices)
    if usage:
        _write(out, "usage", usage)
        tables.append(("usage (tokens, latency" + (", cost)" if prices else ")"), usage))
    from ..llm.story import story_stats
    from ..metrics import qualitative as qual
    from ..metrics.trace_judge import judged_summary

    coded = qual.qualitative_table(records)
    optional: list[tuple[str, str, Any]] = [  # written and shown only when not empty
        ("error_taxonomy", "rule-decided error classes; trace accuracy", compute.error_taxonomy),
        ("trace_accuracy", "per bucket and label; SATBench Tables 3-4", compute.trace_table),
        ("formula_vs_story", "same problems; SATBench Table 6", compute.formula_vs_story),
        ("qualitative", "judge-coded PF / IV / AC / AL by edit level", lambda _: coded),
        (
            "qualitative_correlation",
            "overall score vs correct",
            lambda rs: qual.score_accuracy_correlation(rs) if coded else [],
        ),
        (
            "negative_tokens",
            "justification tokens of 0 scores",
            lambda rs: qual.negative_tokens(rs) if coded else [],
        ),
        ("trace_judge", "judge-read traces; the solver checks every assignment", judged_summary),
        (
            "story_validation",
            "round-trip checks of LLM-written conditions",
            lambda _: story_stats(list(items)),
        ),
    ]
    for name, caption, table_of in optional:
        t = table_of(records)
        if t:
            _write(out, name, t)
            tables.append((f"{name} ({caption})", t))
    edit_tabs = compute.edit_tables(records)
    for name, t in edit_tabs:
        _write(out, name.split(" ")[0], t)
        tables.insert(0, (name, t))
    if edit_tabs:
        fig = compute.transitions_figure(records, out)
        if fig:
            figures.append(fig)
    bon = compute.best_of_n_table(records)
    if bon:
        _write(out, "best_of_n", bon)
        tables.append(("best_of_n (selected answer per item)", bon))
    agg_s = dict(tables).get("metrics_by_model_log10_search_space")
    if agg_s:
        for metric in ("accuracy", "cell_accuracy"):
            cap = plots.metric_vs(
                agg_s,
                "log10_search_space",
                metric,
                colours,
                out / f"{metric}_vs_search_space.png",
                f"{metric} vs log10 search space",
            )
            if cap:
                figures.append((f"{metric}_vs_search_space.png", cap))
    path = out / "report.html"
    prompts = {it["item_id"]: _prompt_of(it) for it in items}
    path.write_text(
        render_html(title, records, problems, tables, figures, out, command, prompts),
        encoding="utf-8",
    )
    return path


def _prompt_of(item: Mapping[str, Any]) -> str:
    users = [m.get("content", "") for m in item.get("messages") or [] if m.get("role") == "user"]
    return users[-1] if users else ""


def _write(out: Path, name: str, rows: list[dict[str, Any]]) -> None:
    cols = list(dict.fromkeys(k for r in rows for k in r))
    (out / f"{name}.csv").write_text(to_csv(rows, cols))
    (out / f"{name}.md").write_text(to_markdown(rows, cols))
