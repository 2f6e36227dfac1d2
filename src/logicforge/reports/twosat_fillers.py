"""The 2-SAT paper's §5.2 filler regimes: each generator's fixed-core and matched-size arms
(core and filler clauses as the problems hold them), with the paired tests between them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..metrics.stats import mean as _mean
from ..metrics.stats import paired_t, per_formula
from .studies import _by_model, _pct


def _fillers(meta: Mapping[str, Any]) -> int:
    """Every filler clause of a formula: the generator's own (``filler_count``, e.g. an
    implication cycle's ``filler_ratio``) and those the ``filler`` transform added."""
    added = sum(
        int(t.get("fillers", 0)) for t in meta.get("transforms") or [] if t.get("name") == "filler"
    )
    return added + int(meta.get("filler_count") or 0)


def filler_regimes(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The 2-SAT paper's §5.2 (Figure 5): per model × generator × difficulty, Sat. in each
    setting (core clauses, filler clauses) — ``(75, 0)``, ``(75, r=25)``, ``(100, 0)`` — in that
    order (total clauses, then fillers first), each with a paired t-test against the previous
    setting: by source formula where the two share it (fillers added to the same formula), by
    formula index otherwise (the i-th formula of each size).

    Example:
        >>> filler_regimes([])
        []
    """
    rows: list[dict[str, Any]] = []
    for model, recs in sorted(_by_model(records).items()):
        if not any(_fillers(r.get("meta") or {}) for r in recs):
            continue
        pf = per_formula(
            recs, ["family", "difficulty", "target_clauses", "formula_index", "source_problem_id"]
        )
        meta = {str((r.get("meta") or {}).get("problem_id")): r.get("meta") or {} for r in recs}
        cells: dict[tuple[str, Any], dict[tuple[int, int], dict[int, tuple[str, float]]]] = (
            defaultdict(lambda: defaultdict(dict))
        )
        for f in pf:
            m = meta[f["problem_id"]]
            core, r_ = m.get("core_size") or f.get("target_clauses"), _fillers(m)
            if core is None:
                continue
            cells[(f["family"], f.get("difficulty"))][(int(core), r_)][int(f["formula_index"])] = (
                str(f.get("source_problem_id")),
                f["sat"],
            )
        for (fam, diff), settings in sorted(
            cells.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))
        ):
            order = sorted(settings, key=lambda cr: (cr[0] + cr[1], -cr[1]))
            prev: tuple[int, int] | None = None
            for c, r_ in order:
                cur = settings[(c, r_)]
                row: dict[str, Any] = {
                    "model": model,
                    "family": fam,
                    "difficulty": diff,
                    "setting": f"({c}, r={r_})" if r_ else f"({c}, 0)",
                    "core_clauses": c,
                    "fillers": r_,
                    "formulas": len(cur),
                    "Sat.": _pct(_mean([v for _, v in cur.values()])),
                    "vs": None,
                    "paired_by": None,
                    "t": None,
                    "p": None,
                }
                if prev is not None:
                    before = settings[prev]
                    same = {s for s, _ in before.values()} & {s for s, _ in cur.values()}
                    a: dict[Any, float]
                    b: dict[Any, float]
                    if same:  # the same formulas with and without fillers
                        a = {s: v for s, v in before.values()}
                        b = {s: v for s, v in cur.values()}
                        keys, by = sorted(same), "formula"
                    else:
                        a = {i: v for i, (_, v) in before.items()}
                        b = {i: v for i, (_, v) in cur.items()}
                        keys, by = sorted(set(a) & set(b)), "formula index"
                    row["vs"] = f"({prev[0]}, r={prev[1]})" if prev[1] else f"({prev[0]}, 0)"
                    row["paired_by"] = by
                    xs, ys = [b[k] for k in keys], [a[k] for k in keys]
                    if len(keys) >= 2 and any(x != y for x, y in zip(xs, ys, strict=True)):
                        t = paired_t(xs, ys)
                        row["t"], row["p"] = t.statistic, t.p_value
                rows.append(row)
                prev = (c, r_)
    return rows
