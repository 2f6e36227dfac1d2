"""The papers' own report analyses, after the general ones (:mod:`logicforge.reports.analyses`):
test-time compute, ZebraLogic's tables and figures, usage, the judged and qualitative tables,
SATBench's, the LogicEdit edits, best-of-n, search space, repair and proof statistics.

Example:
    >>> from logicforge.reports.analysis import all_analyses
    >>> "satbench" in {a.name for a in all_analyses()}
    True
"""

from __future__ import annotations

from typing import Any

from . import compute, plots
from .analysis import (
    Context,
    always,
    analysis,
    has,
    has_samples,
)


@analysis("test_time_compute", has_samples, "pass@k and majority voting over samples")
def _ttc(ctx: Context) -> None:
    from ..metrics.ttc import majority_table, pass_at_k_table

    pk = pass_at_k_table(ctx.records)
    ctx.table("pass_at_k", pk, "unbiased estimator")
    ctx.table("majority_vote", majority_table(ctx.records))
    cap = plots.pass_at_k_figure(pk, ctx.colours, ctx.out / "pass_at_k.png")
    ctx.figure(("pass_at_k.png", cap) if cap else None)


@analysis(
    "zebralogic_table2",
    lambda ctx: (
        any(r.get("size_group") for r in ctx.rows)
        and (any("+" in str(r.get("model")) for r in ctx.rows) or has_samples(ctx))
    ),
    "ZebraLogic Table 2: test-time compute methods per size group",
)
def _zebra_table2(ctx: Context) -> None:
    from .zebra_tables import zebralogic_table2

    ctx.table(
        "zebralogic_table2",
        zebralogic_table2(ctx.records),
        "ZebraLogic Table 2: grid accuracy (%) of each model and its test-time compute methods",
        top=True,
    )


@analysis(
    "zebra_figures",
    lambda ctx: any(r.get("size_group") for r in ctx.rows),
    "ZebraLogic Figs. 1, 4-7: complexity heatmaps, tokens vs conflicts, pass@k per group",
)
def _zebra_figures(ctx: Context) -> None:
    from . import zebra_figures as zf

    grid = zf.complexity_grid(ctx.problems)
    if grid:
        ctx.table("complexity_grid", grid, "ZebraLogic Fig. 7: per N × M")
        cap = zf.heatmaps(grid, ctx.out / "complexity_heatmaps.png")
        ctx.figure(("complexity_heatmaps.png", cap) if cap else None)
    tokens, points = zf.token_tables(ctx.records)
    if tokens:
        ctx.table("reasoning_tokens", tokens, "Figs. 4-5: hidden / visible tokens, per conflict")
        ctx.figures += zf.token_figures(tokens, points, ctx.records, ctx.colours, ctx.out)
    if has_samples(ctx):
        groups = zf.pass_at_k_groups(ctx.records)
        ctx.table("pass_at_k_by_size_group", groups, "Fig. 6: pass@k per size group")
        cap = zf.pass_at_k_group_figure(
            groups, ctx.colours, ctx.out / "pass_at_k_by_size_group.png"
        )
        ctx.figure(("pass_at_k_by_size_group.png", cap) if cap else None)
        bins = zf.pass_at_k_groups(ctx.records, "z3_conflicts_bin")
        if bins:
            ctx.table("pass_at_k_by_z3_conflicts", bins, "Fig. 1 right: pass@k per Z3-conflict bin")


@analysis("z3_conflicts", has("z3_conflicts"), "accuracy and reasoning tokens vs Z3 conflicts")
def _z3(ctx: Context) -> None:
    zc, fig = compute.conflicts_figure(ctx.records, ctx.colours, ctx.out)
    ctx.table("accuracy_by_z3_conflicts", zc)
    ctx.figure(fig)
    tz = compute.tokens_vs_conflicts(ctx.records)
    if tz:
        ctx.table("reasoning_tokens_vs_z3_conflicts", tz, "Spearman ρ per model")


@analysis(
    "clue_mix",
    lambda ctx: any("clue_types" in (p.get("metadata") or {}) for p in ctx.problems),
    "realised clue mix, clues per puzzle and mean Z3 conflicts per size",
)
def _clue_mix(ctx: Context) -> None:
    ctx.table(
        "clue_mix",
        compute.clue_mix(ctx.problems),
        "share of each clue type, clues per puzzle and mean Z3 conflicts, per size "
        "(ZebraLogic's public puzzles: docs/families/zebra.md)",
    )


@analysis("usage", always, "tokens, latency and cost per model")
def _usage(ctx: Context) -> None:
    from ..metrics.usage import usage_table

    usage = usage_table(ctx.records, ctx.prices)
    if usage:
        ctx.table("usage", usage, "tokens, latency" + (", cost" if ctx.prices else ""))


@analysis("judged", always, "error taxonomy, traces, stories, judge-coded records")
def _judged(ctx: Context) -> None:
    from ..llm.story import story_stats
    from ..metrics import qualitative as qual
    from ..metrics.trace_judge import judged_summary

    coded = qual.qualitative_table(ctx.records)
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
            "rescore_disagreements",
            "re-scored replies: the source harness's verdict against logicforge's",
            compute.rescore_disagreements,
        ),
        (
            "story_validation",
            "round-trip checks of LLM-written conditions",
            lambda _: story_stats(list(ctx.items)),
        ),
    ]
    for name, caption, table_of in optional:
        t = table_of(ctx.records)
        if t:
            ctx.table(name, t, caption)


@analysis(
    "satbench",
    lambda ctx: any((r.get("meta") or {}).get("bucket") for r in ctx.records),
    "SATBench Tables 3-5 and Fig. 4 in the paper's layout",
)
def _satbench(ctx: Context) -> None:
    from . import satbench_tables as sb
    from .satbench_scaling import scaling_figure, scaling_rows

    stories = sb.discard_note(ctx.out.parent)  # a suite's folder holds its discard counts
    t3 = sb.table3(ctx.records)
    ctx.table("satbench_table3", t3, "SATBench Table 3: accuracy (%)" + stories, top=True)
    sized, unsized = scaling_rows(t3)
    if sized:
        ctx.table("satbench_fig3", sized, "SATBench Fig. 3: accuracy against model size" + stories)
        cap = scaling_figure(sized, unsized, ctx.colours, ctx.out / "satbench_fig3.png")
        ctx.figure(("satbench_fig3.png", cap) if cap else None)
    for file, rows, caption in (
        ("satbench_table4", sb.table4(ctx.records), "Table 4: prediction and trace accuracy (%)"),
        ("satbench_table5", sb.table5(ctx.records), "Table 5: error classes (% of classified)"),
        ("error_aware_fixes", sb.error_aware_fixes(ctx.records), "§6.2: failed items fixed"),
        ("satbench_table2", sb.formula_stats(ctx.problems), "Table 2: the formulas' statistics"),
        (
            "satbench_table2_text",
            sb.text_stats(ctx.items),
            "Table 2: words and sentences per puzzle",
        ),
    ):
        if rows:
            ctx.table(file, rows, "SATBench " + caption + ("" if "table2" in file else stories))
    fig4 = sb.accuracy_by_clauses(ctx.records)
    ctx.table("accuracy_by_clauses", fig4, "SATBench Fig. 4: accuracy per clause count")
    cap = sb.clauses_figure(fig4, ctx.colours, ctx.out / "accuracy_vs_clauses.png")
    ctx.figure(("accuracy_vs_clauses.png", cap) if cap else None)


@analysis("edits", always, "Acc_norm, flips and retention under operator edits")
def _edits(ctx: Context) -> None:
    edit_tabs = compute.edit_tables(ctx.records)
    for name, t in edit_tabs:
        file = name.split(" ")[0]
        ctx.table(file, t, top=True)
        ctx._top[-1] = (name, t)  # the edit tables carry their own caption
    if edit_tabs:
        from ..metrics.edits import edit_stats

        stats = edit_stats(ctx.problems)
        if stats:
            ctx.table(
                "edits_available",
                stats,
                "LogicEdit Tables 6 and 8: records with a valid formal representation (and the "
                "tool that solves them) and the edited records available per setting",
            )
        tr = compute.transition_counts(ctx.records)
        if tr:
            ctx.table("edit_transitions", tr, "chains per step k → k+1 (Fig. 3)")
            ctx.figure(compute.transitions_figure(tr, ctx.out))


@analysis("best_of_n", always, "the answer best-of-n selected per item")
def _bon(ctx: Context) -> None:
    bon = compute.best_of_n_table(ctx.records)
    if bon:
        ctx.table("best_of_n", bon, "selected answer per item")


@analysis(
    "search_space",
    lambda ctx: ctx.shown("metrics_by_model_log10_search_space") is not None,
    "accuracy and cell accuracy against the search space",
)
def _search_space(ctx: Context) -> None:
    agg = ctx.shown("metrics_by_model_log10_search_space") or []
    for metric in ("accuracy", "cell_accuracy"):
        file = f"{metric}_vs_search_space.png"
        cap = plots.metric_vs(
            agg,
            "log10_search_space",
            metric,
            ctx.colours,
            ctx.out / file,
            f"{metric} vs log10 search space",
        )
        ctx.figure((file, cap) if cap else None)


def _repair(ctx: Context) -> bool:
    return any((r.get("extra") or {}).get("repair_mode") for r in ctx.records)


@analysis(
    "repair",
    _repair,
    "multi-turn repair: solver feedback against plain retries and self-review, turn by turn",
)
def _repair_tables(ctx: Context) -> None:
    from . import repair

    turns = repair.repair_turn_table(ctx.records)
    if not turns:
        return
    ctx.table(
        "repair_turns",
        turns,
        "accuracy of the answer in hand after each extra turn, turns used and tokens spent",
        top=True,
    )
    ctx.table(
        "repair_vs_retry",
        repair.repair_vs_retry(ctx.records),
        "final accuracy per arm; solver feedback − plain retries on the same items",
        top=True,
    )
    ctx.figure(repair.repair_figure(turns, ctx.out))


@analysis(
    "proof_stats",
    lambda ctx: any(r.get("answer_format") == "decision+proof" for r in ctx.rows),
    "UNSAT proofs: given, valid, steps and width, against the solvers' own proof sizes",
)
def _proof_stats(ctx: Context) -> None:
    from .proofs import proof_table

    rows = proof_table(ctx.records, ctx.items)
    if rows:
        ctx.table(
            "proof_stats",
            rows,
            "gold-UNSAT items; reference sizes: logicforge's RUP proof, Glucose 4's DRAT lemmas, "
            "a minimal core",
            top=True,
        )
