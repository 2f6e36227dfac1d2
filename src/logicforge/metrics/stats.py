"""Statistics for robustness studies: Friedman, Benjamini–Hochberg, paired and independent
t-tests with effect sizes and confidence intervals, and per-formula aggregation.

The test statistics are computed here from their textbook definitions (NumPy); only the
reference distributions (t, χ²) come from SciPy. The tests compare both against
``scipy.stats`` and ``statsmodels`` on fixed inputs.

Example:
    >>> r = paired_t([0.9, 0.8, 0.7, 0.95], [0.6, 0.7, 0.65, 0.7])
    >>> round(r.statistic, 3), r.df
    (2.941, 3)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class TestResult:
    test: str
    statistic: float
    p_value: float
    df: float
    n: int
    mean_diff: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    effect_size: float | None = (
        None  # Cohen's d_z (paired), Hedges' g (independent), Kendall's W (Friedman)
    )


def mean(xs: Iterable[float | bool | None]) -> float | None:
    """The mean of the values that are not None; None (undefined, never 0) when there are none.

    Example:
        >>> mean([1, None, 2]), mean([None]), mean([True, False])
        (1.5, None, 0.5)
    """
    v = [float(x) for x in xs if x is not None]
    return sum(v) / len(v) if v else None


def _t_dist() -> Any:
    from scipy.stats import t

    return t


def paired_t(a: Sequence[float], b: Sequence[float], confidence: float = 0.95) -> TestResult:
    """Two-sided paired t-test of mean(a − b) = 0, with the CI of the mean difference and d_z."""
    x = np.asarray(a, float) - np.asarray(b, float)
    n = len(x)
    if n < 2:
        raise ValueError("a paired t-test needs at least 2 pairs")
    mean, sd = float(x.mean()), float(x.std(ddof=1))
    se = sd / math.sqrt(n)
    t = _t_dist()
    df = n - 1
    stat = mean / se if se > 0 else (math.copysign(math.inf, mean) if mean else math.nan)
    p = float(2 * t.sf(abs(stat), df)) if math.isfinite(stat) else (0.0 if mean else math.nan)
    h = float(t.ppf(0.5 + confidence / 2, df)) * se
    return TestResult(
        "paired t", float(stat), p, df, n, mean, mean - h, mean + h, mean / sd if sd > 0 else None
    )


def independent_t(
    a: Sequence[float], b: Sequence[float], equal_var: bool = False, confidence: float = 0.95
) -> TestResult:
    """Two-sided independent-samples t-test (Welch by default), CI of the mean difference, Hedges' g."""
    x, y = np.asarray(a, float), np.asarray(b, float)
    nx, ny = len(x), len(y)
    if nx < 2 or ny < 2:
        raise ValueError("an independent t-test needs at least 2 values per group")
    mx, my = float(x.mean()), float(y.mean())
    vx, vy = float(x.var(ddof=1)), float(y.var(ddof=1))
    df: float
    if equal_var:
        df = nx + ny - 2
        sp2 = ((nx - 1) * vx + (ny - 1) * vy) / df
        se = math.sqrt(sp2 * (1 / nx + 1 / ny))
    else:
        se = math.sqrt(vx / nx + vy / ny)
        num = (vx / nx + vy / ny) ** 2
        den = (vx / nx) ** 2 / (nx - 1) + (vy / ny) ** 2 / (ny - 1)
        df = num / den if den > 0 else nx + ny - 2
    diff = mx - my
    t = _t_dist()
    stat = diff / se if se > 0 else math.nan
    p = float(2 * t.sf(abs(stat), df)) if math.isfinite(stat) else math.nan
    h = float(t.ppf(0.5 + confidence / 2, df)) * se if se > 0 else math.nan
    pooled = math.sqrt(((nx - 1) * vx + (ny - 1) * vy) / (nx + ny - 2))
    g = diff / pooled * (1 - 3 / (4 * (nx + ny) - 9)) if pooled > 0 else None
    name = "Student t" if equal_var else "Welch t"
    return TestResult(name, float(stat), p, float(df), nx + ny, diff, diff - h, diff + h, g)


def _rank_rows(data: np.ndarray) -> tuple[np.ndarray, float]:
    """Average ranks within each row, and the tie term Σ(t³ − t) over all tie groups."""
    ranks = np.empty_like(data, dtype=float)
    ties = 0.0
    for i, row in enumerate(data):
        order = np.argsort(row, kind="mergesort")
        sorted_row = row[order]
        r = np.empty(len(row))
        j = 0
        while j < len(row):
            k = j
            while k + 1 < len(row) and sorted_row[k + 1] == sorted_row[j]:
                k += 1
            r[order[j : k + 1]] = (j + k) / 2 + 1
            size = k - j + 1
            ties += size**3 - size
            j = k + 1
        ranks[i] = r
    return ranks, ties


def friedman(data: Sequence[Sequence[float]]) -> TestResult:
    """Friedman test: rows are blocks (e.g. formulas), columns treatments (parameter levels).
    With two treatments it is the two-sided sign test's χ² form (ties dropped by the ranks).

    The statistic carries the usual tie correction; ``effect_size`` is Kendall's W.
    """
    from scipy.stats import chi2

    x = np.asarray(data, float)
    n, k = x.shape
    if n < 2 or k < 2:
        raise ValueError("the Friedman test needs at least 2 blocks and 2 treatments")
    ranks, ties = _rank_rows(x)
    rsum = ranks.sum(axis=0)
    stat = 12.0 / (n * k * (k + 1)) * float((rsum**2).sum()) - 3.0 * n * (k + 1)
    corr = 1.0 - ties / (n * (k**3 - k))
    stat = stat / corr if corr > 0 else math.nan
    p = float(chi2.sf(stat, k - 1)) if math.isfinite(stat) else math.nan
    w = stat / (n * (k - 1)) if math.isfinite(stat) else None
    return TestResult("Friedman", float(stat), p, k - 1, n, effect_size=w)


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (step-up, monotone, capped at 1), input order kept."""
    p = np.asarray(p_values, float)
    m = len(p)
    if m == 0:
        return []
    order = np.argsort(p)
    scaled = p[order] * m / np.arange(1, m + 1)
    adj = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out.tolist()


def per_formula(
    records: Iterable[Mapping[str, Any]], by: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """Mean decision correctness and witness validity per problem (verbalisations and samples of
    one formula are repeated measurements), with the ``by`` columns carried along."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in records:
        groups.setdefault(str((r.get("meta") or {}).get("problem_id")), []).append(r)
    out = []
    for pid, rs in groups.items():
        meta = rs[0].get("meta") or {}
        corr = [bool((r.get("verdict") or {}).get("correct")) for r in rs]
        wit = [bool((r.get("verdict") or {}).get("witness_valid")) for r in rs]
        row: dict[str, Any] = {"problem_id": pid, "label": meta.get("label"), "n": len(rs)}
        row |= {c: meta.get(c, rs[0].get(c)) for c in by}
        row["sat"] = sum(corr) / len(rs)
        row["wit"] = sum(wit) / len(rs) if meta.get("label") == "SAT" else None
        out.append(row)
    return out


def spearman(xs: Sequence[float], ys: Sequence[float], digits: int = 4) -> tuple[Any, Any]:
    """Spearman ρ and its p-value, rounded; ``(None, None)`` where there is nothing to
    correlate (fewer than three points, or either side constant).

    Example:
        >>> spearman([1, 2, 3], [2, 4, 9])
        (1.0, 0.0)
        >>> spearman([1, 1, 1], [1, 2, 3])
        (None, None)
    """
    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None, None
    from scipy.stats import spearmanr

    res = spearmanr(xs, ys)
    return round(float(res.statistic), digits), round(float(res.pvalue), digits)
