"""Run Items × model × samples with bounded concurrency, scoring and durably storing each record.

Rerunning the same command resumes: finished records are skipped (errored ones too, unless
``retry_errors``). A SIGKILL at any moment loses no finished record and duplicates none (see
:class:`~logicforge.runner.store.RecordStore`).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sized
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..aio import run_async
from ..errors import ConfigError, ModelError
from ..kinds import parse_answer, verify
from ..models.base import Model, Prompt, Response, Sampling
from ..models.tokens import TokenCounter
from ..schema import Item, Record, Usage, Verdict
from .budget import Budget, calls_per_sample
from .cache import ResponseCache, cache_key
from .progress import Progress
from .store import RecordStore, facts_of


def clean_text(text: str | None) -> str | None:
    """Replace lone surrogates (from ``\\udXXX`` escapes in a server's JSON) with U+FFFD, so the
    text can be stored as UTF-8; any other text is returned as it is.

    Example:
        >>> clean_text("ok"), clean_text("a" + chr(0xD800) + "b") == "a\ufffdb"
        ('ok', True)
    """
    if text is None:
        return None
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def record_id(item_id: str, model: str, sample: int) -> str:
    return hashlib.sha1(f"{item_id}\x1f{model}\x1f{sample}".encode()).hexdigest()[:20]


def run_config(model: Model, sampling: Sampling) -> dict[str, Any]:
    """What a record's text depends on besides its prompt: the model's configuration (its cache
    id, endpoints) and the sampling. Stored on every record, so a resume with another
    configuration is refused instead of mixing answers.

    Example:
        >>> from logicforge.models.base import load_model
        >>> run_config(load_model("oracle"), Sampling())["temperature"]
        0.0
    """
    urls = getattr(model, "urls", None)
    return {
        "model": model.cache_id or model.name,
        "endpoint": "|".join(urls) if urls else None,
        **{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(sampling).items()},
    }


def check_config(store: RecordStore, name: str, config: dict[str, Any], path: Any) -> None:
    """Refuse to add records of ``name`` made with ``config`` to a file whose records of that
    model were made with another one (records without a configuration are not checked)."""
    old = store.configs.get(name)
    if old is None or old == config:
        return
    diff = ", ".join(
        f"{k} {old.get(k)!r} → {config.get(k)!r}"
        for k in sorted(set(old) | set(config))
        if old.get(k) != config.get(k)
    )
    raise ConfigError(
        "records",
        str(path),
        f"holds records of model {name!r} made with another configuration ({diff}); "
        "resuming would mix them — use another --records file, or give this configuration "
        "its own model name (name=…)",
    )


def item_meta(item: Item) -> dict[str, Any]:
    # the story's validation log stays on the item (the report reads it from items.jsonl)
    meta = {k: v for k, v in item.metadata.items() if k not in ("spawn_key", "story")}
    meta.update(
        family=item.family,
        kind=item.kind,
        answer_format=item.answer_format,
        label=item.gold.get("label"),
        rendering=item.rendering,
        problem_id=item.problem_id,
        pair_id=item.pair_id,
    )
    return meta


TRUNCATION = ("incorrect", "as-parsed")


def truncated_verdict(v: Verdict, policy: str) -> Verdict:
    """The verdict of a reply cut off by the token limit (``finish_reason == "length"``).

    ``incorrect`` (the default, as the 2-SAT robustness paper §5 and SATBench score it): wrong,
    whatever it says, and counted as truncated rather than as a parse failure; what it would have
    scored stays in ``details``. ``as-parsed``: scored like a finished reply.

    Example:
        >>> truncated_verdict(Verdict(correct=True), "incorrect").correct
        False
    """
    if policy == "as-parsed":
        return v.model_copy(update={"details": v.details | {"truncation": "as-parsed"}})
    return Verdict(
        correct=False,
        reason="truncated: the reply hit the token limit (scored incorrect)",
        error_type="truncated",
        excluded=v.excluded,
        details=v.details
        | {"truncation": "incorrect", "as_parsed": {"correct": v.correct, "reason": v.reason}},
    )


def score_response(
    item: Item,
    model: str,
    sample: int,
    r: Response,
    cached: bool = False,
    tokens: TokenCounter | None = None,
    truncation: str = "incorrect",
    config: dict[str, Any] | None = None,
    rid: str | None = None,
) -> Record:
    """Parse and verify one response into a Record (``rid``: its record id, when known).
    Reasoning tokens come from the response's usage; when it has none and ``tokens`` is given,
    they are counted in its reasoning text. A reply cut off by the token limit is scored by the
    ``truncation`` policy (:func:`truncated_verdict`)."""
    answer = parse_answer(r.text, item) if r.error is None else None
    verdict = verify(item, answer) if answer is not None else None
    if verdict is not None and r.finish_reason == "length":
        verdict = truncated_verdict(verdict, truncation)
    reasoning, source = r.reasoning_tokens, r.reasoning_source
    if reasoning is not None:
        source = source or "usage"
    elif tokens is not None and r.text is not None and r.error is None:
        reasoning, source = tokens.reasoning_tokens(r.text)
    return Record(
        record_id=rid or record_id(item.item_id, model, sample),
        item_id=item.item_id,
        model=model,
        sample=sample,
        text=r.text,
        finish_reason=r.finish_reason,
        usage=Usage(
            prompt_tokens=r.prompt_tokens,
            completion_tokens=r.completion_tokens,
            reasoning_tokens=reasoning,
            reasoning_source=source,
        ),
        latency_s=round(r.latency_s, 6),
        attempts=r.attempts,
        cached=cached,
        error=r.error,
        answer=answer,
        verdict=verdict,
        meta=item_meta(item),
        config=config,
        extra=r.extra,
    )


def note_error(counts: dict[str, Any], error: str | None, keep: int = 3) -> None:
    """Keep the first ``keep`` distinct error messages of a run (each cut to 200 characters)."""
    msgs: list[str] = counts.setdefault("error_messages", [])
    if error is not None and len(msgs) < keep and error[:200] not in msgs:
        msgs.append(error[:200])


def error_summary(name: str, counts: Mapping[str, Any]) -> str:
    """One paragraph for the console: how many records of this run ended in an error, and the
    first distinct messages; empty when none did."""
    n = counts.get("errors") or 0
    if not n:
        return ""
    lines = [
        f"{name}: {n} of {counts.get('done', n)} new records ended in an error (not scored; "
        "rerun the same command to retry them):"
    ]
    lines += [f"  - {m}" for m in counts.get("error_messages") or []]
    return "\n".join(lines)


def over_budget(errors: int, max_errors: int) -> ModelError:
    """The error a run raises once more than ``max_errors`` records ended in an error."""
    return ModelError(
        f"stopped after {errors} error records (error budget: {max_errors}); every "
        "finished record is saved — fix the cause and rerun the same command to resume "
        "(a rerun redoes the failed ones)"
    )


async def _run(
    items: Iterable[Item],
    model: Model,
    store: RecordStore,
    samples: int,
    sampling: Sampling,
    concurrency: int,
    cache: ResponseCache | None,
    retry_errors: bool,
    progress: Progress,
    order: list[str],
    tokens: TokenCounter | None,
    max_errors: int | None,
    truncation: str,
    budget: Budget | None = None,
) -> dict[str, Any]:
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
                truncation=truncation,
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
    tasks = [asyncio.create_task(worker()) for _ in range(max(1, concurrency))]
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
    *,
    samples: int = 1,
    sampling: Sampling | None = None,
    concurrency: int = 8,
    cache: ResponseCache | None = None,
    retry_errors: bool = True,
    progress: bool = True,
    total_items: int | None = None,
    tokenizer: str | None = "auto",
    max_errors: int | None = None,
    ray: tuple[str, str | None] | None = None,
    truncation: str = "incorrect",
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Run every (item, sample) not yet in ``records_path`` and append its scored record.

    ``items`` may be any iterable (a list, or a generator streaming a large file); it is read once.
    ``tokenizer`` counts reasoning tokens when the backend reports none (see
    :mod:`logicforge.models.tokens`; ``None`` leaves them unknown). With ``max_errors``, the run
    stops cleanly (:class:`ModelError`) once more records than that have ended in an error.
    ``ray=(model spec, address)`` runs the shards on a Ray cluster (see :mod:`.ray_exec`); the
    store, resume and compaction are the same. With a ``budget`` (:mod:`.budget`), no request is
    sent that could pass its cost or token cap; at the cap the run stops cleanly (counts
    ``budget.stopped``) and a rerun resumes.
    Returns counts: ``done`` (this call), ``errors``, ``cached``, ``total`` (records in the file),
    ``file`` (per model: records, errors, truncated, excluded in the file).
    """
    sampling = sampling or Sampling()
    tokens = TokenCounter(tokenizer) if tokenizer else None
    if budget is not None:
        if ray is not None:
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

    bar = Progress((total_items or 0) * samples, f"{model.name}", enabled=progress, note=waits)
    order: list[str] = []

    async def main() -> dict[str, Any]:
        try:
            return await _run(
                items,
                model,
                store,
                samples,
                sampling,
                concurrency,
                cache,
                retry_errors,
                bar,
                order,
                tokens,
                max_errors,
                truncation,
                budget,
            )
        finally:
            await model.aclose()

    def execute() -> dict[str, Any]:
        if ray is None:
            return run_async(main())
        from .ray_exec import run_on_ray

        return run_on_ray(
            items,
            ray[0],
            model.name,
            store,
            samples=samples,
            sampling=sampling,
            concurrency=concurrency,
            retry_errors=retry_errors,
            tokenizer=tokenizer,
            order=order,
            progress=bar,
            address=ray[1],
            cache=cache,
            truncation=truncation,
            cache_id=model.cache_id,
            max_errors=max_errors,
            config=run_config(model, sampling),
        )

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
