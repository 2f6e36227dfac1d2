"""Best-of-n around any model, with a pluggable scorer (ZebraLogic §5; generic for every family).

The inner model answers ``n`` times (samples ``sample·n … sample·n + n − 1``, so each candidate has
its own cache key); a scorer gives each candidate a number and the highest wins (ties: the earlier
candidate). The record's answer is the winner's; tokens and latency add up over all candidates and
the scorer's own calls; ``extra`` keeps every score, the winner's index and the scorer's failures.

Scorers:

* ``oracle`` — the verifier's score (1 for a correct answer, the cell fraction for a zebra grid):
  best-of-n with a perfect verifier, the upper bound that pass@n estimates;
* ``majority`` — agreement with the other candidates: how many share the candidate's decision,
  or, for a zebra grid, the summed frequency of its cells (self-consistency as a scorer);
* ``model(<spec>)`` — a reward/judge model: it sees the problem and one candidate and answers
  ``{"score": 0..10}``; an unreadable reply scores −1 and is counted in ``bon_scorer_failures``.

Spec: ``bestofn:<n>:<scorer>:<inner model spec>[;temperature=T]``, e.g.
``bestofn:4:majority:embedded``, ``bestofn:5:majority:embedded;temperature=0.7`` (the symbolic-edits
paper's inference-time scaling: candidates at their own temperature), or
``bestofn:8:model(openai-compatible:http://127.0.0.1:8001/v1:judge):openai-compatible:URL:NAME``.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from ..errors import ConfigError, ModelError
from ..models.base import Model, Prompt, Response, Sampling, load_model
from ..registry import MODELS
from ..schema import Answer, Item, Message
from .options import inner_spec, strategy_options

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 10}},
    "required": ["score"],
}
JUDGE_PROMPT = (
    "Here is a problem and one candidate answer to it.\n\n=== Problem ===\n{problem}\n\n"
    "=== Candidate answer ===\n{answer}\n\n=== Task ===\nCheck the candidate answer against every "
    "condition of the problem. Rate how likely it is to be entirely correct, from 0 (certainly "
    'wrong) to 10 (certainly correct). Reply with only a JSON object: {{"score": <0-10>}}'
)
_SCORE = re.compile(r'"?score"?\s*[:=]\s*(\d+(?:\.\d+)?)', re.I)


class Scorer(Protocol):
    name: str

    async def score(self, prompt: Prompt, texts: list[str | None]) -> tuple[list[float], Response]:
        """One score per candidate, and the scorer's own usage (a Response with token counts)."""
        ...


def _item(prompt: Prompt, scorer: str) -> Item:
    if prompt.item is None:
        raise ModelError(f"best-of-n with the {scorer} scorer needs a logicforge item to check")
    return prompt.item


def _answers(item: Item, texts: list[str | None]) -> list[Answer | None]:
    from ..kinds import parse_answer

    return [parse_answer(t, item) if t is not None else None for t in texts]


class OracleScorer:
    name = "oracle"

    async def score(self, prompt: Prompt, texts: list[str | None]) -> tuple[list[float], Response]:
        from ..kinds import verify

        item = _item(prompt, "oracle")
        out = []
        for a in _answers(item, texts):
            v = verify(item, a) if a is not None else None
            out.append(-1.0 if v is None else float(v.correct if v.score is None else v.score))
        return out, Response(text=None)


class MajorityScorer:
    name = "majority"

    async def score(self, prompt: Prompt, texts: list[str | None]) -> tuple[list[float], Response]:
        """Each candidate's support in the one majority vote (:mod:`logicforge.kinds.vote`)."""
        from ..kinds import answer_format
        from ..kinds.vote import support

        item = _item(prompt, "majority")
        return support(answer_format(item), _answers(item, texts)), Response(text=None)


class ModelScorer:
    """A judge model scores each candidate on its own (greedy, JSON-constrained when supported)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.name = f"model({model.name})"

    async def score(self, prompt: Prompt, texts: list[str | None]) -> tuple[list[float], Response]:
        problem = "\n\n".join(m.content for m in prompt.messages if m.role != "assistant")
        total = Response(text=None, prompt_tokens=0, completion_tokens=0)
        scores = []
        failures = 0
        for i, t in enumerate(texts):
            if t is None:
                scores.append(-1.0)
                continue
            q = Prompt(
                (Message(role="user", content=JUDGE_PROMPT.format(problem=problem, answer=t)),),
                JUDGE_SCHEMA,
                f"{prompt.key}#judge",
            )
            r = await self.model.generate(
                q, Sampling(temperature=0.0, max_tokens=64, structured=True), i
            )
            total.prompt_tokens = (total.prompt_tokens or 0) + (r.prompt_tokens or 0)
            total.completion_tokens = (total.completion_tokens or 0) + (r.completion_tokens or 0)
            total.latency_s += r.latency_s
            s = read_score(r.text) if r.error is None else None
            failures += s is None
            scores.append(-1.0 if s is None else s)
        total.extra["failures"] = failures
        return scores, total


def read_score(text: str | None) -> float | None:
    """The judge's 0–10 score, or None when the reply has none.

    Example:
        >>> read_score('{"score": 7}'), read_score("no idea"), read_score('{"score": 12}')
        (7.0, None, None)
    """
    if not text:
        return None
    m = list(_SCORE.finditer(text))
    if not m:
        return None
    v = float(m[-1].group(1))
    return v if 0 <= v <= 10 else None


class BestOfNModel:
    def __init__(
        self, inner: Model, n: int, scorer: Scorer, temperature: float | None = None
    ) -> None:
        if not isinstance(n, int) or not 1 <= n <= 128:
            raise ConfigError(
                "n", n, "must be an integer in 1..128 (the ZebraLogic paper's largest N)"
            )
        if temperature is not None and not 0.0 <= temperature <= 2.0:
            raise ConfigError("temperature", temperature, "must be in 0..2")
        self.inner, self.n, self.scorer, self.temperature = inner, n, scorer, temperature
        tag = "" if temperature is None else f"-t{temperature:g}"
        self.name = f"{inner.name}+best-of-{n}-{scorer.name}{tag}"
        self.cache_id = None  # the inner model's candidates are cached one by one

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        if self.temperature is not None:  # inference-time scaling samples at its own temperature
            import dataclasses

            sampling = dataclasses.replace(sampling, temperature=self.temperature)
        cands = [
            await self.inner.generate(prompt, sampling, sample * self.n + j) for j in range(self.n)
        ]
        texts = [c.text if c.error is None else None for c in cands]
        if all(t is None for t in texts):
            return cands[0]
        scores, used = await self.scorer.score(prompt, texts)
        best = max(range(self.n), key=lambda j: (texts[j] is not None, scores[j], -j))
        win = cands[best]

        def total(attr: str) -> int | None:
            xs = [getattr(c, attr) for c in [*cands, used] if getattr(c, attr) is not None]
            return sum(xs) if xs else None

        return Response(
            text=win.text,
            finish_reason=win.finish_reason,
            prompt_tokens=total("prompt_tokens"),
            completion_tokens=total("completion_tokens"),
            reasoning_tokens=win.reasoning_tokens,
            latency_s=sum(c.latency_s for c in cands) + used.latency_s,
            attempts=sum(c.attempts for c in cands),
            extra={
                "bon_n": self.n,
                "bon_scorer": self.scorer.name,
                "bon_scores": [round(s, 4) for s in scores],
                "bon_chosen": best,
                "bon_scorer_failures": used.extra.get("failures", 0),
            },
        )

    async def aclose(self) -> None:
        await self.inner.aclose()
        if isinstance(self.scorer, ModelScorer):
            await self.scorer.model.aclose()


def make_scorer(spec: str) -> Scorer:
    if spec == "oracle":
        return OracleScorer()
    if spec == "majority":
        return MajorityScorer()
    if spec.startswith("model(") and spec.endswith(")"):
        return ModelScorer(load_model(spec[6:-1]))
    raise ConfigError("scorer", spec, "choose oracle, majority or model(<model spec>)")


def _split_scorer(rest: str) -> tuple[str, str]:
    """``"model(a:b):inner"`` → (``"model(a:b)"``, ``"inner"``), parentheses balanced."""
    if rest.startswith("model("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and ch == ")":
                return rest[: i + 1], rest[i + 2 :] if rest[i + 1 : i + 2] == ":" else ""
        return rest, ""
    head, _, inner = rest.partition(":")
    return head, inner


def _factory(head: str, opts: dict[str, str]) -> BestOfNModel:
    n_txt, _, rest = head.partition(":")
    scorer, inner = _split_scorer(rest)
    if not inner:
        raise ConfigError(
            "model", f"bestofn:{head}", "expected bestofn:<n>:<scorer>:<inner model spec>"
        )
    try:
        n = int(n_txt)
    except ValueError:
        raise ConfigError("n", n_txt, "must be an integer") from None
    mine, passed = strategy_options(opts, "bestofn")
    return BestOfNModel(
        load_model(inner_spec(inner, passed)), n, make_scorer(scorer), mine.temperature
    )


MODELS.register("bestofn", _factory)
