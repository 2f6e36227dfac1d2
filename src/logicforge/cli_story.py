"""CLI verbs for LLM-written stories and LLM-judged traces: ``narrate`` and ``judge``."""

from __future__ import annotations

import argparse
import json
from typing import Any


def cmd_narrate(a: argparse.Namespace) -> int:
    from .api import load_problems
    from .render.story import StoryConfig, story_stats
    from .run.narrate import narrate

    cfg = StoryConfig(a.attempts, a.max_tokens, a.temperature, a.aware)
    items = narrate(
        load_problems(a.problems),
        a.renderer,
        writer=a.writer,
        checker=a.checker,
        cfg=cfg,
        out=a.out,
        concurrency=a.concurrency,
        progress=not a.quiet,
    )
    stats = story_stats(items)
    if a.json:
        print(json.dumps({"items": len(items), "out": a.out, "story_validation": stats}))
    else:
        for s in stats:
            print(
                f"{s['rendering']}: {s['items']} items, {s['conditions']} conditions — "
                f"{s['first_try_pct']} % first try, {s['retried_pct']} % after a retry, "
                f"{s['fallback_pct']} % template fallbacks; written by {s['writer']}"
            )
        print(f"items: {a.out}")
    return 0


def add_parsers(sub: Any) -> None:
    na = sub.add_parser(
        "narrate",
        help="write validated stories for CNF problems with an LLM (round trip; template fallback)",
    )
    na.add_argument("problems", help="problems.jsonl")
    na.add_argument(
        "--renderer",
        default="story",
        choices=["story", "story-spy", "story-heist", "story-detective"],
    )
    na.add_argument("--writer", required=True, help="model spec that writes (e.g. embedded)")
    na.add_argument("--checker", help="model spec that back-translates (default: the writer)")
    na.add_argument("--attempts", type=int, default=3, help="per condition, then the template")
    na.add_argument("--max-tokens", type=int, default=200)
    na.add_argument("--temperature", type=float, default=0.7)
    na.add_argument("--aware", action="store_true", help="error-aware evaluation prompt")
    na.add_argument("--out", required=True, help="items.jsonl (appended; a rerun resumes)")
    na.add_argument("--concurrency", type=int, default=4)
    na.add_argument("--json", action="store_true")
    na.add_argument("--quiet", action="store_true")
    na.set_defaults(fn=cmd_narrate)
