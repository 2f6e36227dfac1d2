"""One record's making, whatever runs it (the local runner, the Ray executor, an import of
replies): its id, the run's configuration and its check against a store, the item fields a
record keeps, the scoring of a response (with the truncation policy), and the error tally.

Example:
    >>> record_id("item-1", "oracle", 0) == record_id("item-1", "oracle", 0)
    True
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from ..errors import ConfigError, ModelError
from ..kinds import parse_answer, verify
from ..models.base import Model, Response, Sampling
from ..models.tokens import TokenCounter
from ..schema import Item, Record, Usage, Verdict
from .store import RecordStore


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
