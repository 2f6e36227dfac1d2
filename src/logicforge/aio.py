"""The event loop logicforge's own async work runs on.

``run_async(coro)`` is ``asyncio.run(coro)``, with the garbage collector tuned for the run
(:func:`collector_tuned`), on uvloop's loop where uvloop is installed (a
dependency on Linux and macOS: its C transports take a few per cent off the harness's CPU per
request), else on asyncio's own. ``LOGICFORGE_EVENT_LOOP=asyncio`` chooses asyncio's loop
everywhere (to rule the loop out when chasing a problem); ``uvloop`` insists on uvloop and
fails when it is missing.

Example:
    >>> async def two() -> int:
    ...     return 2
    >>> run_async(two())
    2
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

from .errors import ConfigError

T = TypeVar("T")
CHOICES = ("auto", "uvloop", "asyncio")
GC_YOUNG = 10_000  # allocations between young collections during a run (CPython's default: 700)
_gc_lock = threading.Lock()
_gc_depth = 0  # open collector_tuned blocks, all threads
_gc_saved: tuple[tuple[int, int, int], bool] | None = None  # thresholds, whether we froze


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop factory ``LOGICFORGE_EVENT_LOOP`` asks for (None: asyncio's default).

    Example:
        >>> import os; os.environ["LOGICFORGE_EVENT_LOOP"] = "asyncio"
        >>> loop_factory() is None
        True
        >>> del os.environ["LOGICFORGE_EVENT_LOOP"]
    """
    choice = os.environ.get("LOGICFORGE_EVENT_LOOP", "auto").strip().lower() or "auto"
    if choice not in CHOICES:
        raise ConfigError("LOGICFORGE_EVENT_LOOP", choice, f"is not one of {', '.join(CHOICES)}")
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise ConfigError(
                "LOGICFORGE_EVENT_LOOP",
                choice,
                "asks for uvloop, which is not installed "
                "(pip install uvloop, or unset the variable)",
            ) from None
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion on a fresh event loop (see the module docstring)."""
    with collector_tuned(), asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(coro)


@contextlib.contextmanager
def collector_tuned(young: int = GC_YOUNG) -> Iterator[None]:
    """Garbage collection tuned for a run's loop, restored afterwards.

    A run allocates a few containers per request and keeps its records' facts alive, so with
    CPython's defaults (a young collection every 700 allocations, a full one every 100 of those)
    the full collections re-scan an ever larger heap: 0.63 s of 20,000 samples' client CPU on a
    zero-latency server (10 %). Inside the block the objects alive at its start (modules,
    schemas, configuration) are frozen out of collection (``gc.freeze``, unless the program has
    frozen some itself) and young collections wait for ``young`` allocations: 0.04 s. The
    collector stays on, so reference cycles are still reclaimed. Nested and concurrent blocks
    (threads) share one tuning, undone — thresholds restored, heap unfrozen — when the last
    one closes.

    Example:
        >>> import gc
        >>> before = gc.get_threshold()
        >>> with collector_tuned(20_000):
        ...     gc.get_threshold()[0]
        20000
        >>> gc.get_threshold() == before
        True
    """
    global _gc_depth, _gc_saved
    with _gc_lock:
        if _gc_depth == 0:
            _gc_saved = (gc.get_threshold(), gc.get_freeze_count() == 0)
            if _gc_saved[1]:
                gc.freeze()
            old = _gc_saved[0]
            gc.set_threshold(max(old[0], young), old[1], old[2])
        _gc_depth += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_depth -= 1
            if _gc_depth == 0 and _gc_saved is not None:
                gc.set_threshold(*_gc_saved[0])
                if _gc_saved[1]:
                    gc.unfreeze()
                _gc_saved = None
