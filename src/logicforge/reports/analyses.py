"""The report's general analyses (metrics by every grouping, the phase transition, accuracy
against size, the conventional metrics, sweeps, ADR and the 2-SAT paper's tests); the papers'
own tables are in :mod:`logicforge.reports.analyses_papers`, the contract in
:mod:`logicforge.reports.analysis`. Kinds contribute group columns through
``Kind.group_columns``.

Example:
    >>> groupings(["cnf"])[:2]
    [('model',), ('model', 'label')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..metrics.aggregate import METRIC_NAMES, aggregate, aggregate_rows
from . import plots, solver_studies, studies, twosat_fillers, twosat_studies
from .analysis import (
    Context,
    all_analyses,
    always,
    analysis,
    has,
    has_pairs,
    select,
    several_renderings,
    variants_of,
)

__all__ = ["Context", "all_analyses", "analysis", "groupings", "select", "several_renderings"]

GROUPINGS: list[tuple[str, ...]] = [("model",), ("model", "label")]
# where the kinds' group columns go, in this order (any other column after them, by name)
COLUMN_ORDER = ["alpha", "size_group", "size", "log10_search_space", "n_vars"]


def groupings(kinds: Sequence[str]) -> list[tuple[str, ...]]:
    """By model, by model and label, then by model and each group column the records' kinds
    declare (``Kind.group_columns``).

    Example:
        >>> groupings(["cnf"])
        [('model',), ('model', 'label'), ('model', 'alpha'), ('model', 'n_vars')]
    """
    from ..kinds.base import Kind
    from ..registry import KINDS

    cols: set[str] = set()
    for name in kinds:
        k = KINDS.find(name)
        if isinstance(k, Kind):
            cols |= set(k.group_columns)
    rank = {c: i for i, c in enumerate(COLUMN_ORDER)}
    ordered = sorted(cols, key=lambda c: (rank.get(c, len(rank)), c))
    return [*GROUPINGS, *(("model", c) for c in ordered)]


@analysis("metrics", always, "accuracy and the metrics that apply, by model and each grouping")
def _metrics(ctx: Context) -> None:
    """One number per prompt: with several renderings every table is split by rendering, and the
    one pooled table (``metrics_by_model``) says so in its caption."""
    kinds = sorted({str(r.get("kind")) for r in ctx.rows if r.get("kind") is not None})
    split = several_renderings(ctx)
    for by in groupings(kinds or ["cnf"]):
        if split:
            if by == ("model",):
                _metrics_table(ctx, by, "all renderings pooled")
            by = ("model", "rendering", *by[1:])
        _metrics_table(ctx, by)


def _metrics_table(ctx: Context, by: tuple[str, ...], caption: str = "") -> None:
    if any(r.get(c) is None for r in ctx.rows for c in by):
        return
    agg = aggregate(ctx.records, by)
    shown = [*by, *(m for m in METRIC_NAMES if any(m in r for r in agg))]  # those that apply
    ctx.table("metrics_by_" + "_".join(by), agg, caption, columns=shown)


@analysis("phase_transition", always, "P(SAT) and accuracy against α")
def _phase(ctx: Context) -> None:
    cap = plots.phase_transition(
        ctx.problems, ctx.rows, ctx.colours, ctx.out / "phase_transition.png"
    )
    ctx.figure(("phase_transition.png", cap) if cap else None)


def _vs(name: str, col: str, file: str, title: str) -> None:
    def applies(ctx: Context) -> bool:  # the column is a grouping of these records' kinds
        return any(
            t.split(" ")[0].startswith("metrics_by_model") and t.split(" ")[0].endswith(col)
            for t, _ in ctx.tables
        )

    @analysis(name, applies, title)
    def run(ctx: Context) -> None:
        # per family (and rendering): a figure never pools different generators or prompts
        by = ["model", "family", col] + (["rendering"] if several_renderings(ctx) else [])
        agg = aggregate_rows([r for r in ctx.rows if r.get(col) is not None], by)
        cap = plots.metric_vs(agg, col, "accuracy", ctx.colours, ctx.out / file, title)
        ctx.figure((file, cap) if cap else None)


_vs("accuracy_vs_n", "n_vars", "accuracy_vs_n.png", "Accuracy vs N")
_vs("accuracy_vs_alpha", "alpha", "accuracy_vs_alpha.png", "Accuracy vs α")


def _binary(ctx: Context) -> bool:
    return any(r.get("metric_set") == "binary" for r in ctx.rows)


CONVENTIONAL = ("accuracy", "precision_sat", "recall_sat", "f1_sat", "precision_unsat",
                "recall_unsat", "f1_unsat", "mcc")  # fmt: skip


@analysis(
    "conventional_vs_alpha",
    lambda ctx: _binary(ctx) and len({r.get("alpha") for r in ctx.rows} - {None}) >= 2,
    "the ADR paper's Fig. 2 c–j: accuracy, P/R/F1 for SAT and UNSAT, MCC against α",
)
def _conventional(ctx: Context) -> None:
    by = ["model", "alpha"] + (["rendering"] if several_renderings(ctx) else [])
    rows = [r for r in ctx.rows if r.get("alpha") is not None and r.get("metric_set") == "binary"]
    cap = plots.panels_vs(
        aggregate_rows(rows, by), "alpha", CONVENTIONAL, ctx.colours,
        ctx.out / "conventional_vs_alpha.png", "Conventional metrics vs α",
    )  # fmt: skip
    ctx.figure(("conventional_vs_alpha.png", cap) if cap else None)


@analysis(
    "table1",
    lambda ctx: bool(ctx.table1) and _binary(ctx),
    "Sat./Wit. grid (the 2-SAT paper's Table 1; SAT/UNSAT kinds only)",
)
def _table1(ctx: Context) -> None:
    """The paper's Table 1 pools a formula's renderings (per-formula means over the template
    verbalisations); the caption says so whenever there are several."""
    t1 = studies.table1(ctx.records, ctx.table1)
    ctx.table("table1", t1)
    pooled = ", pooled over the renderings" if several_renderings(ctx) else ""
    ctx.tables.insert(0, (f"table1 (Sat./Wit. %, per-formula means{pooled})", ctx.tables.pop()[1]))
    for file, what, caption in (
        ("table4", "truncation", "truncated replies (%) per generator × |C| and model (Table 4)"),
        ("table5", "sat_on_unsat", "SAT predicted on UNSAT instances (%) (Table 5)"),
    ):
        t = twosat_studies.rate_grid(ctx.rows, ctx.table1, what)
        if t:
            ctx.table(file, t, caption)


@analysis(
    "zebralogic_table1",
    lambda ctx: any(r.get("metric_set") == "grid" and r.get("size_group") for r in ctx.rows),
    "ZebraLogic's Table 1: grid accuracy overall and per size group, cell accuracy, no answer",
)
def _zebralogic_table1(ctx: Context) -> None:
    rows = studies.zebralogic_table1(ctx.rows, several_renderings(ctx))
    pooled = "" if not several_renderings(ctx) else ", one row per model and prompt"
    ctx.table("zebralogic_table1", rows, f"%, the paper's layout{pooled}", top=True)


@analysis("sweeps", has("sweep_knob"), "Friedman tests and figures across sweep levels")
def _sweeps(ctx: Context) -> None:
    ctx.table(
        "sweep_tests",
        twosat_studies.sweep_tests(ctx.records),
        "Friedman across levels, BH within family",
    )
    ctx.table(
        "table6",
        twosat_studies.table6(ctx.records),
        "the 2-SAT paper's Table 6: Friedman p on the 7- and 3-point grids, at each size and "
        "pooled across sizes, BH within generator",
    )
    ctx.figures += twosat_studies.sweep_figures(ctx.records, ctx.colours, ctx.out)


@analysis(
    "reported_vs_solver",
    lambda ctx: any((r.get("answer") or {}).get("stats") for r in ctx.records),
    "reported branches / conflicts against MiniSat's",
)
def _solver_stats(ctx: Context) -> None:
    st, fig = solver_studies.solver_stats_comparison(ctx.records, ctx.colours, ctx.out)
    if st:
        ctx.table("reported_vs_solver", st, "Spearman ρ: reported counts vs MiniSat")
    ctx.figure(fig)


@analysis(
    "adr_by_variant",
    lambda ctx: has_pairs(ctx) and len(variants_of(ctx)) > 1,
    "ADR per representation",
)
def _adr_variant(ctx: Context) -> None:
    from ..metrics.adr import adr_table

    adr = adr_table(ctx.records, ("model", "variant"))
    ctx.table("adr_by_model_variant", adr, top=True)
    ctx.table(
        "conventional_vs_adr",
        solver_studies.conventional_vs_adr(ctx.records, adr),
        "the ADR paper's §9 layout: single-instance metrics beside ADR, per model and variant",
    )


@analysis("agreement", lambda ctx: len(variants_of(ctx)) > 1, "decisions across representations")
def _agreement(ctx: Context) -> None:
    ag = studies.representation_agreement(ctx.records)
    ctx.table("agreement", ag, "decisions on the same source formula", top=True)


@analysis(
    "pair_edits",
    lambda ctx: any(isinstance((r.get("meta") or {}).get("edit"), dict) for r in ctx.records),
    "how each pair's twin was made: the edit and its size",
)
def _pair_edits(ctx: Context) -> None:
    pairs: dict[tuple[str, int], set[Any]] = {}
    for r in ctx.records:
        meta = r.get("meta") or {}
        e = meta.get("edit")
        if isinstance(e, dict) and meta.get("pair_id") is not None:
            key = (str(e.get("kind")), int(e.get("distance") or 0))
            pairs.setdefault(key, set()).add(meta["pair_id"])
    total = sum(len(v) for v in pairs.values())
    rows = [
        {"edit": k, "clauses_changed": d, "pairs": len(v), "share": len(v) / total}
        for (k, d), v in sorted(pairs.items())
    ]
    ctx.table(
        "pair_edits", rows, "single edits unless multi-clause deletions were opted in", top=True
    )


@analysis("adr", has_pairs, "Accurate Differentiation Rate on SAT/UNSAT pairs")
def _adr(ctx: Context) -> None:
    for name, t in studies.adr_tables(ctx.records):
        ctx.table(name, t, top=True)
    ctx.figure(studies.adr_figure(ctx.records, ctx.colours, ctx.out), top=True)
    aw = studies.adr_vs_witness(ctx.records)
    if any(r["groups"] for r in aw):
        ctx.table("adr_vs_witness", aw, "Spearman ρ between ADR and witness validity per model")


@analysis(
    "variant_tests",
    lambda ctx: "variant" in ctx.cols and len({r.get("variant") for r in ctx.rows}) > 1,
    "paired t per formula between variants",
)
def _variant_tests(ctx: Context) -> None:
    ctx.table("variant_tests", twosat_studies.variant_tests(ctx.records), "paired t per formula")
    fr = twosat_fillers.filler_regimes(ctx.records)
    if fr:
        ctx.table(
            "filler_regimes",
            fr,
            "§5.2: Sat. per (core clauses, fillers) setting, paired t against the previous one",
        )
