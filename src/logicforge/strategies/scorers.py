"""The scorers best-of-n picks its answer with: each gives every candidate a number (or None when
it cannot), and the highest wins.

* ``oracle`` — the verifier's score (1 for a correct answer, the cell fraction for a zebra grid):
  best-of-n with a perfect verifier, the upper bound that pass@n estimates;
* ``majority`` — agreement with the other candidates: how many share the candidate's decision,
  or, for a zebra grid, the summed frequency of its cells (self-consistency as a scorer);
* ``model(<model spec>)`` — an LLM judge: it sees the problem and one candidate and answers
  ``{"score": 0..10}``;
* ``reward(<endpoint URL>:<model>)`` — a reward model behind an HTTP endpoint that returns a
  scalar for a (problem, candidate) conversation: vLLM's ``/pooling`` (``--runner pooling`` with a
  ``*ForRewardModeling`` model: the last number of ``data[0].data``) or any server that answers
  ``{"score": x}``, ``{"reward": x}``, ``{"scores": [x]}``, ``{"rewards": [x]}`` or ``data[0]``
  with ``score`` / ``probs`` (the last class's probability);
* ``logprob(<base URL>:<model>)`` — a generative verifier read through ``/completions`` log
  probabilities: the prompt asks whether the candidate is correct, and the score is
  P(Yes) / (P(Yes) + P(No)) over the first token's top log probabilities (a ``/v1`` server:
  OpenAI, vLLM, llama.cpp's server).

A candidate the scorer cannot score (an unreadable judge reply, a reward endpoint's error, no
Yes/No among the top tokens) scores None, ranks below every scored one and is counted in the
record's ``bon_scorer_failures``. ``kind`` says which of the paper's methods a scorer is:
``oracle``, ``majority``, or ``rm`` (a judge or reward model: ZebraLogic's BoN-RM).

Example:
    >>> make_scorer("majority").kind, make_scorer("reward(http://127.0.0.1:9/pooling:rm)").name
    ('majority', 'reward(rm)')
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from typing import Any, Protocol

from ..errors import ConfigError, ModelError
from ..models.base import Model, Prompt, Response, Sampling, load_model
from ..schema import Answer, Item, Message

# one score per candidate (None: it could not be scored) and the scorer's own model call
Scores = tuple[list[float | None], Response]

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
VERIFY_PROMPT = (
    "Here is a problem and one candidate answer to it.\n\n=== Problem ===\n{problem}\n\n"
    "=== Candidate answer ===\n{answer}\n\n=== Question ===\nIs the candidate answer entirely "
    "correct? Answer Yes or No.\nAnswer:"
)
_SCORE = re.compile(r'"?score"?\s*[:=]\s*(\d+(?:\.\d+)?)', re.I)


class Scorer(Protocol):
    name: str
    kind: str

    async def score(self, prompt: Prompt, texts: list[str | None]) -> Scores:
        """One score per candidate (None: unscored), and the scorer's own usage (a Response with
        token counts, ``extra["failures"]`` the candidates it could not score)."""
        ...

    async def aclose(self) -> None: ...


def _item(prompt: Prompt, scorer: str) -> Item:
    if prompt.item is None:
        raise ModelError(f"best-of-n with the {scorer} scorer needs a logicforge item to check")
    return prompt.item


def _answers(item: Item, texts: list[str | None]) -> list[Answer | None]:
    from ..kinds import parse_answer

    return [parse_answer(t, item) if t is not None else None for t in texts]


def _problem(prompt: Prompt) -> str:
    return "\n\n".join(m.content for m in prompt.messages if m.role != "assistant")


class OracleScorer:
    name = kind = "oracle"

    async def score(self, prompt: Prompt, texts: list[str | None]) -> Scores:
        from ..kinds import verify

        item = _item(prompt, "oracle")
        out: list[float | None] = []
        for a in _answers(item, texts):
            v = verify(item, a) if a is not None else None
            out.append(None if v is None else float(v.correct if v.score is None else v.score))
        return out, Response(text=None)

    async def aclose(self) -> None:
        return None


class MajorityScorer:
    name = kind = "majority"

    async def score(self, prompt: Prompt, texts: list[str | None]) -> Scores:
        """Each candidate's support in the one majority vote (:mod:`logicforge.kinds.vote`)."""
        from ..kinds import answer_format
        from ..kinds.vote import support

        item = _item(prompt, "majority")
        return list(support(answer_format(item), _answers(item, texts))), Response(text=None)

    async def aclose(self) -> None:
        return None


class ModelScorer:
    """A judge model scores each candidate on its own (greedy, JSON-constrained when supported)."""

    kind = "rm"

    def __init__(self, model: Model) -> None:
        self.model = model
        self.name = f"model({model.name})"

    async def score(self, prompt: Prompt, texts: list[str | None]) -> Scores:
        problem = _problem(prompt)
        total = Response(text=None, prompt_tokens=0, completion_tokens=0)
        scores: list[float | None] = []
        failures = 0
        for i, t in enumerate(texts):
            if t is None:
                scores.append(None)
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
            scores.append(s)
        total.extra["failures"] = failures
        return scores, total

    async def aclose(self) -> None:
        await self.model.aclose()


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


def _number(v: Any) -> float | None:
    """``v`` as a finite float (the last number of a nested list: a per-token reward's last
    token), else None."""
    while isinstance(v, list) and v:
        v = v[-1]
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        return None
    return float(v)


def read_reward(obj: Any) -> float | None:
    """The scalar reward in a reward endpoint's JSON reply, or None (shapes: module docstring).

    Example:
        >>> read_reward({"data": [{"index": 0, "data": [[0.1], [2.5]]}]}), read_reward({"score": 1})
        (2.5, 1.0)
        >>> read_reward({"data": [{"probs": [0.2, 0.8]}]}), read_reward({"data": []})
        (0.8, None)
    """
    if not isinstance(obj, dict):
        return None
    for k in ("score", "reward", "scores", "rewards"):
        if k in obj:
            return _number(obj[k][:1] if isinstance(obj[k], list) else obj[k])
    data = obj.get("data")
    if isinstance(data, list) and data and isinstance(data[0], dict):
        for k in ("data", "score", "probs"):
            if k in data[0]:
                return _number(data[0][k])
    return None


def read_yes_probability(obj: Any) -> float | None:
    """P(Yes) / (P(Yes) + P(No)) from the first token's top log probabilities of a completions
    reply — the legacy shape (``logprobs.top_logprobs[0]``: token → logprob) or the newer one
    (``logprobs.content[0].top_logprobs``: a list of {token, logprob}); tokens compared without
    case or surrounding space. None when neither Yes nor No is among them.

    Example:
        >>> lp = {"choices": [{"logprobs": {"top_logprobs": [{" Yes": -0.5, " No": -1.5}]}}]}
        >>> round(read_yes_probability(lp), 3)
        0.731
    """
    try:
        lp = obj["choices"][0]["logprobs"]
        if isinstance(lp.get("top_logprobs"), list):
            top = [(t, v) for t, v in lp["top_logprobs"][0].items()]
        else:
            top = [(e["token"], e["logprob"]) for e in lp["content"][0]["top_logprobs"]]
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    mass = {"yes": 0.0, "no": 0.0}
    for tok, v in top:
        w = str(tok).strip().lower()
        if w in mass and _number(v) is not None:
            mass[w] += math.exp(float(v))
    total = mass["yes"] + mass["no"]
    return mass["yes"] / total if total > 0 else None


class EndpointScorer:
    """A reward model (``reward``) or a generative verifier's Yes-probability (``logprob``)
    behind an HTTP endpoint, called once per candidate, concurrently, with the OpenAI-compatible
    client's retries, limits and key handling (``OPENAI_API_KEY``)."""

    kind = "rm"

    def __init__(self, method: str, head: str) -> None:
        from ..models.openai_compat import OpenAICompatModel
        from ..models.openai_wire import split_head

        if method not in ("reward", "logprob"):
            raise ConfigError("scorer", method, "choose reward or logprob")
        url, self.model = split_head(head)
        self.method = method
        self.client = OpenAICompatModel(url, self.model, timeout=60.0)
        self.name = f"{method}({self.model})"

    def _body(self, problem: str, text: str) -> dict[str, Any]:
        if self.method == "reward":
            return {
                "model": self.model,
                "messages": [
                    {"role": "user", "content": problem},
                    {"role": "assistant", "content": text},
                ],
            }
        return {
            "model": self.model,
            "prompt": VERIFY_PROMPT.format(problem=problem, answer=text),
            "max_tokens": 1,
            "temperature": 0.0,
            "logprobs": 20,
        }

    async def _one(self, problem: str, text: str | None) -> tuple[float | None, Response]:
        if text is None:
            return None, Response(text=None)
        path = "" if self.method == "reward" else "/completions"
        r = await self.client.post_json(path, self._body(problem, text))
        if r.error is not None or r.text is None:
            return None, r
        obj = json.loads(r.text)
        read = read_reward if self.method == "reward" else read_yes_probability
        return read(obj), r

    async def score(self, prompt: Prompt, texts: list[str | None]) -> Scores:
        problem = _problem(prompt)
        done = await asyncio.gather(*(self._one(problem, t) for t in texts))
        total = Response(text=None, latency_s=sum(r.latency_s for _, r in done))
        errors = [r.error for _, r in done if r.error]
        total.extra["failures"] = sum(
            s is None for (s, _), t in zip(done, texts, strict=True) if t is not None
        )
        if errors:
            total.extra["scorer_error"] = errors[0]
        return [s for s, _ in done], total

    async def aclose(self) -> None:
        await self.client.aclose()


def make_scorer(spec: str) -> Scorer:
    """The scorer a spec names: ``oracle``, ``majority``, ``model(<model spec>)``,
    ``reward(<endpoint URL>:<model>)`` or ``logprob(<base URL>:<model>)``."""
    if spec == "oracle":
        return OracleScorer()
    if spec == "majority":
        return MajorityScorer()
    m = re.fullmatch(r"(model|reward|logprob)\((.+)\)", spec, re.S)
    if m and m.group(1) == "model":
        return ModelScorer(load_model(m.group(2)))
    if m:
        return EndpointScorer(m.group(1), m.group(2))
    raise ConfigError(
        "scorer",
        spec,
        "choose oracle, majority, model(<model spec>), reward(<endpoint URL>:<model>) "
        "or logprob(<base URL>:<model>)",
    )


def split_scorer(rest: str) -> tuple[str, str]:
    """``"model(a:b):inner"`` → (``"model(a:b)"``, ``"inner"``), parentheses balanced.

    Example:
        >>> split_scorer("reward(http://h:8000/pooling:rm):embedded")
        ('reward(http://h:8000/pooling:rm)', 'embedded')
    """
    if re.match(r"\w+\(", rest):
        depth = 0
        for i, ch in enumerate(rest):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and ch == ")":
                return rest[: i + 1], rest[i + 2 :] if rest[i + 1 : i + 2] == ":" else ""
        return rest, ""
    head, _, inner = rest.partition(":")
    return head, inner
