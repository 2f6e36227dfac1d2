"""The verifiers (v1) environment: a taskset over any family, scored offline as verifiers scores a
rollout, giving exactly logicforge's reward and its parts."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.export.verifiers_env import score, taskset  # verifiers>=0.4: a test dependency
from logicforge.kinds import answer_format
from logicforge.metrics.reward import reward, reward_components
from logicforge.schema import Item


@pytest.mark.parametrize(
    "family, kw",
    [
        ("ksat/random", {"params": {"n_vars": 6, "alpha": 3.0}, "level": None}),
        ("zebra", {"level": 2}),
        ("ordering", {"level": 1}),
        ("2sat/implication-cycle", {"level": 3, "renderer": "formula-proof"}),
    ],
)
def test_taskset_scores_like_lf_reward(family: str, kw: dict) -> None:
    ts = taskset(family, count=4, seed=3, **kw)
    tasks = list(ts)
    assert len(tasks) == 4 and len({t.key for t in tasks}) == 4
    again = [t.data.item for t in taskset(family, count=4, seed=3, **kw)]
    assert [t.data.item for t in tasks] == again  # same arguments, byte-identical tasks
    for t in tasks:
        it = Item.model_validate_json(t.data.item)
        assert t.data.prompt_text == "\n\n".join(m.content for m in it.messages)
        f = answer_format(it)
        replies = [
            "Thinking…\n" + f.to_text(f.oracle(it), it),
            f.to_text(f.wrong(it), it),
            f.to_text(f.random(it, np.random.default_rng(0)), it),
            "",
            "I cannot tell.",
        ]
        for reply in replies:
            trace = score(t, reply)
            assert trace.rewards["logicforge"].score == reward(it, reply)
            parts = reward_components(it, reply)
            assert trace.metrics["format"] == parts["format"]
            assert trace.metrics["decision"] == parts["decision"]
            assert trace.metrics.get("witness") == parts["witness"]
        assert score(t, replies[0]).reward == 1.0


def test_partial_credit_and_length_reach_the_trace() -> None:
    (t,) = list(taskset("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, partial=True,
                        max_chars=10_000))  # fmt: skip
    it = Item.model_validate_json(t.data.item)
    f = answer_format(it)
    text = f.to_text(f.oracle(it), it)
    trace = score(t, text)
    assert trace.metrics["length"] == 1.0 and trace.reward == 1.0
    padded = "Let me think. " * 1500 + text  # verifiers strips the reply's outer whitespace
    long = score(t, padded)
    assert long.reward == pytest.approx(10_000 / len(padded)) and long.metrics["witness"] == 1.0


def test_an_unknown_family_fails_before_any_work() -> None:
    with pytest.raises(Exception, match="no-such"):
        taskset("no-such-family")
    with pytest.raises(ConfigError):
        reward_components(
            lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1))[0],
            "x",
            max_chars=0,
        )


def test_score_works_plainly_and_awaited() -> None:
    """`score` is a plain function outside an event loop and awaitable inside one."""
    (t,) = list(taskset("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=1, seed=0))
    it = Item.model_validate_json(t.data.item)
    f = answer_format(it)
    reply = f.to_text(f.oracle(it), it)
    plain = score(t, reply)

    async def inside() -> object:
        return await score(t, reply)

    awaited = asyncio.run(inside())
    assert plain.rewards["logicforge"].score == awaited.rewards["logicforge"].score == 1.0
