"""How a command ends: its exit codes and the records' counts it reports."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import Any

from ..runner import manifest

EXIT_ERRORS = 3  # the run finished, but some records ended in an error (a rerun retries them)
EXIT_BUDGET = 4  # the run stopped at --max-cost / --max-tokens-total (a rerun resumes)


def _loud(runs: dict[str, Any], a: argparse.Namespace) -> int:
    """Exit code of a command whose runs may have ended in errors (already reported on stderr)."""
    errors = sum(int(c.get("errors") or 0) for c in runs.values())
    return EXIT_ERRORS if errors and not getattr(a, "allow_errors", False) else 0


def _file_counts(runs: dict[str, Any], records: Path) -> dict[str, dict[str, int]]:
    """The manifest's per-model counts of the records file: what the last run's store held at
    its end (each run returns them as ``file``, taken out of the runs here), or the file read
    when no run happened."""
    held = [c.pop("file") for c in runs.values() if "file" in c]
    return held[-1] if held else manifest.record_counts(records)


def command_line(argv: list[str]) -> str:
    return "logicforge " + " ".join(shlex.quote(x) for x in argv)
