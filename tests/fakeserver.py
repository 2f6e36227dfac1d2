"""A real OpenAI-compatible HTTP server on 127.0.0.1 for client and runner tests.

It answers ``POST /v1/chat/completions`` with a deterministic reply per prompt, and can inject
faults per prompt: a scripted sequence of behaviours (``"429"``, ``"500"``, ``"stall"``,
``"malformed"``, ``"ok"``, ``"401"``), then ``ok`` (or the last behaviour repeated when
``sticky``). Bounded: it runs only while its context manager is open.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections import defaultdict
from typing import Any

from aiohttp import web


def reply_for(prompt: str) -> str:
    h = int(hashlib.sha1(prompt.encode()).hexdigest(), 16)
    return '{"answer": "SAT"}' if h % 2 else '{"answer": "UNSAT"}'


class FakeServer:
    def __init__(self, delay: float = 0.0, stall_s: float = 2.0) -> None:
        self.delay = delay
        self.stall_s = stall_s
        self.scripts: dict[str, list[str]] = {}
        self.sticky: set[str] = set()
        self.default_script: list[str] = []
        self.seen: dict[str, int] = defaultdict(int)
        self.requests = 0
        self.auth_headers: list[str | None] = []
        self.bodies: list[dict[str, Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.requests += 1
        self.auth_headers.append(request.headers.get("Authorization"))
        body = await request.json()
        self.bodies.append(body)
        prompt = body["messages"][-1]["content"]
        n = self.seen[prompt]
        self.seen[prompt] += 1
        script = self.scripts.get(prompt, self.default_script)
        if n < len(script):
            action = script[n]
        elif prompt in self.sticky and script:
            action = script[-1]
        else:
            action = "ok"
        if action == "429":
            return web.Response(status=429, text="slow down", headers={"Retry-After": "0.05"})
        if action in ("500", "503"):
            return web.Response(
                status=int(action), text="<html>oops</html>", content_type="text/html"
            )
        if action == "401":
            return web.Response(status=401, text='{"error": "bad key"}')
        if action == "stall":
            await asyncio.sleep(self.stall_s)
        if action == "malformed":
            return web.Response(
                status=200, text='{"choices": [ {"mess', content_type="application/json"
            )
        if self.delay:
            await asyncio.sleep(self.delay)
        out: dict[str, Any] = {
            "id": "x",
            "object": "chat.completion",
            "model": body.get("model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply_for(prompt)},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 5},
        }
        return web.Response(text=json.dumps(out), content_type="application/json")

    def __enter__(self) -> FakeServer:
        started = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            app = web.Application()
            app.router.add_post("/v1/chat/completions", self.handle)
            self._runner = web.AppRunner(app, access_log=None)
            loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            loop.run_until_complete(site.start())
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            started.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=serve, daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("fake server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"
