"""Client-side limits for one model: requests and tokens per minute (token buckets), and the
endpoint rotation with failover used when a model is served from several base URLs.

Example:
    >>> ep = Endpoints(["http://a/v1", "http://b/v1"], cooldown_s=5.0)
    >>> ep.pick(now=0.0), ep.pick(now=0.0)
    (0, 1)
    >>> ep.mark_down(0, now=0.0); ep.pick(now=1.0), ep.pick(now=1.0)
    (1, 1)
"""

from __future__ import annotations

import asyncio
import time


class TokenBucket:
    """``per_minute`` units per minute, refilled continuously; holds at most one second's worth
    (or one request's size, whichever is larger), so traffic is smooth rather than bursty."""

    def __init__(self, per_minute: float) -> None:
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate)
        self.level = self.capacity
        self.t = time.monotonic()
        self._lock = asyncio.Lock()

    async def take(self, units: float = 1.0) -> None:
        async with self._lock:
            while True:
                now = time.monotonic()
                self.level = min(max(self.capacity, units), self.level + (now - self.t) * self.rate)
                self.t = now
                if self.level >= units:
                    self.level -= units
                    return
                await asyncio.sleep((units - self.level) / self.rate)


class Endpoints:
    """Round-robin over base URLs; one that fails (connection error, time-out, 5xx) is skipped for
    ``cooldown_s`` seconds. When all are down, the least recently failed one is tried."""

    def __init__(self, urls: list[str], cooldown_s: float = 10.0) -> None:
        self.urls = urls
        self.cooldown_s = cooldown_s
        self.down_until = [0.0] * len(urls)
        self._next = 0

    def pick(self, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        n = len(self.urls)
        for k in range(n):
            i = (self._next + k) % n
            if self.down_until[i] <= now:
                self._next = (i + 1) % n
                return i
        return min(range(n), key=lambda i: self.down_until[i])

    def mark_down(self, i: int, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.down_until[i] = now + self.cooldown_s

    def any_up(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return any(t <= now for t in self.down_until)
