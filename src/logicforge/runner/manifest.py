"""``manifest.json``: what a run was, so it can be written up and rerun from its outputs.

Every verb that writes records or problems — ``run``, ``suite``, ``import``, ``rescore``,
``demo``, ``narrate``, ``judge``, ``backtranslate`` — and :func:`logicforge.run` write one beside
their outputs: the exact command line (every override included; ``call`` instead for the Python
API, which has no command to rerun), the resolved suite, each model's spec, name, endpoints and
cache identity (never a key: specs name a key's variable or file, not its value), the sampling
parameters, the package and solver versions, machine facts, start and end times (UTC), the
counts (done, errors and their first messages, cached, truncated, excluded), and how it ended:
``status`` ``finished``, ``finished with errors``, ``failed`` or ``interrupted`` with its
``exit_code`` — an interrupted invocation leaves its manifest too (a command refused before its
work, exit 2, changes nothing and writes none).

A manifest written where one already is keeps the earlier ones' facts: ``invocations`` lists
every invocation that wrote there (command, start, end, status, exit code), oldest first, so a
run resumed three times says so; the top-level fields describe the latest.
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


STATUS = {0: "finished", 3: "finished with errors", 130: "interrupted"}


def status_of(exit_code: int) -> str:
    """How an invocation ended, from its exit code.

    Example:
        >>> status_of(0), status_of(130), status_of(2)
        ('finished', 'interrupted', 'failed')
    """
    return STATUS.get(exit_code, "failed")


def manifest(argv: Sequence[str] | None, *, started: str, **fields: Any) -> dict[str, Any]:
    """The manifest of a command run as ``logicforge <argv>`` (None: a Python call, named by
    ``call=`` in ``fields``); ``fields`` add the command's own facts (models, sampling, suite,
    counts …); a callable field is called now, so counts are read when the manifest is written.
    """
    facts = {k: (v() if callable(v) else v) for k, v in fields.items()}
    if "exit_code" in facts and "status" not in facts:
        facts["status"] = status_of(int(facts["exit_code"]))
    return {
        "command": None if argv is None else "logicforge " + " ".join(shlex.quote(x) for x in argv),
        "argv": None if argv is None else list(argv),
        "started": started,
        "ended": now(),
        "versions": versions(),
        "machine": machine(),
        **facts,
    }


def _invocation(m: Mapping[str, Any]) -> dict[str, Any]:
    keep = ("command", "call", "started", "ended", "status", "exit_code")
    return {k: m.get(k) for k in keep if k in m}


def call_of(fn: str, *args: Any, **kwargs: Any) -> str:
    """How a Python call is named in a manifest: ``logicforge.run(<12 items>, 'oracle', …)``.

    Example:
        >>> call_of("run", [1, 2], "oracle", samples=2)
        "logicforge.run(<2 items>, 'oracle', samples=2)"
    """

    def show(v: Any) -> str:
        if isinstance(v, list | tuple):
            return f"<{len(v)} items>"
        if isinstance(v, str | int | float | bool | type(None)):
            return repr(v)
        if isinstance(v, Path):
            return repr(str(v))
        return f"<{type(v).__name__}>"

    parts = [show(a) for a in args] + [f"{k}={show(v)}" for k, v in kwargs.items()]
    return f"logicforge.{fn}({', '.join(parts)})"


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
    """The command that reproduces a records file, from the manifest beside it: the distinct
    commands of its invocations in order, joined by ``&&`` (a resumed run is one command);
    None when there is no manifest or a Python call wrote part of the file."""
    try:
        man = json.loads(beside(records).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(man, dict):
        return None
    runs = man.get("invocations") or [man]
    got = [i.get("command") for i in runs if isinstance(i, dict)]
    cmds = [c for c in got if isinstance(c, str)]
    if not cmds or len(cmds) != len(got):
        return None
    return " && ".join(dict.fromkeys(cmds))


def write_manifest(
    folder: str | Path, name: str, data: Mapping[str, Any], history: bool = True
) -> Path:
    """Write ``data`` as ``folder/name`` (JSON, sorted keys) and return the path; the
    ``invocations`` of a manifest already there are carried over, this one appended
    (``history=False``, for a command that rewrites its outputs whole: started afresh).

    Example:
        >>> import tempfile
        >>> d = tempfile.mkdtemp()
        >>> _ = write_manifest(d, "m.json", manifest(["run"], started="t0", exit_code=130))
        >>> p = write_manifest(d, "m.json", manifest(["run"], started="t1", exit_code=0))
        >>> [(i["started"], i["status"]) for i in json.loads(p.read_text())["invocations"]]
        [('t0', 'interrupted'), ('t1', 'finished')]
    """
    p = Path(folder) / name
    p.parent.mkdir(parents=True, exist_ok=True)
    before: list[Any] = []
    try:
        old = json.loads(p.read_text(encoding="utf-8")) if history else None
        if isinstance(old, dict) and ("command" in old or "call" in old):
            before = old.get("invocations") or [_invocation(old)]
    except (OSError, ValueError):
        pass  # none yet, or not a manifest: this invocation starts the history
    data = {**data, "invocations": [*before, _invocation(data)]}
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, p)  # a reader never sees half a manifest
    return p
