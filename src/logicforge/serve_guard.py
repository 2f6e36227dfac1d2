"""What keeps one client from holding logicforge's HTTP servers (``serve``, ``serve-verify``).

* **A connection cap below the descriptor limit** (``max_connections``; by default the soft
  ``ulimit -n`` less 128, at most 4,096): at the cap, a new connection evicts the oldest one
  that is not inside a request (idle, or still sending its headers); only when every
  connection is busy is the new one refused. Descriptors never run out, and a client that
  parks a thousand half-sent connections cannot shut ``/health`` out.
* **A header time-out** (``header_timeout``, 10 s): a connection that has not delivered a whole
  request head that long after it opened (or after its last response) is closed.
* **A body time-out** (``body_timeout``, 30 s): :func:`read_json` stops waiting for a body
  that trickles in.
* **JSON read with a depth bound** (:data:`MAX_DEPTH`): a body nested deeper is a 400, never a
  ``RecursionError`` traceback.

Example:
    >>> import json
    >>> depth(json.loads("[[[1]], {\\"a\\": [2]}]"))
    3
    >>> default_max_connections() <= 4096
    True
"""

from __future__ import annotations

import asyncio
import json
import resource
import time
from typing import Any

MAX_DEPTH = 64  # nesting of a request body; an item's own JSON is a few levels deep
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
_RESERVE = 128  # descriptors kept free for files, pipes and worker processes


def default_max_connections() -> int:
    """The soft descriptor limit less a reserve, between 16 and 4,096."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 4096
    return max(16, min(4096, soft - _RESERVE))


def depth(obj: Any) -> int:
    """How deeply ``obj`` (parsed JSON) nests lists and objects, counted without recursion."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            o = list(o.values())
        if isinstance(o, list):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in o if isinstance(x, dict | list))
    return deepest


class BadBody(ValueError):
    """A request body that cannot be read as a JSON object; the message says why."""


async def read_json(request: Any, timeout: float | None = None) -> dict[str, Any]:
    """The request's body as a JSON object, read within ``timeout`` seconds and nested at most
    :data:`MAX_DEPTH` deep; anything else raises :class:`BadBody` with the reason (a server
    answers it with a 400). A body over the app's size limit still raises aiohttp's 413.
    ``timeout`` defaults to the app's body time-out."""
    timeout = _body_timeout_of(request) if timeout is None else timeout
    try:
        raw = await asyncio.wait_for(request.read(), timeout)
    except TimeoutError:
        raise BadBody(f"the body did not arrive within {timeout:g} s") from None
    try:
        obj = json.loads(raw)
    except RecursionError:
        raise BadBody(f"the body nests deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError):
        raise BadBody("the body is not JSON") from None
    if not isinstance(obj, dict):
        raise BadBody("the body must be a JSON object")
    if depth(obj) > MAX_DEPTH:
        raise BadBody(f"the body nests deeper than {MAX_DEPTH} levels")
    return obj


class _Guarded(asyncio.Protocol):
    """One connection: aiohttp's protocol inside, watched by the :class:`Guard`."""

    def __init__(self, guard: Guard, inner: Any) -> None:
        self.guard, self.inner = guard, inner
        self.transport: Any = None
        self.admitted = False
        self.since = time.monotonic()  # when it last started waiting for a request head
        self.busy = 0  # requests of this connection inside a handler

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        if not self.guard.admit(self):
            transport.abort()
            return
        self.admitted = True
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.drop(self)
        if self.admitted:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Guard:
    """The protocol factory that wraps aiohttp's, with the cap and the header time-out (see
    the module docstring); :func:`guard_app`'s middleware marks connections busy while a
    handler runs. ``evicted``, ``refused`` and ``timed_out`` count what it closed."""

    def __init__(
        self,
        server: Any,
        max_connections: int | None = None,
        header_timeout: float = HEADER_TIMEOUT,
    ) -> None:
        self.server = server
        self.max_connections = max_connections or default_max_connections()
        self.header_timeout = header_timeout
        self.open: dict[Any, _Guarded] = {}  # transport → connection, oldest first
        self.evicted = self.refused = self.timed_out = 0
        self._watch: asyncio.Task[None] | None = None

    def __call__(self) -> _Guarded:
        return _Guarded(self, self.server())

    def admit(self, conn: _Guarded) -> bool:
        if self._watch is None and self.header_timeout != float("inf"):
            self._watch = asyncio.get_running_loop().create_task(self._watchdog())
        if len(self.open) >= self.max_connections:
            idle = next((c for c in self.open.values() if not c.busy), None)
            if idle is None:
                self.refused += 1
                return False
            self.evicted += 1
            self.drop(idle)
            idle.transport.abort()
        self.open[conn.transport] = conn
        return True

    def drop(self, conn: _Guarded) -> None:
        self.open.pop(conn.transport, None)

    async def _watchdog(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.header_timeout / 4))
            cut = time.monotonic() - self.header_timeout
            for c in [c for c in self.open.values() if not c.busy and c.since < cut]:
                self.timed_out += 1
                self.drop(c)
                c.transport.abort()

    def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()


def _app_key() -> Any:
    from aiohttp import web

    return web.AppKey("logicforge_guard", dict)


GUARD_KEY: Any = _app_key()


def guard_app(
    app: Any,
    max_connections: int | None = None,
    header_timeout: float = HEADER_TIMEOUT,
    body_timeout: float = BODY_TIMEOUT,
) -> None:
    """Give ``app`` the guard's settings and its middleware, which marks a request's connection
    busy while it is handled (a busy connection is neither evicted nor timed out)."""
    from aiohttp import web

    if max_connections is not None and max_connections < 1:
        from .errors import ConfigError

        raise ConfigError("max_connections", max_connections, "must be ≥ 1")

    @web.middleware
    async def mark(request: web.Request, handler: Any) -> Any:
        guard = request.app[GUARD_KEY].get("guard")
        conn = guard.open.get(request.transport) if guard is not None else None
        if conn is not None:
            conn.busy += 1
        try:
            return await handler(request)
        finally:
            if conn is not None:
                conn.busy -= 1
                conn.since = time.monotonic()

    app[GUARD_KEY] = {
        "max_connections": max_connections,
        "header_timeout": header_timeout,
        "body_timeout": body_timeout,
    }
    app.middlewares.append(mark)


def _body_timeout_of(request: Any) -> float:
    """The body time-out of the request's app (:data:`BODY_TIMEOUT` when not guarded)."""
    return float(request.app.get(GUARD_KEY, {}).get("body_timeout", BODY_TIMEOUT))


async def start_guarded(runner: Any, host: str, port: int) -> tuple[Any, Guard, int]:
    """Listen on ``host:port`` with the runner's server behind a :class:`Guard` configured from
    its app; returns ``(asyncio server, guard, bound port)``. Close the server, then the guard,
    before ``runner.cleanup()``."""
    opts = runner.app.get(GUARD_KEY)
    guard = Guard(
        runner.server,
        max_connections=(opts or {}).get("max_connections"),
        # an app without guard_app's middleware cannot say which connections are busy: only
        # the cap applies to it
        header_timeout=opts["header_timeout"] if opts else float("inf"),
    )
    if GUARD_KEY in runner.app:
        runner.app[GUARD_KEY]["guard"] = guard
    loop = asyncio.get_running_loop()
    server = await loop.create_server(guard, host, port, backlog=256)
    return server, guard, server.sockets[0].getsockname()[1]
