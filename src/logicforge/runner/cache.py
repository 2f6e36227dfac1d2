"""Response cache: SQLite (WAL, batched commits) keyed by model, messages, sampling and sample.

The key is a SHA-256 over the model's ``cache_id`` (never its API key) — for an HTTP backend its
endpoint URLs, served model name and request options, for a local one the weights file — the
prompt messages, the answer schema when it is sent, every sampling parameter and the sample
index, so reruns and other suites reuse paid-for answers and nothing else.

A server that reports what it ran (a served model id or a ``system_fingerprint``) has it recorded
per ``cache_id``; when a fresh reply reports another one, the cache scopes its keys to the new
value (:meth:`ResponseCache.scope`), so answers of the old weights are never served again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..errors import DataFileError
from ..models.base import Response, Sampling
from ..schema import Item

T = TypeVar("T")


def cache_error(path: Path, e: sqlite3.Error | OSError) -> DataFileError:
    """One clear line for a cache that cannot be written or read: a full disk, a read-only
    folder, a damaged file — and what to do. Records are never in the cache.

    Example:
        >>> print(cache_error(Path("c.sqlite"), sqlite3.OperationalError("database or disk is full")))
        response cache c.sqlite: the disk is full. Finished records are kept; free space, put the cache elsewhere (--cache PATH) or run with --no-cache, then rerun.
    """
    msg = str(e).lower()
    why = (
        "the disk is full"
        if "full" in msg or getattr(e, "errno", None) == 28
        else "it is read-only"
        if "readonly" in msg or "read-only" in msg or getattr(e, "errno", None) in (13, 30)
        else "the file cannot be opened (a read-only or missing folder?)"
        if "unable to open" in msg
        else "the file is not a cache database or is damaged"
        if "not a database" in msg or "malformed" in msg
        else f"{e}"
    )
    return DataFileError(
        f"response cache {path}: {why}. Finished records are kept; free space, put the cache "
        "elsewhere (--cache PATH) or run with --no-cache, then rerun."
    )


def _guarded(method: Callable[..., T]) -> Callable[..., T]:
    """Turn the method's SQLite and file errors into :func:`cache_error`."""

    @functools.wraps(method)
    def wrapper(self: ResponseCache, *args: Any, **kw: Any) -> T:
        try:
            return method(self, *args, **kw)
        except (sqlite3.Error, OSError) as e:
            raise cache_error(self.path, e) from None

    return wrapper


def cache_key(cache_id: str, item: Item, sampling: Sampling, sample: int) -> str:
    payload = json.dumps(
        [
            cache_id,
            [m.model_dump() for m in item.messages],
            dataclasses.asdict(sampling),
            item.answer_schema if sampling.structured else None,
            sample,
        ],
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


class ResponseCache:
    """The cache; every SQLite or file error is one :class:`~logicforge.errors.DataFileError`
    saying what failed (:func:`cache_error`)."""

    @_guarded
    def __init__(self, path: str | Path, commit_every_s: float = 0.5) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30.0)  # waits out other writers
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT, finish_reason TEXT,"
            " prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL, more TEXT)"
        )
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS served (cache_id TEXT PRIMARY KEY, fingerprint TEXT)"
        )
        self.db.commit()
        self._migrate()
        self._pending = 0
        self._served: dict[str, str | None] = {}  # cache id → last served fingerprint
        self._commit_every = commit_every_s
        self._last = time.monotonic()

    def _migrate(self) -> None:
        """Add the ``more`` column (reasoning tokens and backend extras, added in 0.1.0) to a
        cache file written before it. Checked and altered inside one write transaction, so
        processes opening the same old file at once never both try to add it."""
        cols = {row[1] for row in self.db.execute("PRAGMA table_info(responses)")}
        if "more" in cols:
            return
        self.db.execute("BEGIN IMMEDIATE")  # holds the write lock: one migrator at a time
        try:
            cols = {row[1] for row in self.db.execute("PRAGMA table_info(responses)")}
            if "more" not in cols:
                self.db.execute("ALTER TABLE responses ADD COLUMN more TEXT")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _served_fp(self, cache_id: str) -> str | None:
        """The last fingerprint recorded for ``cache_id``: read from the table once, then kept
        here (this process's own :meth:`observe` updates it; no query per request)."""
        if cache_id not in self._served:
            row = self.db.execute(
                "SELECT fingerprint FROM served WHERE cache_id=?", (cache_id,)
            ).fetchone()
            self._served[cache_id] = row[0] if row else None
        return self._served[cache_id]

    @_guarded
    def scope(self, cache_id: str) -> str:
        """``cache_id`` with the last served fingerprint recorded for it (if any)."""
        fp = self._served_fp(cache_id)
        return f"{cache_id}@{fp}" if fp else cache_id

    @_guarded
    def observe(self, cache_id: str, r: Response) -> bool:
        """Record what the server said it ran for this reply; True when that changed (the
        caller then keys the reply, and every later one, with :meth:`scope`)."""
        fp = "|".join(str(r.extra[k]) for k in ("served_model", "fingerprint") if r.extra.get(k))
        if not fp or self._served_fp(cache_id) == fp:
            return False
        self.db.execute("INSERT OR REPLACE INTO served VALUES (?, ?)", (cache_id, fp))
        self.db.commit()
        self._served[cache_id] = fp
        return True

    @_guarded
    def get(self, key: str) -> Response | None:
        row = self.db.execute(
            "SELECT text, finish_reason, prompt_tokens, completion_tokens, latency_s, more"
            " FROM responses WHERE key=?",
            (key,),
        ).fetchone()
        if row is None:
            return None
        more = json.loads(row[5]) if row[5] else {}
        return Response(
            text=row[0],
            finish_reason=row[1],
            prompt_tokens=row[2],
            completion_tokens=row[3],
            latency_s=row[4],
            reasoning_tokens=more.get("reasoning_tokens"),
            extra=more.get("extra") or {},
        )

    @_guarded
    def put(self, key: str, r: Response) -> None:
        if r.error is not None or r.text is None:
            return  # errors are never cached
        self.db.execute(
            "INSERT OR REPLACE INTO responses"
            " (key, text, finish_reason, prompt_tokens, completion_tokens, latency_s, more)"
            " VALUES (?,?,?,?,?,?,?)",
            (
                key,
                r.text,
                r.finish_reason,
                r.prompt_tokens,
                r.completion_tokens,
                r.latency_s,
                json.dumps({"reasoning_tokens": r.reasoning_tokens, "extra": r.extra}),
            ),
        )
        self._pending += 1
        now = time.monotonic()
        if now - self._last >= self._commit_every:
            self.db.commit()
            self._pending, self._last = 0, now

    def close(self, quiet: bool = False) -> None:
        """Commit and close; ``quiet`` (while another error is on its way out) closes without
        raising, so that error is the one said."""
        try:
            self.db.commit()
        except sqlite3.Error as e:
            if not quiet:
                with contextlib.suppress(sqlite3.Error):
                    self.db.close()
                raise cache_error(self.path, e) from None
        with contextlib.suppress(sqlite3.Error):
            self.db.close()
