"""Run Items × model × samples with bounded concurrency, scoring and durably storing each record.

Rerunning the same command resumes: finished records are skipped (errored ones too, unless
``retry_errors``). A SIGKILL at any moment loses no finished record and duplicates none (see
:class:`~logicforge.runner.store.RecordStore`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator, Sized
from pathlib import Path
from typing import Any

from ..aio import run_async
from ..errors import ConfigError
from ..models.base import Model, Prompt, Response
from ..models.tokens import TokenCounter
from ..schema import Item
from .budget import calls_per_sample
from .cache import ResponseCache, cache_key
from .progress import Progress
from .records import (
    check_config,
    clean_text,
    note_error,
    over_budget,
    record_id,
    run_config,
    score_response,
)
from .settings import RunSettings
from .store import RecordStore, facts_of


async def _run(
    items: Iterable[Item],
    model: Model,
    store: RecordStore,
    settings: RunSettings,
    cache: ResponseCache | None,
    progress: Progress,
    order: list[str],
    tokens: TokenCounter | None,
) -> dict[str, Any]:
    samples, sampling, budget = settings.samples, settings.sampling, settings.budget
    retry_errors, max_errors = settings.retry_errors, settings.max_errors

    def todo() -> Iterator[tuple[Item, int, str]]:
        for it in items:
            for s in range(samples):
                rid = record_id(it.item_id, model.name, s)
                order.append(rid)
                if rid not in store or (retry_errors and rid in store.errored):
                    yield it, s, rid
                else:
                    progress.skip()

    counts: dict[str, Any] = {"done": 0, "errors": 0, "cached": 0, "error_messages": []}
    it_todo = todo()
    config = run_config(model, sampling)
    calls = calls_per_sample(model)
    factor = float(getattr(model, "cost_factor", 1.0))

    async def worker() -> None:
        for item, s, rid in it_todo:
            if max_errors is not None and counts["errors"] > max_errors:
                return
            if budget is not None and budget.stopped:
                return
            cid = model.cache_id
            key = cache_key(cache.scope(cid), item, sampling, s) if (cache and cid) else None
            r = cache.get(key) if (cache and key) else None
            hit = r is not None
            if r is None:
                if budget is not None:
                    worst = budget.worst(item, sampling, calls)
                    if not budget.admit(model.name, *worst, factor):
                        return  # this item stays to do: the next run takes it
                progress.inflight += 1
                try:
                    r = await model.generate(Prompt.of(item), sampling, s)
                finally:
                    progress.inflight -= 1
                    if budget is not None:
                        budget.settle(model.name, *worst, r or Response(text=None), factor)
                r.text = clean_text(r.text)
                if cache and cid:  # keyed by what the server says it runs now
                    cache.observe(cid, r)
                    cache.put(cache_key(cache.scope(cid), item, sampling, s), r)
            rec = score_response(
                item,
                model.name,
                s,
                r,
                cached=hit,
                tokens=tokens,
                truncation=settings.truncation,
                config=config,
                rid=rid,
            )
            facts = facts_of(rec.model, rec.error, rec.finish_reason, rec.meta.get("label"))
            store.append(rec.record_id, rec.model_dump_json().encode(), facts[1], facts)
            counts["done"] += 1
            counts["errors"] += facts[1]
            counts["cached"] += hit
            note_error(counts, rec.error)
            progress.update()

    async def ticker() -> None:  # a line from the first second, before any reply is back
        progress.draw(force=True)
        await asyncio.sleep(1.0)
        progress.draw(force=progress.done == progress.skipped)  # still nothing back: say so
        while True:
            await asyncio.sleep(1.0)
            progress.draw()

    tick = asyncio.create_task(ticker())
    tasks = [asyncio.create_task(worker()) for _ in range(max(1, settings.concurrency))]
    try:
        await asyncio.gather(*tasks)
    finally:
        tick.cancel()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, tick, return_exceptions=True)
    if max_errors is not None and counts["errors"] > max_errors:
        raise over_budget(counts["errors"], max_errors)
    return counts


def run_model(
    items: Iterable[Item],
    model: Model,
    records_path: str | Path,
    settings: RunSettings | None = None,
    *,
    cache: ResponseCache | None = None,
    total_items: int | None = None,
    spec: str | None = None,
) -> dict[str, Any]:
    """Run every (item, sample) not yet in ``records_path`` and append its scored record, as
    ``settings`` say (:class:`~logicforge.runner.settings.RunSettings`; its ``cache_path`` is
    the caller's to open: pass the open ``cache``).

    ``items`` may be any iterable (a list, or a generator streaming a large file); it is read once.
    ``settings.tokenizer`` counts reasoning tokens when the backend reports none (see
    :mod:`logicforge.models.tokens`). Past ``settings.max_errors`` error records the run stops
    cleanly (:class:`ModelError`). With ``settings.executor == "ray"`` the shards run on a Ray
    cluster (see :mod:`.ray_exec`), each worker building the model from ``spec``; the store,
    resume and compaction are the same. With a ``settings.budget`` (:mod:`.budget`), no request
    is sent that could pass its cost or token cap; at the cap the run stops cleanly (counts
    ``budget.stopped``) and a rerun resumes.
    Returns counts: ``done`` (this call), ``errors``, ``cached``, ``total`` (records in the file),
    ``file`` (per model: records, errors, truncated, excluded in the file).
    """
    settings = settings or RunSettings()
    sampling, budget = settings.sampling, settings.budget
    ray = settings.executor == "ray"
    if ray and spec is None:
        raise ConfigError("model", model.name, "the Ray executor needs a model spec string")
    tokenizer = settings.tokenizer
    tokens = TokenCounter(tokenizer) if tokenizer else None
    if budget is not None:
        if ray:
            raise ConfigError("executor", "ray", "cost and token caps need the local executor")
        budget.check_model(model.name)
    store = RecordStore(records_path)
    try:
        check_config(store, model.name, run_config(model, sampling), records_path)
    except ConfigError:
        store.release()
        raise
    if total_items is None and isinstance(items, Sized):
        total_items = len(items)

    def waits() -> str:
        w = getattr(model, "waited_s", 0.0)
        return f"waited {w:.0f} s to retry" if w >= 1 else ""

    bar = Progress(
        (total_items or 0) * settings.samples,
        model.name,
        enabled=bool(settings.progress),
        note=waits,
    )
    order: list[str] = []

    async def main() -> dict[str, Any]:
        try:
            return await _run(items, model, store, settings, cache, bar, order, tokens)
        finally:
            await model.aclose()

    def execute() -> dict[str, Any]:
        if not ray:
            return run_async(main())
        from .ray_exec import run_on_ray

        return run_on_ray(items, spec or "", model, store, settings, order, bar, cache)

    try:  # one store discipline for both executors: close the bar, compact, release the lock
        try:
            counts = execute()
        finally:
            bar.close()
        store.compact(order)
        counts["total"] = len(store)
        counts["file"] = store.counts()  # per model, as manifest.record_counts reads the file
    finally:
        store.release()
    if budget is not None:
        counts["budget"] = budget.summary()
    return counts
