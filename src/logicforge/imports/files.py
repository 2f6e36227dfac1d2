"""Paths, compression and provenance shared by the importers.

Example:
    >>> natural_key("uf20-10.cnf") > natural_key("uf20-9.cnf")
    True
"""

from __future__ import annotations

import bz2
import glob
import gzip
import hashlib
import json
import lzma
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import DataFileError
from ..logic.cnf import iter_lines
from .limits import current, excerpt

MAX_BYTES = 1 << 30  # the ceiling of the ``max_bytes`` limit (imports.limits): 1 GiB
_OPENERS: dict[str, Any] = {".gz": gzip.open, ".xz": lzma.open, ".bz2": bz2.open}


def natural_key(name: str) -> list[Any]:
    """Sort key that puts ``x-2`` before ``x-10``."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def expand(paths: Sequence[str | Path], suffixes: Iterable[str]) -> list[tuple[Path, str]]:
    """Every file the paths name — a file, a folder (recursive: the files whose name ends in one
    of ``suffixes``, before any ``.gz`` / ``.xz`` / ``.bz2``) or a glob — as (path, name shown in
    notes: relative to the folder or glob root, with the folder's own name), in natural order,
    each once."""
    sufs = tuple(suffixes)

    def wanted(p: Path) -> bool:
        name = p.name[: -len(p.suffix)] if p.suffix in _OPENERS else p.name
        return p.is_file() and name.endswith(sufs)

    out: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    from ..datadir import resolve

    for raw in paths:
        s = str(resolve(raw))  # data:<rel> is read under the data folder
        if any(ch in s for ch in "*?["):
            found = [Path(x) for x in glob.glob(s, recursive=True)]
            files = [(f, str(f)) for f in found if f.is_file()]
            if not files:
                raise DataFileError(f"{s}: the pattern matches no file")
        else:
            p = Path(s)
            if p.is_dir():
                files = [(f, str(f.relative_to(p.parent))) for f in p.rglob("*") if wanted(f)]
                if not files:
                    raise DataFileError(f"{p}: no file ending in {', '.join(sufs)} in the folder")
            elif p.is_file():
                files = [(p, p.name)]
            else:
                raise DataFileError(f"{p}: no such file or folder")
        for f, shown in sorted(files, key=lambda x: natural_key(x[1])):
            if f.resolve() not in seen:
                seen.add(f.resolve())
                out.append((f, shown))
    return out


def read_bytes(path: Path) -> bytes:
    """The file's bytes, decompressed by its suffix (``.gz``, ``.xz``, ``.bz2``), at most the
    ``max_bytes`` limit (:mod:`.limits`; a compression bomb stops there)."""
    cap = min(current().max_bytes, MAX_BYTES)
    opener = _OPENERS.get(path.suffix)
    try:
        if opener is None:
            with open(path, "rb") as f:
                data = f.read(cap + 1)
        else:
            with opener(path, "rb") as f:
                data = f.read(cap + 1)
    except (OSError, EOFError, lzma.LZMAError) as e:
        raise DataFileError(f"{path}: cannot read it ({str(e)[:200]})") from None
    if len(data) > cap:
        raise DataFileError(
            f"{path}: over the max_bytes limit of {cap:,} bytes once decompressed "
            "(raise it with --limit max_bytes=N)"
        )
    return data


def read_text(path: Path) -> str:
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataFileError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None


def provenance(shown: str, data: bytes, licence: str | None) -> dict[str, Any]:
    """What a problem records about where it came from."""
    out: dict[str, Any] = {"source": shown, "sha256": hashlib.sha256(data).hexdigest()}
    if licence:
        out["licence"] = licence
    return out


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60] or "x"


def read_rows(path: Path) -> list[Any]:
    """The rows of a JSON file (a list, or an object holding one under ``rows`` / ``data``), a
    JSONL file (one object per line; a line that is not JSON is kept as a ``str`` so the caller
    can note it) or a Parquet file (needs ``pyarrow``), compressed or not.

    Example:
        >>> import tempfile
        >>> p = Path(tempfile.mkdtemp()) / "r.jsonl"
        >>> _ = p.write_text('{"id": 1}\\nnot json\\n')
        >>> read_rows(p)
        [{'id': 1}, 'not json']
    """

    name = path.name[: -len(path.suffix)] if path.suffix in _OPENERS else path.name
    if name.endswith(".parquet"):
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise DataFileError(
                f"{path}: reading Parquet needs pyarrow (pip install pyarrow)"
            ) from None
        import io

        import pyarrow as pa

        lim = current()
        try:
            pf = pq.ParquetFile(io.BytesIO(read_bytes(path)))
            if pf.metadata.num_rows > lim.max_rows:
                raise _too_many_rows(path, f"{pf.metadata.num_rows:,} rows")
            return list(pf.read().to_pylist())
        except (pa.ArrowException, OSError, ValueError, IndexError) as e:
            raise DataFileError(f"{path}: not a readable Parquet file ({str(e)[:200]})") from None
    text = read_text(path)
    lim = current()
    if name.endswith(".jsonl"):
        rows: list[Any] = []
        for n, line in enumerate(iter_lines(text), start=1):
            if line.strip():
                if len(rows) >= lim.max_rows:
                    raise _too_many_rows(path, f"line {n}: more rows")
                rows.append(_loads_row(line))
        return rows
    try:
        obj = json.loads(text)
    except ValueError as e:
        raise DataFileError(f"{path}: not JSON ({str(e)[:200]})") from None
    except RecursionError:
        raise DataFileError(f"{path}: JSON nested too deep to read") from None
    if isinstance(obj, dict):
        obj = obj.get("rows", obj.get("data", [obj]))
    if not isinstance(obj, list):
        raise DataFileError(f"{path}: expected a list of rows")
    if len(obj) > lim.max_rows:
        raise _too_many_rows(path, f"{len(obj):,} rows")
    return obj


def _too_many_rows(path: Path, what: str) -> DataFileError:
    return DataFileError(
        f"{path}: {what}, over the max_rows limit of {current().max_rows:,} "
        "(raise it with --limit max_rows=N)"
    )


def _loads_row(line: str) -> Any:
    """One JSONL line: its object, or (cut short) why not — the caller notes it as a rejected
    row."""
    try:
        return json.loads(line)
    except ValueError:
        return line[:200]
    except RecursionError:
        return Unreadable(f"JSON nested too deep to read: {excerpt(line)}")


class Unreadable(str):
    """A JSONL row that could not be read, holding why (noted as the row's rejection)."""


def rows_of(path: Path, shown: str, log: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """(``shown#n``, row) for each object row of one file, counting every row read; a row that
    is not a JSON object is noted as rejected (an unreadable file raises
    :class:`~logicforge.errors.DataFileError`)."""
    for i, row in enumerate(read_rows(path)):
        log.read += 1
        where = f"{shown}#{i + 1}"
        if isinstance(row, dict):
            yield where, row
        elif isinstance(row, Unreadable):
            log.reject(where, str(row))
        else:
            log.reject(where, f"not a JSON object: {str(row)[:60]!r}")


def iter_rows(
    paths: Sequence[str | Path], suffixes: Iterable[str], log: Any
) -> Iterator[tuple[str, dict[str, Any]]]:
    """:func:`rows_of` over every file the paths name; an unreadable file is noted and skipped."""
    log.sources += [str(p) for p in paths]
    for path, shown in expand(paths, suffixes):
        try:
            yield from rows_of(path, shown, log)
        except DataFileError as e:
            log.reject(shown, str(e))
        except MemoryError:
            log.reject(shown, "too large to hold in memory (lower the import limits)")
