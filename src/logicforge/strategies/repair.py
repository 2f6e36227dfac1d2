"""Multi-turn repair with solver feedback, against plain retries and self-review at equal turns.

After an answer that is not wholly right, the model is told something and answers again, for at
most ``turns`` more turns (and, with ``budget=N``, until its completion tokens reach N):

* ``solver`` — what the checker found (:func:`logicforge.kinds.feedback.feedback`: the clauses
  its assignment leaves false, a model of the set it called contradictory, the first invalid
  proof step, the clues its grid breaks …, and that the reply was cut off when it hit the token
  limit); stops once the answer is right (a reply cut off is never right, as the run scores it);
* ``retry`` — only "your answer is wrong, try again"; stops once the answer is right;
* ``review`` — self-verification without any verdict: "review your answer…" after every turn
  (the model cannot know when to stop, so every turn is used).

The last answer is the record's; tokens and latency add up over the turns. ``extra`` keeps the
mode, the turn budget, the turns used, whether each turn's answer was right
(``repair_solved``), the cumulative completion tokens after each turn and the facts told
(``repair_facts``), so the report compares the arms turn by turn and at equal token cost
(:mod:`logicforge.reports.repair`).

Spec: ``repair:<turns>:<solver|retry|review>:<inner model spec>[;budget=N]``, e.g.
``repair:2:solver:embedded`` or ``repair:3:retry:openai-compatible:URL:NAME;budget=4000``.
"""

from __future__ import annotations

from ..errors import ConfigError, ModelError
from ..models.base import Model, Prompt, Response, Sampling, load_model
from ..registry import MODELS
from ..schema import Message
from .options import StrategyOptions, inner_spec, strategy_head, strategy_options
from .selfverify import REVIEW

MODES = ("solver", "retry", "review")
CUT = "your reply was cut off at the token limit: reason more briefly"


class RepairModel:
    """Example:
    >>> from logicforge.models.baselines import OracleBaseline
    >>> RepairModel(OracleBaseline(), 2, "solver").name
    'oracle+repair2-solver'
    """

    def __init__(
        self,
        inner: Model,
        turns: int,
        mode: str,
        budget: int | None = None,
        options: StrategyOptions | None = None,
    ) -> None:
        if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 8:
            raise ConfigError("turns", turns, "must be an integer in 1..8")
        if mode not in MODES:
            raise ConfigError("mode", mode, f"must be one of {', '.join(MODES)}")
        if budget is not None and budget < 1:
            raise ConfigError("budget", budget, "must be a positive number of completion tokens")
        self.inner, self.turns, self.mode, self.budget = inner, turns, mode, budget
        self.options = options or StrategyOptions()
        tag = f"repair{turns}-{mode}" + (f"-b{budget}" if budget else "") + self.options.tag()
        self.name = f"{inner.name}+{tag}"
        self.cache_id = f"{inner.cache_id}+{tag}" if inner.cache_id else None

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        from ..kinds import parse_answer, verify
        from ..kinds.feedback import RETRY, facts, message, solved

        item = prompt.item
        if item is None:
            raise ModelError("repair needs a logicforge item to check the answers")
        sampling = self.options.sampling(sampling)
        r = await self.inner.generate(prompt, sampling, sample)
        msgs = list(prompt.messages)
        prompt_t, completion_t, latency = (
            r.prompt_tokens or 0,
            r.completion_tokens or 0,
            r.latency_s,
        )
        ok: list[bool] = []
        spent: list[int] = []
        told: list[int] = []
        while True:
            if r.error is not None or r.text is None:
                break
            answer = parse_answer(r.text, item)
            verdict = verify(item, answer)
            cut = r.finish_reason == "length"  # scored wrong by the run, so never "solved" here
            ok.append(solved(verdict) and not cut)
            spent.append(completion_t)
            if len(ok) > self.turns or (self.budget is not None and completion_t >= self.budget):
                break
            if self.mode == "review":
                note = REVIEW
            elif ok[-1]:
                break
            elif self.mode == "solver":
                found = [CUT] * cut + facts(item, answer, verdict)
                note = message(found)
                told.append(len(found))
            else:
                note = RETRY
            msgs += [
                Message(role="assistant", content=r.text),
                Message(role="user", content=note),
            ]
            r = await self.inner.generate(prompt.with_messages(msgs), sampling, sample)
            prompt_t += r.prompt_tokens or 0
            completion_t += r.completion_tokens or 0
            latency += r.latency_s
        r.prompt_tokens, r.completion_tokens, r.latency_s = prompt_t, completion_t, latency
        r.extra |= {
            "turns": len(ok) or 1,
            "repair_mode": self.mode,
            "repair_turns": self.turns,
            "repair_solved": ok,
            "repair_tokens": spent,
            "repair_facts": told,
        }
        return r

    async def aclose(self) -> None:
        await self.inner.aclose()


def _factory(head: str, opts: dict[str, str]) -> RepairModel:
    turns, mode, inner = strategy_head("repair", head, "<turns>:<solver|retry|review>", "turns")
    rest = dict(opts)
    budget = None
    if "budget" in rest:
        try:
            budget = int(rest.pop("budget"))
        except ValueError:
            raise ConfigError("budget", opts["budget"], "must be an integer") from None
    mine, rest = strategy_options(rest, "repair")
    return RepairModel(load_model(inner_spec(inner, rest)), turns, mode, budget, mine)


MODELS.register("repair", _factory)
