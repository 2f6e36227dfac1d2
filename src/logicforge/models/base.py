"""The model interface: ``await model.generate(prompt, sampling, sample) -> Response``.

A :class:`Prompt` is messages in (with an optional answer schema), a :class:`Response` out, as
inspect's ``ModelAPI``; the runner turns an Item into its prompt (:meth:`Prompt.of`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import ConfigError
from ..registry import MODELS
from ..schema import Item, Message


@dataclass(frozen=True)
class Sampling:
    """Sampling parameters sent with every request (and part of the cache key)."""

    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 1024  # the same default on the command line, in lf.run and in suites
    seed: int | None = 0
    stop: tuple[str, ...] = ()
    structured: bool = False  # send the Item's JSON schema as response_format when supported

    def __post_init__(self) -> None:
        def number(v: object) -> bool:
            return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)

        def integer(v: object) -> bool:
            return isinstance(v, int) and not isinstance(v, bool)

        if not number(self.temperature) or not 0 <= self.temperature <= 5:
            raise ConfigError("temperature", self.temperature, "must be a number in [0, 5]")
        if not number(self.top_p) or not 0 < self.top_p <= 1:
            raise ConfigError("top_p", self.top_p, "must be a number in (0, 1]")
        if not integer(self.max_tokens) or not 1 <= self.max_tokens <= 10_000_000:
            raise ConfigError("max_tokens", self.max_tokens, "must be an integer in 1..10000000")
        if self.seed is not None and (not integer(self.seed) or not 0 <= self.seed < 2**63):
            raise ConfigError("seed", self.seed, "must be a non-negative integer or null")
        if isinstance(self.stop, str):  # one stop sequence, not one per character
            object.__setattr__(self, "stop", (self.stop,) if self.stop else ())
        if not isinstance(self.stop, list | tuple) or not all(
            isinstance(x, str) and x for x in self.stop
        ):
            raise ConfigError("stop", self.stop, "must be a string or a list of non-empty strings")
        object.__setattr__(self, "stop", tuple(self.stop))
        if not isinstance(self.structured, bool):
            raise ConfigError("structured", self.structured, "must be true or false")


@dataclass(frozen=True)
class Prompt:
    """What a model answers: chat ``messages``, an optional JSON ``schema`` for the answer (sent
    when sampling is ``structured``), a ``key`` naming the prompt (the item id, a story's
    condition …; it keys request batching and the baselines' random streams), and — when the
    prompt asks an Item's question — the ``item`` itself, for the models that need the task
    (baselines, strategies with a verifier). An LLM reads only messages and schema.

    Example:
        >>> from logicforge.schema import Message
        >>> p = Prompt((Message(role="user", content="2 + 2?"),), key="q1")
        >>> p.with_messages([Message(role="user", content="3 + 3?")]).key
        'q1'
    """

    messages: tuple[Message, ...]
    schema: dict[str, Any] | None = None
    key: str = ""
    item: Item | None = None

    @classmethod
    def of(cls, item: Item) -> Prompt:
        """The prompt of an Item: its messages, answer schema and id."""
        return cls(tuple(item.messages), item.answer_schema, item.item_id, item)

    def with_messages(
        self, messages: Sequence[Message], schema: dict[str, Any] | None | object = ...
    ) -> Prompt:
        """The same prompt (key, item) with other messages and, if given, another schema."""
        return Prompt(
            tuple(messages),
            self.schema if schema is ... else schema,  # type: ignore[arg-type]
            self.key,
            self.item,
        )


@dataclass
class Response:
    """One model reply (or the error that prevented it)."""

    text: str | None
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    reasoning_tokens: int | None = None
    reasoning_source: str | None = None  # None: from the API's usage
    attempts: int = 1
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Model(Protocol):
    """Anything that answers prompts. ``name`` identifies it in records; ``cache_id`` (or None for
    models not worth caching) identifies its configuration in the response cache."""

    name: str
    cache_id: str | None

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response: ...

    async def aclose(self) -> None: ...


Factory = Callable[[str, dict[str, str]], Model]


def _split_opts(rest: str) -> tuple[str, dict[str, str]]:
    """``"a:b;k=v;k2=v2"`` → (``"a:b"``, {k: v, k2: v2})."""
    head, *opts = rest.split(";")
    kv = {}
    for o in opts:
        if "=" not in o:
            raise ConfigError("model", rest, f"option {o!r} is not key=value")
        k, v = o.split("=", 1)
        kv[k.strip()] = v.strip()
    return head, kv


def load_model(spec: str) -> Model:
    """Build a model from its spec string, e.g. ``"always-sat"`` or
    ``"openai-compatible:http://127.0.0.1:8000/v1:my-model;concurrency=8"``.

    Options after ``;`` are backend specific (``seed=``, ``timeout=``, ``max_retries=``,
    ``api_key_env=`` …).

    Example:
        >>> load_model("always-unsat").name
        'always-unsat'
    """
    backend = re.split(r"[:;]", spec, maxsplit=1)[0]
    if backend in ("http", "https"):  # a bare URL: say the spec it was meant to be
        url = re.split(r"[;]", spec, maxsplit=1)[0]
        raise ConfigError(
            "model",
            spec,
            f"a URL alone names no model: write openai-compatible:{url}:<model name> "
            f"(`curl {url.rstrip('/')}/models` lists the server's names), or openai:<model> "
            "for OpenAI's own API",
        )
    rest = spec[len(backend) :]
    rest = rest[1:] if rest.startswith(":") else rest  # "random;seed=3" keeps its ";"
    if (
        backend in ("random", "always-sat", "always-unsat", "oracle", "noisy", "embedded")
        and rest
        and "=" in rest.split(";")[0]
    ):
        rest = ";" + rest  # "random:seed=3" form
    factory = MODELS.get(backend)
    if not callable(factory):
        raise ConfigError("model", spec, f"backend {backend!r} is registered but is not a factory")
    head, opts = _split_opts(rest)
    model: Model = factory(head, opts)
    return model
