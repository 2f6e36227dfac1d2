"""A run's settings as one typed value: how a run runs — samples, sampling, concurrency, the
response cache, retries, the error and spending budgets, the executor — built once at the edge
(the command line, :func:`logicforge.run`, a suite) and passed whole down the run path
(:func:`~logicforge.runner.runner.run_model`, the Ray executor), so a new setting touches this
module and the place that reads it.

Example:
    >>> s = RunSettings(samples=4, concurrency=2)
    >>> s.samples, s.sampling.temperature, s.executor
    (4, 0.0, 'local')
    >>> RunSettings(samples=0)
    Traceback (most recent call last):
    ...
    logicforge.errors.ConfigError: invalid value for 'samples': 0 — must be ≥ 1
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from ..errors import ConfigError
from ..models.base import Sampling
from .records import TRUNCATION

if TYPE_CHECKING:
    from .budget import Budget

EXECUTORS = ("local", "ray")


@dataclass(frozen=True, eq=False)
class RunSettings:
    """Everything about a run but what it runs (the items, the model) and where it writes.

    ``samples`` per item; ``sampling`` (temperature, max tokens …); ``concurrency`` requests in
    flight (a model's own ``concurrency`` wins); ``cache_path`` of the response cache (None: no
    cache); ``retry_errors``: records that ended in an error are asked again; ``progress``
    (None: on in a terminal or a notebook); ``tokenizer`` counts reasoning tokens where the
    backend reports none (None: left unknown); ``max_errors``: the run stops cleanly past that
    many error records; ``truncation``: a reply cut off by the token limit is ``incorrect`` (the
    papers' rule) or scored ``as-parsed``; ``executor`` ``local`` or ``ray`` (at
    ``ray_address``); ``budget`` caps cost and tokens (one budget may span several runs)."""

    samples: int = 1
    sampling: Sampling = field(default_factory=Sampling)
    concurrency: int = 8
    cache_path: str | Path | None = None
    retry_errors: bool = True
    progress: bool | None = None
    tokenizer: str | None = "auto"
    max_errors: int | None = None
    truncation: str = "incorrect"
    executor: str = "local"
    ray_address: str | None = None
    budget: Budget | None = None

    def __post_init__(self) -> None:
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise ConfigError("samples", self.samples, "must be ≥ 1")
        if self.concurrency < 1:
            raise ConfigError("concurrency", self.concurrency, "must be ≥ 1")
        if self.truncation not in TRUNCATION:
            raise ConfigError(
                "truncation", self.truncation, f"choose one of {', '.join(TRUNCATION)}"
            )
        if self.executor not in EXECUTORS:
            raise ConfigError("executor", self.executor, "choose local or ray")
        if self.max_errors is not None and self.max_errors < 0:
            raise ConfigError("max_errors", self.max_errors, "must be ≥ 0")
        if self.sampling is None:  # None stands for the defaults
            object.__setattr__(self, "sampling", Sampling())

    def but(self, **changes: Any) -> RunSettings:
        """These settings with ``changes`` (validated again).

        Example:
            >>> RunSettings().but(samples=3).samples
            3
        """
        return dataclasses.replace(self, **changes)

    @classmethod
    def of(cls, settings: RunSettings | None = None, **options: Any) -> RunSettings:
        """``settings`` (default: the defaults) with ``options`` over them; an option that is not
        a setting fails naming it."""
        base = settings or cls()
        names = {f.name for f in dataclasses.fields(cls)}
        for k in options:
            if k not in names:
                raise ConfigError(
                    k, options[k], f"is not a run setting ({', '.join(sorted(names))})"
                )
        return base.but(**options) if options else base


class RunOptions(TypedDict, total=False):
    """The settings :func:`logicforge.run` takes as keywords (one per :class:`RunSettings`
    field)."""

    samples: int
    sampling: Sampling | None
    concurrency: int
    cache_path: str | Path | None
    retry_errors: bool
    progress: bool | None
    tokenizer: str | None
    max_errors: int | None
    truncation: str
    executor: str
    ray_address: str | None
    budget: Budget | None
