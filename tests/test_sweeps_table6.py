"""§5.1 sweeps with a categorical knob (Backbone's orientation π) and Table 6: the Friedman
p-values per size, on the 3-point grid and pooled across sizes, recomputed from the records of a
scripted model that is right on some items and wrong on others."""

from __future__ import annotations

import csv
import json
from collections import defaultdict

import pytest
from scipy.stats import chi2, friedmanchisquare

from logicforge.errors import ConfigError
from logicforge.suites import load_suite, run_suite


def _per_formula(recs: list[dict]) -> dict[tuple, float]:
    """(knob, point, level, formula index) → Sat. averaged over the formula's renderings."""
    acc: dict[tuple, list[bool]] = defaultdict(list)
    for r in recs:
        m = r["meta"]
        key = (m["sweep_knob"], m["sweep_point"], m["sweep_level"], m["formula_index"])
        acc[key].append(bool(r["verdict"]["correct"]))
    return {k: sum(v) / len(v) for k, v in acc.items()}


@pytest.fixture(scope="module")
def backbone_run(tmp_path_factory):
    suite = load_suite("twosat-sweeps-sizes", models=["noisy:p=0.7"])
    block = next(b for b in suite.problems if b.family == "2sat/backbone")
    small = suite.model_copy(update={"problems": [block.model_copy(update={"count": 4})]})
    out = tmp_path_factory.mktemp("sweeps")
    rep = run_suite(small, out, progress=False).parent
    recs = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    with (rep / "table6.csv").open() as f:
        return recs, list(csv.DictReader(f))


def test_table6_layout(backbone_run) -> None:
    _, rows = backbone_run
    assert list(rows[0]) == [
        "model", "generator", "parameter", "size", "levels", "formulas",
        "p_7pt", "p_3pt", "p_7pt_bh", "p_3pt_bh",
    ]  # fmt: skip
    sizes = [r["size"] for r in rows if r["parameter"] == "orientation"]
    assert sizes == ["n_clauses=50", "n_clauses=75", "n_clauses=100", "all sizes"]
    assert {r["parameter"] for r in rows} == {"backbone_fraction", "mono_density", "orientation"}
    assert all(r["p_7pt"] == "" for r in rows)  # a 3-point sweep has no 7-point p: empty, not 0


def test_table6_categorical_p_is_the_sign_test(backbone_run) -> None:
    recs, rows = backbone_run
    sat = _per_formula(recs)
    row = next(r for r in rows if r["parameter"] == "orientation" and r["size"] == "n_clauses=75")
    diffs = [
        sat[("orientation", "n_clauses=75", "positive", i)]
        - sat[("orientation", "n_clauses=75", "negative", i)]
        for i in range(4)
    ]
    up, down = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
    if up + down == 0:
        assert row["p_3pt"] == ""
    else:  # the two-sided sign test's χ² form, computed independently
        want = float(chi2.sf((up - down) ** 2 / (up + down), 1))
        assert float(row["p_3pt"]) == pytest.approx(want, abs=1e-6)


def test_table6_pooled_p_recomputed_with_scipy(backbone_run) -> None:
    recs, rows = backbone_run
    sat = _per_formula(recs)
    points = ("n_clauses=50", "n_clauses=75", "n_clauses=100")
    data = [
        [sat[("backbone_fraction", pt, lv, i)] for pt in points for i in range(4)]
        for lv in (0.2, 0.5, 0.8)
    ]
    row = next(
        r for r in rows if r["parameter"] == "backbone_fraction" and r["size"] == "all sizes"
    )
    assert int(row["formulas"]) == 12
    assert float(row["p_3pt"]) == pytest.approx(friedmanchisquare(*data).pvalue, abs=1e-6)


def test_paper_sizes_and_categorical_levels_in_the_sweeps_suite() -> None:
    suite = load_suite("twosat-sweeps")
    sizes = {b.family: b.params["n_clauses"] for b in suite.problems}
    assert sizes == {
        "2sat/implication-cycle": 75,
        "2sat/equivalence-core": 20,
        "2sat/backbone": 75,
        "2sat/mono-bridge": 75,
    }
    bb = next(b for b in suite.problems if b.family == "2sat/backbone")
    assert bb.knob_levels == {"orientation": ["positive", "negative"]}


def test_levels_for_a_knob_that_is_not_swept_are_refused() -> None:
    with pytest.raises(ConfigError, match="knob_levels"):
        load_suite(
            "twosat-sweeps",
            problems=[
                {
                    "family": "2sat/backbone",
                    "params": {"n_clauses": 20},
                    "sweep": ["mono_density"],
                    "knob_levels": {"orientation": ["positive"]},
                }
            ],
        )
