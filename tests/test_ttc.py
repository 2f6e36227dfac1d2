from __future__ import annotations

import itertools
import json

import pytest

import logicforge as lf
from logicforge.metrics.ttc import majority_table, pass_at_k, pass_at_k_table


def test_pass_at_k_matches_enumeration() -> None:
    for n in range(1, 8):
        for c in range(n + 1):
            for k in range(1, n + 1):
                subsets = list(itertools.combinations([True] * c + [False] * (n - c), k))
                assert pass_at_k(n, c, k) == pytest.approx(
                    sum(any(s) for s in subsets) / len(subsets)
                )
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)


def test_majority_and_pass_at_k_on_runs(tmp_path) -> None:
    ps = lf.generate("ksat/random", {"n_vars": 8, "alpha": 4.26}, count=6, seed=1)
    items = lf.render(ps)
    lf.run(items, "random", tmp_path / "r.jsonl", samples=8)
    lf.run(items, "oracle", tmp_path / "r.jsonl", samples=2)
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    pk = {r["model"]: r for r in pass_at_k_table(recs)}
    assert (
        pk["oracle"]["pass@1"] == 1.0
        and pk["oracle"]["pass@2"] == 1.0
        and "pass@4" not in pk["oracle"]
    )
    r = pk["random"]
    assert r["pass@1"] <= r["pass@2"] <= r["pass@4"] <= r["pass@8"] <= 1.0
    mj = {m["model"]: m for m in majority_table(recs)}
    assert mj["oracle"]["majority_accuracy"] == 1.0
    lf.report(recs, tmp_path / "rep", ps)
    assert (tmp_path / "rep" / "pass_at_k.png").exists() and (
        tmp_path / "rep" / "majority_vote.csv"
    ).exists()


def test_zebra_grid_vote(tmp_path) -> None:
    ps = lf.generate("zebra", {"n_houses": 3, "n_attributes": 2}, count=3, seed=0)
    items = lf.render(ps, "zebra")
    lf.run(items, "random", tmp_path / "r.jsonl", samples=5)
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    row = majority_table(recs)[0]
    assert 0.0 <= row["majority_cell_accuracy"] <= 1.0 and row["items"] == 3
