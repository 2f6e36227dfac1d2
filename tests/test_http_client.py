"""The HTTP/1.1 client of the model backends (logicforge.models.http) against real servers on
127.0.0.1: aiohttp's web server, and a raw asyncio server that sends scripted bytes (interim
replies, chunked and unframed bodies, idle connections closed by the server, broken heads)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

import pytest
from aiohttp import web

from logicforge.models.http import HttpClient, HttpError

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    n = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    return await reader.readexactly(n)


async def _with_raw(handler: Handler, body: Callable[[str], Awaitable[None]]) -> list[int]:
    """Run ``body(url)`` against a raw server; the peer ports of the connections it accepted."""
    peers: list[int] = []

    async def wrapped(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        peers.append(w.get_extra_info("peername")[1])
        try:
            await handler(r, w)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            w.close()

    server = await asyncio.start_server(wrapped, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        await body(f"http://127.0.0.1:{port}/v1/x")
    return peers


def _client(**kw: float) -> HttpClient:
    return HttpClient({"Content-Type": "application/json"}, limit=4, timeout=kw.get("t", 5.0))


@pytest.mark.parametrize("via_aiohttp", [False, True])
def test_aiohttp_server_keep_alive_and_chunked(via_aiohttp: bool) -> None:
    """Sequential requests share one connection; a chunked reply is read whole; the request
    carries the headers, the body and the Host — through logicforge's own pool, and through
    the aiohttp path that ``https://`` URLs take."""
    seen: list[tuple[str, str, dict]] = []

    async def plain(request: web.Request) -> web.Response:
        seen.append((request.host, request.headers["Content-Type"], await request.json()))
        peer = request.transport.get_extra_info("peername")[1] if request.transport else 0
        return web.json_response({"peer": peer})

    async def chunked(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse()
        resp.enable_chunked_encoding()
        await resp.prepare(request)
        for i in range(5):
            await resp.write(json.dumps({"part": i}).encode() + b"\n")
        await resp.write_eof()
        return resp

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/v1/plain", plain)
        app.router.add_post("/v1/chunked", chunked)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        c = HttpClient(
            {"Content-Type": "application/json"}, limit=4, timeout=5.0, via_aiohttp=via_aiohttp
        )
        try:
            peers = set()
            for i in range(20):
                r = await c.post(f"http://127.0.0.1:{port}/v1/plain", b'{"i": %d}' % i, 1 << 20)
                assert r.status == 200 and r.body is not None
                peers.add(json.loads(r.body)["peer"])
            assert len(peers) == 1  # one kept-alive connection
            r = await c.post(f"http://127.0.0.1:{port}/v1/chunked", b"{}", 1 << 20)
            assert r.status == 200 and r.headers["transfer-encoding"].lower() == "chunked"
            assert r.body == b"".join(json.dumps({"part": i}).encode() + b"\n" for i in range(5))
            r = await c.post(f"http://127.0.0.1:{port}/v1/chunked", b"{}", 10)
            assert r.body is None  # over the cap: not read past it
            r = await c.post(f"http://127.0.0.1:{port}/v1/nowhere", b"{}", 1 << 20)
            assert r.status == 404 and r.body is not None
        finally:
            await c.close()
            await runner.cleanup()

    asyncio.run(main())
    assert seen[0] == (seen[0][0], "application/json", {"i": 0}) and seen[0][0].startswith("127.")
    assert [s[2]["i"] for s in seen] == list(range(20))


def test_interim_reply_unframed_body_and_trailers() -> None:
    async def interim(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await _read_request(r)
        w.write(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await _read_request(r)  # kept alive: a second request on the same connection
        w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        w.write(b"3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: y\r\n\r\n")
        await w.drain()
        await _read_request(r)
        w.write(b"HTTP/1.0 200 OK\r\nServer: old\r\n\r\nto the end")  # no framing: until close
        await w.drain()

    async def body(url: str) -> None:
        c = _client()
        assert (await c.post(url, b"{}", 100)).body == b"ok"
        assert (await c.post(url, b"{}", 100)).body == b"abcde"
        r = await c.post(url, b"{}", 100)
        assert (r.status, r.headers["server"], r.body) == (200, "old", b"to the end")
        await c.close()

    assert len(asyncio.run(_with_raw(interim, body))) == 1


def test_an_idle_connection_the_server_closed_is_retried_once_on_a_new_one() -> None:
    async def one_reply(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await _read_request(r)
        w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nyes")
        await w.drain()  # then closes, without Connection: close

    async def body(url: str) -> None:
        c = _client()
        for _ in range(3):
            r = await c.post(url, b"{}", 100)
            assert r.body == b"yes"
            await asyncio.sleep(0.05)  # the close reaches the client while it is idle
        await c.close()

    assert len(asyncio.run(_with_raw(one_reply, body))) == 3


def test_connection_close_is_honoured() -> None:
    async def closing(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        while True:
            await _read_request(r)
            w.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\n1")
            await w.drain()

    async def body(url: str) -> None:
        c = _client()
        for _ in range(3):
            assert (await c.post(url, b"{}", 100)).body == b"1"
        await c.close()

    assert len(asyncio.run(_with_raw(closing, body))) == 3


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (b"SMTP ready\r\n\r\n", "BadResponse"),
        (b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "BadResponse"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n", "BadResponse"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "BadResponse"),
        (b"HTTP/1.1 200 OK\r\nX: " + b"a" * 70_000 + b"\r\n\r\n", "BadResponse"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "ServerDisconnected"),
        (b"HTTP/1.1 200 OK\r\nContent-Le", "ServerDisconnected"),
    ],
)
def test_broken_replies_are_connection_errors(reply: bytes, kind: str) -> None:
    async def broken(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await _read_request(r)
        w.write(reply)
        await w.drain()

    async def body(url: str) -> None:
        c = _client()
        with pytest.raises(HttpError) as e:
            await c.post(url, b"{}", 1 << 20)
        assert e.value.kind == kind
        await c.close()

    asyncio.run(_with_raw(broken, body))


def test_a_dripping_body_times_out_and_a_closed_port_is_refused() -> None:
    async def drip(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await _read_request(r)
        w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
        for _ in range(100):
            w.write(b"x")
            await w.drain()
            await asyncio.sleep(0.05)

    async def body(url: str) -> None:
        c = _client(t=0.3)
        with pytest.raises(TimeoutError):
            await c.post(url, b"{}", 1 << 20)
        await c.close()

    asyncio.run(_with_raw(drip, body))

    async def refused() -> None:
        s = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = s.sockets[0].getsockname()[1]
        s.close()
        await s.wait_closed()
        c = _client()
        with pytest.raises(HttpError) as e:
            await c.post(f"http://127.0.0.1:{port}/v1", b"{}", 100)
        assert e.value.kind == "ConnectionRefusedError"

    asyncio.run(refused())


def test_a_header_with_a_line_break_is_refused_before_any_request() -> None:
    with pytest.raises(HttpError, match="line break"):
        HttpClient({"Authorization": "Bearer sk-1\r\nX-Evil: 1"}, limit=1, timeout=1.0)


def test_one_client_serves_two_event_loops() -> None:
    """A second ``asyncio.run`` (the Python API run twice) gets a fresh pool, not the first
    loop's dead connections."""

    async def echo(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        while True:
            data = await _read_request(r)
            w.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
            await w.drain()

    c = _client()

    async def body(url: str) -> None:
        assert (await c.post(url, b"abc", 100)).body == b"abc"

    asyncio.run(_with_raw(echo, body))
    asyncio.run(_with_raw(echo, body))
    asyncio.run(c.close())
