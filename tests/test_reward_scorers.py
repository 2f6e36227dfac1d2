"""Reward-model scorers for best-of-n (ZebraLogic's BoN-RM): a reward endpoint's scalar
(vLLM ``/pooling`` and plain ``{"score": x}`` replies) and a verifier's P(Yes) from
``/completions`` log probabilities, against a real HTTP server on 127.0.0.1 whose reward model
is imperfect (it prefers the wrong answer on some problems, fails on others, and answers in
either documented shape)."""

from __future__ import annotations

import asyncio
import csv
import hashlib
import json
import math
from collections import defaultdict

import pytest

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.models.base import Prompt, Sampling, load_model
from logicforge.reports.zebra_tables import GROUPS
from logicforge.strategies.scorers import (
    VERIFY_PROMPT,
    _problem,
    make_scorer,
    read_reward,
    read_yes_probability,
)
from logicforge.suites import load_suite, run_suite

from .fakeserver import FakeServer

INNER = "random;seed=4"


def _h(*parts: str) -> int:
    return int(hashlib.sha1("\x00".join(parts).encode()).hexdigest(), 16)


@pytest.fixture(scope="module")
def items() -> list[lf.Item]:
    return lf.render(lf.generate("ksat/random", {"n_vars": 8, "alpha": 4.26}, count=16, seed=9))


def _truth(items: list[lf.Item]) -> dict[str, str]:
    return {_problem(Prompt.of(it)): it.gold["label"] for it in items}


def _says(text: str) -> str:
    return "UNSAT" if "UNSAT" in text else "SAT"


class RM:
    """The scripted reward model: +1.5 for the true verdict, −0.5 for the other, inverted on a
    quarter of the problems (a wrong RM), an HTTP 400 on a sixth of the candidates (unscored),
    a 503 on the first try of a seventh (retried, then scored); vLLM's per-token nested shape or
    ``{"score": x}`` by the problem."""

    def __init__(self, truth: dict[str, str]) -> None:
        self.truth = truth
        self.seen: set[tuple[str, str]] = set()
        self.retried = 0

    def expected(self, problem: str, text: str) -> float | None:
        if _h(problem, text, "fail") % 6 == 0:
            return None
        right = _says(text) == self.truth[problem]
        if _h(problem) % 4 == 0:
            right = not right
        return 1.5 if right else -0.5

    def pooling(self, body: dict) -> tuple[int, object]:
        problem, text = body["messages"][0]["content"], body["messages"][1]["content"]
        assert [m["role"] for m in body["messages"]] == ["user", "assistant"]
        s = self.expected(problem, text)
        if s is None:
            return 400, {"error": "input is longer than the model's context"}
        if _h(problem, text) % 7 == 0 and (problem, text) not in self.seen:
            self.seen.add((problem, text))
            self.retried += 1
            return 503, {"error": "busy"}
        if _h(problem) % 2:
            return 200, {"data": [{"index": 0, "object": "pooling", "data": [[0.0], [s]]}]}
        return 200, {"score": s}

    def completions(self, body: dict) -> tuple[int, object]:
        assert body["max_tokens"] == 1 and body["logprobs"] == 20
        head, cand = body["prompt"].split("=== Candidate answer ===\n")
        problem = head.split("=== Problem ===\n", 1)[1].removesuffix("\n\n")
        text = cand.split("\n\n=== Question ===")[0]
        s = self.expected(problem, text)
        if s is None:  # no Yes or No among the top tokens
            top = {"Maybe": -0.1, "I": -2.0}
        else:
            p = 0.8 if s > 0 else 0.3
            top = {" Yes": math.log(p * 0.9), " No": math.log((1 - p) * 0.9), "\n": -5.0}
        lp: dict = (
            {"top_logprobs": [top]}
            if _h(problem) % 2
            else {
                "content": [{"top_logprobs": [{"token": t, "logprob": v} for t, v in top.items()]}]
            }
        )
        return 200, {"choices": [{"text": " Yes", "logprobs": lp, "index": 0}]}


def _candidates(prompt: Prompt, n: int, sample: int = 0) -> list[str]:
    inner = load_model(INNER)
    return [
        asyncio.run(inner.generate(prompt, Sampling(seed=0), sample * n + j)).text or ""
        for j in range(n)
    ]


@pytest.mark.parametrize("method", ["reward", "logprob"])
def test_endpoint_scorer_scores_every_candidate_and_picks_the_best(items, tmp_path, method) -> None:
    rm = RM(_truth(items))
    with FakeServer(routes={"/pooling": rm.pooling, "/v1/completions": rm.completions}) as srv:
        url = f"http://127.0.0.1:{srv.port}/pooling" if method == "reward" else srv.base_url
        spec = f"bestofn:4:{method}({url}:rm;max_retries=0):{INNER}"
        with pytest.raises(ConfigError):  # options belong to the scorer's client, not the spec
            load_model(spec)
        spec = f"bestofn:4:{method}({url}:rm):{INNER}"
        lf.run(items, spec, tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(recs) == len(items)
    assert method == "logprob" or rm.retried > 0  # transient errors were retried, then scored
    by_id = {it.item_id: it for it in items}
    changed = right_rm_correct = right_rm = 0
    for r in recs:
        ex = r["extra"]
        assert ex["bon_scorer"] == f"{method}(rm)" and ex["bon_method"] == "rm"
        prompt = Prompt.of(by_id[r["item_id"]])
        problem = _problem(prompt)
        texts = _candidates(prompt, 4)
        want = [rm.expected(problem, t) for t in texts]
        if method == "logprob":
            want = [None if s is None else (0.8 if s > 0 else 0.3) for s in want]
        assert ex["bon_scores"] == pytest.approx(want), (r["item_id"], texts, want)
        assert ex["bon_scorer_failures"] == sum(s is None for s in want)
        scored = [j for j, s in enumerate(want) if s is not None]
        best = max(scored, key=lambda j: (want[j], -j)) if scored else 0
        assert ex["bon_chosen"] == best and r["text"] == texts[best]
        changed += best != 0
        honest = _h(problem) % 4 != 0
        if honest and any(_says(texts[j]) == rm.truth[problem] for j in scored):
            right_rm += 1
            right_rm_correct += bool(r["verdict"]["correct"])
    assert right_rm > 0 and right_rm_correct == right_rm  # an honest RM with a right candidate
    assert 0 < changed < len(recs)  # neither always the first candidate nor never
    assert 0 < sum(r["verdict"]["correct"] for r in recs) < len(recs)  # the RM is imperfect


def test_readers_on_the_documented_shapes() -> None:
    assert read_reward({"data": [{"index": 0, "data": 3}]}) == 3.0
    assert read_reward({"rewards": [0.25, 9]}) == 0.25
    assert read_reward({"data": [{"score": -1.5}]}) == -1.5
    assert read_reward({"score": float("nan")}) is None and read_reward({"score": True}) is None
    assert read_reward({"choices": []}) is None and read_reward([1]) is None
    legacy = {"choices": [{"logprobs": {"top_logprobs": [{"YES": -1.0, "no": -1.0}]}}]}
    assert read_yes_probability(legacy) == pytest.approx(0.5)
    chat = {
        "choices": [{"logprobs": {"content": [{"top_logprobs": [{"token": "No", "logprob": 0}]}]}}]
    }
    assert read_yes_probability(chat) == 0.0
    assert read_yes_probability({"choices": [{"text": "Yes"}]}) is None  # no logprobs asked
    assert "Answer Yes or No" in VERIFY_PROMPT


def test_scorer_specs() -> None:
    s = make_scorer("logprob(http://127.0.0.1:9/v1:org/verifier-7b)")
    assert s.name == "logprob(org/verifier-7b)" and s.kind == "rm"
    assert make_scorer("oracle").kind == "oracle"
    for bad in ("reward(nourl)", "rewards(http://127.0.0.1:9/pooling:rm)"):
        with pytest.raises(ConfigError):
            make_scorer(bad)


def test_zebra_table2_bon_rm_row_from_a_reward_endpoint(tmp_path) -> None:
    """Table 2's BoN-RM row for a reward scorer: named from the records, numbers from them."""

    def pooling(body: dict) -> tuple[int, object]:  # a reward model that is a coin with memory
        text = body["messages"][1]["content"]
        return 200, {"data": [{"data": [(_h(text) % 1000) / 100 - 5]}]}

    with FakeServer(routes={"/pooling": pooling}) as srv:
        rm = f"reward(http://127.0.0.1:{srv.port}/pooling:rm)"
        suite = load_suite("zebra-bon", models=["noisy:p=0.7", f"bestofn:4:{rm}:noisy:p=0.7"])
        small = suite.with_blocks(
            count=3, grid={"n_houses": [3, 4], "n_attributes": [3]}
        ).model_copy(update={"samples": 4})
        rep = run_suite(small, tmp_path, progress=False).parent
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    with (rep / "zebralogic_table2.csv").open() as f:
        rows = list(csv.DictReader(f))
    names = [r["Model & Methods"] for r in rows]
    assert names == ["noisy:p=0.7", "BoN-Oracle N=4", "Majority-Voting N=4", "BoN-RM N=4"]
    mine: dict[str, list[float]] = defaultdict(list)
    for r in recs:
        if r["model"].endswith("best-of-4-reward(rm)"):
            assert r["extra"]["bon_scorer_failures"] == 0
            mine[r["meta"]["size_group"]].append(float(r["verdict"]["correct"]))
    assert sum(map(len, mine.values())) == 4 * 6  # 6 puzzles × 4 samples
    for g in GROUPS:
        want = "" if not mine[g] else f"{100 * sum(mine[g]) / len(mine[g]):.1f}"
        assert rows[3][g] == want
