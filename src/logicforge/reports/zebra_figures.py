"""ZebraLogic's complexity and test-time-compute figures (Figs. 1 right, 4–7), each with the
table of its numbers:

* Fig. 7 — N × M heatmaps of log₁₀ search space and mean Z3 conflicts (from the problems);
* Fig. 4 — reasoning tokens against Z3 conflicts per reply, with the tokens-per-conflict ratio
  over puzzles below 20 conflicts (the paper: ≈ 400 hidden tokens per conflict for o1-preview);
* Fig. 5 — the distributions of hidden and visible reasoning tokens per model. *Hidden* tokens
  are those an API reports as reasoning (``reasoning_source == "usage"``); *visible* ones are the
  reply's own tokens: the completion minus the hidden ones, or the reasoning a tokenizer counted
  in the text. A count the records do not have is left empty, never 0;
* Fig. 6 — pass@k against k per size group, one line per model;
* Fig. 1 (right) — pass@k per Z3-conflict bin.

Example:
    >>> complexity_grid([])
    []
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..metrics.ttc import pass_at_k
from .plots import _plt, save_figure

GROUPS = ("Small", "Medium", "Large", "X-Large")
RATIO_BELOW = 20  # the paper's ratio holds for puzzles under 20 Z3 conflicts


def _mean(xs: Sequence[float]) -> float | None:
    return round(sum(xs) / len(xs), 3) if xs else None


def complexity_grid(problems: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Fig. 7's numbers: per (N houses, M attributes), puzzles, log₁₀ search space and mean Z3
    conflicts (empty where not measured)."""
    cells: dict[tuple[int, int], list[Mapping[str, Any]]] = defaultdict(list)
    for p in problems:
        md = p.get("metadata") or {}
        if isinstance(md.get("n_houses"), int) and "log10_search_space" in md:
            cells[(md["n_houses"], md["n_attributes"])].append(md)
    return [
        {
            "N": n,
            "M": m,
            "puzzles": len(mds),
            "log10_search_space": round(float(mds[0]["log10_search_space"]), 3),
            "z3_conflicts": _mean(
                [float(md["z3_conflicts"]) for md in mds if md.get("z3_conflicts") is not None]
            ),
        }
        for (n, m), mds in sorted(cells.items())
    ]


def heatmaps(rows: Sequence[Mapping[str, Any]], path: Path) -> str | None:
    """Fig. 7: the N × M heatmaps of what was measured (a cell without a value is blank; a
    measure with no value anywhere — Z3 conflicts of imported puzzles — gets no panel)."""
    if len(rows) < 2:
        return None
    import numpy as np

    panels = [
        (col, title)
        for col, title in (
            ("log10_search_space", "log10 search space"),
            ("z3_conflicts", "mean Z3 conflicts"),
        )
        if any(r.get(col) is not None for r in rows)
    ]
    if not panels:
        return None
    ns = sorted({r["N"] for r in rows})
    ms = sorted({r["M"] for r in rows})
    plt = _plt()
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4.2), dpi=110)
    for ax, (col, title) in zip(np.atleast_1d(axes), panels, strict=True):
        grid = np.full((len(ns), len(ms)), np.nan)
        for r in rows:
            if r[col] is not None:
                grid[ns.index(r["N"]), ms.index(r["M"])] = r[col]
        im = ax.imshow(grid, cmap="viridis", origin="lower")
        for i, j in np.ndindex(grid.shape):
            if not math.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.1f}", ha="center", va="center", fontsize=7, color="w")
        ax.set_xticks(range(len(ms)), [str(m) for m in ms])
        ax.set_yticks(range(len(ns)), [str(n) for n in ns])
        ax.set_xlabel("attributes (M)")
        ax.set_ylabel("houses (N)")
        ax.set_title(title, fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.8)
    save_figure(fig, path)
    shown = " and ".join(t for _, t in panels)
    missing = [t for c, t in (("z3_conflicts", "Z3 conflicts"),) if c not in dict(panels)]
    note = f" ({', '.join(missing)} not measured for these puzzles: no panel)" if missing else ""
    return f"ZebraLogic Fig. 7: {shown} per N × M (blank: not measured){note}."


def token_counts(r: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """(hidden, visible) reasoning tokens of one record; None where unknown."""
    u = r.get("usage") or {}
    reasoning, completion = u.get("reasoning_tokens"), u.get("completion_tokens")
    if reasoning is None:
        return None, completion
    if (u.get("reasoning_source") or "usage") == "usage":  # the API counted hidden reasoning
        visible = completion - reasoning if completion is not None else None
        return int(reasoning), visible
    return None, int(reasoning)  # counted by a tokenizer in the reply: visible reasoning


def token_tables(records: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[tuple]]:
    """Figs. 4–5's numbers per model: replies, mean hidden and visible tokens (empty when the
    records have none), and tokens per Z3 conflict below 20 conflicts — Σ tokens / Σ conflicts
    of the hidden tokens, else of the visible ones; and the (model, conflicts, tokens, correct)
    points of the scatter."""
    per: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    points = []
    for r in records:
        if r.get("error") is not None:
            continue
        m = str(r.get("model"))
        hidden, visible = token_counts(r)
        if hidden is not None:
            per[m]["hidden"].append(hidden)
        if visible is not None:
            per[m]["visible"].append(visible)
        c = (r.get("meta") or {}).get("z3_conflicts")
        t = hidden if hidden is not None else visible
        if c is not None and t is not None:
            points.append((m, float(c), float(t), bool((r.get("verdict") or {}).get("correct"))))
    rows = []
    for m in sorted(per):
        low = [(c, t) for mm, c, t, _ in points if mm == m and c < RATIO_BELOW]
        conflicts = sum(c for c, _ in low)
        rows.append(
            {
                "model": m,
                "replies": max(len(per[m]["hidden"]), len(per[m]["visible"])),
                "mean_hidden_tokens": _mean(per[m]["hidden"]),
                "mean_visible_tokens": _mean(per[m]["visible"]),
                "tokens_per_conflict": round(sum(t for _, t in low) / conflicts, 2)
                if conflicts
                else None,
                "ratio_over": "hidden" if per[m]["hidden"] else "visible",
            }
        )
    return rows, points


def token_figures(
    rows: Sequence[Mapping[str, Any]],
    points: Sequence[tuple],
    records: Sequence[Mapping[str, Any]],
    colours: Mapping[str, str],
    out: Path,
) -> list[tuple[str, str]]:
    """Fig. 4 (tokens against conflicts: correct ●, wrong ×) and Fig. 5 (token distributions)."""
    figs: list[tuple[str, str]] = []
    plt = _plt()
    if len({c for _, c, _, _ in points}) >= 2:
        fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
        for m in sorted({p[0] for p in points}):
            for ok, mark in ((True, "o"), (False, "x")):
                xs = [(c, t) for mm, c, t, k in points if mm == m and k == ok]
                if xs:
                    ax.scatter(
                        [c for c, _ in xs],
                        [t for _, t in xs],
                        marker=mark,
                        s=14,
                        color=colours.get(m, "grey"),
                        label=f"{m} ({'right' if ok else 'wrong'})",
                    )
        ax.set_xlabel("mean Z3 conflicts")
        ax.set_ylabel("reasoning tokens")
        save_figure(fig, out / "tokens_vs_conflicts.png", ax, legend=True)
        figs.append(
            (
                "tokens_vs_conflicts.png",
                "ZebraLogic Fig. 4: reasoning tokens (hidden where the API reports them, else visible) against the puzzle's Z3 conflicts; the tokens per conflict are in reasoning_tokens.md.",
            )
        )
    series: list[tuple[str, int | None, int | None]] = []
    for r in records:
        if r.get("error") is None:
            h, v = token_counts(r)
            series.append((str(r.get("model")), h, v))
    kinds = [
        (i, name)
        for i, name in ((1, "hidden"), (2, "visible"))
        if any(s[i] is not None for s in series)
    ]
    if kinds:
        fig, axes = plt.subplots(
            len(kinds), 1, figsize=(7, 3.0 * len(kinds)), dpi=110, squeeze=False
        )
        for ax, (i, name) in zip(axes[:, 0], kinds, strict=True):
            for m in sorted({s[0] for s in series}):
                vals = [float(x) for s in series if s[0] == m and (x := s[i]) is not None]
                if vals:
                    ax.hist(
                        vals,
                        bins=20,
                        alpha=0.5,
                        color=colours.get(m, "grey"),
                        label=f"{m} (mean {sum(vals) / len(vals):.1f})",
                    )
            ax.set_xlabel(f"{name} reasoning tokens")
            ax.set_ylabel("replies")
            ax.legend(fontsize=7)
        save_figure(fig, out / "token_distributions.png")
        figs.append(
            (
                "token_distributions.png",
                "ZebraLogic Fig. 5: distributions of hidden and visible reasoning tokens per model (means in the legend).",
            )
        )
    return figs


def _items(records: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], list[Mapping[str, Any]]]:
    out: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        if r.get("error") is None and (r.get("meta") or {}).get("size_group") in GROUPS:
            out[(str(r.get("model")), str(r.get("item_id")))].append(r)
    return out


def _ks(n: int) -> list[int]:
    return [k for k in (1, 2, 4, 8, 16, 32, 64, 128) if k <= n]


def pass_at_k_groups(
    records: Sequence[Mapping[str, Any]], by: str = "size_group"
) -> list[dict[str, Any]]:
    """Fig. 6 (``by="size_group"``) and Fig. 1 right (``by="z3_conflicts_bin"``): pass@k (a
    fraction, as ``pass_at_k.md``) per model and group for every k the samples reach."""
    cells: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for (m, _), rs in _items(records).items():
        meta = rs[0].get("meta") or {}
        if by == "size_group":
            g: Any = meta.get("size_group")
        else:
            c = meta.get("z3_conflicts")
            if c is None:
                continue
            b = 0 if c < 1 else int(math.log2(c)) + 1
            g = f"[{0 if b == 0 else 2 ** (b - 1)}, {2**b})"
        cells[(m, str(g))].append(
            (len(rs), sum(bool((r.get("verdict") or {}).get("correct")) for r in rs))
        )
    order = {g: i for i, g in enumerate(GROUPS)}

    def key(k: tuple[str, str]) -> tuple[str, int, str]:
        g = k[1]
        return k[0], order.get(g, int(g[1:].split(",")[0]) if g.startswith("[") else 99), g

    rows = []
    for m, g in sorted(cells, key=key):
        its = cells[(m, g)]
        nmin = min(n for n, _ in its)
        rows.append(
            {
                "model": m,
                by: g,
                "items": len(its),
                **{
                    f"pass@{k}": round(sum(pass_at_k(n, c, k) for n, c in its) / len(its), 4)
                    for k in _ks(nmin)
                },
            }
        )
    return rows


def pass_at_k_group_figure(
    rows: Sequence[Mapping[str, Any]], colours: Mapping[str, str], path: Path
) -> str | None:
    """Fig. 6: one panel per size group, pass@k against k, one line per model."""
    groups = [g for g in GROUPS if any(r["size_group"] == g for r in rows)]
    if not groups or not any(len([k for k in r if k.startswith("pass@")]) > 1 for r in rows):
        return None
    plt = _plt()
    fig, axes = plt.subplots(
        1, len(groups), figsize=(3.4 * len(groups), 3.4), dpi=110, squeeze=False
    )
    for ax, g in zip(axes[0], groups, strict=True):
        for r in (r for r in rows if r["size_group"] == g):
            ks = [int(k[5:]) for k in r if k.startswith("pass@")]
            ax.plot(
                ks,
                [r[f"pass@{k}"] for k in ks],
                "-o",
                ms=3,
                color=colours.get(r["model"], "grey"),
                label=r["model"],
            )
        ax.set_xscale("log", base=2)
        ax.set_title(g, fontsize=9)
        ax.set_xlabel("k (samples)")
        ax.set_ylim(-0.03, 1.03)
    axes[0][0].set_ylabel("pass@k")
    axes[0][-1].legend(fontsize=7)
    save_figure(fig, path)
    return "ZebraLogic Fig. 6: pass@k (BoN-Oracle) against the number of samples, per size group."
