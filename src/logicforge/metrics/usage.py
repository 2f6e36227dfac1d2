"""Usage and cost: token totals per model from records, price tables, and the dry-run estimate.

A price table maps model names (``fnmatch`` patterns allowed, first match wins) to US dollars per
million tokens::

    gpt-4o-mini: {prompt: 0.15, completion: 0.60}
    "my-vllm-*": {prompt: 0, completion: 0}

Reasoning tokens are billed as completion tokens (as the hosted APIs do) and are already part of
``completion_tokens`` when the API reports them.

The price table is :mod:`logicforge.prices`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from ..prices import PriceTable


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
