"""The ADR paper's solver-side tables: reported solver statistics against the solver's own
(§5.3), and the conventional metrics beside ADR (Table 2)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .studies import _by_model


def solver_stats_comparison(
    records: Sequence[Mapping[str, Any]], colours: Mapping[str, str], out: Path
) -> tuple[list[dict[str, Any]], tuple[str, str] | None]:
    """Reported branches / conflicts (the ADR paper's Listing 1) against MiniSat's decisions /
    conflicts: Spearman rank correlation per model, and median curves against α."""
    from scipy.stats import spearmanr

    from .plots import _plt

    rows: list[dict[str, Any]] = []
    curves: dict[str, dict[float, dict[str, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for model, recs in sorted(_by_model(records).items()):
        pb, sd, pc, sc = [], [], [], []
        for r in recs:
            st = (r.get("answer") or {}).get("stats") or {}
            meta = r.get("meta") or {}
            if meta.get("decisions") is None:
                continue
            if "branches" in st:
                pb.append(st["branches"])
                sd.append(meta["decisions"])
            if "conflicts" in st:
                pc.append(st["conflicts"])
                sc.append(meta["conflicts"])
            a = meta.get("alpha")
            if a is not None:
                c = curves[model][float(a)]
                c["solver decisions"].append(meta["decisions"])
                if "branches" in st:
                    c["reported branches"].append(st["branches"])
        if not pb and not pc:
            continue

        def rho(x: list[float], y: list[float]) -> tuple[float | None, float | None]:
            if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
                return None, None
            res = spearmanr(x, y)
            return float(res.statistic), float(res.pvalue)

        rb, pbv = rho(pb, sd)
        rc, pcv = rho(pc, sc)
        rows.append(
            {
                "model": model,
                "reports": len(pb),
                "spearman_branches_vs_decisions": rb,
                "p_branches": pbv,
                "spearman_conflicts": rc,
                "p_conflicts": pcv,
                "median_reported_branches": float(np.median(pb)) if pb else None,
                "median_solver_decisions": float(np.median(sd)) if sd else None,
            }
        )
    fig = None
    if rows and any(len(v) > 1 for v in curves.values()):
        plt = _plt()
        f, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
        solver_drawn = False
        for model, by_a in sorted(curves.items()):
            xs = sorted(by_a)
            if not solver_drawn:
                ax.plot(
                    xs,
                    [np.median(by_a[x]["solver decisions"]) for x in xs],
                    "k-o",
                    label="MiniSat decisions (median)",
                )
                solver_drawn = True
            pts = [
                (x, np.median(by_a[x]["reported branches"]))
                for x in xs
                if by_a[x]["reported branches"]
            ]
            if pts:
                ax.plot(
                    [p[0] for p in pts],
                    [p[1] for p in pts],
                    "--^",
                    color=colours.get(model, "grey"),
                    label=f"reported branches: {model}",
                )
        ax.set_xlabel("clause density α")
        ax.set_ylabel("median count")
        ax.set_yscale("symlog")
        ax.legend(fontsize=7)
        f.tight_layout()
        f.savefig(out / "branches_vs_alpha.png")
        plt.close(f)
        fig = (
            "branches_vs_alpha.png",
            "Median branches reported by each model against MiniSat's median decisions, per α.",
        )
    return rows, fig


def conventional_vs_adr(
    records: Sequence[Mapping[str, Any]], adr: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Per model and variant: precision, recall and F1 on SAT (the positive class), accuracy
    over single instances, and ADR over the pairs — the ADR paper's §9 comparison (GPT-5 on
    SATLIB flat30: P 0.78, R 0.76, F1 0.77, accuracy 0.77, ADR 0.60).

    Example:
        >>> conventional_vs_adr([], [])
        []
    """
    from ..metrics.aggregate import aggregate

    by = {(a["model"], a["variant"]): a for a in adr}
    rows = []
    for g in aggregate(records, ("model", "variant")):
        a = by.get((g["model"], g["variant"]))
        rows.append(
            {
                "model": g["model"],
                "variant": g["variant"],
                "n": g["n"],
                "precision": g.get("precision_sat"),
                "recall": g.get("recall_sat"),
                "f1": g.get("f1_sat"),
                "accuracy": g.get("accuracy"),
                "pairs": a["pairs"] if a else None,
                "adr": a["adr"] if a else None,
            }
        )
    return rows
