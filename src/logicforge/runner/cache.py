"""Response cache: SQLite (WAL, batched commits) keyed by model, messages, sampling and sample.

The key is a SHA-256 over the model's ``cache_id`` (never its API key), the prompt messages, the
sampling parameters and the sample index, so reruns and other suites reuse paid-for answers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
import time
from pathlib import Path

from ..models.base import Response, Sampling
from ..schema import Item


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
    def __init__(self, path: str | Path, commit_every_s: float = 0.5) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30.0)  # waits out other writers
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT, finish_reason TEXT,"
            " prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL)"
        )
        cols = {row[1] for row in self.db.execute("PRAGMA table_info(responses)")}
        if "more" not in cols:  # reasoning tokens and backend extras (added in 0.1.0)
            self.db.execute("ALTER TABLE responses ADD COLUMN more TEXT")
        self.db.commit()
        self._pending = 0
        self._commit_every = commit_every_s
        self._last = time.monotonic()

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

    def close(self) -> None:
        self.db.commit()
        self.db.close()
