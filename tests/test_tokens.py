"""Reasoning-token accounting: usage first, else a tokenizer over the reasoning text."""

from __future__ import annotations

import pytest

import logicforge as lf
from logicforge.models.base import Response
from logicforge.models.tokens import TokenCounter, reasoning_text, smollm2_available
from logicforge.runner.runner import score_response


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<think>a b</think> SAT", "a b"),
        ('{"reasoning": "House 1 is red", "solution": {}}', "House 1 is red"),
        ('Because x1 is true.\n{"answer": "SAT"}', "Because x1 is true."),
        ('{"answer": "SAT"}', ""),
        ("<think>unclosed reasoning", "unclosed reasoning"),
        ("", ""),
        (None, ""),
    ],
)
def test_reasoning_text(text: str | None, expected: str) -> None:
    assert reasoning_text(text) == expected


def test_word_counter_and_bad_name() -> None:
    assert TokenCounter("words").count("x1 = True, x2 = False.") == 8
    with pytest.raises(lf.ConfigError, match="tokenizer"):
        TokenCounter("gpt9")


@pytest.mark.skipif(not smollm2_available(), reason="needs logicforge[embedded]")
def test_smollm2_counts_bpe_tokens() -> None:
    c = TokenCounter("auto")
    assert c.resolved == "smollm2"
    n = c.count("Let me check every clue against house three.")
    assert 5 <= n <= 15


def test_usage_wins_and_tokenizer_fills_in() -> None:
    item = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
    text = '<think>one two three</think>{"answer": "SAT"}'
    words = TokenCounter("words")
    rec = score_response(item, "m", 0, Response(text=text), tokens=words)
    assert (rec.usage.reasoning_tokens, rec.usage.reasoning_source) == (3, "words")
    rec = score_response(item, "m", 0, Response(text=text, reasoning_tokens=40), tokens=words)
    assert (rec.usage.reasoning_tokens, rec.usage.reasoning_source) == (40, "usage")
    rec = score_response(item, "m", 0, Response(text=text))
    assert rec.usage.reasoning_tokens is None
