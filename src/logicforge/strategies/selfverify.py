"""Multi-turn self-verification around any model (ZebraLogic §5, generic for every family).

After the first answer the model is asked to review it against the problem and answer again, for
``rounds`` rounds; with ``feedback=oracle`` the review prompt first says whether the previous
answer was correct (the verifier's verdict, never the solution). The last answer is the record's
answer; tokens and latency add up over the turns.

Spec: ``selfverify:<rounds>:<none|oracle>:<inner model spec>``, e.g.
``selfverify:1:oracle:openai-compatible:http://127.0.0.1:8000/v1:m``.
"""

from __future__ import annotations

from ..errors import ConfigError, ModelError
from ..models.base import Model, Prompt, Response, Sampling, load_model
from ..registry import MODELS
from ..schema import Message
from .options import StrategyOptions, inner_spec, strategy_head, strategy_options

REVIEW = (
    "Review your answer against every clue and constraint in the problem above. If you find a mistake, "
    "correct it. Then give your final answer again in exactly the requested JSON format."
)


class SelfVerifyModel:
    def __init__(
        self,
        inner: Model,
        rounds: int = 1,
        feedback: str = "none",
        options: StrategyOptions | None = None,
    ) -> None:
        if rounds < 1 or rounds > 5:
            raise ConfigError("rounds", rounds, "must be in 1..5")
        if feedback not in ("none", "oracle"):
            raise ConfigError("feedback", feedback, "must be none or oracle")
        self.inner, self.rounds, self.feedback = inner, rounds, feedback
        self.options = options or StrategyOptions()
        tag = (
            f"selfverify{rounds}" + ("-oracle" if feedback == "oracle" else "") + self.options.tag()
        )
        self.name = f"{inner.name}+{tag}"
        self.cache_id = f"{inner.cache_id}+{tag}" if inner.cache_id else None

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        from ..kinds import parse_answer, verify

        sampling = self.options.sampling(sampling)
        item = prompt.item
        if self.feedback == "oracle" and item is None:
            raise ModelError("selfverify with oracle feedback needs a logicforge item to check")
        r = await self.inner.generate(prompt, sampling, sample)
        msgs = list(prompt.messages)
        prompt_t, completion_t, latency, turns = (
            r.prompt_tokens or 0,
            r.completion_tokens or 0,
            r.latency_s,
            1,
        )
        for _ in range(self.rounds):
            if r.error is not None or r.text is None:
                break
            note = ""
            if self.feedback == "oracle" and item is not None:
                ok = verify(item, parse_answer(r.text, item)).correct
                note = (
                    "Your previous answer is correct. "
                    if ok
                    else "Your previous answer is incorrect. "
                )
            msgs += [
                Message(role="assistant", content=r.text),
                Message(role="user", content=note + REVIEW),
            ]
            r = await self.inner.generate(prompt.with_messages(msgs), sampling, sample)
            prompt_t += r.prompt_tokens or 0
            completion_t += r.completion_tokens or 0
            latency += r.latency_s
            turns += 1
        r.prompt_tokens, r.completion_tokens, r.latency_s = prompt_t, completion_t, latency
        r.extra["turns"] = turns
        r.extra["sv_rounds"], r.extra["sv_feedback"] = self.rounds, self.feedback
        return r

    async def aclose(self) -> None:
        await self.inner.aclose()


def _factory(head: str, opts: dict[str, str]) -> SelfVerifyModel:
    rounds, feedback, inner = strategy_head("selfverify", head, "<rounds>:<none|oracle>", "rounds")
    mine, rest = strategy_options(opts, "selfverify")
    return SelfVerifyModel(load_model(inner_spec(inner, rest)), rounds, feedback, mine)


MODELS.register("selfverify", _factory)
