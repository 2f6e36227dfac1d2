"""Best-of-n around any model, with a pluggable scorer (ZebraLogic §5; generic for every family).

The inner model answers ``n`` times (samples ``sample·n … sample·n + n − 1``, so each candidate has
its own cache key); a scorer gives each candidate a number and the highest wins (ties: the earlier
candidate). The record's answer is the winner's; tokens and latency add up over all candidates and
the scorer's own calls; ``extra`` keeps every score, the winner's index and the scorer's failures.

Scorers (:mod:`logicforge.strategies.scorers`): ``oracle``, ``majority``, ``model(<spec>)`` (an
LLM judge's 0–10 score), ``reward(<URL>:<model>)`` (a reward model's scalar) and
``logprob(<URL>:<model>)`` (a verifier's P(Yes)); a candidate left unscored ranks last and is
counted in ``bon_scorer_failures``.

Spec: ``bestofn:<n>:<scorer>:<inner model spec>[;temperature=T]``, e.g.
``bestofn:4:majority:embedded``, ``bestofn:5:majority:embedded;temperature=0.7`` (the symbolic-edits
paper's inference-time scaling: candidates at their own temperature), or
``bestofn:8:model(openai-compatible:http://127.0.0.1:8001/v1:judge):openai-compatible:URL:NAME``.
"""

from __future__ import annotations

from ..errors import ConfigError
from ..models.base import Model, Prompt, Response, Sampling, load_model
from ..registry import MODELS
from .options import StrategyOptions, inner_spec, strategy_options
from .scorers import Scorer, make_scorer, split_scorer


class BestOfNModel:
    def __init__(
        self,
        inner: Model,
        n: int,
        scorer: Scorer,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> None:
        if not isinstance(n, int) or not 1 <= n <= 128:
            raise ConfigError(
                "n", n, "must be an integer in 1..128 (the ZebraLogic paper's largest N)"
            )
        if temperature is not None and not 0.0 <= temperature <= 2.0:
            raise ConfigError("temperature", temperature, "must be in 0..2")
        if max_tokens is not None and not 1 <= max_tokens <= 10_000_000:
            raise ConfigError("max_tokens", max_tokens, "must be in 1..10000000")
        self.inner, self.n, self.scorer, self.temperature = inner, n, scorer, temperature
        # inference-time scaling samples at its own temperature and token limit
        self.options = StrategyOptions(temperature=temperature, max_tokens=max_tokens)
        self.name = f"{inner.name}+best-of-{n}-{scorer.name}{self.options.tag()}"
        self.cache_id = None  # the inner model's candidates are cached one by one

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        sampling = self.options.sampling(sampling)
        cands = [
            await self.inner.generate(prompt, sampling, sample * self.n + j) for j in range(self.n)
        ]
        texts = [c.text if c.error is None else None for c in cands]
        if all(t is None for t in texts):
            return cands[0]
        scores, used = await self.scorer.score(prompt, texts)
        best = max(
            range(self.n),
            key=lambda j: (texts[j] is not None, scores[j] is not None, scores[j] or 0.0, -j),
        )
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
                "bon_method": self.scorer.kind,
                "bon_scores": [None if s is None else round(s, 4) for s in scores],
                "bon_chosen": best,
                "bon_scorer_failures": used.extra.get("failures", 0),
                **(
                    {"bon_scorer_error": used.extra["scorer_error"]}
                    if "scorer_error" in used.extra
                    else {}
                ),
            },
        )

    async def aclose(self) -> None:
        await self.inner.aclose()
        await self.scorer.aclose()


def _factory(head: str, opts: dict[str, str]) -> BestOfNModel:
    n_txt, _, rest = head.partition(":")
    scorer, inner = split_scorer(rest)
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
        load_model(inner_spec(inner, passed)),
        n,
        make_scorer(scorer),
        mine.temperature,
        mine.max_tokens,
    )


MODELS.register("bestofn", _factory)
