"""Options every strategy takes after ``;`` in its spec, validated by one pydantic model.

``temperature`` — the temperature the strategy samples its inner model at (inference-time
scaling samples at its own temperature, whatever the run's); ``max_tokens`` — the token limit of
each of its inner calls (the symbolic-edits paper gives CoT 10,000 tokens and its scaling and
SymbCoT strategies 2,000); every other option is passed on to the inner model's spec.

Example:
    >>> opts, rest = strategy_options({"temperature": "0.7", "timeout": "30"}, "bestofn")
    >>> opts.temperature, rest
    (0.7, {'timeout': '30'})
    >>> strategy_options({"max_tokens": "2000"}, "symbcot")[0].tag()
    '-m2000'
"""

from __future__ import annotations

import dataclasses

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ConfigError
from ..models.base import Sampling


class StrategyOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=None, ge=1, le=10_000_000)

    def sampling(self, s: Sampling) -> Sampling:
        """``s`` with the strategy's own temperature and token limit, where it has them."""
        if self.temperature is not None:
            s = dataclasses.replace(s, temperature=self.temperature)
        if self.max_tokens is not None:
            s = dataclasses.replace(s, max_tokens=self.max_tokens)
        return s

    def tag(self) -> str:
        """The suffix that names the options in the model's name."""
        t = "" if self.temperature is None else f"-t{self.temperature:g}"
        return t + ("" if self.max_tokens is None else f"-m{self.max_tokens}")


def strategy_options(opts: dict[str, str], strategy: str) -> tuple[StrategyOptions, dict[str, str]]:
    """Split ``opts`` into the strategy's options and those of the inner model."""
    mine = {k: v for k, v in opts.items() if k in StrategyOptions.model_fields}
    rest = {k: v for k, v in opts.items() if k not in mine}
    try:
        return StrategyOptions.model_validate(mine), rest
    except ValidationError as e:
        err = e.errors()[0]
        field = str(err["loc"][0]) if err["loc"] else strategy
        raise ConfigError(field, mine.get(field), f"{strategy}: {err['msg']}") from None


def inner_spec(head: str, rest: dict[str, str]) -> str:
    """The inner model's spec with the options meant for it."""
    return head + "".join(f";{k}={v}" for k, v in rest.items())


def strategy_head(strategy: str, head: str, usage: str, count: str) -> tuple[int, str, str]:
    """Split ``<count>:<mode>:<inner spec>`` (``usage`` names the parts in the error), the count
    read as an integer: ``(count, mode, inner spec)``.

    Example:
        >>> strategy_head("repair", "2:solver:oracle", "<turns>:<mode>", "turns")
        (2, 'solver', 'oracle')
    """
    parts = head.split(":", 2)
    if len(parts) != 3:
        raise ConfigError(
            "model", f"{strategy}:{head}", f"expected {strategy}:{usage}:<inner spec>"
        )
    try:
        n = int(parts[0])
    except ValueError:
        raise ConfigError(count, parts[0], "must be an integer") from None
    return n, parts[1], parts[2]
