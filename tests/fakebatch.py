"""A real HTTP server on 127.0.0.1 that implements the OpenAI Batch API and Anthropic's Message
Batches, as documented, for the batch backends' tests.

OpenAI: ``POST /v1/files`` (multipart, purpose=batch), ``POST /v1/batches``, ``GET /v1/batches``
(list, with metadata), ``GET /v1/batches/{id}``, ``GET /v1/files/{id}/content``. Anthropic:
``POST /v1/messages/batches``, ``GET /v1/messages/batches/{id}``, ``GET …/{id}/results``.

Each reply is ``{"answer": "SAT"}`` or ``{"answer": "UNSAT"}`` by a hash of the prompt (right on
some items, wrong on others). Controls: ``hold`` (an Event: batches stay in progress until it is
set), ``fail`` (a predicate on the prompt text: that request fails — HTTP 400 in OpenAI's error
file, ``errored`` for Anthropic), ``expire_every`` (the batch ends ``expired`` with every k-th
request unanswered). Counters: ``creates``, ``uploads``, ``polls``, ``downloads``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from logicforge.serve_verify import InThread

from .fakeserver import reply_for


class FakeBatchServer:
    def __init__(self) -> None:
        self.hold = threading.Event()
        self.hold.set()
        self.fail: Callable[[str], bool] = lambda text: False
        self.expire_every = 0
        self.creates = 0
        self.uploads = 0
        self.polls = 0
        self.downloads = 0
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.requests_seen: list[str] = []  # custom ids, in submission order
        self.port = 0

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _text(messages: list[dict[str, Any]]) -> str:
        return "\n".join(str(m.get("content")) for m in messages)

    def _answers(self, reqs: list[tuple[str, str]]) -> dict[str, tuple[str, str | None]]:
        """custom_id → (status, reply text): ok / failed / missing (expired)."""
        out: dict[str, tuple[str, str | None]] = {}
        for i, (cid, text) in enumerate(reqs):
            if self.expire_every and i % self.expire_every == self.expire_every - 1:
                out[cid] = ("missing", None)
            elif self.fail(text):
                out[cid] = ("failed", None)
            else:
                out[cid] = ("ok", reply_for(text))
        return out

    # -- OpenAI ----------------------------------------------------------------------------
    async def upload(self, request: web.Request) -> web.Response:
        form = await request.post()
        assert form.get("purpose") == "batch"
        f = form["file"]
        data = f.file.read() if hasattr(f, "file") else bytes(f)  # type: ignore[union-attr]
        self.uploads += 1
        fid = f"file-{len(self.files)}"
        self.files[fid] = data
        return web.json_response({"id": fid, "object": "file", "purpose": "batch"})

    async def create_openai(self, request: web.Request) -> web.Response:
        body = await request.json()
        assert body["endpoint"] == "/v1/chat/completions" and body["completion_window"] == "24h"
        lines = [json.loads(x) for x in self.files[body["input_file_id"]].decode().splitlines()]
        reqs = [(x["custom_id"], self._text(x["body"]["messages"])) for x in lines]
        self.requests_seen += [c for c, _ in reqs]
        self.creates += 1
        bid = f"batch_{len(self.batches)}"
        self.batches[bid] = {
            "id": bid,
            "object": "batch",
            "kind": "openai",
            "status": "in_progress",
            "metadata": body.get("metadata") or {},
            "answers": self._answers(reqs),
            "model": lines[0]["body"]["model"] if lines else "",
            "created_at": int(time.time()),
        }
        return web.json_response(self._public(bid))

    def _public(self, bid: str) -> dict[str, Any]:
        return {k: v for k, v in self.batches[bid].items() if k not in ("answers", "kind")}

    def _finish_openai(self, b: dict[str, Any]) -> None:
        out, err = [], []
        for cid, (status, text) in b["answers"].items():
            if status == "ok":
                body = {
                    "id": f"chatcmpl-{cid[:8]}",
                    "object": "chat.completion",
                    "model": b["model"],
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 50, "completion_tokens": 6, "total_tokens": 56},
                }
                line = {"custom_id": cid, "response": {"status_code": 200, "body": body}}
                out.append(json.dumps({"id": f"r-{cid[:8]}", **line, "error": None}))
            elif status == "failed":
                body = {"error": {"message": "This request was rejected", "type": "invalid"}}
                line = {"custom_id": cid, "response": {"status_code": 400, "body": body}}
                err.append(json.dumps({"id": f"r-{cid[:8]}", **line, "error": None}))
        b["status"] = "expired" if self.expire_every else "completed"
        for name, rows in (("output_file_id", out), ("error_file_id", err)):
            if rows:
                fid = f"file-{len(self.files)}"
                self.files[fid] = ("\n".join(rows) + "\n").encode()
                b[name] = fid
            else:
                b[name] = None

    async def get_openai(self, request: web.Request) -> web.Response:
        bid = request.match_info["bid"]
        self.polls += 1
        b = self.batches.get(bid)
        if b is None:
            return web.json_response({"error": {"message": "no such batch"}}, status=404)
        if b["status"] == "in_progress" and self.hold.is_set():
            self._finish_openai(b)
        return web.json_response(self._public(bid))

    async def list_openai(self, request: web.Request) -> web.Response:
        data = [self._public(b) for b in self.batches if self.batches[b]["kind"] == "openai"]
        return web.json_response({"object": "list", "data": data[::-1], "has_more": False})

    async def content(self, request: web.Request) -> web.Response:
        self.downloads += 1
        return web.Response(body=self.files[request.match_info["fid"]])

    # -- Anthropic -------------------------------------------------------------------------
    async def create_anthropic(self, request: web.Request) -> web.Response:
        assert request.headers.get("anthropic-version")
        body = await request.json()
        reqs = [(r["custom_id"], self._text(r["params"]["messages"])) for r in body["requests"]]
        assert all(r["params"]["max_tokens"] >= 1 for r in body["requests"])
        self.requests_seen += [c for c, _ in reqs]
        self.creates += 1
        bid = f"msgbatch_{len(self.batches)}"
        model = body["requests"][0]["params"]["model"] if body["requests"] else ""
        self.batches[bid] = {
            "id": bid,
            "type": "message_batch",
            "kind": "anthropic",
            "processing_status": "in_progress",
            "answers": self._answers(reqs),
            "model": model,
            "results_url": None,
        }
        return web.json_response(self._public(bid))

    async def get_anthropic(self, request: web.Request) -> web.Response:
        bid = request.match_info["bid"]
        self.polls += 1
        b = self.batches[bid]
        if b["processing_status"] == "in_progress" and self.hold.is_set():
            b["processing_status"] = "ended"
            b["results_url"] = f"http://127.0.0.1:{self.port}/v1/messages/batches/{bid}/results"
        return web.json_response(self._public(bid))

    async def results_anthropic(self, request: web.Request) -> web.Response:
        self.downloads += 1
        b = self.batches[request.match_info["bid"]]
        rows = []
        for cid, (status, text) in b["answers"].items():
            if status == "ok":
                msg = {
                    "id": f"msg_{cid[:8]}",
                    "type": "message",
                    "role": "assistant",
                    "model": b["model"],
                    "content": [{"type": "text", "text": text}],
                    "stop_reason": "end_turn",
                    "usage": {"input_tokens": 50, "output_tokens": 6},
                }
                res: dict[str, Any] = {"type": "succeeded", "message": msg}
            elif status == "failed":
                err = {"type": "invalid_request_error", "message": "This request was rejected"}
                res = {"type": "errored", "error": {"type": "error", "error": err}}
            else:
                res = {"type": "expired"}
            rows.append(json.dumps({"custom_id": cid, "result": res}))
        return web.Response(body=("\n".join(rows) + "\n").encode())

    # -- lifecycle -------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_post("/v1/files", self.upload)
        app.router.add_get("/v1/files/{fid}/content", self.content)
        app.router.add_post("/v1/batches", self.create_openai)
        app.router.add_get("/v1/batches", self.list_openai)
        app.router.add_get("/v1/batches/{bid}", self.get_openai)
        app.router.add_post("/v1/messages/batches", self.create_anthropic)
        app.router.add_get("/v1/messages/batches/{bid}", self.get_anthropic)
        app.router.add_get("/v1/messages/batches/{bid}/results", self.results_anthropic)
        return app

    def __enter__(self) -> FakeBatchServer:
        self._srv = InThread(app=self.app()).__enter__()
        self.port = self._srv.port
        return self

    def __exit__(self, *exc: object) -> None:
        self._srv.__exit__(*exc)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"
