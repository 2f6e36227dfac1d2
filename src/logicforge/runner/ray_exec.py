"""Evaluation on a Ray cluster (``--executor ray``); generation's shards run through
:mod:`logicforge.executor`.

Evaluation ships shards of items to workers; each worker builds its own client from the model
spec and returns scored records; only the driver writes the results store, and it skips any
record id already there. A worker that dies takes its unfinished shard with it and Ray retries
the shard elsewhere (``max_retries``), so nothing is lost, and nothing is written twice. The
response cache and the error budget (``max_errors``) work as in a local run: the driver answers
cache hits itself, caches what workers send back, and cancels pending shards past the budget.

The cluster address comes from ``address`` (``--ray-address``), else ``RAY_ADDRESS``, else a local
cluster is started. ``pip install ray`` provides it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..aio import run_async
from ..executor import ray_init, ray_window
from ..schema import Item

SHARD_ITEMS = 16


def _eval_shard(
    spec: str,
    items_json: list[str],
    todo: list[list[int]],
    sampling: dict[str, Any],
    concurrency: int,
    tokenizer: str | None,
    truncation: str = "incorrect",
) -> list[tuple[str, bytes, bool, dict[str, Any]]]:
    """Run one shard in a worker: (record id, record line, errored, the raw response) for every
    sample asked; the driver scores nothing again, it only caches the response."""
    import dataclasses

    from ..models.base import Prompt, Sampling, load_model
    from ..models.tokens import TokenCounter
    from .records import clean_text, run_config, score_response

    model = load_model(spec)
    s = Sampling(**{**sampling, "stop": tuple(sampling.get("stop") or ())})
    config = run_config(model, s)
    tokens = TokenCounter(tokenizer) if tokenizer else None
    jobs = [
        (Item.model_validate_json(js), k)
        for js, ks in zip(items_json, todo, strict=True)
        for k in ks
    ]
    out: list[tuple[str, bytes, bool, dict[str, Any]]] = []

    async def main() -> None:
        sem = asyncio.Semaphore(max(1, concurrency))

        async def one(item: Item, k: int) -> None:
            async with sem:
                r = await model.generate(Prompt.of(item), s, k)
            r.text = clean_text(r.text)
            rec = score_response(
                item, model.name, k, r, tokens=tokens, truncation=truncation, config=config
            )
            raw = dataclasses.asdict(r)
            out.append((rec.record_id, rec.model_dump_json().encode(), rec.error is not None, raw))

        try:
            await asyncio.gather(*(one(i, k) for i, k in jobs))
        finally:
            await model.aclose()

    run_async(main())
    return out


def run_on_ray(
    items: Iterable[Item],
    spec: str,
    model: Any,
    store: Any,
    settings: Any,
    order: list[str],
    progress: Any,
    cache: Any = None,
) -> dict[str, Any]:
    """Evaluate ``items`` with the model ``spec`` (built here as ``model``) on Ray as the run's
    ``settings`` say (:class:`~logicforge.runner.settings.RunSettings`: samples, sampling,
    concurrency, retries, tokenizer, truncation, error budget, ``ray_address``), appending to
    ``store`` (driver only).

    The response cache lives at the driver, as in a local run: hits are scored here and never
    shipped; workers' responses are cached as they arrive. Past ``settings.max_errors`` error
    records the pending shards are cancelled and the run stops with the local run's message."""
    import dataclasses

    from ..models.base import Response
    from .cache import cache_key
    from .records import note_error, over_budget, record_id, run_config, score_response

    name, cache_id, sampling = model.name, model.cache_id, settings.sampling
    samples, retry_errors, tokenizer = settings.samples, settings.retry_errors, settings.tokenizer
    truncation, max_errors = settings.truncation, settings.max_errors
    config = run_config(model, sampling)
    tokens = None
    if tokenizer and cache is not None:
        from ..models.tokens import TokenCounter

        tokens = TokenCounter(tokenizer)
    keys: dict[str, tuple[Item, int]] = {}  # record id → (item, sample) of uncached requests
    counts: dict[str, Any] = {"done": 0, "errors": 0, "cached": 0, "error_messages": []}

    ray = ray_init(settings.ray_address)
    task = ray.remote(max_retries=3, retry_exceptions=False)(_eval_shard)
    samp = dataclasses.asdict(sampling)

    def shards() -> Iterator[tuple[list[str], list[list[int]]]]:
        js: list[str] = []
        ks: list[list[int]] = []
        for it in items:
            want = []
            for k in range(samples):
                rid = record_id(it.item_id, name, k)
                order.append(rid)
                if rid in store and not (retry_errors and rid in store.errored):
                    progress.skip()
                    continue
                key = (
                    cache_key(cache.scope(cache_id), it, sampling, k)
                    if cache and cache_id
                    else None
                )
                hit = cache.get(key) if key else None
                if hit is not None:  # scored at the driver, never shipped
                    rec = score_response(
                        it,
                        name,
                        k,
                        hit,
                        cached=True,
                        tokens=tokens,
                        truncation=truncation,
                        config=config,
                    )
                    store.append(rid, rec.model_dump_json().encode(), errored=False)
                    counts["done"] += 1
                    counts["cached"] += 1
                    progress.update()
                    continue
                if key:
                    keys[rid] = (it, k)
                want.append(k)
            if want:
                js.append(it.model_dump_json())
                ks.append(want)
            if len(js) == SHARD_ITEMS:
                yield js, ks
                js, ks = [], []
        if js:
            yield js, ks

    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    per_task = max(1, settings.concurrency // cpus)
    gen = shards()
    pending: list[Any] = []
    for sh in (next(gen, None) for _ in range(ray_window(ray))):
        if sh is not None:
            pending.append(task.remote(spec, sh[0], sh[1], samp, per_task, tokenizer, truncation))
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for rid, line, errored, raw in ray.get(ready[0]):
            if rid in store and not (retry_errors and rid in store.errored):
                continue  # a retried shard re-sends what is already safe on disk
            store.append(rid, line, errored=errored)
            if rid in keys and cache_id:  # keyed by what the server says it runs now
                resp, (it, k) = Response(**raw), keys.pop(rid)
                cache.observe(cache_id, resp)
                cache.put(cache_key(cache.scope(cache_id), it, sampling, k), resp)
            counts["done"] += 1
            counts["errors"] += errored
            if errored:
                note_error(counts, json.loads(line).get("error"))
            progress.update()
        if max_errors is not None and counts["errors"] > max_errors:
            for ref in pending:
                ray.cancel(ref)
            raise over_budget(counts["errors"], max_errors)
        nxt = next(gen, None)
        if nxt is not None:
            pending.append(task.remote(spec, nxt[0], nxt[1], samp, per_task, tokenizer, truncation))
    return counts
