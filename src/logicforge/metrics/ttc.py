"""Test-time-compute metrics over several samples per item, for every family.

* pass@k — the unbiased estimator 1 − C(n − c, k) / C(n, k) per item (n samples, c correct),
  averaged over items (best-of-n with an oracle verifier);
* majority voting — the one vote of :mod:`logicforge.kinds.vote`: the most frequent label (ties
  broken by first occurrence); grids: the sampled grid with the highest summed cell frequency
  across samples. The winner's own verdict is scored, so every kind and format is right.

Example:
    >>> round(pass_at_k(5, 2, 2), 3)
    0.7
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..kinds import format_of
from ..kinds.vote import winner
from ..schema import Answer
from .aggregate import cell_ratio, grid_cells


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k samples drawn without replacement from n is correct."""
    if not 0 < k <= n:
        raise ValueError(f"k must be in 1..n (n={n}), got {k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _by_item(
    records: Iterable[Mapping[str, Any]],
) -> dict[tuple[str, str], list[Mapping[str, Any]]]:
    out: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        out[(str(r.get("model")), str(r.get("item_id")))].append(r)
    return out


def pass_at_k_table(
    records: Iterable[Mapping[str, Any]], ks: Sequence[int] = (1, 2, 4, 8, 16, 32, 64, 128)
) -> list[dict[str, Any]]:
    """pass@k per model for every k ≤ the smallest sample count of that model's items."""
    per_model: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for (model, _), rs in _by_item(records).items():
        per_model[model].append(
            (len(rs), sum(bool((r.get("verdict") or {}).get("correct")) for r in rs))
        )
    rows = []
    for model, items in sorted(per_model.items()):
        nmin = min(n for n, _ in items)
        row: dict[str, Any] = {"model": model, "items": len(items), "samples": nmin}
        for k in ks:
            if k <= nmin:
                row[f"pass@{k}"] = sum(pass_at_k(n, c, k) for n, c in items) / len(items)
        rows.append(row)
    return rows


def majority_table(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Accuracy of the majority-voted answer per model, and for grid formats the cell accuracy
    over the items that have a solution grid."""
    acc: dict[str, list[float]] = defaultdict(list)
    cells: dict[str, list[tuple[int, int]]] = defaultdict(list)
    grids: set[str] = set()
    for (model, _), rs in _by_item(records).items():
        rs = sorted(rs, key=lambda r: r.get("sample") or 0)
        meta = rs[0].get("meta") or {}
        fmt = format_of(str(meta.get("kind", "")), str(meta.get("answer_format") or ""))
        answers = [Answer.model_validate(r["answer"]) if r.get("answer") else None for r in rs]
        w = winner(fmt, answers) if fmt is not None else None
        v = (rs[w].get("verdict") or {}) if w is not None else {}
        acc[model].append(float(bool(v.get("correct"))))
        if fmt is not None and fmt.metric_set == "grid":
            grids.add(model)
            if meta.get("label") == "SAT":  # only items with a solution grid have cells
                c = grid_cells(v, meta)  # v is {} without a winner: 0 of the cells
                if c is not None:
                    cells[model].append(c)
    return [
        {
            "model": m,
            "items": len(a),
            "majority_accuracy": sum(a) / len(a),
            **({"majority_cell_accuracy": cell_ratio(cells[m])} if m in grids else {}),
        }
        for m, a in sorted(acc.items())
    ]
