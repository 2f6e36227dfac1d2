"""Durable JSONL stores.

``RecordStore`` appends one complete line per finished record with a single ``write(2)`` on an
``O_APPEND`` descriptor, so a process killed at any moment leaves every finished record on disk
and at most one torn final line, which the next open detects (no trailing newline or invalid
JSON), reports, and truncates away. Records are keyed by ``record_id``; on load the last line of
an id wins, so appending a retried record never duplicates it. ``compact()`` rewrites the file
atomically (temp file + rename) in a canonical order.

The store holds where each record's line lies in the file, not the line: a run of a million
records keeps a few dozen bytes per record in memory, and reads a line back (``lines[rid]``)
from the file when asked.

One process writes a store at a time: the store holds an exclusive ``flock`` on
``<real file>.lock`` (symbolic links resolved) and on the file's inode (so a hard link is the same
file) for its lifetime, and a second writer through any name is refused at once with a message
naming the holder. Compaction replaces the real file, so a symbolic link to it survives; a file
with several hard links is not compacted (that would split the names), only appended to.

A full disk or a read-only directory is a :class:`DataFileError` that says so; the finished
records stay on disk, and a partial temporary file is removed so the next run can finish.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..errors import DataFileError
from .jsonl import atomic_path, atomic_text, disk_error, read_jsonl, write_jsonl

__all__ = [
    "COUNTS", "Facts", "Lines", "RecordStore", "atomic_path", "atomic_text", "disk_error",
    "facts_of", "read_jsonl", "record_facts", "tally", "write_jsonl",
]  # fmt: skip


Facts = tuple[str, bool, bool, bool]  # model, errored, truncated, excluded (unknown gold)
COUNTS = ("records", "errors", "truncated", "excluded")


def facts_of(model: Any, error: Any, finish_reason: Any, label: Any) -> Facts:
    """What a manifest counts of one record: its model, and whether it ended in an error, was cut
    off by the token limit, or has an unknown gold label (excluded from accuracy).

    Example:
        >>> facts_of("m", None, "length", "SAT")
        ('m', False, True, False)
    """
    return str(model), error is not None, finish_reason == "length", label == "UNKNOWN"


def record_facts(r: dict[str, Any]) -> Facts:
    """:func:`facts_of` a record as read from a file.

    Example:
        >>> record_facts({"model": "m", "error": None, "finish_reason": "length", "meta": {}})
        ('m', False, True, False)
    """
    label = (r.get("meta") or {}).get("label")
    return facts_of(r.get("model"), r.get("error"), r.get("finish_reason"), label)


def tally(facts: Iterable[Facts]) -> dict[str, dict[str, int]]:
    """Per model: records, errors, truncated and excluded, from :func:`record_facts`."""
    out: dict[str, dict[str, int]] = {}
    for model, *flags in facts:
        c = out.setdefault(model, dict.fromkeys(COUNTS, 0))
        c["records"] += 1
        for name, flag in zip(COUNTS[1:], flags, strict=True):
            c[name] += flag
    return out


class Lines(Mapping[str, bytes]):
    """A store's records as ``record_id -> its JSON line`` (without the newline), read from the
    file on access; iteration is in the order the ids were first written."""

    __slots__ = ("_store",)

    def __init__(self, store: RecordStore) -> None:
        self._store = store

    def __getitem__(self, rid: str) -> bytes:
        off, n = self._store._index[rid]
        return self._store._pread(off, n)

    def __iter__(self) -> Iterator[str]:
        return iter(self._store._index)

    def __len__(self) -> int:
        return len(self._store._index)

    def __contains__(self, rid: object) -> bool:
        return rid in self._store._index


class RecordStore:
    """Append-only, crash-safe JSONL store of rows keyed by ``key`` (``record_id`` for records,
    ``item_id`` for written Items): one writer at a time (a lock file), appends fsynced at least
    every ``fsync_every_s`` and on close, a torn last line dropped on open."""

    def __init__(
        self, path: str | Path, fsync_every_s: float = 1.0, key: str = "record_id"
    ) -> None:
        self.key = key
        self.path = Path(path)
        if self.path.is_dir():
            raise DataFileError(f"{self.path}: is a directory; give a file path for the records")
        self.real = Path(os.path.realpath(self.path))  # compaction replaces this one
        self._lock = self._inode_lock = -1
        self._fd = self._rfd = -1
        try:
            self.real.parent.mkdir(parents=True, exist_ok=True)
            self._lock = _lock_exclusive(self.real.with_name(self.real.name + ".lock"))
            self._fd = os.open(self.real, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            self._rfd = os.open(self.real, os.O_RDONLY)
        except OSError as e:
            self.release()
            raise disk_error(self.path, e) from None
        try:
            self._inode_lock = _lock_exclusive(self.real, fd=os.open(self.real, os.O_RDONLY))
        except DataFileError:
            self.release()
            raise
        self.real.with_name(self.real.name + ".tmp").unlink(
            missing_ok=True
        )  # a failed compaction's
        self._index: dict[str, tuple[int, int]] = {}  # record_id -> (offset, length) of its line
        self.lines = Lines(self)  # record_id -> its JSON line (the last one written wins)
        self._size = 0  # the file's length: where the next append lands
        self.configs: dict[str, Any] = {}  # model -> the configuration of its last record
        self.errored: set[str] = set()
        self.facts: dict[str, Facts | None] = {}  # record_id -> record_facts (None: not yet read)
        self.repaired = False
        try:
            self._load()
        except (DataFileError, OSError) as e:
            self.release()
            if isinstance(e, OSError):
                raise disk_error(self.path, e) from None
            raise
        self._size = os.fstat(self._fd).st_size
        self._fsync_every = fsync_every_s
        self._last_sync = time.monotonic()

    def rows(self) -> list[dict[str, Any]]:
        return [json.loads(v) for v in self.lines.values()]

    def _mapped(self) -> Any:
        """The file mapped read-only (an empty buffer for an empty file, which cannot be mapped)."""
        import mmap

        if os.fstat(self._rfd).st_size == 0:
            return contextlib.nullcontext(b"")
        return mmap.mmap(self._rfd, 0, access=mmap.ACCESS_READ)

    def _pread(self, off: int, n: int) -> bytes:
        """``n`` bytes of the file from ``off``, surrounding blanks removed."""
        if self._rfd < 0:
            raise DataFileError(
                f"{self.path}: the store is closed; open a RecordStore on it again to read records"
            )
        out = b""
        while len(out) < n:  # short reads are legal
            got = os.pread(self._rfd, n - len(out), off + len(out))
            if not got:
                raise DataFileError(
                    f"{self.path}: changed under the store (a record's line is gone); "
                    "another program wrote to it — rerun to reload it"
                )
            out += got
        return out.strip()

    def counts(self) -> dict[str, dict[str, int]]:
        """Per model: records, errors, truncated and excluded among the records held (one per
        id, the last written) — what :func:`~logicforge.runner.manifest.record_counts` reads from
        the file after a run, without reading it again."""
        for rid, f in self.facts.items():
            if f is None:
                self.facts[rid] = record_facts(json.loads(self.lines[rid]))
        return tally(f for f in self.facts.values() if f is not None)

    def _load(self) -> None:
        good_end = 0
        with open(self.real, "rb") as f:
            for line in f:  # each with its newline; the last one may lack it
                pos = good_end
                if not line.endswith(b"\n"):  # no newline: a torn tail, unless a whole record
                    tail = self._record(line)
                    if tail is not None:
                        self._keep(pos, len(line), tail)
                        self._write(b"\n")  # complete the line
                        good_end += len(line) + 1
                        print(
                            f"logicforge: {self.path}: the last record had no final newline; "
                            "kept it",
                            file=sys.stderr,
                        )
                    break
                if line.strip():
                    obj = self._record(line)
                    if obj is None:
                        if f.read().strip():
                            raise DataFileError(
                                f"{self.path}: byte {pos}: malformed record in the middle of the "
                                "file; it was not written by logicforge's store — move it aside "
                                "and rerun"
                            ) from None
                        break
                    self._keep(pos, len(line) - 1, obj)
                good_end += len(line)
            size = f.seek(0, os.SEEK_END)
        if good_end < size:
            self.repaired = True
            print(
                f"logicforge: {self.path}: dropped a torn final record ({size - good_end} bytes) "
                "left by an interrupted run; it will be redone",
                file=sys.stderr,
            )
            with open(self.real, "r+b") as f:
                f.truncate(good_end)

    def _record(self, line: bytes) -> dict[str, Any] | None:
        """The line's record, or None when it is not a JSON object with a string key."""
        try:
            obj = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            return None
        return obj if isinstance(obj, dict) and isinstance(obj.get(self.key), str) else None

    def _keep(self, off: int, n: int, obj: dict[str, Any]) -> None:
        rid = obj[self.key]
        self._index[rid] = (off, n)  # the line without its newline
        self.facts[rid] = record_facts(obj)
        if isinstance(obj.get("model"), str) and obj.get("config") is not None:
            self.configs[obj["model"]] = obj["config"]
        (self.errored.add if obj.get("error") is not None else self.errored.discard)(rid)

    def _write(self, data: bytes) -> None:
        try:
            written = os.write(self._fd, data)
            while written < len(data):  # short writes are rare but legal
                written += os.write(self._fd, data[written:])
        except OSError as e:
            raise disk_error(
                self.path, e, "Every record finished before this one is kept. "
            ) from None

    def __contains__(self, rid: str) -> bool:
        return rid in self._index

    def __len__(self) -> int:
        return len(self._index)

    def append(
        self, rid: str, line: bytes, errored: bool = False, facts: Facts | None = None
    ) -> None:
        """Durably append one record line (``line`` holds no newline); ``facts``: its
        :func:`record_facts`, when the caller has them (else :meth:`counts` reads the line)."""
        off = self._size
        try:
            self._write(line + b"\n")
        finally:  # a failed write may have written part of the line
            self._size = os.fstat(self._fd).st_size
        self._index[rid] = (off, len(line))
        self.facts[rid] = facts
        (self.errored.add if errored else self.errored.discard)(rid)
        now = time.monotonic()
        if now - self._last_sync >= self._fsync_every:
            os.fsync(self._fd)
            self._last_sync = now

    def close(self) -> None:
        """Close the file (the records held can no longer be read back from it)."""
        if self._rfd >= 0:
            os.close(self._rfd)
            self._rfd = -1
        if self._fd >= 0:
            try:
                os.fsync(self._fd)
            finally:
                os.close(self._fd)
                self._fd = -1

    def release(self) -> None:
        """Close the file and give up the writer's locks."""
        try:
            self.close()
        finally:
            for name in ("_lock", "_inode_lock"):
                fd = getattr(self, name, -1)
                if fd >= 0:
                    os.close(fd)  # closing the descriptor drops the flock
                    setattr(self, name, -1)

    def __del__(self) -> None:
        for name in ("_fd", "_rfd", "_lock", "_inode_lock"):
            fd = getattr(self, name, -1)
            if fd >= 0:
                os.close(fd)
                setattr(self, name, -1)

    def compact(self, order: list[str] | None = None) -> None:
        """Rewrite the file with one line per record (``order`` first, then the rest). The real
        file is replaced (a symbolic link to it survives); one with several hard links is left as
        it is. A failed write (disk full) removes its temporary and keeps the file as it was."""
        if self._rfd < 0:
            raise DataFileError(
                f"{self.path}: the store is closed; open a RecordStore on it again to compact it"
            )
        if os.stat(self.real).st_nlink > 1:
            return  # replacing it would split its names; appends and last-wins keep it right
        ids = list(order or [])
        seen = set(ids)
        ids = [i for i in ids if i in self._index] + [i for i in self._index if i not in seen]
        tmp = self.real.with_name(self.real.name + ".tmp")
        index: dict[str, tuple[int, int]] = {}
        try:
            os.fsync(self._fd)
            with open(tmp, "wb") as f, self._mapped() as mm:
                off = 0
                run = end = -1  # a stretch of the old file copied as it is, in one write
                for i in ids:  # lines copied from the mapped file, never all in memory
                    at, n = self._index[i]
                    if mm[at : at + 1] == b"{" and mm[at + n - 1 : at + n] == b"}":  # bare line
                        if run < 0 or at != end + 1:  # not where the stretch ends
                            if run >= 0:
                                f.write(mm[run : end + 1])
                            run = at
                        end = at + n  # its newline
                        index[i] = (off, n)
                        off += n + 1
                        continue
                    if run >= 0:
                        f.write(mm[run : end + 1])
                        run = end = -1
                    line = mm[at : at + n].strip()
                    f.write(line + b"\n")
                    index[i] = (off, len(line))
                    off += len(line) + 1
                if run >= 0:
                    f.write(mm[run : end + 1])
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.real)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise disk_error(
                self.path, e, "Every finished record is kept (the file was not compacted). "
            ) from None
        self.close()
        self._fd = os.open(self.real, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._rfd = os.open(self.real, os.O_RDONLY)
        self._index, self._size = index, off
        old = self._inode_lock  # the new file is a new inode: lock it before letting go of the old
        self._inode_lock = _lock_exclusive(self.real, fd=os.open(self.real, os.O_RDONLY))
        if old >= 0:
            os.close(old)


def _lock_exclusive(lock_path: Path, fd: int = -1) -> int:
    """An open descriptor holding an exclusive, non-blocking ``flock`` on ``lock_path`` (or on the
    given descriptor's file, which is then not written), −1 where the platform has no ``fcntl``;
    raises :class:`DataFileError` when another process holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        if fd >= 0:
            os.close(fd)
        return -1
    pid_file = fd < 0
    if pid_file:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = (os.read(fd, 64).decode("ascii", "replace").strip() if pid_file else "") or "?"
        os.close(fd)
        name = lock_path.with_suffix("") if pid_file else lock_path
        raise DataFileError(
            f"{name}: another logicforge run is writing to it, maybe through another name "
            f"(pid {holder}); wait for it to finish or choose another --records file"
        ) from None
    if pid_file:
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
    return fd
