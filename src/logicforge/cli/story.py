"""CLI verbs for LLM-written text and LLM judges: ``narrate``, ``backtranslate`` and ``judge``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .args import natural


def cmd_narrate(a: argparse.Namespace) -> int:
    from ..api import load_problems
    from ..llm.story import StoryConfig, story_stats
    from ..runner.narrate import narrate

    cfg = StoryConfig(a.attempts, a.max_tokens, a.temperature, a.aware, a.llm_check)
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
    a.manifest = _manifest_of(a, [a.writer, a.checker], {"story_validation": stats})
    return 0


def _manifest_of(a: argparse.Namespace, specs: list[str | None], counts: Any) -> Any:
    """(folder, file name, fields) of an LLM job's manifest, beside its ``--out`` file."""
    from pathlib import Path

    from ..models.base import load_model
    from ..runner import manifest

    out = Path(a.out)
    models = [manifest.model_entry(s, load_model(s)) for s in specs if s]
    return out.parent, f"{out.stem}.manifest.json", {"models": models, "counts": counts}


def _why(reasons: list[str]) -> str:
    """The commonest judge errors, counted: what to fix (a dead URL, a wrong key, replies
    that fit no schema), not only how many failed.

    Example:
        >>> _why(["HTTP 401: bad key", "HTTP 401: bad key", "timed out after 5 s"])
        '; why: HTTP 401: bad key (2×); timed out after 5 s (1×)'
    """
    import re
    from collections import Counter

    lines = [r.splitlines()[0][:300] for r in reasons if r]
    first: dict[str, str] = {}
    for x in lines:  # errors that differ only in their numbers are one reason
        first.setdefault(re.sub(r"\d+", "#", x), x)
    common = Counter(re.sub(r"\d+", "#", x) for x in lines).most_common(3)
    return ("; why: " + "; ".join(f"{first[k]} ({n}×)" for k, n in common)) if common else ""


def _judge_errors(
    a: argparse.Namespace,
    n: int,
    total: int,
    judged: int | None = None,
    reasons: list[str] | None = None,
) -> int:
    """Say how many judgements failed and why (stderr) and give the exit code: 3 when any
    failed, or when records were given and not one was judged (``judged``), whatever
    ``--allow-errors``."""
    import sys

    why = _why(reasons or [])
    if judged == 0 and total:
        print(
            f"logicforge judge: none of the {total} records was judged"
            + (f" ({n} judge errors{why})" if n else " (no record had a reply to judge)"),
            file=sys.stderr,
        )
        return 3
    if not n:
        return 0
    print(
        f"logicforge judge: {n} of {total} judgements ended in a judge error (recorded, not "
        f"counted as opinions; rerun the same command to retry them){why}",
        file=sys.stderr,
    )
    return 0 if a.allow_errors else 3


def cmd_judge(a: argparse.Namespace) -> int:
    from ..api import load_items
    from ..llm.trace_judge import judge_traces
    from ..metrics.trace_judge import judged_summary
    from ..runner.jobs import Resumable
    from ..runner.store import read_jsonl
    from ..schema import Record

    recs = [Record.model_validate(r) for r in read_jsonl(a.records)]
    items = load_items(a.items)
    with Resumable(a.out, "record_id") as job:  # a killed judge run resumes where it stopped
        todo = [r for r in recs if r.record_id not in job.done]
        if a.task == "qualitative":
            from ..llm.qualitative import code_records
            from ..metrics.qualitative import paper_levels, qualitative_table

            if a.levels == "ends":  # the paper codes level 0 and the maximum edit level only
                keep = {r["record_id"] for r in paper_levels([r.model_dump() for r in todo])}
                for r in todo:
                    if r.record_id not in keep:
                        job.put(r)  # passed through uncoded
                todo = [r for r in todo if r.record_id in keep]
            code_records(todo, items, a.judge, concurrency=a.concurrency, on_done=job.put)
        else:
            judge_traces(todo, items, a.judge, concurrency=a.concurrency, on_done=job.put)
        job.finish([r.record_id for r in recs])
        out = [Record.model_validate(job.done[r.record_id]) for r in recs]
    if a.task == "qualitative":
        table = qualitative_table([r.model_dump() for r in out])
        print(json.dumps({"records": len(out), "out": a.out, "qualitative": table}))
        a.manifest = _manifest_of(a, [a.judge], {"qualitative": table})
        errors = sum(int(t.get("judge_errors") or 0) for t in table)
        reasons = [str((r.extra.get("qualitative") or {}).get("error") or "") for r in out]
        coded = sum(int(t["coded"]) for t in table)
        return _judge_errors(a, errors, len(out), coded, reasons)
    summary = judged_summary([r.model_dump() for r in out])
    a.manifest = _manifest_of(a, [a.judge], {"trace_judge": summary})
    if a.json:
        print(json.dumps({"records": len(out), "out": a.out, "trace_judge": summary}))
    else:
        for s in summary:
            agree = s["agreement"]
            shown = (
                f"{agree:.1%} of {s.get('both_checked', 0)}"
                if agree is not None
                else "n/a (no right UNSAT answer with a cited core to compare)"
            )
            print(
                f"{s['model']}: {s['judged']} judged, {s.get('judge_errors', 0)} judge errors, "
                f"{s.get('extracted_valid', 0)}/{s.get('extracted', 0)} extracted witnesses valid, "
                f"core agreement {shown}"
            )
        print(f"records: {a.out}")
    # records that need no judge pass through, so "none judged" alone is no failure here
    reasons = [str((r.extra.get("trace_judge") or {}).get("error") or "") for r in out]
    errors = sum(int(s.get("judge_errors") or 0) for s in summary)
    return _judge_errors(a, errors, len(out), reasons=reasons)


def cmd_backtranslate(a: argparse.Namespace) -> int:
    from ..api import load_problems
    from ..llm.backtranslate import BackTranslateConfig, backtranslate
    from ..runner.store import write_jsonl

    kept, stats = backtranslate(
        load_problems(a.problems),
        a.writer,
        a.checker,
        BackTranslateConfig(a.attempts, a.max_tokens, a.temperature, a.concurrency),
    )
    write_jsonl(a.out, kept)
    counts = {k: v for k, v in stats.to_json().items() if k != "failures"}
    print(json.dumps({"out": a.out, **counts}))
    if stats.dropped:
        import sys

        print(
            f"logicforge backtranslate: {stats.dropped} problems dropped: no sentence passed the "
            f"check; first reasons: {'; '.join(stats.failures[:3])}",
            file=sys.stderr,
        )
    a.manifest = _manifest_of(a, [a.writer, a.checker], counts)
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
        choices=["story", "story-last", "story-spy", "story-heist", "story-detective"],
    )
    na.add_argument("--writer", required=True, help="model spec that writes (e.g. embedded)")
    na.add_argument("--checker", help="model spec that back-translates (default: the writer)")
    na.add_argument("--attempts", type=natural, default=3, help="per condition, then the template")
    na.add_argument("--max-tokens", type=natural, default=200)
    na.add_argument("--temperature", type=float, default=0.7)
    na.add_argument("--aware", action="store_true", help="error-aware evaluation prompt")
    na.add_argument(
        "--llm-check",
        action="store_true",
        help="also ask the checker SATBench's whole-puzzle consistency question (recorded only)",
    )
    na.add_argument("--out", required=True, help="items.jsonl (appended; a rerun resumes)")
    na.add_argument(
        "--concurrency", type=natural, default=4, help="model calls at a time (default 4)"
    )
    na.add_argument("--json", action="store_true")
    na.add_argument("--quiet", action="store_true")
    na.set_defaults(fn=cmd_narrate)

    bt = sub.add_parser(
        "backtranslate",
        help="rewrite edited FOL premises' sentences with an LLM, verified by translating back (z3)",
    )
    bt.add_argument("problems", help="problems.jsonl with edited fol problems and their originals")
    bt.add_argument("--writer", required=True, help="model spec that rewrites sentences")
    bt.add_argument("--checker", help="model spec that translates back (default: the writer)")
    bt.add_argument("--attempts", type=natural, default=3)
    bt.add_argument("--max-tokens", type=natural, default=160)
    bt.add_argument("--temperature", type=float, default=0.7)
    bt.add_argument(
        "--concurrency", type=natural, default=4, help="model calls at a time (default 4)"
    )
    bt.add_argument("--out", required=True, help="problems.jsonl of the kept problems")
    bt.set_defaults(fn=cmd_backtranslate)

    ju = sub.add_parser(
        "judge",
        help="an LLM judge reads free-text traces: assignment extraction (solver-checked) and "
        "a second opinion on UNSAT proofs",
    )
    ju.add_argument("records", help="records.jsonl")
    ju.add_argument("--items", required=True, help="the items the records answer")
    ju.add_argument("--judge", required=True, help="judge model spec")
    ju.add_argument("--out", required=True, help="judged records.jsonl (the input is not changed)")
    ju.add_argument(
        "--task",
        choices=["trace", "qualitative"],
        default="trace",
        help="trace: extraction + core opinion; qualitative: PF / IV / AC / AL codes",
    )
    ju.add_argument(
        "--levels",
        choices=["ends", "all"],
        default="ends",
        help="qualitative: code level 0 and each dataset's maximum edit level, as the paper "
        "(default), or every record",
    )
    ju.add_argument(
        "--concurrency", type=natural, default=4, help="model calls at a time (default 4)"
    )
    ju.add_argument(
        "--allow-errors", action="store_true", help="exit 0 even with judge errors (default: 3)"
    )
    ju.add_argument("--json", action="store_true")
    ju.set_defaults(fn=cmd_judge)
