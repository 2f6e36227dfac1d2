"""Price tables: model names (``fnmatch`` patterns allowed, first match wins) to US dollars per
million tokens::

    gpt-4o-mini: {prompt: 0.15, completion: 0.60}
    "my-vllm-*": {prompt: 0, completion: 0}

Example:
    >>> p = PriceTable({"m*": {"prompt": 1.0, "completion": 2.0}})
    >>> p.cost("model-a", 1_000_000, 500_000)
    2.0
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from pathlib import Path

from .errors import ConfigError


class PriceTable:
    def __init__(self, prices: Mapping[str, Mapping[str, float]]) -> None:
        for name, p in prices.items():
            if not isinstance(p, Mapping) or set(p) - {"prompt", "completion"}:
                raise ConfigError(
                    "prices", {name: p}, "each entry is {prompt: $/1M tokens, completion: $/1M}"
                )
            for k, v in p.items():
                if not isinstance(v, int | float) or v < 0:
                    raise ConfigError(f"prices.{name}.{k}", v, "must be a number ≥ 0")
        self.prices = dict(prices)

    @classmethod
    def load(cls, path: str | Path) -> PriceTable:
        import yaml

        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as e:
            raise ConfigError("prices", str(path), f"cannot read it ({e})") from None
        if not isinstance(data, dict):
            raise ConfigError("prices", str(path), "must map model names to prices")
        return cls(data)

    def rate(self, model: str) -> Mapping[str, float] | None:
        for pattern, p in self.prices.items():
            if fnmatch.fnmatchcase(model, pattern):
                return p
        return None

    def cost(self, model: str, prompt_tokens: float, completion_tokens: float) -> float | None:
        p = self.rate(model)
        if p is None:
            return None
        return (
            prompt_tokens * p.get("prompt", 0.0) + completion_tokens * p.get("completion", 0.0)
        ) / 1e6
