"""Symbolic chain-of-thought around any model (the symbolic-edits paper's SymbCoT strategy,
Appendix D: three stages of inference, each asked for JSON).

1. **translate** — the premises and the question into symbolic form
   (``{"premises": [...], "question": "..."}``);
2. **plan and solve** — a step-by-step derivation over the symbolic form and an answer
   (``{"steps": [...], "answer": ...}``);
3. **verify** — check each step against the original problem and the symbolic form, and give
   the final answer, corrected if a step was wrong (``{"valid": true, "answer": ...}``).

The answer options come from the item's answer schema (option letters, True / False / Uncertain,
SAT / UNSAT). The record's text is the last stage's reply followed by ``\\boxed{answer}``, so the
family's own parser reads it; every stage's reply is kept in ``extra["stages"]`` and tokens and
latency add up over the stages. Errors propagate as in the paper: a wrong translation is not
repaired by later stages unless the verifier catches it.

Spec: ``symbcot:<inner model spec>``, e.g. ``symbcot:embedded``.
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from ..models.base import Model, Prompt, Response, Sampling, load_model
from ..parse.jsonish import json_objects
from ..registry import MODELS
from ..schema import Message
from .options import StrategyOptions, inner_spec, strategy_options

STAGES = (
    (
        "translate",
        "Stage 1 of 3 — translate. Rewrite every premise (condition, constraint) of the problem "
        "above and its question in symbolic form (first-order logic or constraints). Do not solve "
        'it yet. Reply with JSON: {{"premises": ["..."], "question": "..."}}',
    ),
    (
        "solve",
        "Stage 2 of 3 — plan and solve. Using the symbolic form, derive the answer step by step; "
        "each step names the premises it uses. Reply with JSON: "
        '{{"steps": ["..."], "answer": one of {options}}}',
    ),
    (
        "verify",
        "Stage 3 of 3 — verify. Check the translation against the original problem and each step "
        "against the premises it uses. If something is wrong, correct it. Reply with JSON: "
        '{{"valid": true or false, "answer": one of {options}}}',
    ),
)


def _options(prompt: Prompt) -> list[str]:
    props = (prompt.schema or {}).get("properties") or {}
    enum = (props.get("answer") or {}).get("enum")
    return [str(x) for x in enum] if enum else ["SAT", "UNSAT"]


def _schema(stage: str, options: list[str]) -> dict[str, Any]:
    ans = {"type": "string", "enum": options}
    if stage == "translate":
        return {
            "type": "object",
            "properties": {
                "premises": {"type": "array", "items": {"type": "string"}},
                "question": {"type": "string"},
            },
            "required": ["premises", "question"],
        }
    if stage == "solve":
        return {
            "type": "object",
            "properties": {"steps": {"type": "array", "items": {"type": "string"}}, "answer": ans},
            "required": ["steps", "answer"],
        }
    return {
        "type": "object",
        "properties": {"valid": {"type": "boolean"}, "answer": ans},
        "required": ["valid", "answer"],
    }


class SymbCoTModel:
    def __init__(self, inner: Model, options: StrategyOptions | None = None) -> None:
        self.inner, self.options = inner, options or StrategyOptions()
        tag = "symbcot" + self.options.tag()
        self.name = f"{inner.name}+{tag}"
        self.cache_id = f"{inner.cache_id}+{tag}" if inner.cache_id else None

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        sampling = self.options.sampling(sampling)
        options = _options(prompt)
        msgs = list(prompt.messages)
        stages: list[dict[str, Any]] = []
        answer: str | None = None
        total = Response(text=None)
        pt = ct = 0
        last = ""
        for stage, instruction in STAGES:
            msgs = [
                *msgs,
                Message(role="user", content=instruction.format(options=" / ".join(options))),
            ]
            q = prompt.with_messages(msgs, _schema(stage, options))
            r = await self.inner.generate(q, sampling, sample)
            pt += r.prompt_tokens or 0
            ct += r.completion_tokens or 0
            total.latency_s += r.latency_s
            stages.append({"stage": stage, "text": r.text, "error": r.error})
            if r.error is not None or r.text is None:
                total.error = f"{stage}: {r.error or 'no text'}"
                break
            last = r.text
            msgs.append(Message(role="assistant", content=r.text))
            objs = json_objects(r.text)
            got = objs[-1].get("answer") if objs else None
            if isinstance(got, str) and got in options:
                answer = got
            total.finish_reason = r.finish_reason
        total.prompt_tokens, total.completion_tokens = pt, ct
        total.extra = {"stages": stages, "turns": len(stages)}
        if total.error is None:
            total.text = last + (f"\n\\boxed{{{answer}}}" if answer is not None else "")
        return total

    async def aclose(self) -> None:
        await self.inner.aclose()


def _factory(head: str, opts: dict[str, str]) -> SymbCoTModel:
    if not head:
        raise ConfigError("model", "symbcot:", "expected symbcot:<inner model spec>")
    mine, rest = strategy_options(opts, "symbcot")
    return SymbCoTModel(load_model(inner_spec(head, rest)), mine)


MODELS.register("symbcot", _factory)
