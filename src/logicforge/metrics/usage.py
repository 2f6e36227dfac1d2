"""Usage and cost: token totals per model from records, price tables, and the dry-run estimate.

A price table maps model names (``fnmatch`` patterns allowed, first match wins) to US dollars per
million tokens::

    gpt-4o-mini: {prompt: 0.15, completion: 0.60}
    "my-vllm-*": {prompt: 0, completion: 0}

Reasoning tokens are billed as completion tokens (as the hosted APIs do) and are already part of
``completion_tokens`` when the API reports them.

Example:
    >>> p = PriceTable({"m*": {"prompt": 1.0, "completion": 2.0}})
    >>> p.cost("model-a", 1_000_000, 500_000)
    2.0
"""

from __future__ import annotations

import fnmatch
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError


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


def usage_table(
    records: Iterable[Mapping[str, Any]], prices: PriceTable | None = None
) -> list[dict[str, Any]]:
    """Per model: records, requests' token totals (prompt, completion, reasoning), cached
    records, mean latency, and the cost when a price table names the model."""
    acc: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "records": 0,
            "cached": 0,
            "prompt": 0,
            "completion": 0,
            "reasoning": 0,
            "lat": 0.0,
        }
    )
    for r in records:
        a = acc[str(r.get("model"))]
        u = r.get("usage") or {}
        a["records"] += 1
        a["cached"] += bool(r.get("cached"))
        a["prompt"] += u.get("prompt_tokens") or 0
        a["completion"] += u.get("completion_tokens") or 0
        a["reasoning"] += u.get("reasoning_tokens") or 0
        a["lat"] += r.get("latency_s") or 0.0
    rows = []
    for m, a in sorted(acc.items()):
        row: dict[str, Any] = {
            "model": m,
            "records": a["records"],
            "cached": a["cached"],
            "prompt_tokens": a["prompt"],
            "completion_tokens": a["completion"],
            "reasoning_tokens": a["reasoning"],
            "mean_latency_s": round(a["lat"] / a["records"], 4) if a["records"] else None,
        }
        if prices is not None:
            c = prices.cost(m, a["prompt"], a["completion"])
            row["cost_usd"] = None if c is None else round(c, 6)
        rows.append(row)
    if prices is not None and len(rows) > 1:
        costs = [r["cost_usd"] for r in rows if r["cost_usd"] is not None]
        rows.append(
            {
                "model": "(total)",
                "records": sum(r["records"] for r in rows),
                "cached": sum(r["cached"] for r in rows),
                "prompt_tokens": sum(r["prompt_tokens"] for r in rows),
                "completion_tokens": sum(r["completion_tokens"] for r in rows),
                "reasoning_tokens": sum(r["reasoning_tokens"] for r in rows),
                "mean_latency_s": None,
                "cost_usd": round(sum(costs), 6) if costs else None,
            }
        )
    return rows
