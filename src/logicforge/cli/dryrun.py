"""``--dry-run`` of ``run`` and ``suite``: what would be sent, per model, in seconds whatever the
size — nothing sent, nothing written (:mod:`logicforge.runner.dryrun` does the counting)."""

from __future__ import annotations

import argparse
import itertools
import json
import re
from pathlib import Path
from typing import Any

from .. import api
from ..models.base import Sampling, load_model
from ..renderers.base import get_renderer, render_problem

DRY_SAMPLE = 2  # problems per parameter point a suite's dry run makes (the first ones)


def _suite_dry_run(suite: Any, out: Path, a: argparse.Namespace) -> int:
    """What a suite would send, in seconds whatever its size: the first ``DRY_SAMPLE``
    problems of each parameter point generated and rendered here (measurement-only parameters
    such as zebra's Z3 runs skipped), their tokens scaled to the whole plan; LLM-written stories
    and back-translated sentences are estimated from the formula and the unedited text. Nothing
    is sent, nothing written."""
    from ..llm.backtranslate import needs_backtranslation
    from ..reports.tables import to_markdown
    from ..runner.dryrun import estimate
    from ..suites.suite import expand_problems

    weights: list[float] = []
    problems = expand_problems(suite, sample=DRY_SAMPLE, weights=weights)
    items, item_weights = [], []
    for r in suite.renderers:
        rend = get_renderer(r)
        for p, w in zip(problems, weights, strict=True):
            if p.kind != rend.kind:
                continue
            if needs_backtranslation(p):  # the rewritten sentences stand in for these
                p = p.model_copy(update={"metadata": p.metadata | {"nl_verified": True}})
            items.append(
                render_problem(p, "formula" if getattr(rend, "needs_writer", False) else r)
            )
            item_weights.append(w)
    prices = None
    if a.prices:
        from ..metrics.usage import PriceTable

        prices = PriceTable.load(a.prices)
    rows = estimate(
        items,
        [load_model(m) for m in suite.models],
        samples=[suite.samples_for(m) for m in suite.models],
        sampling=Sampling(**suite.sampling),
        records_path=out / "records.jsonl",
        prices=prices,
        weights=item_weights,
        probe=a.probe_speed,
    )
    if suite.story is not None and any(b.formalise for b in suite.problems):
        rows.append(_translation_row(suite, prices))
    planned = round(sum(weights))
    print(
        f"dry run of suite {suite.name}: {planned:,} problems, {round(sum(item_weights)):,} items "
        f"(estimated from the first {len(problems):,}: {DRY_SAMPLE} per parameter point or data "
        "file); nothing sent" + ("" if a.probe_speed else ", no model loaded")
    )
    print(to_markdown(rows, list(dict.fromkeys(k for r in rows for k in r))), end="")
    return 0


def _translation_row(suite: Any, prices: Any) -> dict[str, Any]:
    """The dry run's row for the writer's translation requests (``formalise`` blocks): every
    question without a valid program, up to ``attempts`` samples each — a ceiling, since a
    question stops at its first valid program."""
    from ..llm.formalise_lsat import FormaliseConfig
    from ..models.tokens import TokenCounter
    from ..suites.suite import translation_requests

    cfg, counter = FormaliseConfig(), TokenCounter("auto")
    asks = translation_requests(suite)
    prompt = sum(counter.count(t) + 4 for t in asks) * cfg.attempts
    row: dict[str, Any] = {
        "model": f"{suite.story.writer} (translation)",
        "items": len(asks),
        "samples": cfg.attempts,
        "records_to_do": len(asks),
        "requests": len(asks) * cfg.attempts,
        "prompt_tokens": prompt,
        "completion_tokens_max": len(asks) * cfg.attempts * cfg.max_tokens,
        "tokenizer": counter.resolved,
    }
    if prices is not None:
        c = prices.cost(suite.story.writer, prompt, row["completion_tokens_max"])
        row["cost_usd_max"] = None if c is None else round(c, 4)
    return row


def _probe_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--probe-speed",
        action="store_true",
        help="with --dry-run: load each local model (embedded, GGUF) once and time it, for "
        "the hours column",
    )


def _local_models(specs: list[str]) -> list[str]:
    """The specs that run a model on this machine (the embedded one, a GGUF, a Hugging Face
    model — also inside a wrapper such as best-of-n), by what loading them would need."""
    return [s for s in specs if re.search(r"(^|[:;])(embedded|local|hf|vllm)\b", s)]


def _dry_run(a: argparse.Namespace, models: list[Any], sampling: Sampling, prices: Any) -> int:
    from ..reports.tables import to_markdown
    from ..runner.dryrun import estimate

    items = itertools.islice(api.iter_items(a.items), a.limit)
    tok = "words" if a.tokenizer == "off" else a.tokenizer
    rows = estimate(
        items,
        models,
        samples=a.samples,
        sampling=sampling,
        records_path=a.records,
        prices=prices,
        tokenizer=tok,
        probe=a.probe_speed,
    )
    if a.json:
        print(json.dumps(rows))
    else:
        loaded = "" if a.probe_speed else ", no model loaded"
        print(f"dry run: nothing was sent{loaded}; estimates per model")
        print(to_markdown(rows, list(rows[0]) if rows else []), end="")
    return 0
