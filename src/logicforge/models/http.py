"""A small HTTP/1.1 client for JSON POSTs to model servers: keep-alive connection pools over
asyncio streams for ``http://`` URLs, aiohttp (imported only then) for ``https://``.

A local or private-network server (vLLM, llama.cpp, Ollama, a verifier) is spoken to in plain
HTTP/1.1; this client frames requests with ``Content-Length``, reads ``Content-Length``,
``chunked`` and read-to-close bodies, skips interim ``1xx`` replies, and reuses a connection
only when the reply allows it (HTTP/1.1, no ``Connection: close``, body fully read). A reused
connection that the server closed while idle is retried once on a fresh one, before any byte
of the reply arrived. ``timeout`` caps the whole request (a body that drips forever included);
a body over ``max_body`` is not read past the cap (``HttpResponse.body`` is None) and its
connection is dropped. Failures raise ``TimeoutError`` or :class:`HttpError`.

Example:
    >>> c = HttpClient({"Content-Type": "application/json"}, limit=8, timeout=5.0)
    >>> c.split("http://127.0.0.1:8000/v1/chat/completions")
    ('127.0.0.1', 8000, '/v1/chat/completions')
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

HEAD_LIMIT = 1 << 16  # bytes of status line and headers accepted


class HttpError(Exception):
    """A connection or protocol failure; ``kind`` names it (``ConnectionRefusedError``, …)."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind


@dataclass
class HttpResponse:
    """A reply: its status, headers (lower-case names) and body (None: over the cap)."""

    status: int
    headers: dict[str, str]
    body: bytes | None


class _Stale(Exception):
    """A reused connection closed before the reply began (safe to retry on a new one)."""


Conn = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class HttpClient:
    """POSTs with pooled keep-alive connections; at most ``limit`` requests in flight."""

    def __init__(
        self, headers: dict[str, str], *, limit: int, timeout: float, via_aiohttp: bool = False
    ) -> None:
        for k, v in headers.items():
            if any(c in f"{k}{v}" for c in "\r\n\0"):
                raise HttpError("InvalidHeader", f"header {k!r} holds a line break or NUL")
        self.timeout = timeout
        self._headers = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sem = asyncio.Semaphore(max(1, limit))
        self._idle: dict[tuple[str, int], list[Conn]] = {}
        self._targets: dict[str, tuple[str, int, bytes]] = {}
        self._tls: Any = None  # an aiohttp session, for https:// only
        self._tls_headers = headers
        self._limit = limit
        self._via_aiohttp = via_aiohttp  # every URL through aiohttp (as https:// always is)

    @staticmethod
    def split(url: str) -> tuple[str, int, str]:
        """Host, port and request target of an ``http://`` URL."""
        u = urlsplit(url)
        host = u.hostname or ""
        path = (u.path or "/") + (f"?{u.query}" if u.query else "")
        return host, u.port or 80, path

    async def post(self, url: str, data: bytes, max_body: int) -> HttpResponse:
        """POST ``data``; the reply, or ``TimeoutError`` / :class:`HttpError`."""
        if self._via_aiohttp or url.startswith("https://"):
            return await self._post_tls(url, data, max_body)
        self._bind()
        target = self._targets.get(url)
        if target is None:
            target = self._targets[url] = self._target(url)
        host, port, prefix = target
        head = prefix + b"Content-Length: %d\r\n\r\n" % len(data)
        async with self._sem, asyncio.timeout(self.timeout):
            for _ in range(2):
                conn, reused = await self._connection(host, port)
                try:
                    resp, keep = await self._exchange(conn, head + data, max_body, reused)
                except _Stale:
                    conn[1].close()
                    continue
                except BaseException:
                    conn[1].close()
                    raise
                if keep:
                    self._idle.setdefault((host, port), []).append(conn)
                else:
                    conn[1].close()
                return resp
            raise HttpError("ServerDisconnected", "the server closed the connection twice")

    def _target(self, url: str) -> tuple[str, int, bytes]:
        """Host, port and the fixed part of a request head to ``url``."""
        host, port, path = self.split(url)
        hostport = host if port == 80 else f"{host}:{port}"
        if ":" in host:  # an IPv6 literal
            hostport = f"[{host}]" if port == 80 else f"[{host}]:{port}"
        head = f"POST {path} HTTP/1.1\r\nHost: {hostport}\r\n{self._headers}"
        return host, port, head.encode("latin-1")

    def _bind(self) -> None:
        """Connections and the in-flight limit belong to one event loop; a call from another
        (a second ``asyncio.run``) starts a fresh pool."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._drop()
            self._loop = loop
            self._sem = asyncio.Semaphore(max(1, self._limit))

    def _drop(self) -> None:
        """Close the idle connections (those of a closed loop are left to be collected: their
        loop can no longer close them)."""
        for conns in self._idle.values():
            for _, writer in conns:
                if self._loop is not None and not self._loop.is_closed():
                    writer.close()
        self._idle.clear()

    async def _connection(self, host: str, port: int) -> tuple[Conn, bool]:
        idle = self._idle.get((host, port))
        while idle:
            reader, writer = idle.pop()
            if not writer.is_closing() and not reader.at_eof():
                return (reader, writer), True
            writer.close()
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=HEAD_LIMIT)
        except OSError as e:
            raise HttpError(type(e).__name__, str(e)) from None
        return (reader, writer), False

    async def _exchange(
        self, conn: Conn, request: bytes, max_body: int, reused: bool
    ) -> tuple[HttpResponse, bool]:
        reader, writer = conn
        try:
            writer.write(request)
            await writer.drain()
            while True:
                try:
                    raw = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError as e:
                    if reused and not e.partial:
                        raise _Stale from None
                    raise HttpError("ServerDisconnected", "the reply ended in its head") from None
                status, version, headers = _parse_head(raw)
                if not 100 <= status < 200:
                    break
            keep = version == "HTTP/1.1" and "close" not in headers.get("connection", "").lower()
            body, framed = await _read_body(reader, status, headers, max_body)
        except ConnectionError as e:
            if reused and isinstance(e, (ConnectionResetError, BrokenPipeError)):
                raise _Stale from None
            raise HttpError(type(e).__name__, str(e)) from None
        except asyncio.LimitOverrunError:
            raise HttpError("BadResponse", f"reply head over {HEAD_LIMIT} bytes") from None
        except asyncio.IncompleteReadError:
            raise HttpError("ServerDisconnected", "the reply ended before its body") from None
        except OSError as e:
            raise HttpError(type(e).__name__, str(e)) from None
        return HttpResponse(status, headers, body), keep and framed and body is not None

    async def _post_tls(self, url: str, data: bytes, max_body: int) -> HttpResponse:
        import aiohttp

        if self._tls is None:
            self._tls = aiohttp.ClientSession(
                headers=self._tls_headers,
                connector=aiohttp.TCPConnector(limit=self._limit, ttl_dns_cache=300),
                timeout=aiohttp.ClientTimeout(total=self.timeout),
            )
        try:
            async with self._tls.post(url, data=data) as r:
                body: bytes | None = None
                if r.content_length is None or r.content_length <= max_body:
                    buf = bytearray()
                    async for chunk in r.content.iter_chunked(1 << 16):
                        buf += chunk
                        if len(buf) > max_body:
                            break
                    body = bytes(buf) if len(buf) <= max_body else None
                headers = {k.lower(): v for k, v in r.headers.items()}
                return HttpResponse(r.status, headers, body)
        except aiohttp.ClientError as e:
            raise HttpError(type(e).__name__, str(e)) from None

    async def close(self) -> None:
        self._drop()
        if self._tls is not None:
            await self._tls.close()
            self._tls = None


def _parse_head(raw: bytes) -> tuple[int, str, dict[str, str]]:
    """Status, version and headers of a reply head (repeated names joined with ``, ``)."""
    lines = raw[:-4].decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise HttpError("BadResponse", f"not an HTTP status line: {lines[0][:60]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep:
            raise HttpError("BadResponse", f"not a header line: {line[:60]!r}")
        name = name.strip().lower()
        value = value.strip()
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return int(parts[1]), parts[0], headers


async def _read_body(
    reader: asyncio.StreamReader, status: int, headers: dict[str, str], cap: int
) -> tuple[bytes | None, bool]:
    """The body (None when over ``cap``) and whether its end was framed (so the connection can
    carry another request)."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        buf = bytearray()
        while True:
            line = await reader.readuntil(b"\r\n")
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise HttpError("BadResponse", f"bad chunk size {line[:20]!r}") from None
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                    pass
                return bytes(buf), True
            if len(buf) + size > cap:
                return None, False
            buf += (await reader.readexactly(size + 2))[:-2]
    if status in (204, 304):
        return b"", True
    length = headers.get("content-length")
    if length is not None:
        try:
            n = int(length.split(",")[0])
        except ValueError:
            raise HttpError("BadResponse", f"bad Content-Length {length[:20]!r}") from None
        if n > cap:
            return None, False
        return await reader.readexactly(n), True
    buf = bytearray()  # no framing: the body runs to the end of the connection
    while chunk := await reader.read(1 << 16):
        buf += chunk
        if len(buf) > cap:
            return None, False
    return bytes(buf), False
