"""``run --dry-run``: what a run would send, before anything is sent.

Per model: items, samples, records still to do (those already in the records file are skipped on
a real run too), requests (a best-of-n wrapper makes n calls per sample, plus n judge calls; a
self-verification wrapper 1 + rounds), prompt tokens (counted with the reasoning-token tokenizer
over the prompt messages; multi-turn wrappers resend a longer conversation, so this is a lower
bound for them), the completion-token ceiling (``max_tokens`` per request), and — with a price
table — the cost ceiling. No request is made; a local model (one with a ``speed()`` probe, such
as the embedded one) is loaded once to measure its prompt and completion tokens/s here, which
gives ``hours_max``: the time at the completion ceiling, one request at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..models.base import Model, Sampling
from ..models.prices import PriceTable
from ..models.tokens import TokenCounter
from ..schema import Item
from .budget import calls_per_sample
from .runner import record_id
from .store import read_jsonl


def estimate(
    items: Iterable[Item],
    models: list[Model],
    *,
    samples: int,
    sampling: Sampling,
    records_path: str | Path | None = None,
    prices: PriceTable | None = None,
    tokenizer: str = "auto",
) -> list[dict[str, Any]]:
    counter = TokenCounter(tokenizer)
    per_item: list[tuple[str, int]] = []
    for it in items:
        text = "\n".join(m.content for m in it.messages)
        per_item.append((it.item_id, counter.count(text) + 4 * len(it.messages)))
    done: set[str] = set()
    if records_path is not None and Path(records_path).exists():
        done = {str(r.get("record_id")) for r in read_jsonl(records_path, allow_torn_tail=True)}
    rows = []
    for m in models:
        todo = [
            (iid, tok)
            for iid, tok in per_item
            for s in range(samples)
            if record_id(iid, m.name, s) not in done
        ]
        calls = calls_per_sample(m)
        prompt = sum(tok for _, tok in todo) * calls
        completion = len(todo) * calls * sampling.max_tokens
        row: dict[str, Any] = {
            "model": m.name,
            "items": len(per_item),
            "samples": samples,
            "records_to_do": len(todo),
            "requests": len(todo) * calls,
            "prompt_tokens": prompt,
            "completion_tokens_max": completion,
            "tokenizer": counter.resolved,
        }
        if prices is not None:
            c = prices.cost(m.name, prompt, completion)
            row["cost_usd_max"] = None if c is None else round(c, 4)
        probe = getattr(m, "speed", None)
        if callable(probe) and todo:
            prefill, decode = probe()
            row["tokens_per_s"] = round(decode, 1)
            row["hours_max"] = round((prompt / prefill + completion / decode) / 3600, 2)
        rows.append(row)
    return rows
