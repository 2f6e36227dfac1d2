"""The report's analyses: each declares when it applies and computes tables or figures from the
records table; the report lays out, in registration order, those that apply.

An :class:`Analysis` has a ``name``, ``applies(ctx)`` (a pure test of the records' columns —
e.g. "items have several samples", "records carry a pair id") and ``run(ctx)``, which adds
tables (``ctx.table``) and figures (``ctx.figure``). ``top=True`` puts its output above the
generic tables. Suites may name the analyses they want (``analyses:``); by default every one that
applies runs. Kinds contribute group columns through ``Kind.group_columns``.

Example:
    >>> [a.name for a in ANALYSES][:3]
    ['metrics', 'phase_transition', 'accuracy_vs_n']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..metrics.aggregate import METRIC_NAMES, aggregate, aggregate_rows
from . import compute, plots, studies, twosat_studies
from .tables import to_csv, to_markdown

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


@dataclass
class Context:
    """What every analysis reads (the records, their flattened rows, problems, items, options)
    and where it writes (``out``; the tables and figures so far)."""

    records: Sequence[Mapping[str, Any]]
    rows: list[dict[str, Any]]
    problems: Sequence[Mapping[str, Any]]
    items: Sequence[Mapping[str, Any]]
    out: Path
    colours: Mapping[str, str]
    table1: Sequence[str] = ()
    prices: Any = None
    tables: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)
    _top: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)

    @property
    def cols(self) -> set[str]:
        return {k for r in self.rows for k in r}

    def table(
        self,
        file: str,
        rows: list[dict[str, Any]],
        caption: str = "",
        columns: Sequence[str] | None = None,
        top: bool = False,
    ) -> None:
        """Write ``rows`` as ``file``.csv / .md and show them under ``file (caption)``."""
        cols = list(columns or dict.fromkeys(k for r in rows for k in r))
        (self.out / f"{file}.csv").write_text(to_csv(rows, cols))
        (self.out / f"{file}.md").write_text(to_markdown(rows, cols))
        title = f"{file} ({caption})" if caption else file
        (self._top if top else self.tables).append((title, rows))

    def figure(self, fig: tuple[str, str] | None, top: bool = False) -> None:
        if fig:
            (self.figures.insert(0, fig) if top else self.figures.append(fig))

    def shown(self, name: str) -> list[dict[str, Any]] | None:
        """A table added earlier (by its file name)."""
        for title, rows in [*self._top, *self.tables]:
            if title.split(" ")[0] == name:
                return rows
        return None

    def ordered_tables(self) -> list[tuple[str, list[dict[str, Any]]]]:
        return [*reversed(self._top), *self.tables]


@dataclass(frozen=True)
class Analysis:
    name: str
    applies: Callable[[Context], bool]
    run: Callable[[Context], None]
    description: str = ""


ANALYSES: list[Analysis] = []


def analysis(
    name: str, applies: Callable[[Context], bool], description: str = ""
) -> Callable[[Callable[[Context], None]], Callable[[Context], None]]:
    """Register ``run`` as the analysis ``name`` (order of registration = order in the report)."""

    def wrap(run: Callable[[Context], None]) -> Callable[[Context], None]:
        if any(a.name == name for a in ANALYSES):
            raise ValueError(f"analysis {name!r} is already registered")
        ANALYSES.append(Analysis(name, applies, run, description))
        return run

    return wrap


def select(names: Sequence[str] | None) -> list[Analysis]:
    """The analyses named (all when ``names`` is None), in report order; unknown names fail."""
    if names is None:
        return list(ANALYSES)
    known = {a.name for a in ANALYSES}
    for n in names:
        if n not in known:
            raise ConfigError("analyses", n, f"known analyses: {', '.join(sorted(known))}")
    return [a for a in ANALYSES if a.name in names]


def _always(ctx: Context) -> bool:
    return True


def _has(col: str) -> Callable[[Context], bool]:
    return lambda ctx: col in ctx.cols


def _pairs(ctx: Context) -> bool:
    return any(r.get("pair_id") for r in ctx.rows)


def _variants(ctx: Context) -> set[Any]:
    return {r.get("variant") for r in ctx.rows} - {None}


def _samples(ctx: Context) -> bool:
    return any((r.get("sample") or 0) > 0 for r in ctx.rows)


def several_renderings(ctx: Context) -> bool:
    return len({r.get("rendering") for r in ctx.rows}) > 1


@analysis("metrics", _always, "accuracy and the metrics that apply, by model and each grouping")
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


@analysis("phase_transition", _always, "P(SAT) and accuracy against α")
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


@analysis("sweeps", _has("sweep_knob"), "Friedman tests and figures across sweep levels")
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
    st, fig = studies.solver_stats_comparison(ctx.records, ctx.colours, ctx.out)
    if st:
        ctx.table("reported_vs_solver", st, "Spearman ρ: reported counts vs MiniSat")
    ctx.figure(fig)


@analysis(
    "adr_by_variant",
    lambda ctx: _pairs(ctx) and len(_variants(ctx)) > 1,
    "ADR per representation",
)
def _adr_variant(ctx: Context) -> None:
    from ..metrics.adr import adr_table

    adr = adr_table(ctx.records, ("model", "variant"))
    ctx.table("adr_by_model_variant", adr, top=True)
    ctx.table(
        "conventional_vs_adr",
        studies.conventional_vs_adr(ctx.records, adr),
        "the ADR paper's §9 layout: single-instance metrics beside ADR, per model and variant",
    )


@analysis("agreement", lambda ctx: len(_variants(ctx)) > 1, "decisions across representations")
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


@analysis("adr", _pairs, "Accurate Differentiation Rate on SAT/UNSAT pairs")
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
    fr = twosat_studies.filler_regimes(ctx.records)
    if fr:
        ctx.table(
            "filler_regimes",
            fr,
            "§5.2: Sat. per (core clauses, fillers) setting, paired t against the previous one",
        )


@analysis("test_time_compute", _samples, "pass@k and majority voting over samples")
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
        and (any("+" in str(r.get("model")) for r in ctx.rows) or _samples(ctx))
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
    if _samples(ctx):
        groups = zf.pass_at_k_groups(ctx.records)
        ctx.table("pass_at_k_by_size_group", groups, "Fig. 6: pass@k per size group")
        cap = zf.pass_at_k_group_figure(
            groups, ctx.colours, ctx.out / "pass_at_k_by_size_group.png"
        )
        ctx.figure(("pass_at_k_by_size_group.png", cap) if cap else None)
        bins = zf.pass_at_k_groups(ctx.records, "z3_conflicts_bin")
        if bins:
            ctx.table("pass_at_k_by_z3_conflicts", bins, "Fig. 1 right: pass@k per Z3-conflict bin")


@analysis("z3_conflicts", _has("z3_conflicts"), "accuracy and reasoning tokens vs Z3 conflicts")
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


@analysis("usage", _always, "tokens, latency and cost per model")
def _usage(ctx: Context) -> None:
    from ..metrics.usage import usage_table

    usage = usage_table(ctx.records, ctx.prices)
    if usage:
        ctx.table("usage", usage, "tokens, latency" + (", cost" if ctx.prices else ""))


@analysis("judged", _always, "error taxonomy, traces, stories, judge-coded records")
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


@analysis("edits", _always, "Acc_norm, flips and retention under operator edits")
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


@analysis("best_of_n", _always, "the answer best-of-n selected per item")
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
