from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from logicforge.metrics.stats import (
    benjamini_hochberg,
    friedman,
    independent_t,
    paired_t,
    per_formula,
)


def test_paired_t_matches_scipy() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        a = rng.normal(0.6, 0.2, 12)
        b = a - rng.normal(0.05, 0.1, 12)
        r, ref = paired_t(a, b), sps.ttest_rel(a, b)
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        ci = ref.confidence_interval(0.95)
        assert (r.ci_low, r.ci_high) == (pytest.approx(ci.low), pytest.approx(ci.high))


@pytest.mark.parametrize("equal_var", [False, True])
def test_independent_t_matches_scipy(equal_var: bool) -> None:
    rng = np.random.default_rng(1)
    for _ in range(20):
        a, b = rng.normal(0.5, 0.2, 10), rng.normal(0.4, 0.3, 14)
        r, ref = independent_t(a, b, equal_var), sps.ttest_ind(a, b, equal_var=equal_var)
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        assert r.df == pytest.approx(ref.df)
        ci = ref.confidence_interval(0.95)
        assert (r.ci_low, r.ci_high) == (pytest.approx(ci.low), pytest.approx(ci.high))


def test_friedman_matches_scipy_with_ties() -> None:
    rng = np.random.default_rng(2)
    for _ in range(30):
        data = rng.integers(0, 4, (10, 5)) / 3  # accuracies with many ties
        if (data == data[:, :1]).all(axis=1).all():
            continue
        r, ref = friedman(data), sps.friedmanchisquare(*data.T)
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)


def test_bh_matches_statsmodels() -> None:
    rng = np.random.default_rng(3)
    for m in (1, 2, 5, 17):
        p = rng.uniform(0, 0.2, m)
        assert benjamini_hochberg(p) == pytest.approx(multipletests(p, method="fdr_bh")[1].tolist())


def test_fixed_reference_values() -> None:
    r = paired_t([0.9, 0.8, 0.7, 0.95], [0.6, 0.7, 0.65, 0.7])
    ref = sps.ttest_rel([0.9, 0.8, 0.7, 0.95], [0.6, 0.7, 0.65, 0.7])
    assert r.statistic == pytest.approx(ref.statistic) and r.df == 3
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.2]) == pytest.approx(
        [0.04, 0.16 / 3, 0.16 / 3, 0.2]
    )


def test_per_formula_aggregates_verbalisations() -> None:
    recs = [
        {
            "meta": {"problem_id": "p1", "label": "SAT", "n_clauses": 10},
            "verdict": {"correct": True, "witness_valid": True},
        },
        {
            "meta": {"problem_id": "p1", "label": "SAT", "n_clauses": 10},
            "verdict": {"correct": True, "witness_valid": False},
        },
        {
            "meta": {"problem_id": "p2", "label": "UNSAT", "n_clauses": 10},
            "verdict": {"correct": False},
        },
    ]
    rows = {r["problem_id"]: r for r in per_formula(recs, ["n_clauses"])}
    assert rows["p1"]["sat"] == 1.0 and rows["p1"]["wit"] == 0.5 and rows["p1"]["n"] == 2
    assert rows["p2"]["sat"] == 0.0 and rows["p2"]["wit"] is None and rows["p2"]["n_clauses"] == 10
