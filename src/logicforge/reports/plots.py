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


def save_figure(fig: Any, path: Any, ax: Any = None, legend: bool = False) -> None:
    """Lay ``fig`` out, write it to ``path`` and close it (with ``legend``, ``ax``'s legend in
    small type first)."""
    if legend:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    _plt().close(fig)


PALETTE = [
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
]


def model_colours(models: Sequence[str]) -> dict[str, str]:
    """One fixed colour per model (sorted by name) so every figure agrees."""
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(sorted(models))}


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
# (line style, marker) per second series dimension (a model's renderings)
SERIES_STYLES = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"), ((0, (5, 1, 1, 1)), "v"))


MIN_BAND_N = 10  # below this many items at a point, a 95 % band is wider than it is useful
MIN_LINE_N = 3  # a series whose every point rests on fewer items is drawn as points, no line
MAX_SERIES = 6  # more series than this in one panel hide each other: one panel per model


def model_lines(
    ax: Any,
    rows: Sequence[Mapping[str, Any]],
    x: str,
    y: str,
    colours: Mapping[str, str],
    style: str = "-o",
) -> str | None:
    """One line per model (per model and rendering when the rows have several renderings)
    through its (x, y) points, skipping undefined values, in fixed colours and each with its own
    marker (so a series under another stays visible), with its 95 % interval where the rows carry
    ``<y>_lo`` / ``<y>_hi`` (up to four series; more would hide each other): a shaded band when
    every point has at least ``MIN_BAND_N`` items (``n``), else thin error bars, each series
    nudged sideways, so wide small-n intervals never merge into slabs. Returns how the
    intervals were drawn: ``"bands"``, ``"bars"`` or None, with ``"+points"`` when a series
    whose every point rests on fewer than ``MIN_LINE_N`` items was drawn as points (a line
    through single items draws a trend that is not there)."""
    renderings = {r.get("rendering") for r in rows}
    split = len(renderings) > 1
    keys = sorted({(str(r["model"]), str(r.get("rendering")) if split else "") for r in rows})
    xs_all = sorted({float(r[x]) for r in rows if isinstance(r.get(x), int | float)})
    span = (xs_all[-1] - xs_all[0]) if len(xs_all) > 1 else 1.0
    drawn: str | None = None
    points = False
    for i, (m, rend) in enumerate(keys):
        mine = [
            r
            for r in rows
            if str(r["model"]) == m
            and (not split or str(r.get("rendering")) == rend)
            and r.get(x) is not None
            and r.get(y) is not None
        ]
        pts = sorted(mine, key=lambda r: r[x])
        if not pts:
            continue
        marker = MARKERS[i % len(MARKERS)]
        line = "--" if split and i % 2 else style.replace("o", "")
        if all(isinstance(r.get("n"), int) and r["n"] < MIN_LINE_N for r in pts):
            line, points = "none", True
        colour = colours.get(m, "grey")
        xs = [r[x] for r in pts]
        ax.plot(xs, [r[y] for r in pts], linestyle=line, marker=marker, markersize=5,
                markerfacecolor="none" if i % 2 else colour, color=colour,
                label=f"{m} · {rend}" if split else m)  # fmt: skip
        lo = [r.get(f"{y}_lo") for r in pts]
        hi = [r.get(f"{y}_hi") for r in pts]
        if len(keys) > 4 or any(v is None for v in lo + hi):
            continue
        if all(r.get("n", MIN_BAND_N) >= MIN_BAND_N for r in pts):
            ax.fill_between(xs, lo, hi, color=colour, alpha=0.12, linewidth=0)
            drawn = drawn or "bands"
        elif all(isinstance(v, int | float) for v in xs):
            dx = (i - (len(keys) - 1) / 2) * 0.012 * span
            ys = [float(r[y]) for r in pts]
            los, his = [float(v or 0) for v in lo], [float(v or 0) for v in hi]
            ax.errorbar([float(v) + dx for v in xs], ys,
                        yerr=[[a - b for a, b in zip(ys, los, strict=True)],
                              [b - a for a, b in zip(ys, his, strict=True)]],
                        fmt="none", ecolor=colour, elinewidth=0.8, capsize=2, alpha=0.7)  # fmt: skip
            drawn = "bars"
    if points:
        return f"{drawn or ''}+points"
    return drawn


def median_decisions(problems: Sequence[Mapping[str, Any]]) -> float | None:
    """The median of the solver decisions the problems record; a problem without the count is
    left out (never counted as 0), and None when none records it.

    Example:
        >>> median_decisions([{"metadata": {"decisions": 4}}, {"metadata": {}}, {"metadata": {"decisions": 0}}])
        2.0
        >>> median_decisions([{"metadata": {}}]) is None
        True
    """
    ds = [
        p["metadata"]["decisions"]
        for p in problems
        if p.get("metadata", {}).get("decisions") is not None
    ]
    return float(statistics.median(ds)) if ds else None


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
    dec = [median_decisions(by_alpha[a]) for a in alphas]
    plt = _plt()
    fig, ax1 = plt.subplots(figsize=(7, 5.0), dpi=110)
    known = [(a, d) for a, d in zip(alphas, dec, strict=True) if d is not None]
    ax1.plot([a for a, _ in known], [d for _, d in known], "k-o", label="median MiniSat decisions")
    ax1.set_xlabel("clause density α = L/N")
    ax1.set_ylabel("median decisions")
    ax2 = ax1.twinx()
    # the solver's P(SAT) is a wide grey band beneath every model's line: a model that matches
    # it (the oracle) is drawn on top and both stay visible; no model colour is grey
    ax2.plot(alphas, psat, "-", color="#9e9e9e", lw=7, alpha=0.45, zorder=1,
             solid_capstyle="round", label="P(SAT) (solver)")  # fmt: skip
    pred: dict[str, dict[float, list[bool]]] = {}
    for r in rows:
        a = r.get("alpha")
        if a is None or r.get("pred") is None and not r.get("error") and not r.get("parse_failure"):
            continue
        pred.setdefault(r["model"], {}).setdefault(float(a), []).append(r.get("pred") == "SAT")
    for i, (m, d) in enumerate(sorted(pred.items())):
        xs = sorted(d)
        ax2.plot(
            xs,
            [sum(d[x]) / len(d[x]) for x in xs],
            ("--", ":", "-.", "-")[i % 4],
            marker=MARKERS[i % len(MARKERS)],
            ms=5,
            lw=1.4,
            zorder=3 + i,
            color=colours.get(m, "black"),
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
    save_figure(fig, path)
    return "Phase transition: median MiniSat decisions (black) and P(SAT) from the solver (wide grey band), with each model's rate of predicting SAT, against clause density α."


def metric_vs(
    agg_rows: Sequence[Mapping[str, Any]],
    x: str,
    metric: str,
    colours: Mapping[str, str],
    path: Path,
    title: str,
) -> str | None:
    """``metric`` against ``x``, one line per model (and rendering), with 95 % bands; one panel
    per family when the rows hold several, so different generators are never pooled, and one
    panel per model as well when a panel would hold more than ``MAX_SERIES`` series (small
    multiples: a model's renderings together)."""
    xs_all = {r[x] for r in agg_rows if r.get(x) is not None}
    if len(xs_all) < 2:
        return None
    fams = sorted({str(r.get("family")) for r in agg_rows if r.get("family") is not None})
    models = sorted({str(r["model"]) for r in agg_rows})
    series = len({(str(r["model"]), str(r.get("rendering"))) for r in agg_rows})
    by_model = series > MAX_SERIES and len(models) > 1
    panels: list[tuple[str | None, str | None]] = [
        (fam, m)
        for fam in (fams if len(fams) > 1 else [None])
        for m in (models if by_model else [None])
    ]
    plt = _plt()
    cols = len(models) if by_model else min(3, len(panels))
    nrows = -(-len(panels) // cols)
    width = 3.6 if by_model else 4.6
    fig, axes = plt.subplots(
        nrows, cols, figsize=(width * cols if cols > 1 else 7, 3.2 * nrows + 0.8), dpi=110,
        squeeze=False, sharey=True,
    )  # fmt: skip
    drawn: set[str | None] = set()
    for ax, (fam, model) in zip(axes.flat, panels, strict=False):
        rows = [
            r
            for r in agg_rows
            if (fam is None or str(r.get("family")) == fam)
            and (model is None or str(r["model"]) == model)
        ]
        drawn.add(model_lines(ax, rows, x, metric, colours))
        ax.set_xlabel(x, fontsize=9 if by_model else 10)
        ax.set_ylabel(metric, fontsize=10)
        ax.set_ylim(-0.03, 1.03)
        ax.tick_params(labelsize=8 if by_model else 9)
        name = " · ".join(v for v in (fam, model) if v is not None)
        ax.set_title(name or title, fontsize=9 if by_model else 11)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    if by_model:  # every panel is one model: the legend names its renderings
        labels = [lab.split(" · ", 1)[-1] for lab in labels]
    ncol = min(6, max(1, len(labels)))
    legend_rows = -(-len(labels) // ncol)
    fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=8, frameon=False)
    if len(panels) > 1:
        fig.suptitle(title, fontsize=12)
    fig.tight_layout(rect=(0, min(0.4, (0.05 + 0.045 * legend_rows) / nrows), 1, 1))
    fig.savefig(path)
    plt.close(fig)
    per = (
        ", one panel per family and model (each model's renderings together)"
        if by_model and len(fams) > 1
        else ", one panel per model"
        if by_model
        else ", one panel per family"
        if len(panels) > 1
        else ""
    )
    kinds = " ".join(d or "" for d in drawn)
    how = (
        f" (95 % Wilson intervals as error bars: fewer than {MIN_BAND_N} items at some points)"
        if "bars" in kinds
        else " (95 % bands)"
        if "bands" in kinds
        else ""
    )
    dots = (
        f"; series with fewer than {MIN_LINE_N} items at every point are points, not lines"
        if "points" in kinds
        else ""
    )
    return f"{title}: {metric} per model against {x}{how}{per}{dots}."


def panels_vs(
    agg_rows: Sequence[Mapping[str, Any]],
    x: str,
    metrics: Sequence[str],
    colours: Mapping[str, str],
    path: Path,
    title: str,
) -> str | None:
    """One panel per metric against ``x`` (one series per model, and per rendering when there
    are several); MCC on [−1, 1], the others on [0, 1]; undefined points are left out."""
    xs = sorted({r[x] for r in agg_rows if r.get(x) is not None})
    if len(xs) < 2:
        return None
    pad = 0.04 * (xs[-1] - xs[0])
    plt = _plt()
    cols = 4
    nrows = -(-len(metrics) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(16, 3.4 * nrows + 0.7), dpi=90, squeeze=False)
    for ax, m in zip(axes.flat, metrics, strict=False):
        model_lines(ax, agg_rows, x, m, colours)
        ax.set_title(m.replace("_", " "), fontsize=12)
        ax.set_xlabel(x, fontsize=11)
        ax.tick_params(labelsize=10)
        ax.set_ylim(-1.05 if m == "mcc" else -0.03, 1.03)
        ax.set_xlim(xs[0] - pad, xs[-1] + pad)  # one x range in every panel
    for ax in list(axes.flat)[len(metrics) :]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    ncol = min(6, max(1, len(labels)))
    fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=10, frameon=False)
    fig.suptitle(title, fontsize=13)
    fig.tight_layout(rect=(0, min(0.3, 0.06 * (-(-len(labels) // ncol)) / nrows + 0.03), 1, 1))
    fig.savefig(path)
    plt.close(fig)
    return f"{title}: {', '.join(m.replace('_', ' ') for m in metrics)} per model against {x}."


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
    save_figure(fig, path, ax, legend=True)
    return "pass@k (unbiased estimator over each item's samples) against k, per model."
