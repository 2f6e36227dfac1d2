"""Test-time-compute metrics over several samples per item, for every family.

* pass@k — the unbiased estimator 1 − C(n − c, k) / C(n, k) per item (n samples, c correct),
  averaged over items (best-of-n with an oracle verifier);
* majority voting — decisions: the most frequent parsed decision (ties broken by first
  occurrence); zebra grids: the sampled grid with the highest summed cell frequency across samples.

Example:
    >>> round(pass_at_k(5, 2, 2), 3)
    0.7
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


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
    records: Iterable[Mapping[str, Any]], ks: Sequence[int] = (1, 2, 4, 8, 16, 32)
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


def _grid_vote(rs: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    grids = [((r.get("answer") or {}).get("certificate") or {}).get("grid") or {} for r in rs]
    freq: Counter[tuple[str, str, str]] = Counter(
        (h, a, v) for g in grids for h, row in g.items() for a, v in row.items()
    )
    best = max(
        range(len(rs)),
        key=lambda i: sum(freq[(h, a, v)] for h, row in grids[i].items() for a, v in row.items()),
    )
    return rs[best]


def majority_table(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Accuracy of the majority-voted answer per model (and cell accuracy for zebra)."""
    acc: dict[str, list[float]] = defaultdict(list)
    cells: dict[str, list[float]] = defaultdict(list)
    for (model, _), rs in _by_item(records).items():
        rs = sorted(rs, key=lambda r: r.get("sample") or 0)
        if (rs[0].get("meta") or {}).get("kind") == "zebra":
            pick = _grid_vote(rs)
            v = pick.get("verdict") or {}
            acc[model].append(float(bool(v.get("correct"))))
            cells[model].append(float(v.get("score") or 0.0))
            continue
        votes = Counter(d for r in rs if (d := (r.get("answer") or {}).get("decision")) is not None)
        gold = (rs[0].get("meta") or {}).get("label")
        if not votes:
            acc[model].append(0.0)
            continue
        top = max(votes.values())
        winner = next(
            d
            for r in rs
            if (d := (r.get("answer") or {}).get("decision")) is not None and votes[d] == top
        )
        acc[model].append(float(winner == gold))
    return [
        {
            "model": m,
            "items": len(a),
            "majority_accuracy": sum(a) / len(a),
            "majority_cell_accuracy": (sum(cells[m]) / len(cells[m])) if cells.get(m) else None,
        }
        for m, a in sorted(acc.items())
    ]
