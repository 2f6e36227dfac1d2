"""``manifest.json``: what a run was, so it can be written up and rerun from its outputs.

Every ``run``, ``suite``, ``narrate``, ``judge`` and ``backtranslate`` writes one beside its
outputs: the exact command line (every override included), the resolved suite, each model's spec,
name, endpoints and cache identity (never a key: specs name a key's variable or file, not its
value), the sampling parameters, the package and solver versions, machine facts, start and end
times (UTC) and the counts (done, errors and their first messages, cached, truncated, excluded).
The report's "Reproduce" line is the manifest's command.

Example:
    >>> m = manifest(["run", "--items", "i.jsonl"], started="2026-01-01T00:00:00Z")
    >>> m["command"], "logicforge" in m["versions"]
    ('logicforge run --items i.jsonl', True)
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import shlex
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = (
    "logicforge",
    "numpy",
    "pydantic",
    "python-sat",
    "z3-solver",
    "ortools",
    "aiohttp",
    "xllamacpp",
    "llama-cpp-python",
)


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def versions() -> dict[str, str | None]:
    """Installed versions of logicforge and the solvers and libraries its results depend on."""
    out: dict[str, str | None] = {}
    for p in PACKAGES:
        try:
            out[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            out[p] = None
    return out


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }


def model_entry(spec: str, model: Any) -> dict[str, Any]:
    """A model as the manifest records it: the spec as given, and what it resolved to."""
    return {
        "spec": spec,
        "name": getattr(model, "name", None),
        "endpoints": list(getattr(model, "urls", []) or []) or None,
        "cache_id": getattr(model, "cache_id", None),
    }


def manifest(argv: Sequence[str], *, started: str, **fields: Any) -> dict[str, Any]:
    """The manifest of a command run as ``logicforge <argv>``; ``fields`` add the command's own
    facts (models, sampling, suite, counts …)."""
    return {
        "command": "logicforge " + " ".join(shlex.quote(x) for x in argv),
        "argv": list(argv),
        "started": started,
        "ended": now(),
        "versions": versions(),
        "machine": machine(),
        **fields,
    }


def record_counts(path: str | Path) -> dict[str, dict[str, int]]:
    """Per model: records, errors, truncated and excluded (unknown gold label) in a records file."""
    from .store import read_jsonl, record_facts, tally

    p = Path(path)
    if not p.is_file():
        return {}
    return tally(record_facts(r) for r in read_jsonl(p, allow_torn_tail=True))


def beside(records: Path) -> Path:
    """Where the manifest of a records file sits: ``manifest.json`` beside ``records.jsonl``,
    ``<stem>.manifest.json`` beside any other name."""
    name = "manifest.json" if records.name == "records.jsonl" else f"{records.stem}.manifest.json"
    return records.parent / name


def command_of(records: Path) -> str | None:
    """The command recorded in the manifest beside a records file, or None."""
    try:
        cmd = json.loads(beside(records).read_text(encoding="utf-8")).get("command")
    except (OSError, ValueError, AttributeError):
        return None
    return cmd if isinstance(cmd, str) else None


def write_manifest(folder: str | Path, name: str, data: Mapping[str, Any]) -> Path:
    """Write ``data`` as ``folder/name`` (JSON, sorted keys) and return the path."""
    p = Path(folder) / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(data, indent=1, sort_keys=True, default=str) + "\n", encoding="utf-8")
    return p
