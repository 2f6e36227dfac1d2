"""JSONL files written atomically (a temporary file renamed over the old one, so a crash
leaves the old file or the new one, never half of either) and read back line by line, a torn
final line refused or, where asked, tolerated; a full disk or a read-only folder said plainly.

Example:
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.jsonl"
    >>> write_jsonl(p, [{"a": 1}, {"a": 2}])
    2
    >>> [r["a"] for r in read_jsonl(p)]
    [1, 2]
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from ..errors import DataFileError


def read_jsonl(path: str | Path, *, allow_torn_tail: bool = False) -> Iterator[dict[str, Any]]:
    """Yield the JSON objects of a JSONL file; a malformed line raises :class:`DataFileError`
    naming file and line (a torn *last* line is skipped when ``allow_torn_tail``)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise DataFileError.missing(p) from None
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


def disk_error(path: Path, e: OSError, kept: str = "") -> DataFileError:
    """A clear error for a failed write: disk full, read-only or not permitted."""
    why = {
        errno.ENOSPC: "the disk is full",
        errno.EDQUOT: "the disk quota is exhausted",
        errno.EROFS: "the file system is read-only",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
    }.get(e.errno or 0, e.strerror or str(e))
    return DataFileError(
        f"{path}: cannot write: {why}. {kept}Free space or choose a writable --out, then rerun."
    )


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A hidden temporary beside ``path`` to write in the ``with`` block; at its end the
    temporary is synced and renamed to ``path``, so ``path`` is either absent, as it was, or
    whole — never half written by a kill or a full disk. A failed write removes the temporary
    and raises :func:`disk_error`.

    Example:
        >>> import tempfile
        >>> p = Path(tempfile.mkdtemp()) / "a.txt"
        >>> with atomic_path(p) as tmp:
        ...     _ = tmp.write_text("whole")
        >>> p.read_text(), sorted(x.name for x in p.parent.iterdir())
        ('whole', ['a.txt'])
    """
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise disk_error(p, e, f"{p.name} is unchanged. ") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_text(path: str | Path) -> Iterator[TextIO]:
    """A text file (UTF-8) written through :func:`atomic_path`."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        yield f


def write_jsonl(path: str | Path, rows: Iterable[Any]) -> int:
    """Atomically write rows (dicts or pydantic models) as JSONL; returns the row count. A write
    that fails (disk full, read-only) removes its temporary file and leaves ``path`` as it was."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    n = 0
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
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
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise disk_error(p, e, f"{p.name} is unchanged. ") from None
    return n
