"""Best-of-n with pluggable scorers: oracle, majority, and a judge model (double and over HTTP)."""

from __future__ import annotations

import asyncio
import json

import pytest

import logicforge as lf
from logicforge.models.base import Response, Sampling, load_model
from logicforge.reports.compute import best_of_n_table
from logicforge.strategies.bestofn import BestOfNModel
from logicforge.strategies.scorers import ModelScorer, read_score

from .fakeserver import FakeServer


@pytest.fixture(scope="module")
def ksat_items() -> list[lf.Item]:
    return lf.render(lf.generate("ksat/random", {"n_vars": 8, "alpha": 4.26}, count=24, seed=5))


def _records(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_spec_parsing_and_errors() -> None:
    m = load_model("bestofn:4:oracle:random;seed=3")
    assert m.name == "random:seed=3+best-of-4-oracle" and m.inner.name == "random:seed=3"
    m = load_model("bestofn:2:model(openai-compatible:http://127.0.0.1:9/v1:judge):always-sat")
    assert m.scorer.name.startswith("model(") and m.inner.name == "always-sat"
    for bad, field in (
        ("bestofn:x:oracle:random", "n"),
        ("bestofn:4:best:random", "scorer"),
        ("bestofn:4:oracle", "model"),
        ("bestofn:0:oracle:random", "n"),
    ):
        with pytest.raises(lf.ConfigError, match=field):
            load_model(bad)


def test_oracle_scorer_picks_a_correct_candidate(ksat_items, tmp_path) -> None:
    lf.run(ksat_items, "random", tmp_path / "r.jsonl")
    lf.run(ksat_items, "bestofn:4:oracle:random", tmp_path / "r.jsonl")
    recs = _records(tmp_path / "r.jsonl")
    acc = {
        m: sum(r["verdict"]["correct"] for r in recs if r["model"] == m) / len(ksat_items)
        for m in {r["model"] for r in recs}
    }
    assert acc["random+best-of-4-oracle"] > acc["random"]
    bon = [r for r in recs if r["model"] == "random+best-of-4-oracle"]
    for r in bon:  # a correct candidate existed iff one scored 1
        assert r["verdict"]["correct"] == (max(r["extra"]["bon_scores"]) == 1.0)
        assert r["extra"]["bon_n"] == 4
    t = best_of_n_table(recs)
    assert t[0]["records"] == len(ksat_items) and t[0]["scorer"] == "oracle"


def test_majority_scorer_agrees_with_the_vote(ksat_items, tmp_path) -> None:
    lf.run(ksat_items, "bestofn:5:majority:random", tmp_path / "r.jsonl")
    for r in _records(tmp_path / "r.jsonl"):
        s = r["extra"]["bon_scores"]
        assert s[r["extra"]["bon_chosen"]] == max(s) >= 3  # 5 binary votes: the winner has ≥ 3


class _Judge:
    """Test double: a judge that prefers UNSAT answers and babbles on every third call."""

    name = "judge"
    cache_id = None

    def __init__(self) -> None:
        self.calls = 0

    async def generate(self, q, sampling, sample) -> Response:
        self.calls += 1
        assert q.schema["required"] == ["score"] and sampling.structured
        if self.calls % 3 == 0:
            return Response(text="I cannot rate this.", prompt_tokens=5, completion_tokens=4)
        prompt = q.messages[-1].content
        cand = prompt.split("=== Candidate answer ===")[1]
        return Response(text=json.dumps({"score": 9 if "UNSAT" in cand else 2}), prompt_tokens=5)

    async def aclose(self) -> None:
        pass


def test_model_scorer_uses_judge_scores_and_counts_failures(ksat_items) -> None:
    judge = _Judge()
    m = BestOfNModel(load_model("random;seed=1"), 3, ModelScorer(judge))
    r = asyncio.run(m.generate(lf.Prompt.of(ksat_items[0]), Sampling(), 0))
    scores = r.extra["bon_scores"]
    assert judge.calls == 3 and r.extra["bon_scorer_failures"] == 1 and scores[2] is None
    assert scores[r.extra["bon_chosen"]] == max(s for s in scores if s is not None)
    assert r.prompt_tokens is not None and r.prompt_tokens >= 15  # judge tokens counted


def test_judge_over_http_that_never_scores_is_recorded_not_fatal(ksat_items, tmp_path) -> None:
    with FakeServer() as srv:  # replies {"answer": ...}: no score anywhere
        spec = f"bestofn:2:model(openai-compatible:{srv.base_url}:judge):random"
        lf.run(ksat_items[:4], spec, tmp_path / "r.jsonl")
    recs = _records(tmp_path / "r.jsonl")
    assert len(recs) == 4
    for r in recs:
        assert r["extra"]["bon_scorer_failures"] == 2 and r["extra"]["bon_chosen"] == 0
        assert r["error"] is None and r["verdict"] is not None


def test_read_score() -> None:
    assert read_score('```json\n{"score": 10}\n```') == 10.0
    assert read_score("score: 3.5") == 3.5
    assert read_score('{"score": -2}') is None
