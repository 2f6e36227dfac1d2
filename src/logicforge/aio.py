"""The event loop logicforge's own async work runs on.

``run_async(coro)`` is ``asyncio.run(coro)``, with the garbage collector tuned for the run
(:func:`logicforge.gctune.collector_tuned`), on uvloop's loop where uvloop is installed (a
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
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from .errors import ConfigError
from .gctune import collector_tuned

T = TypeVar("T")
CHOICES = ("auto", "uvloop", "asyncio")


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
