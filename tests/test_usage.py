"""Usage and cost accounting, price tables, and `run --dry-run`."""

from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.cli import main
from logicforge.metrics.usage import PriceTable, usage_table


def test_price_table_patterns_and_errors(tmp_path) -> None:
    p = PriceTable({"gpt-*": {"prompt": 2.0, "completion": 8.0}, "*": {"prompt": 0.0}})
    assert p.cost("gpt-x", 500_000, 250_000) == pytest.approx(3.0)
    assert p.cost("other", 10**6, 10**6) == 0.0
    assert PriceTable({}).cost("m", 1, 1) is None
    with pytest.raises(lf.ConfigError, match="prices"):
        PriceTable({"m": {"prompt": -1}})
    with pytest.raises(lf.ConfigError, match="prices"):
        PriceTable({"m": {"input": 1}})
    (tmp_path / "p.yaml").write_text("- not a mapping\n")
    with pytest.raises(lf.ConfigError, match="prices"):
        PriceTable.load(tmp_path / "p.yaml")


def test_usage_table_totals_and_cost() -> None:
    recs = [
        {"model": "a", "usage": {"prompt_tokens": 100, "completion_tokens": 10}, "latency_s": 1.0},
        {"model": "a", "usage": {"prompt_tokens": 300, "completion_tokens": 30, "reasoning_tokens": 5},
         "latency_s": 3.0, "cached": True},
        {"model": "b", "usage": {}, "latency_s": 0.5},
    ]  # fmt: skip
    rows = {
        r["model"]: r
        for r in usage_table(recs, PriceTable({"a": {"prompt": 1e6, "completion": 0}}))
    }
    assert rows["a"]["prompt_tokens"] == 400 and rows["a"]["completion_tokens"] == 40
    assert rows["a"]["reasoning_tokens"] == 5 and rows["a"]["cached"] == 1
    assert rows["a"]["mean_latency_s"] == 2.0 and rows["a"]["cost_usd"] == pytest.approx(400.0)
    assert rows["b"]["cost_usd"] is None and rows["(total)"]["cost_usd"] == pytest.approx(400.0)


def test_dry_run_counts_requests_tokens_and_resume(tmp_path, capsys) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=5, seed=1))
    lf.run(items[:2], "random", tmp_path / "r.jsonl", samples=2)  # 4 records already done
    from logicforge.runner.store import write_jsonl

    write_jsonl(tmp_path / "items.jsonl", items)
    (tmp_path / "p.yaml").write_text("random*: {prompt: 1.0, completion: 2.0}\n")
    args = ["run", "--items", str(tmp_path / "items.jsonl"), "--records", str(tmp_path / "r.jsonl"),
            "--samples", "2", "--max-tokens", "100", "--prices", str(tmp_path / "p.yaml"),
            "--model", "random", "--model", "bestofn:3:oracle:random", "--dry-run", "--json"]  # fmt: skip
    before = (tmp_path / "r.jsonl").read_bytes()
    assert main(args) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)}
    assert (tmp_path / "r.jsonl").read_bytes() == before  # nothing was run or written
    r, b = rows["random"], rows["random+best-of-3-oracle"]
    assert r["records_to_do"] == 6 and r["requests"] == 6  # 10 − 4 done
    assert b["records_to_do"] == 10 and b["requests"] == 30
    assert r["completion_tokens_max"] == 600 and b["completion_tokens_max"] == 3000
    assert r["prompt_tokens"] > 6 * 40
    assert r["cost_usd_max"] == pytest.approx((r["prompt_tokens"] + 2 * 600) / 1e6, abs=1e-4)


def test_report_has_a_usage_table_with_costs(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=3, seed=1))
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    lf.report(tmp_path / "r.jsonl", tmp_path / "rep", prices={"oracle": {"prompt": 1.0}})
    assert "cost_usd" in (tmp_path / "rep" / "usage.md").read_text()
