"""Prompting strategies and qualitative coding for symbolic edits: the paper's CoT prompts,
majority voting over choices, the three-stage SymbCoT wrapper, and judge-coded PF / IV / AC / AL
with their tables — scripted test doubles, plus SymbCoT on the embedded model."""

from __future__ import annotations

import asyncio
import json

import pytest

import logicforge as lf
from logicforge.llm.qualitative import code_records
from logicforge.metrics.qualitative import (
    negative_tokens,
    qualitative_table,
    score_accuracy_correlation,
)
from logicforge.models.base import Response, Sampling
from logicforge.strategies.symbcot import SymbCoTModel

from .test_judge import Scripted


def _items():
    ps = lf.generate("ordering", {"n_objects": 3}, count=2, seed=1)
    return lf.render(ps, "deduction")


def test_cot_prompts_are_the_papers() -> None:
    it = _items()[0]
    assert it.messages[0].role == "system" and "\\boxed{}" in it.messages[0].content
    assert it.messages[1].content.startswith("Solve the given logical deductive reasoning problem")


class StageBot:
    """Test double: answers each SymbCoT stage; the verifier corrects the solver's answer."""

    name, cache_id = "stage-bot", None

    def __init__(self, solve: str, verify: str | None) -> None:
        self.solve, self.verify, self.seen = solve, verify, []

    async def generate(self, q, sampling, sample) -> Response:
        last = q.messages[-1].content
        self.seen.append((last[:7], q.schema))
        if last.startswith("Stage 1"):
            text = json.dumps({"premises": ["left(a, b)"], "question": "rightmost(?)"})
        elif last.startswith("Stage 2"):
            text = json.dumps({"steps": ["a < b"], "answer": self.solve})
        elif self.verify is None:
            return Response(text=None, error="HTTP 500")
        else:
            text = json.dumps({"valid": self.verify == self.solve, "answer": self.verify})
        return Response(text=text, prompt_tokens=10, completion_tokens=5, latency_s=0.01)

    async def aclose(self) -> None:
        pass


def test_symbcot_three_stages_and_the_verifiers_correction() -> None:
    it = _items()[0]
    gold = it.gold["label"]
    letters = it.answer_schema["properties"]["answer"]["enum"]
    wrong = next(x for x in letters if x != gold)
    bot = StageBot(solve=wrong, verify=gold)
    r = asyncio.run(SymbCoTModel(bot).generate(lf.Prompt.of(it), Sampling(), 0))
    assert [s for s, _ in bot.seen] == ["Stage 1", "Stage 2", "Stage 3"]
    assert bot.seen[1][1]["properties"]["answer"]["enum"] == letters
    assert r.text.endswith(f"\\boxed{{{gold}}}") and r.extra["turns"] == 3
    assert r.prompt_tokens == 30 and r.completion_tokens == 15
    rec = lf.score(
        [{"record_id": "r", "item_id": it.item_id, "model": "m", "sample": 0, "text": r.text}], [it]
    )[0]
    assert rec.verdict.correct
    r = asyncio.run(SymbCoTModel(StageBot(wrong, None)).generate(lf.Prompt.of(it), Sampling(), 0))
    assert r.error.startswith("verify") and len(r.extra["stages"]) == 3


def test_majority_votes_over_choices_not_decisions() -> None:
    it = _items()[0]
    letters = it.answer_schema["properties"]["answer"]["enum"]
    from logicforge.strategies.scorers import MajorityScorer

    texts = [f"\\boxed{{{letters[0]}}}", f"\\boxed{{{letters[1]}}}", f"\\boxed{{{letters[1]}}}"]
    scores, _ = asyncio.run(MajorityScorer().score(lf.Prompt.of(it), texts))
    assert scores == [1.0, 2.0, 2.0]


def test_qualitative_coding_tables() -> None:
    its = _items()
    recs = [
        lf.score(
            [
                {
                    "record_id": f"r{i}",
                    "item_id": it.item_id,
                    "model": "m",
                    "sample": 0,
                    "text": "Step 1 ... \\boxed{A}",
                }
            ],
            [it],
        )[0]
        for i, it in enumerate(its)
    ]
    replies = [
        json.dumps(
            {"PF": 1, "IV": 0, "AC": 1, "AL": 1, "justifications": {"IV": "An unsupported leap."}}
        ),
        "no json at all",
        json.dumps({"PF": 2, "IV": 0, "AC": 0, "AL": 0}),  # out of the enum: retried
        json.dumps(
            {
                "PF": 0,
                "IV": 0,
                "AC": 0,
                "AL": 1,
                "justifications": {"PF": "It invents a fact.", "AL": "ignored"},
            }
        ),
    ]
    coded = code_records(recs, its, Scripted(replies), concurrency=1)
    q0, q1 = (r.extra["qualitative"] for r in coded)
    assert q0["scores"] == {"PF": 1, "IV": 0, "AC": 1, "AL": 1} and q0["judge"] == "scripted-judge"
    assert q1["scores"]["PF"] == 0 and "AL" not in q1["justifications"]  # only 0s are justified
    rows = [r.model_dump() for r in coded]
    t = qualitative_table(rows)[0]
    assert (
        t["coded"] == 2 and t["PF"] == 0.5 and t["IV"] == 0.0 and t["overall"] == pytest.approx(0.5)
    )
    toks = {(x["code"], x["token"]): x["negative"] for x in negative_tokens(rows)}
    assert toks[("IV", "unsupported")] and toks[("IV", "leap")] and toks[("PF", "invents")]
    corr = score_accuracy_correlation(rows)[0]
    assert corr["coded"] == 2
    # a judge that never answers usably: recorded, never a crash
    bad = code_records(recs[:1], its, Scripted(["x", "y", "z"]))[0]
    assert (
        "judge error" in bad.extra["qualitative"]["error"]
        and "scores" not in bad.extra["qualitative"]
    )
    (row,) = qualitative_table([bad.model_dump()])  # the failure stays visible, with no scores
    assert row["coded"] == 0 and row["judge_errors"] == 1 and row["overall"] is None


@pytest.mark.embedded
def test_symbcot_on_the_embedded_model(tmp_path) -> None:
    pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
    its = _items()[:1]
    c = lf.run(
        its,
        "symbcot:embedded",
        tmp_path / "r.jsonl",
        sampling=Sampling(max_tokens=96, structured=True),
    )
    assert c["done"] == 1
    r = json.loads((tmp_path / "r.jsonl").read_text())
    assert r["model"] == "smollm2-135m-instruct+symbcot" and r["verdict"] is not None
    assert [s["stage"] for s in r["extra"]["stages"]] == ["translate", "solve", "verify"]


def test_inference_time_scaling_samples_at_its_own_temperature() -> None:
    m = lf.load_model("bestofn:3:majority:random;temperature=0.7")
    assert m.temperature == 0.7 and m.name.endswith("best-of-3-majority-t0.7")
    seen = []

    class Spy:
        name, cache_id = "spy", None

        async def generate(self, q, sampling, sample):
            seen.append((sampling.temperature, sample))
            return Response(text="\\boxed{A}")

        async def aclose(self):
            pass

    from logicforge.strategies.bestofn import BestOfNModel
    from logicforge.strategies.scorers import MajorityScorer

    it = _items()[0]
    asyncio.run(
        BestOfNModel(Spy(), 3, MajorityScorer(), 0.7).generate(
            lf.Prompt.of(it), Sampling(temperature=0.1), 1
        )
    )
    assert seen == [(0.7, 3), (0.7, 4), (0.7, 5)]
    from logicforge.suites import load_suite

    suite = load_suite("logicedit-strategies")  # the symbolic-edits paper's settings (App. J)
    assert "symbcot:embedded;max_tokens=2000" in suite.models
    assert "bestofn:32:majority:embedded;temperature=0.7;max_tokens=2000" in suite.models
    assert suite.sampling == {"max_tokens": 10_000, "temperature": 0.1}


def test_a_strategy_asks_its_inner_model_with_its_own_token_limit() -> None:
    """Scaling and SymbCoT run at 2,000 tokens while the run's CoT has 10,000 (the paper)."""
    seen = []

    class Spy:
        name, cache_id = "spy", None

        async def generate(self, prompt, sampling, sample):
            seen.append((sampling.temperature, sampling.max_tokens))
            return Response(text="\\boxed{A}")

        async def aclose(self):
            pass

    from logicforge.strategies.bestofn import BestOfNModel
    from logicforge.strategies.scorers import MajorityScorer

    it = _items()[0]
    m = BestOfNModel(Spy(), 2, MajorityScorer(), 0.7, 2000)
    asyncio.run(m.generate(lf.Prompt.of(it), Sampling(temperature=0.1, max_tokens=10_000), 0))
    assert seen == [(0.7, 2000), (0.7, 2000)] and m.name.endswith("-t0.7-m2000")
    from logicforge.models.base import load_model

    assert load_model("symbcot:random;max_tokens=2000").name.endswith("-m2000")


@pytest.mark.embedded
def test_qualitative_coding_with_the_embedded_judge() -> None:
    pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
    its = _items()[:1]
    rec = lf.score([{"record_id": "r", "item_id": its[0].item_id, "model": "m", "sample": 0,
                     "text": "The green book is left of the black one, so \\boxed{A}"}], its)[0]  # fmt: skip
    q = code_records([rec], its, "embedded")[0].extra["qualitative"]
    assert q["judge"] == "smollm2-135m-instruct"
    # JSON-constrained decoding makes the reply parse; the schema (0/1 codes) decides the rest:
    # an in-process model has no transport to fail, so a judge error here is a bug
    assert q["error"] is None, q
    assert set(q["scores"]) == {"PF", "IV", "AC", "AL"} and set(q["scores"].values()) <= {0, 1}


@pytest.mark.embedded
def test_logicedit_strategies_suite_on_the_embedded_model(tmp_path) -> None:
    """CoT, inference-time scaling and SymbCoT on one cumulative chain, end to end."""
    pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
    from logicforge.suites import load_suite, run_suite

    suite = load_suite(
        "logicedit-strategies",
        models=["embedded", "bestofn:2:majority:embedded;temperature=0.7", "symbcot:embedded"],
        sampling={"max_tokens": 48, "temperature": 0.1},
    )
    html = run_suite(suite.with_blocks(count=1, grid={"n_objects": [3]}), tmp_path, progress=False)
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    models = {r["model"] for r in recs}
    assert models == {
        "smollm2-135m-instruct",
        "smollm2-135m-instruct+best-of-2-majority-t0.7",
        "smollm2-135m-instruct+symbcot",
    }
    # in-process models cannot fail in transport: every record is scored, none is an error
    assert all(r["error"] is None and r["verdict"] is not None for r in recs), [
        r["error"] for r in recs if r["error"]
    ]
    acc = (html.parent / "edits_acc_norm.md").read_text()
    assert all(m in acc for m in models)


@pytest.mark.parametrize(
    "spec, name",
    [
        ("bestofn:3:majority:random;temperature=0.7", "random+best-of-3-majority-t0.7"),
        ("selfverify:1:none:random;temperature=0.7", "random+selfverify1-t0.7"),
        ("symbcot:random;temperature=0.7", "random+symbcot-t0.7"),
    ],
)
def test_every_strategy_takes_its_own_temperature(spec: str, name: str) -> None:
    assert lf.load_model(spec).name == name


@pytest.mark.parametrize(
    "spec", ["symbcot:random;temperature=9", "selfverify:1:none:random;temperature=x"]
)
def test_a_bad_strategy_option_names_the_field(spec: str) -> None:
    with pytest.raises(lf.ConfigError, match="temperature"):
        lf.load_model(spec)


def test_a_strategy_samples_its_inner_model_at_its_own_temperature() -> None:
    seen: list[float] = []

    class Spy:
        name, cache_id = "spy", None

        async def generate(self, q, sampling, sample):
            seen.append(sampling.temperature)
            return Response(text="\\boxed{A}")

        async def aclose(self):
            pass

    from logicforge.strategies.options import StrategyOptions
    from logicforge.strategies.selfverify import SelfVerifyModel

    it = _items()[0]
    m = SelfVerifyModel(Spy(), 1, "none", StrategyOptions(temperature=0.4))
    asyncio.run(m.generate(lf.Prompt.of(it), Sampling(temperature=0.0), 0))
    assert seen == [0.4, 0.4]
