"""``run --dry-run``: what a run would send, before anything is sent.

Per model: items, samples, records still to do (those already in the records file are skipped on
a real run too), requests (a best-of-n wrapper makes n calls per sample, plus n judge calls; a
self-verification wrapper 1 + rounds), prompt tokens (counted with the reasoning-token tokenizer
over the prompt messages; multi-turn wrappers resend a longer conversation, so this is a lower
bound for them), the completion-token ceiling (``max_tokens`` per request), and — with a price
table — the cost ceiling. No request is made and no model is loaded. With ``probe=True``
(``--probe-speed``) a local model (one with a ``speed()`` probe, such as the embedded one, also
inside a best-of-n or SymbCoT wrapper) is loaded and probed once to measure its prompt and
completion tokens/s here, which gives ``hours_max``: the time at the completion ceiling, one
request at a time. ``speed_measured`` says how much CPU other processes used during the probe:
on a busy machine the figure is load-dependent and the hours too high. Without the probe a
local model's time is not guessed: ``speed_measured`` says how to measure it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..models.base import Model, Sampling
from ..models.tokens import TokenCounter
from ..prices import PriceTable
from ..schema import Item
from .budget import calls_per_sample
from .records import record_id
from .store import read_jsonl


def estimate(
    items: Iterable[Item],
    models: list[Model],
    *,
    samples: int | Sequence[int],
    sampling: Sampling,
    records_path: str | Path | None = None,
    prices: PriceTable | None = None,
    tokenizer: str = "auto",
    weights: Sequence[float] | None = None,
    probe: bool = False,
) -> list[dict[str, Any]]:
    """One row per model (see the module docstring). With ``weights`` (a suite's dry run over a
    sample of its problems) each item stands for that many items of the full run: counts and
    tokens are scaled, and the records to do are the full run's less those of the model already
    in the records file. ``samples`` is one count for every model or one per model."""
    per_model = [samples] * len(models) if isinstance(samples, int) else list(samples)
    counter = TokenCounter(tokenizer)
    per_item: list[tuple[str, int]] = []
    for it in items:
        text = "\n".join(m.content for m in it.messages)
        per_item.append((it.item_id, counter.count(text) + 4 * len(it.messages)))
    held: list[dict[str, Any]] = []
    if records_path is not None and Path(records_path).exists():
        held = list(read_jsonl(records_path, allow_torn_tail=True))
    rows = []
    speeds: dict[str, tuple[float, float, str]] = {}
    for m, samples in zip(models, per_model, strict=True):  # noqa: B020 - this model's count
        calls = calls_per_sample(m)
        if weights is None:
            done = {str(r.get("record_id")) for r in held}
            todo = [
                (iid, tok)
                for iid, tok in per_item
                for s in range(samples)
                if record_id(iid, m.name, s) not in done
            ]
            n_items, n_todo = len(per_item), len(todo)
            prompt = sum(tok for _, tok in todo) * calls
        else:
            n_items = round(sum(weights))
            planned = n_items * samples
            n_todo = max(0, planned - sum(1 for r in held if r.get("model") == m.name))
            share = n_todo / planned if planned else 0.0
            tokens = sum(tok * w for (_, tok), w in zip(per_item, weights, strict=True))
            prompt = round(tokens * samples * share) * calls
        completion = n_todo * calls * sampling.max_tokens
        row: dict[str, Any] = {
            "model": m.name,
            "items": n_items,
            "samples": samples,
            "records_to_do": n_todo,
            "requests": n_todo * calls,
            "prompt_tokens": prompt,
            "completion_tokens_max": completion,
            "tokenizer": counter.resolved,
        }
        if prices is not None:
            c = prices.cost(m.name, prompt, completion)
            row["cost_usd_max"] = None if c is None else round(c, 4)
        probed = _speed_probe(m)
        if probed is not None and n_todo and not probe:
            row["hours_max"] = None
            row["speed_measured"] = "not probed: --probe-speed loads the model once to time it"
        elif probed is not None and n_todo:
            key, timer = probed
            if key not in speeds:  # one probe per local model, however many wrappers use it
                before = _cpu_times()
                speeds[key] = (*timer(), _load_note(before, _cpu_times()))
            prefill, decode, note = speeds[key]
            row["tokens_per_s"] = round(decode, 1)
            row["hours_max"] = round((prompt / prefill + completion / decode) / 3600, 2)
            row["speed_measured"] = note
        rows.append(row)
    return rows


def _speed_probe(m: Model) -> tuple[str, Any] | None:
    """The speed probe of ``m`` or of the model it wraps (best-of-n, self-verification,
    SymbCoT …: their requests go to the inner model) with that model's identity, or None."""
    at: Any = m
    while at is not None:
        probe = getattr(at, "speed", None)
        if callable(probe):
            return str(at.cache_id or at.name), probe
        at = getattr(at, "inner", None)
    return None


def _cpu_times() -> tuple[float, float, float] | None:
    """(wall clock, CPU seconds busy on the whole machine, CPU seconds of this process), or None
    where ``/proc/stat`` cannot be read."""
    import os
    import time

    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    own = os.times()
    return time.monotonic(), (sum(fields) - idle) / tick, own.user + own.system


def _load_note(
    before: tuple[float, float, float] | None, after: tuple[float, float, float] | None
) -> str:
    """What else the machine ran while the speed was probed: the CPU the other processes used,
    in cores. The probe's figure holds for an idle machine; on a busy one it says the estimate
    depends on the load.

    Example:
        >>> _load_note((0.0, 10.0, 1.0), (2.0, 14.0, 3.0))  # 2 s: 4 s busy, 2 of them ours
        'BUSY: other processes used 1.0 cores during the probe; tokens/s is load-dependent (low)'
        >>> _load_note((0.0, 10.0, 1.0), (2.0, 12.4, 3.0))
        'idle: other processes used 0.2 cores during the probe'
    """
    if before is None or after is None or after[0] <= before[0]:
        return "load unknown: tokens/s depends on what else runs"
    wall = after[0] - before[0]
    others = max(0.0, (after[1] - before[1]) - (after[2] - before[2])) / wall
    if others < 0.25:
        return f"idle: other processes used {others:.1f} cores during the probe"
    return (
        f"BUSY: other processes used {others:.1f} cores during the probe; tokens/s is "
        "load-dependent (low)"
    )
