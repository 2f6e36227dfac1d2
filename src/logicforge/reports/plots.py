"""The figures of the random k-SAT study (matplotlib, Agg backend, PNG)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def _plt() -> Any:
    """Import pyplot lazily (it is slow to import) on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


PALETTE = [
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
]


def model_colours(models: Sequence[str]) -> dict[str, str]:
    """One fixed colour per model (sorted by name) so every figure agrees."""
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(sorted(models))}


def model_lines(
    ax: Any,
    rows: Sequence[Mapping[str, Any]],
    x: str,
    y: str,
    colours: Mapping[str, str],
    style: str = "-o",
) -> None:
    """One line per model through its (x, y) points, skipping undefined values, in fixed colours."""
    for m in sorted({str(r["model"]) for r in rows}):
        pts = sorted(
            (r[x], r[y])
            for r in rows
            if r["model"] == m and r.get(x) is not None and r.get(y) is not None
        )
        if pts:
            ax.plot(
                [p[0] for p in pts],
                [p[1] for p in pts],
                style,
                color=colours.get(m, "grey"),
                label=m,
            )


def phase_transition(
    problems: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    colours: Mapping[str, str],
    path: Path,
) -> str | None:
    """P(SAT) and median solver decisions vs α (solver), and P(predicted SAT) per model vs α."""
    by_alpha: dict[float, list[Mapping[str, Any]]] = {}
    for p in problems:
        a = p.get("metadata", {}).get("alpha")
        if a is not None:
            by_alpha.setdefault(float(a), []).append(p)
    if len(by_alpha) < 2:
        return None
    alphas = sorted(by_alpha)
    psat = [sum(p["label"] == "SAT" for p in by_alpha[a]) / len(by_alpha[a]) for a in alphas]
    dec = [
        statistics.median(p["metadata"].get("decisions") or 0 for p in by_alpha[a]) for a in alphas
    ]
    plt = _plt()
    fig, ax1 = plt.subplots(figsize=(7, 5.0), dpi=110)
    ax1.plot(alphas, dec, "k-o", label="median MiniSat decisions")
    ax1.set_xlabel("clause density α = L/N")
    ax1.set_ylabel("median decisions")
    ax2 = ax1.twinx()
    ax2.plot(alphas, psat, "-s", color="#1f77b4", lw=2.5, alpha=0.6, label="P(SAT) (solver)")
    pred: dict[str, dict[float, list[bool]]] = {}
    for r in rows:
        a = r.get("alpha")
        if a is None or r.get("pred") is None and not r.get("error") and not r.get("parse_failure"):
            continue
        pred.setdefault(r["model"], {}).setdefault(float(a), []).append(r.get("pred") == "SAT")
    for m, d in sorted(pred.items()):
        xs = sorted(d)
        ax2.plot(
            xs,
            [sum(d[x]) / len(d[x]) for x in xs],
            "--^",
            color=colours.get(m, "grey"),
            label=f"P(pred SAT): {m}",
        )
    ax2.set_ylim(-0.03, 1.03)
    ax2.set_ylabel("probability")
    h1, l1 = ax1.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax1.legend(  # below the axes, so no curve is hidden
        h1 + h2, l1 + l2, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3
    )
    ax1.set_title("Phase transition: solver vs models")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return "Phase transition: median MiniSat decisions (black) and P(SAT) from the solver (blue), with each model's rate of predicting SAT, against clause density α."


def metric_vs(
    agg_rows: Sequence[Mapping[str, Any]],
    x: str,
    metric: str,
    colours: Mapping[str, str],
    path: Path,
    title: str,
) -> str | None:
    xs_all = {r[x] for r in agg_rows if r.get(x) is not None}
    if len(xs_all) < 2:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    model_lines(ax, agg_rows, x, metric, colours)
    ax.set_xlabel(x)
    ax.set_ylabel(metric)
    ax.set_ylim(-0.03, 1.03)
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return f"{title}: {metric} per model against {x}."


def pass_at_k_figure(
    rows: Sequence[Mapping[str, Any]], colours: Mapping[str, str], path: Path
) -> str | None:
    """pass@k against k (log scale), one line per model."""
    if not rows or not any(len([k for k in r if k.startswith("pass@")]) > 1 for r in rows):
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4), dpi=110)
    points = [
        {"model": r["model"], "k": int(k[5:]), "pass": v}
        for r in rows
        for k, v in r.items()
        if k.startswith("pass@")
    ]
    model_lines(ax, points, "k", "pass", colours)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("k (samples)")
    ax.set_ylabel("pass@k")
    ax.set_ylim(-0.03, 1.03)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return "pass@k (unbiased estimator over each item's samples) against k, per model."
