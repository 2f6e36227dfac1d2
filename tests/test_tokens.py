"""Reasoning-token accounting: usage first, else a tokenizer over the reasoning text."""

from __future__ import annotations

import pytest

import logicforge as lf
from logicforge.models.base import Response
from logicforge.models.tokens import TokenCounter, reasoning_text, smollm2_available
from logicforge.runner.records import score_response


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


def _corpus() -> list[str]:
    """Prompts and replies the way the tool meets them: rendered items of several kinds, model
    replies with reasoning, JSON, markdown, digits, unicode, odd whitespace."""
    texts = []
    for fam, params, renderer in [
        ("ksat/random", {"n_vars": 6, "alpha": 3.0}, "formula"),
        ("ksat/random", {"n_vars": 6, "alpha": 3.0}, "room"),
        ("zebra", {"n_houses": 3, "n_attributes": 3}, "zebra"),
        ("ordering", {"n_objects": 4}, "deduction"),
    ]:
        for it in lf.render(lf.generate(fam, params, count=2, seed=5), renderer):
            texts += [m.content for m in it.messages]
    texts += [
        '<think>House 1 is red, so house 2 is not.</think>{"solution": {"House 1": {"Name": "Arnold"}}}',
        "**Final answer: UNSAT**\n\n| x1 | x2 |\n|---|---|\n| T | F |",
        "x1 ∨ ¬x4 ∧ (x12 → x7) 12345 3.14159  double  spaces\n\n\ttab\r\nwindows",
        "émoji 🎉 中文 ΑΒΓ ğüşçö — “quotes” ‘single’ …",
        "   leading and trailing   ",
        "it's you're I'll DON'T we've",
        "I'm sorry, but I can't help with that.",
        "",
    ]
    return texts


@pytest.mark.skipif(not smollm2_available(), reason="needs logicforge[embedded]")
def test_the_rebuilt_tokenizer_equals_llama_cpp_token_for_token() -> None:
    """The BPE rebuilt from the GGUF metadata gives llama.cpp's own token ids on every text."""
    llama_cpp = pytest.importorskip(
        "llama_cpp", reason="the optional backend: logicforge[llama-cpp]"
    )
    from logicforge.models.embedded import embedded_model_path
    from logicforge.models.tokens import _smollm2

    llm = llama_cpp.Llama(
        model_path=str(embedded_model_path()), vocab_only=True, verbose=False, n_ctx=8
    )
    try:
        tok = _smollm2()
        texts = _corpus()
        assert len(texts) > 10
        for text in texts:
            want = llm.tokenize(text.encode(), add_bos=False, special=False)
            assert tok.encode(text, add_special_tokens=False).ids == want, text[:60]
    finally:
        llm.close()


@pytest.mark.skipif(not smollm2_available(), reason="needs logicforge[embedded]")
def test_the_rebuilt_tokenizer_round_trips_and_counts_digits_one_by_one() -> None:
    from logicforge.models.tokens import _smollm2

    tok = _smollm2()
    for text in _corpus():
        assert tok.decode(tok.encode(text, add_special_tokens=False).ids) == text
    assert TokenCounter("smollm2").count("12345") == 5  # SmolLM2 splits numbers into digits


def test_gguf_metadata_reader_reads_and_refuses(tmp_path) -> None:
    import struct

    from logicforge.models.gguf_meta import read_metadata

    def s(x: str) -> bytes:
        b = x.encode()
        return struct.pack("<Q", len(b)) + b

    body = struct.pack("<IQQ", 3, 0, 3)
    body += s("general.name") + struct.pack("<I", 8) + s("tiny")
    body += s("a.ints") + struct.pack("<IIQ", 9, 5, 3) + struct.pack("<3i", -1, 0, 7)
    body += s("a.strs") + struct.pack("<IIQ", 9, 8, 2) + s("Ġt") + s("he")
    f = tmp_path / "m.gguf"
    f.write_bytes(b"GGUF" + body + b"\0" * 16)
    assert read_metadata(f) == {
        "general.name": "tiny",
        "a.ints": [-1, 0, 7],
        "a.strs": ["Ġt", "he"],
    }
    assert read_metadata(f, {"a.strs"}) == {"a.strs": ["Ġt", "he"]}
    (tmp_path / "cut.gguf").write_bytes(b"GGUF" + body[:40])
    with pytest.raises(lf.ModelError, match="truncated"):
        read_metadata(tmp_path / "cut.gguf")
    (tmp_path / "x.gguf").write_bytes(b"NOPE" + body)
    with pytest.raises(lf.ModelError, match="not a GGUF"):
        read_metadata(tmp_path / "x.gguf")
    bad = b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + s("k") + struct.pack("<I", 99)
    (tmp_path / "t.gguf").write_bytes(bad)
    with pytest.raises(lf.ModelError, match="value type 99"):
        read_metadata(tmp_path / "t.gguf")
    huge = b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1 << 40)
    (tmp_path / "h.gguf").write_bytes(huge)
    with pytest.raises(lf.ModelError, match="damaged"):
        read_metadata(tmp_path / "h.gguf")
