"""Aggregate metrics over scored records, grouped by any column.

Columns available for grouping: ``model``, ``sample`` and every key of a record's ``meta``
(``family``, ``label``, ``rendering``, ``n_vars``, ``alpha``, …).

Metrics per group: n (scored records), unlabelled (records whose gold label timed out — never
guessed, never scored), accuracy with its Wilson 95 % interval, parse-failure, truncation and
error rates, token means. Which further metrics apply follows the answer format's metric set
(:mod:`logicforge.kinds`): for **binary** formats precision / recall / F1 with SAT as the positive
class and with UNSAT as the positive class, MCC, the SAT-prediction rate, the SAT rate on UNSAT
items and witness validity on SAT items; for **grids** the cell accuracy. A group that mixes
metric sets gets only the shared metrics. A metric that does not apply is absent from the row; a
metric whose denominator vanishes is ``None`` (undefined) — never silently 0.

Example:
    >>> lo, hi = wilson(8, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.49, 0.943)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..kinds import metric_set
from ..registry import METRICS
from ..schema import answer_label
from .stats import mean

# the metrics only a SAT / UNSAT decision has
BINARY_ONLY = (
    "precision_sat",
    "recall_sat",
    "f1_sat",
    "precision_unsat",
    "recall_unsat",
    "f1_unsat",
    "mcc",
    "pred_sat_rate",
    "sat_rate_on_unsat",
    "witness_valid_on_sat",
    "witness_valid_on_sat_claims",
)
METRIC_NAMES = [
    "n",
    "errors",
    "accuracy",
    "accuracy_lo",
    "accuracy_hi",
    *BINARY_ONLY,
    "parse_failure_rate",
    "truncation_rate",
    "error_rate",
    "cell_accuracy",
    "cell_accuracy_macro",
    "certificate_score",
    "mean_completion_tokens",
    "mean_reasoning_tokens",
    "unlabelled",
]


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float | None, float | None]:
    """Wilson score interval for k successes out of n (None, None when n = 0)."""
    if n == 0:
        return None, None
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    lo = 0.0 if k == 0 else max(0.0, c - h)
    hi = 1.0 if k == n else min(1.0, c + h)
    return lo, hi


def _div(a: float, b: float) -> float | None:
    return a / b if b else None


def _f1(p: float | None, r: float | None) -> float | None:
    if p is None or r is None or p + r == 0:
        return None
    return 2 * p * r / (p + r)


def mcc(tp: int, fp: int, fn: int, tn: int) -> float | None:
    """Matthews correlation; None when any marginal is empty (undefined)."""
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    if den == 0:
        return None
    return (tp * tn - fp * fn) / math.sqrt(den)


def _metric_set(meta: Mapping[str, Any]) -> str | None:
    """The record's metric set from its kind and answer format; a hand-written record without a
    kind is binary when its gold label is SAT / UNSAT (/ UNKNOWN), else multiple choice."""
    if "kind" not in meta:
        return "binary" if meta.get("label") in ("SAT", "UNSAT", "UNKNOWN") else "choice"
    return metric_set(str(meta["kind"]), str(meta.get("answer_format") or ""))


def row_of(rec: Mapping[str, Any]) -> dict[str, Any]:
    """Flatten a record (dict form) into the columns metrics need."""
    v = rec.get("verdict") or {}
    a = rec.get("answer") or {}
    return {
        "model": rec.get("model"),
        "sample": rec.get("sample"),
        **(rec.get("meta") or {}),
        "pred": answer_label(a),
        "metric_set": _metric_set(rec.get("meta") or {}),
        "correct": bool(v.get("correct")),
        "excluded": bool(v.get("excluded")) or (rec.get("meta") or {}).get("label") == "UNKNOWN",
        "witness_valid": v.get("witness_valid"),
        "parse_failure": bool(v.get("parse_failure")) and not rec.get("error"),
        "error": rec.get("error") is not None,
        "truncated": rec.get("finish_reason") == "length",
        "completion_tokens": (rec.get("usage") or {}).get("completion_tokens"),
        "reasoning_tokens": (rec.get("usage") or {}).get("reasoning_tokens"),
        "score": v.get("score") if v.get("score") is not None else (0.0 if "score" in v else None),
        "cells": grid_cells(v, rec.get("meta") or {}),
    }


def _mean_of(rows: Sequence[Mapping[str, Any]], key: str) -> float | None:
    return mean(r.get(key) for r in rows)


def grid_cells(v: Mapping[str, Any], meta: Mapping[str, Any]) -> tuple[int, int] | None:
    """(cells right, cells in all) of a grid answer; an unanswered grid has 0 of its cells."""
    d = v.get("details") or {}
    if isinstance(d.get("cells_total"), int):
        return int(d.get("cells_right") or 0), int(d["cells_total"])
    h, a = meta.get("n_houses"), meta.get("n_attributes")
    if isinstance(h, int) and isinstance(a, int):
        return 0, h * a
    return None


def _cell_accuracy(rows: Sequence[Mapping[str, Any]]) -> float | None:
    """ZebraLogic's cell accuracy: correct cells over all cells, Σ right / Σ cells, over the
    items that have a solution grid (gold SAT; a contradictory twin has no cells); a record
    without an answer counts 0 of its cells."""
    return cell_ratio([r["cells"] for r in rows if r.get("label") == "SAT" and r.get("cells")])


def cell_ratio(cells: Sequence[tuple[int, int]]) -> float | None:
    """Σ right / Σ cells over (right, cells) pairs; None when there are no cells."""
    total = sum(t for _, t in cells)
    return sum(k for k, _ in cells) / total if total else None


def _cell_accuracy_macro(rows: Sequence[Mapping[str, Any]]) -> float | None:
    """The mean of per-puzzle fractions (a named extra; puzzles of every size weigh the same)."""
    graded = [r for r in rows if r.get("label") == "SAT"]
    if not graded:
        return None
    return sum(r.get("score") or 0.0 for r in graded) / len(graded)


GRID_ONLY = ("cell_accuracy", "cell_accuracy_macro")
CERTIFICATE_ONLY = ("certificate_score",)


def _certificate_score(rows: Sequence[Mapping[str, Any]]) -> float | None:
    """The mean partial credit of certificate answers (an unreadable answer earns 0)."""
    return _div(sum(float(r.get("score") or 0.0) for r in rows), len(rows))


def metrics_of(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Metrics of one group. Records whose gold label is unknown (the solver timed out while
    labelling) are not scored; they are counted in ``unlabelled``. Records that ended in an error
    (no reply: a dead endpoint, a time-out, a malformed body) are not scored either — an outage
    is not a model's mistake — and are counted in ``errors``; ``n`` is the scored records and
    ``error_rate`` is errors over all labelled records. Binary-only and grid-only metrics are
    present only when every row of the group has that metric set."""
    sets = {r.get("metric_set") for r in rows}
    unlabelled = sum(bool(r.get("excluded")) for r in rows)
    rows = [r for r in rows if not r.get("excluded")]
    errors = sum(bool(r.get("error")) for r in rows)
    rows = [r for r in rows if not r.get("error")]
    n = len(rows)
    gold = [r.get("label") for r in rows]
    pred = [r.get("pred") for r in rows]
    tp = sum(g == "SAT" and p == "SAT" for g, p in zip(gold, pred, strict=True))
    fp = sum(g == "UNSAT" and p == "SAT" for g, p in zip(gold, pred, strict=True))
    tn = sum(g == "UNSAT" and p == "UNSAT" for g, p in zip(gold, pred, strict=True))
    fn_ = sum(g == "SAT" and p == "UNSAT" for g, p in zip(gold, pred, strict=True))
    # predictions that are missing (parse failure / error) are wrong for either class
    n_sat = sum(g == "SAT" for g in gold)
    n_unsat = sum(g == "UNSAT" for g in gold)
    k = sum(bool(r["correct"]) for r in rows)
    lo, hi = wilson(k, n)
    ps, rs = _div(tp, tp + fp), _div(tp, n_sat)
    pu, ru = _div(tn, tn + fn_), _div(tn, n_unsat)
    wv = sum(bool(r.get("witness_valid")) for r, g in zip(rows, gold, strict=True) if g == "SAT")
    # the ADR paper's "assignments satisfied rate": valid witnesses among the SAT claims
    claims = [r for r, p in zip(rows, pred, strict=True) if p == "SAT"]
    wvc = sum(bool(r.get("witness_valid")) for r in claims)
    out = {
        "n": n,
        "unlabelled": unlabelled,
        "errors": errors,
        "accuracy": _div(k, n),
        "accuracy_lo": lo,
        "accuracy_hi": hi,
        "precision_sat": ps,
        "recall_sat": rs,
        "f1_sat": _f1(ps, rs),
        "precision_unsat": pu,
        "recall_unsat": ru,
        "f1_unsat": _f1(pu, ru),
        "mcc": mcc(tp, fp, fn_, tn),
        "pred_sat_rate": _div(sum(p == "SAT" for p in pred), n),
        "sat_rate_on_unsat": _div(fp, n_unsat),
        "witness_valid_on_sat": _div(wv, n_sat),
        "witness_valid_on_sat_claims": _div(wvc, len(claims)),
        "parse_failure_rate": _div(sum(bool(r["parse_failure"]) for r in rows), n),
        "truncation_rate": _div(sum(bool(r.get("truncated")) for r in rows), n),
        "error_rate": _div(errors, n + errors),
        "cell_accuracy": _cell_accuracy(rows),
        "cell_accuracy_macro": _cell_accuracy_macro(rows),
        "certificate_score": _certificate_score(rows),
        "mean_completion_tokens": _mean_of(rows, "completion_tokens"),
        "mean_reasoning_tokens": _mean_of(rows, "reasoning_tokens"),
    }
    drop = (
        (() if sets == {"binary"} else BINARY_ONLY)
        + (() if sets == {"grid"} else GRID_ONLY)
        + (() if sets == {"certificate"} else CERTIFICATE_ONLY)
    )
    return {k: v for k, v in out.items() if k not in drop}


def group_rows(
    rows: Iterable[Mapping[str, Any]], by: Sequence[str]
) -> dict[tuple[Any, ...], list[Mapping[str, Any]]]:
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(r.get(c) for c in by), []).append(r)
    return groups


# orders that are not alphabetical (ZebraLogic's size groups; labels in the papers' order)
NATURAL = {
    v: i for i, v in enumerate(["Small", "Medium", "Large", "X-Large", "easy", "medium", "hard"])
}


def natural(s: str) -> tuple[Any, ...]:
    """A sort key in which digit runs compare as numbers: ``"10*2"`` after ``"2*2"``,
    ``"n_vars=50"`` after ``"n_vars=5"``.

    Example:
        >>> sorted(["n_vars=10", "n_vars=5", "n_vars=25"], key=natural)
        ['n_vars=5', 'n_vars=10', 'n_vars=25']
    """
    import re

    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s))


_natural = natural


def _sort_key(key: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(
        (0, x, ())
        if isinstance(x, int | float)
        else (1, NATURAL[x], ())
        if isinstance(x, str) and x in NATURAL
        else (2, 0, _natural(str(x)))
        for x in key
    )


def aggregate(
    records: Iterable[Mapping[str, Any]], by: Sequence[str] = ("model",)
) -> list[dict[str, Any]]:
    """One row per group of ``by`` columns with every metric in :data:`METRIC_NAMES` that applies.

    Example:
        >>> recs = [{"model": "m", "meta": {"kind": "cnf", "label": "SAT"}, "answer": {"label": "SAT"},
        ...          "verdict": {"correct": True, "witness_valid": True}}]
        >>> aggregate(recs)[0]["accuracy"], aggregate(recs)[0]["mcc"] is None
        (1.0, True)
    """
    return aggregate_rows([row_of(r) for r in records], by)


def aggregate_rows(
    rows: Sequence[Mapping[str, Any]], by: Sequence[str] = ("model",)
) -> list[dict[str, Any]]:
    """:func:`aggregate` over rows already flattened by :func:`row_of` (the report flattens
    once and groups many ways)."""
    out = []
    for key, grp in sorted(group_rows(rows, by).items(), key=lambda kv: _sort_key(kv[0])):
        out.append(dict(zip(by, key, strict=True)) | metrics_of(grp))
    return out


@dataclass(frozen=True)
class Metric:
    """A registered metric: ``compute(rows)`` over one group's flattened rows (None when it does
    not apply or is undefined); ``applies_to`` names the metric sets it is reported for.

    Example:
        >>> from logicforge.registry import METRICS
        >>> METRICS.get("mcc").applies_to
        ('binary',)
    """

    name: str
    applies_to: tuple[str, ...]

    def compute(self, rows: Sequence[Mapping[str, Any]]) -> Any:
        return metrics_of(rows).get(self.name)


for _m in METRIC_NAMES:
    METRICS.register(
        _m,
        Metric(
            _m,
            ("binary",)
            if _m in BINARY_ONLY
            else ("grid",)
            if _m in GRID_ONLY
            else ("certificate",)
            if _m in CERTIFICATE_ONLY
            else ("binary", "choice", "grid", "certificate"),
        ),
    )
