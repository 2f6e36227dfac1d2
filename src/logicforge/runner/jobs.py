"""One resumable job runner for work done by models as tools (stories, judged records): every
finished result is appended to a crash-safe store as it arrives, a rerun skips what is there, and
the file is rewritten in input order at the end.

Example:
    >>> import tempfile, pathlib
    >>> from logicforge.schema import Message
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "out.jsonl"
    >>> with Resumable(path, "role") as job:
    ...     job.put(Message(role="user", content="hi"))
    ...     job.finish(["user"])
    >>> with Resumable(path, "role") as job:
    ...     sorted(job.done)
    ['user']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from pydantic import BaseModel

from .store import RecordStore


class Resumable:
    """The results store of one job: ``done`` holds the rows already finished (by key),
    ``put`` appends one result durably, ``finish(order)`` compacts the file in input order."""

    def __init__(self, path: str | Path, key: str) -> None:
        self.key = key
        self.store = RecordStore(path, key=key)
        self.done: dict[str, dict[str, Any]] = {
            k: json.loads(v) for k, v in self.store.lines.items()
        }

    def put(self, result: BaseModel) -> None:
        row = result.model_dump(mode="json")
        k = str(row[self.key])
        self.store.append(k, result.model_dump_json().encode())
        self.done[k] = row

    def finish(self, order: Sequence[str]) -> None:
        self.store.compact(list(order))

    def __enter__(self) -> Resumable:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.store.release()
