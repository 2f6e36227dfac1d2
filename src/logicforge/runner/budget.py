"""Cost and token caps for a run: ``--max-cost USD`` and ``--max-tokens-total N``.

Before each request the runner asks the budget to *reserve* the request's worst case — its
prompt at one token per UTF-8 byte plus 16 per message (a byte-level BPE token is at least one
byte; the 16 cover a chat template's markers), and ``max_tokens`` per call of the model
(wrappers such as best-of-n make several) — and sends it only if the money and tokens already
spent, plus every reservation still in flight, plus this one stay within the caps. When the reply
comes back the reservation is replaced by what the API says it used (the worst case again when
it reports no usage). So a run never passes a cap, with any concurrency, and a batch backend's
requests are all reserved before the batch is submitted.

At the cap the run stops cleanly: no new request, the replies in flight recorded, the counts say
``stopped`` and how much was spent; running the same command again (with a higher cap, or a new
budget for the new invocation) resumes where it stopped. Costs come from a price table
(``--prices``, $/1M tokens per model pattern), times the model's ``cost_factor`` (0.5 for the
batch APIs).

Example:
    >>> from logicforge.prices import PriceTable
    >>> b = Budget(max_cost=0.01, prices=PriceTable({"m": {"prompt": 1.0, "completion": 2.0}}))
    >>> b.admit("m", 1000, 2000)   # ≤ $0.005 worst case: sent
    True
    >>> b.admit("m", 1000, 2000)   # a second one in flight would still fit
    True
    >>> b.admit("m", 1000, 2000)   # a third could pass $0.01: refused, the run stops
    False
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import ConfigError
from ..models.base import Model, Response, Sampling
from ..prices import PriceTable
from ..schema import Item

PER_MESSAGE = 16


def calls_per_sample(model: Model) -> int:
    """Requests one sample costs: wrappers multiply their inner model's calls."""
    inner = getattr(model, "inner", None)
    base = calls_per_sample(inner) if inner is not None else 1
    n = getattr(model, "n", None)
    rounds = getattr(model, "rounds", None)
    if n is not None:  # best-of-n: n candidates, and n judge calls when a model scores them
        judge = getattr(getattr(model, "scorer", None), "model", None)
        return int(n) * base + (int(n) if judge is not None else 0)
    if rounds is not None:
        return base * (1 + int(rounds))
    return base


def worst_prompt_tokens(item: Item) -> int:
    """An upper bound on the item's prompt tokens: UTF-8 bytes plus 16 per message."""
    return sum(len(m.content.encode()) + PER_MESSAGE for m in item.messages)


class Budget:
    def __init__(
        self,
        max_cost: float | None = None,
        max_tokens: int | None = None,
        prices: PriceTable | None = None,
    ) -> None:
        if max_cost is not None and (not math.isfinite(max_cost) or max_cost < 0):
            raise ConfigError("max_cost", max_cost, "must be a number of US dollars ≥ 0")
        if max_tokens is not None and max_tokens < 0:
            raise ConfigError("max_tokens_total", max_tokens, "must be a token count ≥ 0")
        if max_cost is not None and prices is None:
            raise ConfigError("max_cost", max_cost, "needs a price table: give --prices FILE")
        self.max_cost, self.max_tokens, self.prices = max_cost, max_tokens, prices
        self.spent_usd = 0.0
        self.spent_tokens = 0
        self.requests = 0
        self._held_usd = 0.0
        self._held_tokens = 0
        self.stopped: str | None = None  # the cap that stopped the run

    def check_model(self, name: str) -> None:
        """Fail before work starts when the cost cap cannot price this model."""
        if self.max_cost is not None and self.prices is not None and self.prices.rate(name) is None:
            raise ConfigError(
                "prices", name, "has no price in the table, so --max-cost cannot be enforced"
            )

    def _cost(self, name: str, prompt: float, completion: float, factor: float) -> float:
        if self.max_cost is None or self.prices is None:
            return 0.0
        c = self.prices.cost(name, prompt, completion)
        return (c or 0.0) * factor

    def admit(self, name: str, prompt: int, completion: int, factor: float = 1.0) -> bool:
        """Reserve a request's worst case (``prompt`` + ``completion`` tokens); False — and the
        run stops — when it could pass a cap."""
        if self.stopped:
            return False
        usd = self._cost(name, prompt, completion, factor)
        tok = prompt + completion
        if self.max_cost is not None and self.spent_usd + self._held_usd + usd > self.max_cost:
            self.stopped = "max-cost"
            return False
        if self.max_tokens is not None and (
            self.spent_tokens + self._held_tokens + tok > self.max_tokens
        ):
            self.stopped = "max-tokens-total"
            return False
        self._held_usd += usd
        self._held_tokens += tok
        return True

    def settle(
        self, name: str, prompt: int, completion: int, r: Response, factor: float = 1.0
    ) -> None:
        """Replace the reservation by what the reply used (its worst case when unreported)."""
        self._held_usd -= self._cost(name, prompt, completion, factor)
        self._held_tokens -= prompt + completion
        p = r.prompt_tokens if r.prompt_tokens is not None else (0 if r.error else prompt)
        c = (
            r.completion_tokens
            if r.completion_tokens is not None
            else (0 if r.error else completion)
        )
        self.spent_usd += self._cost(name, p, c, factor)
        self.spent_tokens += p + c
        self.requests += 1

    def worst(self, item: Item, sampling: Sampling, calls: int) -> tuple[int, int]:
        return worst_prompt_tokens(item) * calls, sampling.max_tokens * calls

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"spent_tokens": self.spent_tokens, "requests": self.requests}
        if self.max_cost is not None:
            out["spent_usd"] = round(self.spent_usd, 6)
            out["max_cost"] = self.max_cost
        if self.max_tokens is not None:
            out["max_tokens_total"] = self.max_tokens
        if self.stopped:
            out["stopped"] = self.stopped
        return out
