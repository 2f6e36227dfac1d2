"""The 2-SAT robustness paper's study tables (§5): sweeps and Table 6 (Friedman across knob
levels, per size and pooled), variant comparisons (paired or independent t-tests), the §5.2
filler regimes and the Tables 4–5 rate grids."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..metrics.stats import benjamini_hochberg, friedman, independent_t, paired_t, per_formula
from ..metrics.stats import mean as _mean
from .studies import _by_model, _pct


def rate_grid(
    rows: Sequence[Mapping[str, Any]], by: Sequence[str], what: str
) -> list[dict[str, Any]]:
    """The 2-SAT paper's Tables 4 and 5 layout: one row per ``by`` key (generator × |C|), one
    column per model, in %: ``what="truncation"`` — replies cut at the token limit, over every
    scored reply (Table 4); ``what="sat_on_unsat"`` — SAT predictions on UNSAT instances, over
    the UNSAT instances (Table 5; rows without UNSAT instances are left out). Error records
    (no reply) are not counted.

    Example:
        >>> rs = [{"model": "m", "family": "f", "n_clauses": 5, "truncated": t, "error": False,
        ...        "label": "UNSAT", "pred": p} for t, p in ((True, "SAT"), (False, "UNSAT"))]
        >>> rate_grid(rs, ["family", "n_clauses"], "sat_on_unsat")
        [{'family': 'f', 'n_clauses': 5, 'n': 2, 'm': 50.0}]
    """
    cells: dict[tuple[Any, ...], dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    models = sorted({str(r.get("model")) for r in rows})
    for r in rows:
        if r.get("error") or r.get("metric_set") not in (None, "binary"):
            continue
        if what == "sat_on_unsat":
            if r.get("label") != "UNSAT":
                continue
            hit = r.get("pred") == "SAT"
        else:
            hit = bool(r.get("truncated"))
        cells[tuple(r.get(c) for c in by)][str(r.get("model"))].append(hit)
    out = []
    for key in sorted(
        cells, key=lambda k: tuple((0, x) if isinstance(x, int | float) else (1, str(x)) for x in k)
    ):
        cell = cells[key]
        row: dict[str, Any] = dict(zip(by, key, strict=True))
        row["n"] = max(len(v) for v in cell.values())
        row |= {m: _pct(_mean(cell[m])) if cell.get(m) else None for m in models}
        out.append(row)
    return out


def _level(v: Any) -> float | str:
    """A sweep level as recorded: a number, or a categorical value (orientation: positive)."""
    return v if isinstance(v, str) else float(v)


def _level_name(x: float | str) -> str:
    return x if isinstance(x, str) else f"{x:.2f}"


def _realised_levels(
    records: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str, str, float | str], float | None]:
    """Mean recorded ``<knob>_actual`` per (family, knob, grid point, requested level), one value
    per problem; ``None`` where the problems do not record it."""
    seen: dict[tuple[str, str, str, float | str], dict[str, float]] = defaultdict(dict)
    for r in records:
        m = r.get("meta") or {}
        if m.get("sweep_knob") is None:
            continue
        key = (
            str(m.get("family")),
            str(m["sweep_knob"]),
            str(m.get("sweep_point") or ""),
            _level(m["sweep_level"]),
        )
        v = m.get(f"{m['sweep_knob']}_actual")
        if isinstance(v, int | float):
            seen[key][str(m.get("problem_id"))] = float(v)
    return {k: round(sum(v.values()) / len(v), 4) for k, v in seen.items() if v}


def _sweep_cells(
    records: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str, str], dict[float | str, dict[int, float]]]:
    """(family, knob, grid point) → level → formula index → per-formula Sat."""
    pf = per_formula(
        records, ["family", "sweep_knob", "sweep_level", "sweep_point", "formula_index"]
    )
    out: dict[tuple[str, str, str], dict[float | str, dict[int, float]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    for f in pf:
        if f.get("sweep_knob") is not None:
            key = (f["family"], f["sweep_knob"], str(f.get("sweep_point") or ""))
            out[key][_level(f["sweep_level"])][int(f["formula_index"])] = f["sat"]
    return out


def _friedman_p(levels: Mapping[Any, Mapping[Any, float]]) -> tuple[Any, Any, Any, int]:
    """Friedman χ², p and Kendall's W across ``levels`` over the blocks every level has, and the
    number of those blocks; ``None`` where there is nothing to test (one level, one block, or
    every block the same at every level)."""
    lv = sorted(levels)
    blocks = sorted(set.intersection(*(set(levels[x]) for x in lv))) if lv else []
    data = [[levels[x][b] for x in lv] for b in blocks]
    if len(lv) >= 2 and len(blocks) >= 2 and any(len(set(r)) > 1 for r in data):
        t = friedman(data)
        return t.statistic, t.p_value, t.effect_size, len(blocks)
    return None, None, None, len(blocks)


def _bh(rows: list[dict[str, Any]], col: str, out: str) -> None:
    ps = [r[col] for r in rows if r[col] is not None and not math.isnan(r[col])]
    adj = iter(benjamini_hochberg(ps))
    for r in rows:
        r[out] = next(adj) if r[col] is not None and not math.isnan(r[col]) else None


def sweep_tests(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per family × knob × grid point (e.g. ``n_clauses=75``) × model: Sat. at each level and
    the knob's mean realised value there (``realised@…``, measured on the problems; ``None``
    where not recorded), and a Friedman test across levels (blocks = formula index; two levels —
    a categorical knob — give the sign test's χ² form), with Benjamini–Hochberg correction over
    the knobs of one family, grid point and model."""
    rows: list[dict[str, Any]] = []
    for model, recs in sorted(_by_model(records).items()):
        realised = _realised_levels(recs)
        fam_rows: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for (fam, knob, point), levels in sorted(_sweep_cells(recs).items()):
            lv = sorted(levels)
            stat, p, w, nb = _friedman_p(levels)
            row: dict[str, Any] = {"model": model, "family": fam, "knob": knob}
            if point:
                row["point"] = point
            row |= {"levels": len(lv), "formulas": nb}
            row |= {f"Sat.@{_level_name(x)}": _pct(_mean(list(levels[x].values()))) for x in lv}
            # the level the problems realise, measured on them (families/knobs.py); — if unknown
            row |= {f"realised@{_level_name(x)}": realised.get((fam, knob, point, x)) for x in lv}
            row |= {"friedman_chi2": stat, "p": p, "kendall_w": w}
            fam_rows[(fam, point)].append(row)
        for rs in fam_rows.values():
            _bh(rs, "p", "p_bh")
            rows += rs
    return rows


THREE_POINT = (0.2, 0.5, 0.8)  # the paper's 3-level grid (§4: the centres of the thirds)


def _natural(s: str) -> list[Any]:
    import re

    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def table6(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The 2-SAT paper's Table 6: per model × generator × parameter × sweep size, Friedman p
    on the 7-point grid and on the 3-point grid (0.2, 0.5, 0.8; every level of a categorical
    knob), and — where the sweep ran at several sizes — an ``all sizes`` row pooling them
    (blocks = size × formula). ``—`` where a grid is not in the records; BH-corrected within a
    generator at one size (``*_bh``), as the paper corrects within an ablation family.

    Example:
        >>> table6([])
        []
    """

    def three(levels: Mapping[Any, Any]) -> dict[Any, Any]:
        if any(isinstance(x, str) for x in levels):
            return dict(levels)
        return {x: v for x, v in levels.items() if round(float(x), 6) in THREE_POINT}

    rows: list[dict[str, Any]] = []
    for model, recs in sorted(_by_model(records).items()):
        by_knob: dict[tuple[str, str], dict[str, dict[Any, dict[Any, float]]]] = defaultdict(dict)
        for (fam, knob, point), levels in _sweep_cells(recs).items():
            by_knob[(fam, knob)][point] = levels
        groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for (fam, knob), per_point in sorted(by_knob.items()):
            scopes: list[tuple[str, Mapping[Any, Mapping[Any, float]]]] = [
                (pt or "—", per_point[pt]) for pt in sorted(per_point, key=_natural)
            ]
            if len(per_point) > 1:
                pooled: dict[Any, dict[tuple[str, Any], float]] = defaultdict(dict)
                for pt, at_pt in per_point.items():
                    for x, per in at_pt.items():
                        for b, v in per.items():
                            pooled[x][(pt, b)] = v
                scopes.append(("all sizes", pooled))
            for size, cells in scopes:
                seven = len(cells) >= 7 and not any(isinstance(x, str) for x in cells)
                _, p_all, _, blocks = _friedman_p(cells)
                groups[(fam, size)].append(
                    {
                        "model": model,
                        "generator": fam,
                        "parameter": knob,
                        "size": size,
                        "levels": len(cells),
                        "formulas": blocks,
                        "p_7pt": p_all if seven else None,
                        "p_3pt": _friedman_p(three(cells))[1],
                    }
                )
        order = sorted(groups, key=lambda k: (k[0], k[1] == "all sizes", _natural(k[1])))
        for key in order:
            rs = groups[key]
            _bh(rs, "p_7pt", "p_7pt_bh")
            _bh(rs, "p_3pt", "p_3pt_bh")
            rows += rs
    return rows


def _compare(
    model: str,
    fam: str,
    other: str,
    ref: str,
    a_by: Mapping[str, float],
    b_by: Mapping[str, float],
    independent: bool = False,
) -> dict[str, Any]:
    """One variant against another: paired per source formula where they share formulas, an
    independent (Welch) t-test over per-formula means where they share none (a separate arm,
    e.g. 100 distinct clauses against 50 duplicated) or where ``independent`` asks for it."""
    common = sorted(set(a_by) & set(b_by))
    paired = bool(common) and not independent
    a = [a_by[k] for k in common] if paired else list(a_by.values())
    b = [b_by[k] for k in common] if paired else list(b_by.values())
    row: dict[str, Any] = {
        "model": model,
        "family": fam,
        "variant": other,
        "vs": ref,
        "test": "paired" if paired else "independent",
        "formulas": len(common) if paired else f"{len(a)} / {len(b)}",
        "Sat. variant": _pct(_mean(a)),
        "Sat. reference": _pct(_mean(b)),
        "diff": None,
        "ci_low": None,
        "ci_high": None,
        "t": None,
        "p": None,
        "effect": None,
    }
    if paired and len(common) >= 2 and any(x != y for x, y in zip(a, b, strict=True)):
        t = paired_t(a, b)
    elif not paired and len(a) >= 2 and len(b) >= 2 and len(set(a) | set(b)) > 1:
        t = independent_t(a, b)
    else:  # too few formulas, or no variation, for a test: the observed difference alone
        if a and b:
            row["diff"] = sum(a) / len(a) - sum(b) / len(b)
        return row
    row |= {
        "diff": t.mean_diff,
        "ci_low": t.ci_low,
        "ci_high": t.ci_high,
        "t": t.statistic,
        "p": t.p_value,
        "effect": t.effect_size,  # d_z (paired) or Hedges' g (independent)
    }
    return row


def variant_tests(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per family × model: each variant against the first — paired per source formula, or an
    independent t-test where the variant is a separate arm sharing no formula with it or its
    suite says ``compare: independent`` — each variant ``V`` against its shuffled counterpart
    ``V-shuffled`` (paired), and, where there is a separate arm, every other variant against it
    independently as well (the 2-SAT paper's §5.4: 50 clauses against every repetition variant
    independently, shuffling within each setting paired, 50 × 2 against 100 distinct).

    Example:
        >>> variant_tests([])
        []
    """
    rows = []
    independent = {  # a record, or a flattened row of one
        (r.get("meta") or r).get("variant")
        for r in records
        if (r.get("meta") or r).get("variant_test") == "independent"
    }
    for model, recs in sorted(_by_model(records).items()):
        pf = per_formula(recs, ["family", "variant", "source_problem_id"])
        by: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
        order: dict[str, list[str]] = defaultdict(list)
        for f in pf:
            if f.get("variant") is None:
                continue
            by[f["family"]][f["variant"]][f["source_problem_id"]] = f["sat"]
            if f["variant"] not in order[f["family"]]:
                order[f["family"]].append(f["variant"])
        for fam, variants in sorted(by.items()):
            names = order[fam]
            ref = names[0]
            for other in names[1:]:
                ind = other in independent
                rows.append(_compare(model, fam, other, ref, variants[other], variants[ref], ind))
            for v in names:  # each setting against its own shuffled version, paired
                if f"{v}-shuffled" in variants:
                    s = f"{v}-shuffled"
                    rows.append(_compare(model, fam, s, v, variants[s], variants[v]))
            arms = [
                v
                for v in names
                if all(not set(variants[v]) & set(variants[w]) for w in names if w != v)
            ]
            for arm in (a for a in arms if a != ref):
                for other in names:
                    if other not in (arm, ref):
                        rows.append(
                            _compare(model, fam, other, arm, variants[other], variants[arm])
                        )
    return rows


def sweep_figures(
    records: Sequence[Mapping[str, Any]], colours: Mapping[str, str], out: Path
) -> list[tuple[str, str]]:
    """One PNG per family: Sat. against level, one panel per knob, one line per model."""
    from .plots import _plt

    rows = sweep_tests(records)
    figs = []
    for fam in sorted({r["family"] for r in rows}):
        knobs = sorted({r["knob"] for r in rows if r["family"] == fam})
        plt = _plt()
        fig, axes = plt.subplots(
            1, len(knobs), figsize=(4 * len(knobs), 3.4), dpi=100, squeeze=False
        )
        for ax, knob in zip(axes[0], knobs, strict=True):
            for r in rows:
                if r["family"] != fam or r["knob"] != knob:
                    continue
                pts = [(k.split("@")[1], v) for k, v in r.items() if k.startswith("Sat.@")]
                numeric = all(x.replace(".", "", 1).isdigit() for x, _ in pts)
                xs: list[Any] = [float(x) for x, _ in pts] if numeric else [x for x, _ in pts]
                ax.plot(
                    xs,
                    [v for _, v in pts],
                    "-o",
                    color=colours.get(r["model"], "grey"),
                    label=r["model"] + (f" ({r['point']})" if r.get("point") else ""),
                )
            ax.set_title(knob, fontsize=9)
            ax.set_xlabel("level")
            ax.set_ylim(-3, 103)
        axes[0][0].set_ylabel("Sat. (%)")
        axes[0][-1].legend(fontsize=7)
        fig.suptitle(fam, fontsize=10)
        fig.tight_layout()
        name = f"sweep_{fam.replace('/', '_')}.png"
        fig.savefig(out / name)
        plt.close(fig)
        figs.append(
            (
                name,
                f"{fam}: decision accuracy (Sat., per-formula mean) against each knob's level, per model.",
            )
        )
    return figs
