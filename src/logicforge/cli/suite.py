"""``logicforge suite``: list, dry-run or run a suite."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from ..models.base import Sampling, load_model
from ..runner import manifest
from .dryrun import _local_models, _suite_dry_run
from .outcome import EXIT_ERRORS, _file_counts, _loud, command_line


def cmd_suite(a: argparse.Namespace) -> int:
    from ..suites import list_suites, load_suite, run_suite

    if a.name is None:  # each shipped suite: its size and what it reproduces
        from ..suites.suite import planned_size

        print("shipped suites (problems before pairs, edits and variants; then what it does):")
        for name in list_suites():
            s = load_suite(name)
            size = planned_size(s)
            what = " ".join(s.description.split())
            what = what[:110] + ("…" if len(what) > 110 else "")
            shown = f"{size:>7,}" if size is not None else "   data"
            print(f"  {name:28s}{shown}  {what}")
        return 0
    overrides: dict[str, Any] = {"models": a.model or None, "renderers": a.renderer or None}
    suite = load_suite(a.name, writer=a.writer, **overrides)
    if a.count is not None:
        suite = suite.with_blocks(count=a.count)
    out = Path(a.out or f"runs/{suite.name}")
    if a.dry_run:
        return _suite_dry_run(suite, out, a)
    if not a.model and (local := _local_models(list(suite.models))) and not a.quiet:
        print(
            f"suite {suite.name}: its own models run on this machine ({', '.join(local)}) — "
            "`--dry-run --probe-speed` says how long; --model chooses others",
            file=sys.stderr,
        )
    summary: dict[str, Any] = {}
    models = [manifest.model_entry(s, load_model(s)) for s in suite.models]
    a.manifest = (out, "manifest.json", {  # named first: an interrupted suite leaves it too
        "suite": suite.model_dump(mode="json"),
        "models": models,
        "sampling": dataclasses.asdict(Sampling(**suite.sampling)),
        "seed": suite.seed,
        "runs": summary,
        "records": lambda: _file_counts(summary, out / "records.jsonl"),
    })  # fmt: skip
    path = run_suite(
        suite,
        out,
        concurrency=a.concurrency,
        progress=not a.quiet,
        cache=not a.no_cache,
        command=command_line(a.argv),
        workers=a.workers,
        summary=summary,
    )
    print(f"report: {path}")
    from ..suites.suite import empty_story_arms

    empty = empty_story_arms(out)
    for line in empty:
        print(f"logicforge suite: error: {line}", file=sys.stderr)
    return EXIT_ERRORS if empty else _loud(summary, a)
