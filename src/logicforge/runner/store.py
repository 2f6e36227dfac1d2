"""Durable JSONL stores.

``RecordStore`` appends one complete line per finished record with a single ``write(2)`` on an
``O_APPEND`` descriptor, so a process killed at any moment leaves every finished record on disk
and at most one torn final line, which the next open detects (no trailing newline or invalid
JSON), reports, and truncates away. Records are keyed by ``record_id``; on load the last line of
an id wins, so appending a retried record never duplicates it. ``compact()`` rewrites the file
atomically (temp file + rename) in a canonical order.

One process writes a store at a time: the store holds an exclusive ``flock`` on ``<file>.lock``
for its lifetime, and a second writer is refused at once with a message naming the holder.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import DataFileError


def read_jsonl(path: str | Path, *, allow_torn_tail: bool = False) -> Iterator[dict[str, Any]]:
    """Yield the JSON objects of a JSONL file; a malformed line raises :class:`DataFileError`
    naming file and line (a torn *last* line is skipped when ``allow_torn_tail``)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise DataFileError(f"{p}: file not found") from None
    lines = data.split(b"\n")
    last = len(lines) - 1
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
        except (ValueError, UnicodeDecodeError) as e:
            if allow_torn_tail and i == last:
                return
            raise DataFileError(f"{p}: line {i + 1}: not a JSON object ({e})") from None
        yield obj


def write_jsonl(path: str | Path, rows: Iterable[Any]) -> int:
    """Atomically write rows (dicts or pydantic models) as JSONL; returns the row count."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    n = 0
    with open(tmp, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(
                r.model_dump_json()
                if hasattr(r, "model_dump_json")
                else json.dumps(r, ensure_ascii=False, sort_keys=True)
            )
            f.write("\n")
            n += 1
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, p)
    return n


class RecordStore:
    """Append-only, crash-safe JSONL store of rows keyed by ``key`` (``record_id`` for records,
    ``item_id`` for written Items): one writer at a time (a lock file), appends fsynced at least
    every ``fsync_every_s`` and on close, a torn last line dropped on open."""

    def __init__(
        self, path: str | Path, fsync_every_s: float = 1.0, key: str = "record_id"
    ) -> None:
        self.key = key
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = _lock_exclusive(self.path.with_name(self.path.name + ".lock"))
        self.lines: dict[str, bytes] = {}  # record_id -> its JSON line (last one wins)
        self.errored: set[str] = set()
        self.repaired = False
        self._load()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._fsync_every = fsync_every_s
        self._last_sync = time.monotonic()

    def rows(self) -> list[dict[str, Any]]:
        return [json.loads(v) for v in self.lines.values()]

    def _load(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        good_end = 0
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl == -1:
                break  # torn tail: no newline
            line = data[pos:nl]
            if line.strip():
                try:
                    obj = json.loads(line)
                    rid = obj[self.key]
                    err = obj.get("error") is not None
                except (ValueError, KeyError, TypeError):
                    if data[nl + 1 :].strip():
                        raise DataFileError(
                            f"{self.path}: byte {pos}: malformed record in the middle of the file; "
                            "it was not written by logicforge's store — move it aside and rerun"
                        ) from None
                    break
                self.lines[rid] = bytes(line)
                (self.errored.add if err else self.errored.discard)(rid)
            pos = nl + 1
            good_end = pos
        if good_end < len(data):
            self.repaired = True
            print(
                f"logicforge: {self.path}: dropped a torn final record ({len(data) - good_end} bytes) "
                "left by an interrupted run; it will be redone",
                file=sys.stderr,
            )
            with open(self.path, "r+b") as f:
                f.truncate(good_end)

    def __contains__(self, rid: str) -> bool:
        return rid in self.lines

    def __len__(self) -> int:
        return len(self.lines)

    def append(self, rid: str, line: bytes, errored: bool = False) -> None:
        """Durably append one record line (``line`` holds no newline)."""
        data = line + b"\n"
        written = os.write(self._fd, data)
        while written < len(data):  # short writes are rare but legal
            written += os.write(self._fd, data[written:])
        self.lines[rid] = line
        (self.errored.add if errored else self.errored.discard)(rid)
        now = time.monotonic()
        if now - self._last_sync >= self._fsync_every:
            os.fsync(self._fd)
            self._last_sync = now

    def close(self) -> None:
        if self._fd >= 0:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def release(self) -> None:
        """Close the file and give up the writer's lock."""
        self.close()
        if self._lock >= 0:
            os.close(self._lock)  # closing the descriptor drops the flock
            self._lock = -1

    def __del__(self) -> None:
        if getattr(self, "_lock", -1) >= 0:
            os.close(self._lock)
            self._lock = -1

    def compact(self, order: list[str] | None = None) -> None:
        """Rewrite the file with one line per record (``order`` first, then the rest)."""
        self.close()
        ids = list(order or [])
        seen = set(ids)
        ids = [i for i in ids if i in self.lines] + [i for i in self.lines if i not in seen]
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as f:
            f.writelines(self.lines[i] + b"\n" for i in ids)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)


def _lock_exclusive(lock_path: Path) -> int:
    """An open descriptor holding an exclusive, non-blocking ``flock`` on ``lock_path`` (−1 where
    the platform has no ``fcntl``); raises :class:`DataFileError` when another process holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return -1
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 64).decode("ascii", "replace").strip() or "another process"
        os.close(fd)
        raise DataFileError(
            f"{lock_path.with_suffix('')}: another logicforge run is writing to it (pid {holder}); "
            "wait for it to finish or choose another --records file"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd
