"""Cost and token caps: no request is sent that could pass the cap, the run stops cleanly at it,
says what it spent, and the same command resumes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.prices import PriceTable
from logicforge.runner.budget import worst_prompt_tokens
from logicforge.runner.store import write_jsonl

from .fakebatch import FakeBatchServer
from .fakeserver import FakeServer

PRICE = {"prompt": 2.0, "completion": 10.0}  # $/1M tokens


def _items(n: int) -> list[lf.Item]:
    ps = lf.generate("ksat/random", {"n_vars": 6, "alpha": 4.26}, count=n, seed=4)
    return lf.render(ps, "formula")


def _records(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def _spent(recs: list[dict], factor: float = 1.0) -> float:
    return factor * sum(
        r["usage"]["prompt_tokens"] * PRICE["prompt"] + r["usage"]["completion_tokens"] * PRICE["completion"]
        for r in recs
    ) / 1e6  # fmt: skip


def _worst_usd(item: lf.Item, max_tokens: int, factor: float = 1.0) -> float:
    return (
        factor
        * (worst_prompt_tokens(item) * PRICE["prompt"] + max_tokens * PRICE["completion"])
        / 1e6
    )


def test_budget_reserves_in_flight_requests_and_settles_actual_usage() -> None:
    b = lf.Budget(max_tokens=1000)
    assert b.admit("m", 300, 100) and b.admit("m", 300, 100)  # 800 reserved
    assert not b.admit("m", 300, 100) and b.stopped == "max-tokens-total"
    b2 = lf.Budget(max_tokens=1000)
    assert b2.admit("m", 300, 100)
    b2.settle("m", 300, 100, lf.models.Response(text="x", prompt_tokens=50, completion_tokens=10))
    assert b2.spent_tokens == 60 and b2.admit("m", 300, 100) and b2.admit("m", 300, 100)
    b3 = lf.Budget(max_tokens=1000)
    assert b3.admit("m", 300, 100)
    b3.settle("m", 300, 100, lf.models.Response(text="no usage"))  # unreported: the worst case
    assert b3.spent_tokens == 400
    with pytest.raises(lf.ConfigError, match="price table"):
        lf.Budget(max_cost=1.0)
    with pytest.raises(lf.ConfigError, match="no price"):
        lf.Budget(max_cost=1.0, prices=PriceTable({"gpt-*": PRICE})).check_model("claude")


def test_max_cost_stops_the_run_at_its_cap_and_the_same_command_resumes(tmp_path) -> None:
    items = _items(40)
    write_jsonl(tmp_path / "items.jsonl", items)
    (tmp_path / "prices.yaml").write_text(f"tiny: {json.dumps(PRICE)}\n")
    worst = max(_worst_usd(it, 64) for it in items)
    cap = 7.5 * worst  # a few requests' worst case: the run must stop part way
    with FakeServer() as srv:
        cmd = [sys.executable, "-m", "logicforge", "run", "--items", str(tmp_path / "items.jsonl"),
               "--model", f"openai-compatible:{srv.base_url}:tiny", "--records",
               str(tmp_path / "r.jsonl"), "--prices", str(tmp_path / "prices.yaml"),
               "--max-tokens", "64", "--concurrency", "8", "--quiet"]  # fmt: skip
        out = subprocess.run(
            [*cmd, "--max-cost", f"{cap:.8f}"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert out.returncode == 4, out.stderr[-1500:]
        assert "stopped at the max-cost cap" in out.stderr and "rerun" in out.stderr
        recs = _records(tmp_path / "r.jsonl")
        assert 0 < len(recs) < len(items)
        assert srv.requests == len(recs)  # nothing sent that was not recorded
        assert _spent(recs) <= cap  # never past the cap, with 8 requests in flight
        assert f"${_spent(recs):.4f}" in out.stderr  # it says how much was spent
        # the same command with a higher cap resumes: no record lost, none duplicated
        out = subprocess.run(
            [*cmd, "--max-cost", "100"], capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
        assert out.returncode == 0, out.stderr[-1500:]
        assert "within budget" in out.stderr
    recs2 = _records(tmp_path / "r.jsonl")
    assert sorted(r["item_id"] for r in recs2) == sorted(it.item_id for it in items)
    assert srv.requests == len(items)


def test_max_tokens_total_without_prices_and_a_budget_spanning_models(tmp_path) -> None:
    items = _items(30)
    cap = 6 * max(worst_prompt_tokens(it) + 32 for it in items)
    budget = lf.Budget(max_tokens=cap)
    s = lf.Sampling(max_tokens=32)
    with FakeServer() as srv:
        c1 = lf.run(
            items,
            f"openai-compatible:{srv.base_url}:a",
            tmp_path / "r.jsonl",
            sampling=s,
            budget=budget,
            concurrency=4,
        )
        c2 = lf.run(
            items,
            f"openai-compatible:{srv.base_url}:b",
            tmp_path / "r.jsonl",
            sampling=s,
            budget=budget,
            concurrency=4,
        )
    recs = _records(tmp_path / "r.jsonl")
    used = sum(r["usage"]["prompt_tokens"] + r["usage"]["completion_tokens"] for r in recs)
    assert used == budget.spent_tokens <= cap
    assert c1["budget"]["stopped"] == "max-tokens-total" and c2["done"] == 0  # one shared cap
    assert 0 < c1["done"] < len(items) and c1["budget"]["spent_tokens"] == used


def test_batch_mode_checks_the_cap_before_submission(tmp_path) -> None:
    items = _items(30)
    max_tokens = 64
    cap = 10 * _worst_usd(items[0], max_tokens, factor=0.5)
    budget = lf.Budget(max_cost=cap, prices=PriceTable({"tiny": PRICE}))
    with FakeBatchServer() as srv:
        spec = f"openai-batch:{srv.url}:tiny;state={tmp_path / 'state'};poll=0.05;window=0.2"
        c = lf.run(items, spec, tmp_path / "r.jsonl", sampling=lf.Sampling(max_tokens=max_tokens),
                   budget=budget, concurrency=64)  # fmt: skip
        sent = len(srv.requests_seen)
    recs = _records(tmp_path / "r.jsonl")
    by_id = {it.item_id: it for it in items}
    worst_sent = sum(_worst_usd(by_id[r["item_id"]], max_tokens, 0.5) for r in recs)
    assert c["budget"]["stopped"] == "max-cost" and 0 < sent == len(recs) < len(items)
    assert worst_sent <= cap  # the whole submitted batch fitted its worst case: zero overshoot
    assert _spent(recs, 0.5) <= cap
