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


def _number(body: dict[str, Any], name: str, default: float, lo: float, hi: float) -> float:
    v = body.get(name)
    if v is None:
        return default
    if not isinstance(v, int | float) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(f"'{name}' must be a number in {lo:g}..{hi:g}")
    return float(v)


def _sampling(body: dict[str, Any]) -> tuple[Sampling, dict[str, Any] | None]:
    """The request's sampling settings and answer schema; a malformed field is a ValueError
    naming it (a 400)."""
    rf = body.get("response_format") or {}
    if not isinstance(rf, dict):
        raise ValueError("'response_format' must be an object")
    schema = None
    if rf.get("type") == "json_schema":
        js = rf.get("json_schema") or {}
        schema = js.get("schema") if isinstance(js, dict) else None
        if not isinstance(schema, dict):
            raise ValueError("'response_format.json_schema.schema' must be an object")
    elif rf.get("type") == "json_object" and isinstance(rf.get("schema"), dict):
        schema = rf["schema"]
    elif rf.get("type") not in (None, "text", "json_object"):
        raise ValueError("'response_format.type' must be text, json_object or json_schema")
    stop = body.get("stop") or ()
    if isinstance(stop, str):
        stop = (stop,)
    if not isinstance(stop, list | tuple) or not all(isinstance(x, str) for x in stop):
        raise ValueError("'stop' must be a string or a list of strings")
    if len(stop) > 4:
        raise ValueError("'stop' takes at most 4 strings")
    max_tokens = body.get("max_completion_tokens") or body.get("max_tokens") or 512
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise ValueError("'max_tokens' must be an integer ≥ 1")
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ValueError("'seed' must be an integer")
    s = Sampling(
        temperature=_number(body, "temperature", 0.0, 0.0, 2.0),
        top_p=_number(body, "top_p", 1.0, 0.0, 1.0),
        max_tokens=max_tokens,
        seed=seed,
        stop=tuple(stop),
        structured=schema is not None,
    )
    return s, schema


def _messages(body: dict[str, Any]) -> list[Message]:
    msgs = body.get("messages")
    if not isinstance(msgs, list) or not msgs:
        raise ValueError("'messages' must be a non-empty list")
    out = []
    for m in msgs:
        if not isinstance(m, dict) or not isinstance(m.get("content"), str):
            raise ValueError("each message is an object with a string 'role' and 'content'")
        out.append(Message.model_validate({"role": m.get("role"), "content": m["content"]}))
    return out


def make_app(model: Model, items: list[Item] | None = None, **guard: Any) -> Any:
    """The aiohttp application; ``guard`` takes ``max_connections``, ``header_timeout`` and
    ``body_timeout`` (:func:`logicforge.serve_guard.guard_app`)."""
    from aiohttp import web

    from .serve_guard import guard_app, read_json

    by_prompt = {_key(list(it.messages)): it for it in items or ()}
    needs_item = bool(getattr(model, "needs_item", False))

    async def chat(request: web.Request) -> web.Response:
        try:
            body = await read_json(request)
            messages = _messages(body)
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
    guard_app(app, **guard)
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

    from .serve_guard import start_guarded

    async def main() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        server, guard, bound = await start_guarded(runner, host, port)
        print(banner(bound), flush=True)
        if port_file:
            write_port_file(port_file, bound)
        try:
            await asyncio.Event().wait()
        finally:
            server.close()
            guard.close()
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
    **guard: Any,
) -> None:
    """Serve the model ``spec`` until interrupted; ``port=0`` picks a free port (written to
    ``port_file`` when given, and printed); ``items`` lets baselines answer those items;
    ``guard`` bounds connections (:func:`logicforge.serve_guard.guard_app`)."""
    model = load_model(spec)
    run_until_interrupted(
        make_app(model, items, **guard),
        host,
        port,
        port_file,
        lambda bound: f"serving {model.name} on http://{host}:{bound}/v1",
        model.aclose,
    )
