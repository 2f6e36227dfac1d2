"""A real OpenAI-compatible HTTP server on 127.0.0.1 for client and runner tests.

It answers ``POST /v1/chat/completions`` with a deterministic reply per prompt, and can inject
faults per prompt: a scripted sequence of behaviours, then ``ok`` (or the last behaviour repeated
when ``sticky``). Behaviours: ``ok``, ``429``, ``500``, ``503``, ``401``, ``403``, ``stall``,
``malformed``, and the hostile ones — ``drip`` (a 200 whose body trickles a byte every 50 ms for
at most 30 s), ``huge`` (a 40 MiB body), ``badutf8`` (invalid UTF-8 bytes), ``surrogate`` (valid
JSON whose content holds a lone ``\\ud800`` escape), ``html200`` (an HTML page with status 200),
``wrongtype`` (a correct body labelled ``text/plain``), ``close`` (the connection is dropped
without a reply). Every fault is counted in ``faults``. Bounded: it runs only while its context
manager is open, on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import ssl
import threading
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from aiohttp import web


def reply_for(prompt: str) -> str:
    h = int(hashlib.sha1(prompt.encode()).hexdigest(), 16)
    return '{"answer": "SAT"}' if h % 2 else '{"answer": "UNSAT"}'


class FakeServer:
    def __init__(
        self,
        delay: float = 0.0,
        stall_s: float = 2.0,
        routes: dict[str, Callable[[dict[str, Any]], tuple[int, Any]]] | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.tls = tls  # serve https:// with this context
        self.routes = routes or {}  # extra POST paths: body → (status, JSON reply)
        self.delay = delay
        self.stall_s = stall_s
        self.scripts: dict[str, list[str]] = {}
        self.sticky: set[str] = set()
        self.default_script: list[str] = []
        self.fingerprint: str | None = None  # sent as system_fingerprint when set
        self.seen: dict[str, int] = defaultdict(int)
        self.requests = 0
        self.auth_headers: list[str | None] = []
        self.bodies: list[dict[str, Any]] = []
        self.faults: dict[str, int] = defaultdict(int)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.requests += 1
        self.auth_headers.append(request.headers.get("Authorization"))
        body = await request.json()
        self.bodies.append(body)
        completions = request.path.endswith("/v1/completions")
        prompt = (
            body["prompt"].rsplit("\n\n", 1)[-1] if completions else body["messages"][-1]["content"]
        )
        n = self.seen[prompt]
        self.seen[prompt] += 1
        script = self.scripts.get(prompt, self.default_script)
        if n < len(script):
            action = script[n]
        elif prompt in self.sticky and script:
            action = script[-1]
        else:
            action = "ok"
        if action != "ok":
            self.faults[action] += 1
        hostile = await self._hostile(action, request, body, prompt)
        if hostile is not None:
            return hostile
        if action == "429":
            return web.Response(status=429, text="slow down", headers={"Retry-After": "0.05"})
        if action.startswith("raw:"):  # "raw:<status>:<body>" — exactly that body
            status, raw = action[4:].split(":", 1)
            return web.Response(
                status=int(status), body=raw.encode(), content_type="application/json"
            )
        if action.startswith("429:"):  # 429 with the given Retry-After value
            return web.Response(status=429, text="slow down", headers={"Retry-After": action[4:]})
        if action in ("500", "503"):
            return web.Response(
                status=int(action), text="<html>oops</html>", content_type="text/html"
            )
        if action in ("401", "403"):
            return web.Response(status=int(action), text='{"error": "bad key"}')
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
            "choices": [  # with "n": choice i answers as if asked prompt#i (choice 0: the prompt)
                {"index": i, "text": reply_for(prompt), "finish_reason": "stop"}
                if completions
                else {
                    "index": i,
                    "message": {
                        "role": "assistant",
                        "content": reply_for(prompt if i == 0 else f"{prompt}#{i}"),
                    },
                    "finish_reason": "stop",
                }
                for i in range(int(body.get("n", 1)))
            ],
            "created": 0,
            **({"system_fingerprint": self.fingerprint} if self.fingerprint else {}),
            "usage": {
                "prompt_tokens": len(prompt) // 4,
                "completion_tokens": 5,
                "total_tokens": len(prompt) // 4 + 5,
            },
        }
        return web.Response(text=json.dumps(out), content_type="application/json")

    async def _route(self, request: web.Request) -> web.Response:
        self.requests += 1
        self.auth_headers.append(request.headers.get("Authorization"))
        body = await request.json()
        self.bodies.append(body)
        status, out = self.routes[request.path](body)
        return web.Response(status=status, text=json.dumps(out), content_type="application/json")

    def _ok_body(self, body: dict[str, Any], content: str) -> bytes:
        out = {
            "choices": [{"message": {"content": content}, "finish_reason": "stop"}],
            "model": body.get("model"),
        }
        return json.dumps(out).encode()

    async def _hostile(
        self, action: str, request: web.Request, body: dict[str, Any], prompt: str
    ) -> web.StreamResponse | None:
        if action == "drip":
            resp = web.StreamResponse(status=200, headers={"Content-Type": "application/json"})
            await resp.prepare(request)
            try:
                for _ in range(600):  # ≤ 30 s, the client's time-out ends it first
                    await resp.write(b" ")
                    await asyncio.sleep(0.05)
            except (ConnectionError, RuntimeError):
                pass
            return resp
        if action == "huge":
            return web.Response(body=b"x" * (40 << 20), content_type="application/json")
        if action == "badutf8":
            return web.Response(
                body=b'{"choices": [\xff\xfe\xc3\x28]}', content_type="application/json"
            )
        if action == "surrogate":
            raw = self._ok_body(body, "PLACEHOLDER").replace(b"PLACEHOLDER", b"\\ud800 SAT")
            return web.Response(body=raw, content_type="application/json")
        if action in ("content-int", "content-parts", "finish-int", "usage-bad"):
            text = reply_for(prompt)
            content: Any = {
                "content-int": 7,
                "content-parts": [
                    {"type": "text", "text": text[:5]},
                    {"type": "text", "text": text[5:]},
                ],
            }.get(action, text)
            choice = {
                "message": {"content": content},
                "finish_reason": 3 if action == "finish-int" else "stop",
            }
            usage = (
                {"prompt_tokens": "10", "completion_tokens": float("nan")}
                if action == "usage-bad"
                else {}
            )
            raw = json.dumps({"choices": [choice], "usage": usage}).replace("NaN", "Infinity")
            return web.Response(body=raw.encode(), content_type="application/json")
        if action == "echo-400":  # a proxy that echoes the request headers in its error
            return web.Response(status=400, text=json.dumps({"headers": dict(request.headers)}))
        if action == "echo-200":  # a reply that quotes the caller's credentials back
            auth = request.headers.get("Authorization", "")
            text = f"{reply_for(prompt)}\nDebug: Authorization: {auth}; key={auth[7:]}"
            return web.Response(body=self._ok_body(body, text), content_type="application/json")
        if action.startswith("echo-key-at:"):  # "echo-key-at:<status>:<offset>": the raw key
            _, status, offset = action.split(":")  # at that offset of the error body
            auth = request.headers.get("Authorization", "")[7:]
            pad = "e" * int(offset)
            if status == "200":
                raw = json.dumps({"error": {"message": pad + auth + " trailing words"}})
                return web.Response(body=raw.encode(), content_type="application/json")
            return web.Response(status=int(status), text=pad + auth + " trailing words")
        if action == "error-200":  # an error object beside the choices
            raw = json.loads(self._ok_body(body, reply_for(prompt)))
            raw["error"] = {"message": "upstream failed", "code": 502}
            return web.Response(body=json.dumps(raw).encode(), content_type="application/json")
        if action == "html200":
            return web.Response(text="<html><body>Gateway</body></html>", content_type="text/html")
        if action == "wrongtype":
            return web.Response(
                body=self._ok_body(body, reply_for(prompt)), content_type="text/plain"
            )
        if action == "close":
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)  # never delivered
        return None

    def __enter__(self) -> FakeServer:
        started = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            app = web.Application()
            for path in self.routes:  # before the defaults: a route replaces one
                app.router.add_post(path, self._route)
            for path in ("/v1/chat/completions", "/v1/completions"):
                if path not in self.routes:
                    app.router.add_post(path, self.handle)
            self._runner = web.AppRunner(app, access_log=None)
            loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=self.tls)
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
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}/v1"
