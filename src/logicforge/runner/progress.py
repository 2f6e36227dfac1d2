"""A dependency-free progress line: done/total, rate and ETA, redrawn at most 5 times a second."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def _fmt(sec: float) -> str:
    sec = int(sec)
    return f"{sec // 3600:d}:{sec // 60 % 60:02d}:{sec % 60:02d}"


class Progress:
    def __init__(
        self,
        total: int,
        label: str,
        enabled: bool = True,
        stream: TextIO | None = None,
        note: Callable[[], str] | None = None,
    ) -> None:
        self.total, self.label, self.enabled = total, label, enabled
        self.note = note  # extra text for the line, e.g. the retry waits so far
        self.inflight = 0  # requests sent and not yet answered
        self.stream = stream or sys.stderr
        self.done = 0
        self.skipped = 0  # already finished before this run: counted as done, not in the rate
        self.t0 = time.monotonic()
        self._last = 0.0
        self._shown = -1  # the count on the last line written (a log file: no repeat at close)
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def line(self) -> str:
        el = time.monotonic() - self.t0
        rate = (self.done - self.skipped) / el if el > 0 else 0.0
        eta = max(0, self.total - self.done) / rate if rate > 0 else 0.0
        pct = 100.0 * self.done / self.total if self.total else 100.0
        note = self.note() if self.note else ""
        if self.inflight:
            note = f"{self.inflight} in flight" + (f" · {note}" if note else "")
        return (
            f"{self.label}: {self.done}/{self.total} ({pct:5.1f}%) {rate:8.1f}/s "
            f"elapsed {_fmt(el)} ETA {_fmt(eta)}{f' · {note}' if note else ''}"
        )

    def skip(self, n: int = 1) -> None:
        """Count records finished by an earlier run (resume)."""
        self.done += n
        self.skipped += n

    def update(self, n: int = 1) -> None:
        self.done += n
        self.draw()

    def draw(self, force: bool = False) -> None:
        """Redraw the line (at most 5 times a second on a terminal, every 5 s otherwise)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if force or now - self._last >= (0.2 if self._tty else 5.0):
            self._last = now
            self._shown = self.done
            self.stream.write(
                ("\r" if self._tty else "") + self.line() + ("" if self._tty else "\n")
            )
            self.stream.flush()

    def close(self) -> None:
        """The final line: on a terminal the line is finished; in a log it is written unless
        the last line written already showed the final count."""
        if self.enabled and (self._tty or self._shown != self.done):
            self.stream.write(("\r" if self._tty else "") + self.line() + "\n")
            self.stream.flush()
        self._shown = self.done
