"""``logicforge serve``: any in-process model (the embedded SmolLM2, a local GGUF, a baseline)
behind a minimal OpenAI-compatible ``POST /v1/chat/completions`` on 127.0.0.1.

It exists so that the OpenAI-compatible client, multi-endpoint runs and other tools (Inspect,
curl) can be pointed at the embedded model with no download and no extra server package. The
request's messages, ``temperature``, ``top_p``, ``max_tokens`` (or ``max_completion_tokens``),
``seed``, ``stop`` and a ``json_schema`` ``response_format`` are passed to the model exactly as an
in-process run would pass them, so greedy decoding gives the same text either way. One request
is decoded at a time (llama.cpp holds one context).

Baselines (``oracle``, ``random``, ``always-sat`` …) answer from the task, not the text: give
``items`` (an items.jsonl) and a request whose messages are an item's prompt is answered for
that item; other requests get a 400 that says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from .aio import run_async
from .errors import LogicforgeError
from .models.base import Model, Prompt, Sampling, load_model
from .schema import Item, Message


def _key(messages: list[Message]) -> str:
    return json.dumps([[m.role, m.content] for m in messages])


def _sampling(body: dict[str, Any]) -> tuple[Sampling, dict[str, Any] | None]:
    rf = body.get("response_format") or {}
    schema = (
        (rf.get("json_schema") or {}).get("schema") if rf.get("type") == "json_schema" else None
    )
    if rf.get("type") == "json_object" and isinstance(rf.get("schema"), dict):
        schema = rf["schema"]
    stop = body.get("stop") or ()
    s = Sampling(
        temperature=float(body.get("temperature", 0.0)),
        top_p=float(body.get("top_p", 1.0)),
        max_tokens=int(body.get("max_completion_tokens") or body.get("max_tokens") or 512),
        seed=body.get("seed"),
        stop=(stop,) if isinstance(stop, str) else tuple(stop),
        structured=schema is not None,
    )
    return s, schema


def make_app(model: Model, items: list[Item] | None = None) -> Any:
    from aiohttp import web

    by_prompt = {_key(list(it.messages)): it for it in items or ()}
    needs_item = bool(getattr(model, "needs_item", False))

    async def chat(request: web.Request) -> web.Response:
        try:
            body = await request.json()
            messages = [Message(role=m["role"], content=m["content"]) for m in body["messages"]]
            sampling, schema = _sampling(body)
        except (ValueError, KeyError, TypeError, LogicforgeError) as e:
            return web.json_response(
                {"error": {"message": f"bad request: {e}", "type": "invalid_request_error"}},
                status=400,
            )
        item = by_prompt.get(_key(messages))
        if item is None and needs_item:
            return web.json_response(
                {
                    "error": {
                        "message": f"{model.name} answers logicforge items: serve it with "
                        "--items items.jsonl and send one of their prompts",
                        "type": "invalid_request_error",
                    }
                },
                status=400,
            )
        prompt = Prompt(tuple(messages), schema, item.item_id if item else "serve", item)
        r = await model.generate(prompt, sampling, 0)
        if r.error is not None or r.text is None:
            return web.json_response(
                {"error": {"message": r.error or "no text", "type": "server_error"}}, status=500
            )
        usage = {
            "prompt_tokens": r.prompt_tokens or 0,
            "completion_tokens": r.completion_tokens or 0,
        }
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return web.json_response(
            {
                "id": f"lf-{time.monotonic_ns()}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model") or model.name,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": r.text},
                        "finish_reason": r.finish_reason or "stop",
                    }
                ],
                "usage": usage,
            }
        )

    async def models(request: web.Request) -> web.Response:
        return web.json_response(
            {"object": "list", "data": [{"id": model.name, "object": "model"}]}
        )

    app = web.Application(client_max_size=64 * 2**20)
    app.router.add_post("/v1/chat/completions", chat)
    app.router.add_get("/v1/models", models)
    return app


def write_port_file(path: str | Path, port: int) -> None:
    """Write ``{"port": N}`` to ``path`` whole or not at all: a script that waits for the file to
    appear never reads it empty or half written.

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> write_port_file(d / "port.json", 8123); (d / "port.json").read_text()
        '{"port": 8123}'
    """
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"port": port}), encoding="utf-8")
    os.replace(tmp, p)


def run_until_interrupted(
    app: Any,
    host: str,
    port: int,
    port_file: str | None,
    banner: Callable[[int], str],
    on_close: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Serve the aiohttp ``app`` on ``host:port`` until interrupted; ``port=0`` picks a free
    port, written to ``port_file`` as ``{"port": N}`` and printed by ``banner(port)``."""
    from aiohttp import web

    async def main() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        print(banner(bound), flush=True)
        if port_file:
            write_port_file(port_file, bound)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
            if on_close is not None:
                await on_close()

    with contextlib.suppress(KeyboardInterrupt):
        run_async(main())


def serve(
    spec: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    port_file: str | None = None,
    items: list[Item] | None = None,
) -> None:
    """Serve the model ``spec`` until interrupted; ``port=0`` picks a free port (written to
    ``port_file`` when given, and printed); ``items`` lets baselines answer those items."""
    model = load_model(spec)
    run_until_interrupted(
        make_app(model, items),
        host,
        port,
        port_file,
        lambda bound: f"serving {model.name} on http://{host}:{bound}/v1",
        model.aclose,
    )
