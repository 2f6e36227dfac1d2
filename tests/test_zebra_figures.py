"""ZebraLogic Figs. 1 (right), 4–7: the numbers behind each figure, recomputed independently."""

from __future__ import annotations

import csv
import json
import statistics
from collections import defaultdict

import pytest

import logicforge as lf
from logicforge.metrics.ttc import pass_at_k
from logicforge.reports.zebra_figures import (
    complexity_grid,
    heatmaps,
    token_counts,
    token_tables,
)


def test_fig7_grid_and_heatmaps(tmp_path) -> None:
    ps = []
    for n, m in ((2, 2), (3, 2), (3, 3)):
        ps += lf.generate("zebra", {"n_houses": n, "n_attributes": m, "z3_runs": 2}, 3, seed=n + m)
    ps += lf.generate("zebra", {"n_houses": 2, "n_attributes": 3}, 2, seed=1)  # no Z3 measure
    rows = complexity_grid([p.model_dump(mode="json") for p in ps])
    assert [(r["N"], r["M"]) for r in rows] == [(2, 2), (2, 3), (3, 2), (3, 3)]
    for r in rows:
        mine = [
            p
            for p in ps
            if (p.metadata["n_houses"], p.metadata["n_attributes"]) == (r["N"], r["M"])
        ]
        assert r["puzzles"] == len(mine)
        assert r["log10_search_space"] == pytest.approx(
            mine[0].metadata["log10_search_space"], abs=1e-3
        )
        if (r["N"], r["M"]) == (2, 3):
            assert r["z3_conflicts"] is None  # not measured: empty, never 0
        else:
            want = statistics.mean(p.metadata["z3_conflicts"] for p in mine)
            assert r["z3_conflicts"] == pytest.approx(want, abs=1e-3)
    assert heatmaps(rows, tmp_path / "h.png") and (tmp_path / "h.png").stat().st_size > 1000


def _rec(model: str, conflicts: float, usage: dict, ok: bool = True) -> dict:
    return {
        "model": model,
        "item_id": f"{model}-{conflicts}",
        "error": None,
        "usage": usage,
        "meta": {"z3_conflicts": conflicts, "size_group": "Small"},
        "verdict": {"correct": ok},
    }


def test_hidden_and_visible_tokens_and_the_ratio() -> None:
    hidden = {"completion_tokens": 1700, "reasoning_tokens": 1600, "reasoning_source": "usage"}
    assert token_counts({"usage": hidden}) == (1600, 100)
    counted = {"completion_tokens": 90, "reasoning_tokens": 80, "reasoning_source": "tiktoken"}
    assert token_counts({"usage": counted}) == (None, 80)
    assert token_counts({"usage": {}}) == (None, None)  # nothing known: nothing made up
    recs = [
        _rec("o", 4, hidden),
        _rec(
            "o",
            10,
            {"completion_tokens": 4100, "reasoning_tokens": 4000, "reasoning_source": "usage"},
        ),
        _rec(
            "o",
            40,
            {"completion_tokens": 9100, "reasoning_tokens": 9000, "reasoning_source": "usage"},
            False,
        ),
        _rec("v", 4, counted),
    ]
    rows, points = token_tables(recs)
    o, v = rows
    assert o["tokens_per_conflict"] == 400.0  # (1600 + 4000) / (4 + 10); 40 conflicts left out
    assert o["mean_hidden_tokens"] == pytest.approx((1600 + 4000 + 9000) / 3, abs=1e-3)
    assert o["mean_visible_tokens"] == 100.0 and o["ratio_over"] == "hidden"
    assert v["mean_hidden_tokens"] is None and v["ratio_over"] == "visible"
    assert v["tokens_per_conflict"] == 20.0
    assert len(points) == 4


def test_fig6_pass_at_k_per_size_group(tmp_path) -> None:
    from logicforge.suites import load_suite, run_suite

    suite = load_suite("zebra-bon", models=["noisy:p=0.7"])
    rep = run_suite(
        suite.with_blocks(count=2, grid={"n_houses": [3, 4], "n_attributes": [3]}).model_copy(
            update={"samples": 4}
        ),
        tmp_path,
        progress=False,
    ).parent
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    with (rep / "pass_at_k_by_size_group.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["size_group"] for r in rows] == ["Small", "Medium"]
    assert list(rows[0]) == ["model", "size_group", "items", "pass@1", "pass@2", "pass@4"]
    items: dict[str, list[dict]] = defaultdict(list)
    for r in recs:
        items[r["item_id"]].append(r)
    for row in rows:
        mine = [rs for rs in items.values() if rs[0]["meta"]["size_group"] == row["size_group"]]
        for k in (1, 2, 4):
            want = sum(
                pass_at_k(len(rs), sum(r["verdict"]["correct"] for r in rs), k) for rs in mine
            )
            assert float(row[f"pass@{k}"]) == pytest.approx(want / len(mine), abs=5e-4)
    assert (rep / "pass_at_k_by_size_group.png").exists()
