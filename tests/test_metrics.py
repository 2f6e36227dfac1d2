from __future__ import annotations

import math

import pytest

from logicforge.metrics import aggregate, mcc, wilson


def rec(
    model: str,
    label: str,
    pred: str | None,
    correct: bool,
    wv: bool | None = None,
    error: bool = False,
    **meta,
) -> dict:
    return {
        "model": model,
        "sample": 0,
        "meta": {"label": label, **meta},
        "answer": {"label": pred} if pred else None,
        "verdict": None
        if error
        else {"correct": correct, "witness_valid": wv, "parse_failure": pred is None},
        "error": "boom" if error else None,
    }


def test_wilson_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-3)
    lo, hi = wilson(10, 10)
    assert hi == 1 and lo == pytest.approx(0.7225, abs=1e-3)
    assert wilson(0, 0) == (None, None)


def test_mcc_undefined_not_zero() -> None:
    assert mcc(5, 5, 0, 0) is None  # nobody predicted UNSAT
    assert mcc(5, 0, 0, 5) == 1.0
    assert mcc(0, 5, 5, 0) == -1.0


def test_aggregate_confusion_and_rates() -> None:
    rows = [
        rec("m", "SAT", "SAT", True, True),
        rec("m", "SAT", "SAT", True, False),
        rec("m", "SAT", "UNSAT", False),
        rec("m", "UNSAT", "SAT", False, False),
        rec("m", "UNSAT", "UNSAT", True),
        rec("m", "UNSAT", None, False),
        rec("m", "SAT", None, False, error=True),
    ]
    a = aggregate(rows)[0]
    tp, fp, tn, fn = 2, 1, 1, 1
    # the errored record is not scored: it is counted in errors, outside n
    assert a["n"] == 6 and a["errors"] == 1 and a["accuracy"] == pytest.approx(3 / 6)
    assert a["precision_sat"] == pytest.approx(tp / (tp + fp))
    assert a["recall_sat"] == pytest.approx(tp / 3)  # 3 scored SAT items
    assert a["precision_unsat"] == pytest.approx(tn / (tn + fn))
    assert a["recall_unsat"] == pytest.approx(1 / 3)
    assert a["mcc"] == pytest.approx(
        (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    )
    assert a["sat_rate_on_unsat"] == pytest.approx(1 / 3)
    assert a["witness_valid_on_sat"] == pytest.approx(1 / 3)
    assert a["witness_valid_on_sat_claims"] == pytest.approx(1 / 3)  # 1 valid of 3 SAT claims
    assert a["parse_failure_rate"] == pytest.approx(1 / 6)
    assert a["error_rate"] == pytest.approx(1 / 7)  # errors over all labelled records


def test_an_outage_is_not_an_accuracy_of_zero() -> None:
    rows = [rec("m", "SAT", None, False, error=True) for _ in range(3)]
    a = aggregate(rows)[0]
    assert a["n"] == 0 and a["errors"] == 3 and a["accuracy"] is None and a["error_rate"] == 1.0


def test_group_by_metadata_column() -> None:
    rows = [
        rec("m", "SAT", "SAT", True, True, alpha=3.0),
        rec("m", "UNSAT", "SAT", False, False, alpha=5.0),
    ]
    out = aggregate(rows, ("model", "alpha"))
    assert [(r["alpha"], r["accuracy"]) for r in out] == [(3.0, 1.0), (5.0, 0.0)]
    assert out[0]["f1_unsat"] is None and out[1]["precision_unsat"] is None


def test_groups_sort_in_their_natural_order() -> None:
    """Size groups used to sort as strings (Large, Medium, Small, X-Large) and sizes "10*2"
    before "2*2"."""
    rows = [
        rec("m", "SAT", "SAT", True, True, size_group=g, size=s)
        for g, s in [("X-Large", "10*2"), ("Small", "2*2"), ("Large", "6*6"), ("Medium", "3*3")]
    ]
    assert [r["size_group"] for r in aggregate(rows, ("size_group",))] == [
        "Small", "Medium", "Large", "X-Large"
    ]  # fmt: skip
    assert [r["size"] for r in aggregate(rows, ("size",))] == ["2*2", "3*3", "6*6", "10*2"]
