"""Study-specific tables and figures: Table-1 grids (Sat./Wit.), one-knob sweeps with Friedman
tests (BH within a family), and variant comparisons with paired t-tests per formula.

Verbalisations and samples of one formula are repeated measurements: everything here first
averages them per formula (``per_formula``), then across formulas.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..metrics.stats import mean as _mean
from ..metrics.stats import per_formula
from ..numfmt import pct
from ..schema import answer_label


def _pct(x: float | None) -> float | None:
    return pct(x)


def _by_model(records: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        out[str(r.get("model"))].append(r)
    return out


def table1(records: Sequence[Mapping[str, Any]], rows: Sequence[str]) -> list[dict[str, Any]]:
    """Sat. and Wit. (percent, per-formula means) for each row key × model, models as columns;
    rows in the order the records first name them (a suite's block order: the 2-SAT paper's
    ImplicationCycle, EquivalenceCore, Backbone, MonoBridge), numbers ascending within."""
    cells: dict[tuple[Any, ...], dict[str, list[float | None]]] = {}
    first: dict[Any, int] = {}
    for r in records:
        m = r.get("meta") or r
        for c in rows:
            first.setdefault(m.get(c, r.get(c)), len(first))
    for model, recs in sorted(_by_model(records).items()):
        for f in per_formula(recs, rows):
            key = tuple(f.get(c) for c in rows)
            cell = cells.setdefault(key, {})
            cell.setdefault(f"{model} Sat.", []).append(f["sat"])
            cell.setdefault(f"{model} Wit.", []).append(f["wit"])
    out = []
    for key in sorted(
        cells,
        key=lambda k: tuple(
            (0, x, "") if isinstance(x, int | float) else (1, first.get(x, len(first)), str(x))
            for x in k
        ),
    ):
        cell = cells[key]
        row: dict[str, Any] = dict(zip(rows, key, strict=True))
        row["formulas"] = max((len(v) for v in cell.values() if isinstance(v, list)), default=0)
        row |= {k: _pct(_mean(v)) for k, v in cell.items() if isinstance(v, list)}
        out.append(row)
    return out


ZEBRA_GROUPS = (
    ("Small", "Small <10^3"),
    ("Medium", "Medium 10^3–10^6"),
    ("Large", "Large 10^6–10^9"),
    ("X-Large", "X-Large >10^9"),
)


def zebralogic_table1(
    rows: Sequence[Mapping[str, Any]], by_rendering: bool = False
) -> list[dict[str, Any]]:
    """ZebraLogic's Table 1 (§3): per model, grid-level accuracy overall and per search-space
    size group, cell-level accuracy (Σ cells right / Σ cells), and the share of puzzles with no
    readable grid, all in % (— where a group has no scored puzzle), with n puzzles.

    Example:
        >>> r = {"model": "m", "metric_set": "grid", "correct": True, "label": "SAT",
        ...      "size_group": "Small", "cells": (4, 4), "parse_failure": False}
        >>> zebralogic_table1([r])[0]["Overall"], zebralogic_table1([r])[0]["Medium 10^3–10^6"]
        (100.0, None)
    """
    from ..metrics.aggregate import aggregate_rows

    grid = [r for r in rows if r.get("metric_set") == "grid" and r.get("size_group")]
    by = ["model", "rendering"] if by_rendering else ["model"]
    out = []
    for overall in aggregate_rows(grid, by):
        key = {c: overall[c] for c in by}
        mine = [r for r in grid if all(r.get(c) == v for c, v in key.items())]
        groups = {g["size_group"]: g for g in aggregate_rows(mine, ["size_group"])}
        row: dict[str, Any] = {**key, "n": overall.get("n")}
        row["Overall"] = _pct(overall.get("accuracy"))
        for g, label in ZEBRA_GROUPS:
            row[label] = _pct(groups[g].get("accuracy")) if g in groups else None
        row["Cell-level Acc."] = _pct(overall.get("cell_accuracy"))
        row["No answer"] = _pct(overall.get("parse_failure_rate"))
        out.append(row)
    return out


def adr_tables(records: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """ADR per model (pairs of every rendering, each matched within its own), per model ×
    rendering when the pairs were rendered several ways (the ADR paper's §7–8 representations),
    and per model × N — and × rendering × N — when the pairs span several N."""
    from ..metrics.adr import adr_table

    paired = [r for r in records if (r.get("meta") or {}).get("pair_id") is not None]

    def table(by: tuple[str, ...]) -> list[dict[str, Any]]:
        return _with_metrics(adr_table(paired, by), paired, by)

    out = [("adr_by_model", table(("model",)))]
    rends = {(r.get("meta") or {}).get("rendering") for r in paired}
    ns = {(r.get("meta") or {}).get("n_vars") for r in paired}
    if len(rends) > 1:
        out.append(("adr_by_model_rendering", table(("model", "rendering"))))
    if len(ns) > 1:
        out.append(("adr_by_model_n_vars", table(("model", "n_vars"))))
        if len(rends) > 1:
            out.append(("adr_by_model_rendering_n_vars", table(("model", "rendering", "n_vars"))))
    return out


# the ADR paper's table beside ADR: accuracy, precision, recall, F1, MCC and the valid witnesses
# among SAT claims (its "assignments satisfied rate"), over the same paired records
ADR_PAPER_COLUMNS = (
    "accuracy",
    "precision_sat",
    "recall_sat",
    "f1_sat",
    "mcc",
    "witness_valid_on_sat_claims",
)


def _with_metrics(
    rows: list[dict[str, Any]], records: Sequence[Mapping[str, Any]], by: tuple[str, ...]
) -> list[dict[str, Any]]:
    from ..metrics.aggregate import aggregate

    agg = {tuple(r.get(c) for c in by): r for r in aggregate(records, by)}
    out = []
    for r in rows:  # the ADR table's own columns (its accuracy over the pairs) are kept
        got = agg.get(tuple(r.get(b) for b in by), {})
        # only what applies to these answers: a grid format has no precision of SAT
        out.append(r | {c: got[c] for c in ADR_PAPER_COLUMNS if c not in r and c in got})
    return out


def _series_columns(records: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The columns that split a model's series: the representation (``variant``: CNF, vertex
    cover, packing …) and the prompt (``rendering``), each where the records hold several."""
    return tuple(
        c
        for c in ("variant", "rendering")
        if len({(r.get("meta") or {}).get(c) for r in records}) > 1
    )


def _as_series(rows: list[dict[str, Any]], extra: Sequence[str]) -> list[dict[str, Any]]:
    """Rows whose ``rendering`` names the whole series (e.g. ``vc · formula``) for the plots."""
    if not extra:
        return rows
    return [r | {"rendering": " · ".join(str(r.get(c)) for c in extra)} for r in rows]


def adr_vs_witness(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """ADR against witness validity: per model, over its groups (representation and prompt ×
    N), Spearman ρ between the ADR on the pairs and the share of SAT items answered with a valid
    witness — does telling the pair apart go with constructing the assignment? — with the groups
    listed (``groups``) and ρ empty where fewer than three groups vary.

    Example:
        >>> adr_vs_witness([])
        []
    """
    from ..metrics.adr import adr_table
    from ..metrics.aggregate import aggregate
    from ..metrics.stats import spearman

    extra = _series_columns(records)
    by = ("model", *extra, "n_vars")
    paired = [r for r in records if (r.get("meta") or {}).get("pair_id")]
    adr = {tuple(r[c] for c in by): r["adr"] for r in adr_table(paired, by)}
    wit = {tuple(r[c] for c in by): r.get("witness_valid_on_sat") for r in aggregate(paired, by)}
    out = []
    for model in sorted({k[0] for k in adr}):
        pts: list[tuple[float, float]] = [
            (float(a), float(w))
            for k in sorted(adr, key=str)
            if k[0] == model and (a := adr[k]) is not None and (w := wit.get(k)) is not None
        ]
        xs, ys = [a for a, _ in pts], [w for _, w in pts]
        rho, p = spearman(xs, ys)
        out.append(
            {
                "model": model,
                "groups": len(pts),
                "mean_adr": round(sum(xs) / len(xs), 4) if xs else None,
                "mean_witness_valid_on_sat": round(sum(ys) / len(ys), 4) if ys else None,
                "spearman_rho": rho,
                "p": p,
            }
        )
    return out


def adr_figure(
    records: Sequence[Mapping[str, Any]], colours: Mapping[str, str], out: Path
) -> tuple[str, str] | None:
    """ADR vs N beside accuracy, MCC, precision, recall and F1 (SAT) vs N, one line per model (per model and rendering when
    there are several: prompts are never pooled), labels legible at half the page's width."""
    from ..metrics.adr import adr_table
    from ..metrics.aggregate import aggregate
    from .plots import _plt, model_lines

    extra = _series_columns(records)
    by = ("model", *extra, "n_vars")
    rows = _as_series(adr_table(records, by), extra)
    rows = [r | {"n": r.get("pairs")} for r in rows]  # the pairs behind each point: its n
    if len({r["n_vars"] for r in rows}) < 2:
        return None
    conv = _as_series(
        aggregate([r for r in records if (r.get("meta") or {}).get("pair_id")], by), extra
    )
    plt = _plt()
    fig, grid = plt.subplots(2, 3, figsize=(12, 8.0), dpi=100)
    axes = grid.flat
    panels = [  # the ADR paper's metrics beside ADR: precision, recall and F1 of SAT too
        (axes[0], rows, "adr", "ADR"),
        (axes[1], conv, "accuracy", "accuracy"),
        (axes[2], conv, "mcc", "MCC"),
        (axes[3], conv, "precision_sat", "precision (SAT)"),
        (axes[4], conv, "recall_sat", "recall (SAT)"),
        (axes[5], conv, "f1_sat", "F1 (SAT)"),
    ]
    for ax, data, key, title in panels:
        model_lines(ax, data, "n_vars", key, colours)
        ax.set_xlabel("N (variables)", fontsize=12)
        ax.set_title(title, fontsize=14)
        ax.tick_params(labelsize=11)
        ax.set_ylim(-1.05 if key == "mcc" else -0.03, 1.03)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(6, max(1, len(labels))),
               fontsize=11, frameon=False)  # fmt: skip
    rows_of_legend = -(-len(labels) // min(6, max(1, len(labels))))
    fig.tight_layout(rect=(0, min(0.3, 0.03 + 0.035 * rows_of_legend), 1, 1))
    fig.savefig(out / "adr_vs_n.png")
    plt.close(fig)
    return (
        "adr_vs_n.png",
        "ADR against N (top left), with accuracy, MCC, and precision, recall and F1 of SAT on "
        "the same pairs (a point is missing where its metric is undefined).",
    )


def representation_agreement(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per model: how often each variant's decision agrees with the first variant's on the same
    source formula (and sample), and on disagreements which side was right."""
    rows = []
    for model, recs in sorted(_by_model(records).items()):
        by: dict[tuple[Any, ...], dict[str, Mapping[str, Any]]] = defaultdict(dict)
        order: list[str] = []
        # the same prompt on both sides: where every variant is rendered the same ways, members
        # match within a rendering; a change of representation (cnf vs vc) renders differently
        rend: dict[str, set[Any]] = defaultdict(set)
        for r in recs:
            meta = r.get("meta") or {}
            if meta.get("variant") is not None:
                rend[str(meta["variant"])].add(meta.get("rendering"))
        shared = len({frozenset(x) for x in rend.values()}) == 1
        for r in recs:
            meta = r.get("meta") or {}
            v = meta.get("variant")
            if v is None:
                continue
            key = (meta.get("source_problem_id"), r.get("sample"))
            by[(*key, meta.get("rendering")) if shared else key][str(v)] = r
            if v not in order:
                order.append(str(v))
        if len(order) < 2:
            continue
        ref = order[0]
        for other in order[1:]:
            n = agree = ref_right = other_right = neither = flips = 0
            for mem in by.values():
                a, b = mem.get(ref), mem.get(other)
                if a is None or b is None:
                    continue
                n += 1
                ca, cb = (
                    bool((a.get("verdict") or {}).get("correct")),
                    bool((b.get("verdict") or {}).get("correct")),
                )
                flips += ca != cb  # correctness changed under the perturbation / representation
                da, db = answer_label(a.get("answer")), answer_label(b.get("answer"))
                if da == db:
                    agree += 1
                    continue
                ref_right += ca and not cb
                other_right += cb and not ca
                neither += not ca and not cb
            rows.append(
                {
                    "model": model,
                    "reference": ref,
                    "variant": other,
                    "formulas": n,
                    "agreement": agree / n if n else None,
                    "flip_rate": flips / n if n else None,
                    "disagreements": n - agree,
                    f"{ref} right": ref_right,
                    f"{other} right": other_right,
                    "neither right": neither,
                }
            )
    return rows
