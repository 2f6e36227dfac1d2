"""An LLM judge: structured JSON verdicts from any model backend, validated against a schema,
retried when malformed, and recorded — never a crash, never a silent pass.

``Judge(model, schema, instructions)`` asks the model (greedy, JSON-constrained where the backend
supports it) and accepts the last JSON object in the reply only if it fits the schema (a small
JSON-Schema subset: ``type`` object/string/integer/number/boolean/array, ``properties``,
``required``, ``enum``, ``minimum``/``maximum``, ``items``) and, when given, the caller's own
``check`` (a function returning '' or the reason). A reply that does not fit is retried
with the validation error quoted, up to ``retries`` times; after that the result is a
:class:`JudgeResult` with ``error`` set and ``verdict`` None. Every result carries the judge's
model name, the prompt it saw and each raw reply, so a report can show what the judge was asked.

Example:
    >>> validate({"score": 3}, {"type": "object", "properties": {"score": {"type": "integer",
    ...           "maximum": 10}}, "required": ["score"]})
    ''
    >>> validate({"score": "high"}, {"type": "object", "properties": {"score": {"type": "integer"}}})
    'score: expected integer, got str'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..aio import run_async
from ..models.base import Model, Prompt, Response, Sampling
from ..parse.jsonish import json_objects
from ..schema import Item, Message, Record

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
}


def validate(value: Any, schema: dict[str, Any], path: str = "") -> str:
    """'' when ``value`` fits ``schema``, else the first reason it does not."""
    where = path or "value"
    t = schema.get("type")
    if t is not None:
        ok = isinstance(value, _TYPES[t]) and not (
            t in ("integer", "number") and isinstance(value, bool)
        )
        if not ok:
            return f"{where}: expected {t}, got {type(value).__name__}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{where}: {value!r} is not one of {schema['enum']}"
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return f"{where}: {value} < minimum {schema['minimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            return f"{where}: {value} > maximum {schema['maximum']}"
    if isinstance(value, dict):
        for k in schema.get("required", []):
            if k not in value:
                return f"{path + '.' if path else ''}{k}: required"
        for k, sub in (schema.get("properties") or {}).items():
            if k in value:
                why = validate(value[k], sub, f"{path + '.' if path else ''}{k}")
                if why:
                    return why
    if isinstance(value, list) and "items" in schema:
        for i, x in enumerate(value):
            why = validate(x, schema["items"], f"{where}[{i}]")
            if why:
                return why
    return ""


@dataclass
class JudgeResult:
    verdict: dict[str, Any] | None
    error: str | None = None
    judge: str = ""
    prompt: str = ""
    replies: list[str | None] = field(default_factory=list)
    attempts: int = 0

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Judge:
    def __init__(
        self,
        model: Model,
        schema: dict[str, Any],
        instructions: str,
        retries: int = 2,
        max_tokens: int = 512,
        check: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        self.model, self.schema, self.instructions, self.retries = (
            model,
            schema,
            instructions,
            retries,
        )
        self.max_tokens, self.check = max_tokens, check

    async def ask(self, content: str, key: str = "judge") -> JudgeResult:
        """Judge ``content`` (the material after the instructions); ``key`` seeds the cache key."""
        import json

        prompt = f"{self.instructions}\n\n{content}\n\nReply with one JSON object matching this schema:\n{json.dumps(self.schema)}"
        msgs = [Message(role="user", content=prompt)]
        res = JudgeResult(verdict=None, judge=self.model.name, prompt=prompt)
        why = ""
        for attempt in range(self.retries + 1):
            res.attempts = attempt + 1
            try:
                r = await self.model.generate(
                    Prompt(tuple(msgs), self.schema, f"{key}#{attempt}"),
                    Sampling(temperature=0.0, max_tokens=self.max_tokens, structured=True),
                    attempt,
                )
            except Exception as e:  # a backend that raises is a failed attempt, never a crash
                r = Response(text=None, error=f"{type(e).__name__}: {e}")
            res.replies.append(r.text)
            if r.error is not None or r.text is None:
                why = f"judge request failed: {r.error}"
                continue
            objs = json_objects(r.text)
            if not objs:
                why = "no JSON object in the judge's reply"
            else:
                why = validate(objs[-1], self.schema)
                if not why and self.check is not None:
                    why = self.check(objs[-1])  # the caller's own rule (e.g. distinct names)
                if not why:
                    res.verdict = objs[-1]
                    return res
            msgs = [
                *msgs,
                Message(role="assistant", content=r.text),
                Message(
                    role="user",
                    content=f"That reply is not usable ({why}). Reply again with only the JSON object.",
                ),
            ]
        res.error = f"judge error after {res.attempts} attempts: {why}"
        return res


def judge_records(
    records: Sequence[Record],
    items: Sequence[Item],
    judge: str | Model,
    one: Callable[[Record, Item, Model], Awaitable[Record]],
    concurrency: int = 4,
    on_done: Callable[[Record], None] | None = None,
) -> list[Record]:
    """``one(record, item, judge)`` over every record whose item is known, ``concurrency`` at a
    time, order kept; ``on_done`` receives each result as soon as it is ready (a resumable store
    appends it); a judge given as a spec is loaded here and closed afterwards."""
    import asyncio

    from ..models.base import load_model

    by_id = {it.item_id: it for it in items}
    m = load_model(judge) if isinstance(judge, str) else judge

    async def go() -> list[Record]:
        sem = asyncio.Semaphore(concurrency)

        async def each(r: Record) -> Record:
            it = by_id.get(r.item_id)
            if it is None:
                out = r
            else:
                async with sem:
                    out = await one(r, it, m)
            if on_done is not None:
                on_done(out)
            return out

        try:
            return list(await asyncio.gather(*(each(r) for r in records)))
        finally:
            if isinstance(judge, str):  # close only what was loaded here
                await m.aclose()

    return run_async(go())
