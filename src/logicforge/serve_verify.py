"""``logicforge serve-verify``: the verifiers as an HTTP service for training loops, on aiohttp.

* ``GET /health`` — ``{"status": "ok", "version", "families", "items"}``;
* ``POST /generate`` — ``{"family", "level"?, "params"?, "seed"?, "count"?, "renderer"?}`` →
  ``{"items": [Item, …], "signatures": [str, …]}`` (at most ``max_generate`` per request;
  without ``renderer``, the kind's training renderer, which asks for a certificate of every
  answer — ``formula-proof`` for CNFs); generated items are kept (a bounded cache) so
  ``/verify`` can name them by id, and each is signed (HMAC-SHA256 under the server's key, see
  :func:`item_signature`) so a client may send the item itself back;
* ``POST /verify`` — ``{"requests": [{"item": Item, "signature": str | "item_id": str, "response": str,
  "partial"?: bool, "reward_mode"?: str}, …], "partial"?: bool, "reward_mode"?: str}`` (at
  most ``max_batch``; a request's own ``partial`` / ``reward_mode`` beats the batch's, which
  default to false and to the server's mode — ``certified`` unless started with
  ``reward_mode="decision"``; anything but a JSON boolean / a mode's name is refused; an item
  the certified reward cannot pay gets an ``error`` naming the renderer to use) → ``{"results": [{"item_id", "reward", "correct",
  "parse_failure", "witness_valid", "reason", "components"}, …]}`` (``components``: format,
  decision, witness, length and the combined reward, as
  :func:`~logicforge.metrics.reward.reward_components` gives them); a request that cannot be
  verified (an unknown id, a malformed item) gets an ``error`` in its own result, the others are
  unaffected.

An item sent in full is verified only when it is the server's own: the item it holds under
that id, byte for byte, or an item whose ``signature`` the server made. Anything else — an
unsigned item, an item edited in transit, a trivial formula under a known id — gets an
``error`` and no reward, unless the server was started with ``accept_unsigned=True``
(``--accept-unsigned-items``), which still refuses a changed item under an id it knows. The
signing key is random per process unless ``sign_key`` (``--sign-key-env``) shares one between
replicas.

Model text is only parsed and checked, never run. Verification happens in worker threads, at most
``concurrency`` at a time. ``/generate`` runs in worker processes (:mod:`.serve_workers`): a
request estimated past ``generate_timeout`` seconds or ``max_generate_mb`` of items is refused
at once, one that runs past the time limit is stopped, and a worker never takes more than
``generate_memory_mb``; in certified mode it refuses a renderer whose items ``/verify`` could
not pay. Connections are capped below the descriptor limit and time out while sending their
head or body; a body nested too deep is a 400 (:mod:`.serve_guard`). Request bodies over
``max_body_mb`` are refused (413); with
``api_key_env`` set, every request must carry ``Authorization: Bearer <key>`` (401 otherwise).
Listens on 127.0.0.1 unless told otherwise.

Example:
    >>> app = make_app()
    >>> sorted({r.resource.canonical for r in app.router.routes()})  # GET also answers HEAD
    ['/generate', '/health', '/verify']
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
from collections import OrderedDict
from typing import Any

from ._version import __version__
from .errors import LogicforgeError

MAX_CACHE = 100_000  # items kept for /verify by id (oldest dropped first)


def item_signature(item: Any, key: bytes) -> str:
    """The server's signature of an item: HMAC-SHA256 under ``key`` of the item's canonical JSON
    (keys sorted), so a client's re-serialisation does not matter but any change of content does.

    Example:
        >>> import logicforge as lf
        >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=1), "formula")[0]
        >>> sig = item_signature(it, b"k")
        >>> len(sig), sig == item_signature(lf.Item.model_validate_json(it.model_dump_json()), b"k")
        (64, True)
    """
    body = json.dumps(item.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def _trusted(req: dict[str, Any], item: Any, known: Any, key: bytes, unsigned: bool) -> str:
    """Why an item sent in full may not be paid, or "" when it is the server's own."""
    if known is not None:
        if item_signature(item, key) == item_signature(known, key):
            return ""
        return (
            f"the item differs from the item {item.item_id!r} this server holds: "
            "send its item_id alone, or the item as /generate gave it"
        )
    sig = req.get("signature")
    if isinstance(sig, str) and hmac.compare_digest(sig, item_signature(item, key)):
        return ""
    if unsigned and sig is None:
        return ""
    if sig is None:
        return (
            "the item carries no signature of this server: send the 'signature' /generate "
            "gave with it, or its item_id (a server started with --accept-unsigned-items "
            "takes any item)"
        )
    return "the item's signature does not match its content (changed in transit?): no reward"


def _verify_one(
    req: Any,
    known: Any,
    partial: bool,
    mode: str = "certified",
    key: bytes = b"",
    unsigned: bool = True,
) -> dict[str, Any]:
    """One /verify request; ``known`` is the item its ``item_id`` names (looked up in the event
    loop, so the worker thread never reads the shared cache), or None. An item sent in full
    must be the server's own (:func:`_trusted`)."""
    from .kinds import parse_answer, verify
    from .metrics.reward import REWARD_MODES, components_of, uncertified
    from .schema import Item

    if not isinstance(req, dict):
        return {"error": "each request is an object with 'item' or 'item_id' and 'response'"}
    try:
        if "item" in req:
            item = Item.model_validate(req["item"])
            if why := _trusted(req, item, known, key, unsigned):
                return {"item_id": item.item_id, "error": why}
        elif known is not None:
            item = known
        else:
            return {"item_id": req.get("item_id"), "error": "unknown item_id (send the item)"}
        partial = req.get("partial", partial)  # a request's own choice beats the batch's
        if not isinstance(partial, bool):
            return {"item_id": item.item_id, "error": "'partial' must be true or false"}
        mode = req.get("reward_mode", mode)
        if mode not in REWARD_MODES:
            return {
                "item_id": item.item_id,
                "error": f"'reward_mode' must be one of {list(REWARD_MODES)}",
            }
        if mode == "certified" and (why := uncertified(item)):
            return {"item_id": item.item_id, "error": why}
        text = req.get("response")
        if text is not None and not isinstance(text, str):
            return {"item_id": item.item_id, "error": "'response' must be a string or null"}
        if item.gold.get("label") == "UNKNOWN":
            return {"item_id": item.item_id, "error": "its gold label is unknown: no reward"}
        answer = parse_answer(text, item) if text is not None else None
        v = verify(item, answer) if answer is not None else None
        parts = (
            components_of(item, answer, v, partial, mode=mode)
            if answer and v
            else {"format": 0.0, "decision": 0.0, "witness": None, "length": None, "reward": 0.0}
        )
        return {
            "item_id": item.item_id,
            "reward": parts["reward"],
            "correct": bool(v and v.correct),
            "parse_failure": bool(v is None or v.parse_failure),
            "witness_valid": v.witness_valid if v else None,
            "reason": v.reason if v else "no response",
            "components": parts,
        }
    except (LogicforgeError, ValueError, TypeError, KeyError, RecursionError) as e:
        return {"item_id": req.get("item_id"), "error": f"{type(e).__name__}: {str(e)[:300]}"}


def make_app(
    items: list[Any] | None = None,
    *,
    concurrency: int = 4,
    max_batch: int = 1024,
    max_generate: int = 1000,
    max_body_mb: float = 32.0,
    api_key: str | None = None,
    reward_mode: str = "certified",
    sign_key: bytes | None = None,
    accept_unsigned: bool = False,
    generate_timeout: float = 60.0,
    generate_memory_mb: int = 4096,
    generate_workers: int = 1,
    max_generate_mb: float = 64.0,
    max_connections: int | None = None,
    header_timeout: float = 10.0,
    body_timeout: float = 30.0,
) -> Any:
    """The aiohttp application (see the module docstring); ``items`` are known by id.
    ``generate_*`` bound ``/generate`` (it runs in worker processes, see
    :mod:`logicforge.serve_workers`); ``max_connections``, ``header_timeout`` and
    ``body_timeout`` bound connections (:mod:`logicforge.serve_guard`)."""
    from aiohttp import web

    from .errors import ConfigError
    from .metrics.reward import REWARD_MODES, check_mode
    from .serve_guard import BadBody, guard_app, read_json
    from .serve_workers import GenerateWorkers

    check_mode(reward_mode)
    for name, v in (
        ("generate_timeout", generate_timeout),
        ("generate_workers", generate_workers),
        ("max_generate_mb", max_generate_mb),
        ("header_timeout", header_timeout),
        ("body_timeout", body_timeout),
    ):
        if not isinstance(v, int | float) or v <= 0:
            raise ConfigError(name, v, "must be a number > 0")
    if generate_memory_mb < 0:
        raise ConfigError("generate_memory_mb", generate_memory_mb, "must be ≥ 0 (0: no limit)")

    key = sign_key or secrets.token_bytes(32)
    known: OrderedDict[str, Any] = OrderedDict((it.item_id, it) for it in items or ())
    gate = asyncio.Semaphore(concurrency)
    pool = GenerateWorkers(
        int(generate_workers), generate_timeout, generate_memory_mb, int(max_generate_mb * 2**20)
    )

    @web.middleware
    async def auth(request: web.Request, handler: Any) -> Any:
        if api_key is not None:
            got = request.headers.get("Authorization", "")
            if not hmac.compare_digest(got.encode(), f"Bearer {api_key}".encode()):
                return web.json_response({"error": "missing or wrong API key"}, status=401)
        return await handler(request)

    async def body(request: web.Request) -> dict[str, Any]:
        try:
            return await read_json(request)
        except BadBody as e:
            raise web.HTTPBadRequest(
                text=json.dumps({"error": str(e)}), content_type="application/json"
            ) from None

    def bad(msg: str) -> web.Response:
        return web.json_response({"error": msg}, status=400)

    async def health(request: web.Request) -> web.Response:
        from .registry import FAMILIES

        return web.json_response(
            {
                "status": "ok",
                "version": __version__,
                "families": FAMILIES.names(),
                "items": len(known),
            }
        )

    async def generate(request: web.Request) -> web.Response:
        from .registry import FAMILIES

        obj = await body(request)
        family, count = obj.get("family"), obj.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= max_generate:
            return bad(f"'count' must be an integer in 1..{max_generate}")
        if not isinstance(family, str):
            return bad("'family' is required (GET /health lists them)")
        try:
            FAMILIES.get(family)
        except LogicforgeError as e:
            return bad(str(e))
        params = obj.get("params") or {}
        if not isinstance(params, dict):
            return bad("'params' must be an object")
        seed, level = obj.get("seed", 0), obj.get("level")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            return bad("'seed' must be an integer ≥ 0")
        if level is not None and (not isinstance(level, int) or isinstance(level, bool)):
            return bad("'level' must be an integer")
        renderer = obj.get("renderer")
        if renderer is not None and not isinstance(renderer, str):
            return bad("'renderer' must be a renderer's name")
        mode = obj.get("reward_mode", reward_mode)
        if mode not in REWARD_MODES:
            return bad(f"'reward_mode' must be one of {list(REWARD_MODES)}")
        job = {
            "family": family,
            "params": params,
            "count": count,
            "seed": seed,
            "level": level,
            "renderer": renderer,
            "mode": mode,
        }
        res = await pool.run(job)
        if "error" in res:
            return bad(res["error"])

        def parse() -> tuple[list[Any], list[str]]:
            from .schema import Item

            its = [Item.model_validate_json(t) for t in res["items"]]
            return its, [item_signature(it, key) for it in its]

        its, sigs = await asyncio.to_thread(parse)
        for it in its:
            known[it.item_id] = it
            known.move_to_end(it.item_id)
        while len(known) > MAX_CACHE:
            known.popitem(last=False)
        text = '{"items":[' + ",".join(res["items"]) + '],"signatures":' + json.dumps(sigs) + "}"
        return web.Response(text=text, content_type="application/json")

    async def verify(request: web.Request) -> web.Response:
        obj = await body(request)
        reqs = obj.get("requests")
        if not isinstance(reqs, list) or not reqs:
            return bad("'requests' must be a non-empty list")
        if len(reqs) > max_batch:
            return bad(f"at most {max_batch} requests per call")
        partial = obj.get("partial", False)
        if not isinstance(partial, bool):
            return bad("'partial' must be true or false")
        mode = obj.get("reward_mode", reward_mode)
        if mode not in REWARD_MODES:
            return bad(f"'reward_mode' must be one of {list(REWARD_MODES)}")
        named = [
            known.get(
                str(
                    r["item"].get("item_id")
                    if isinstance(r.get("item"), dict)
                    else r.get("item_id")
                )
            )
            if isinstance(r, dict)
            else None
            for r in reqs
        ]
        async with gate:
            results = await asyncio.to_thread(
                lambda: [
                    _verify_one(r, it, partial, mode, key, accept_unsigned)
                    for r, it in zip(reqs, named, strict=True)
                ]
            )
        return web.json_response({"results": results})

    async def stop_workers(app: web.Application) -> None:
        await asyncio.to_thread(pool.close)

    app = web.Application(client_max_size=int(max_body_mb * 2**20), middlewares=[auth])
    guard_app(app, max_connections, header_timeout, body_timeout)
    app.on_cleanup.append(stop_workers)
    app.router.add_get("/health", health)
    app.router.add_post("/generate", generate)
    app.router.add_post("/verify", verify)
    return app


def serve_verify(
    host: str = "127.0.0.1",
    port: int = 8100,
    port_file: str | None = None,
    items: list[Any] | None = None,
    api_key_env: str | None = None,
    sign_key_env: str | None = None,
    **limits: Any,
) -> None:
    """Serve until interrupted; ``port=0`` picks a free port (written to ``port_file``)."""
    from .serve import run_until_interrupted

    key = None
    if api_key_env:
        key = os.environ.get(api_key_env)
        if not key:
            raise LogicforgeError(f"--api-key-env {api_key_env}: the variable is not set")
    if sign_key_env:
        sign = os.environ.get(sign_key_env)
        if not sign or len(sign) < 16:
            raise LogicforgeError(
                f"--sign-key-env {sign_key_env}: the variable is not set or shorter than 16 "
                "characters (a signing key must not be guessable)"
            )
        limits["sign_key"] = sign.encode()

    run_until_interrupted(
        make_app(items, api_key=key, **limits),
        host,
        port,
        port_file,
        lambda bound: f"verifying on http://{host}:{bound}",
    )


class InThread:
    """The server on a free port of ``host`` in a background thread, for a ``with`` block — for a
    training loop or a test in the same process. ``app`` serves another aiohttp application
    the same way (a test's fake server).

    Example:
        >>> with InThread() as srv:
        ...     srv.url.startswith("http://127.0.0.1:")
        True
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        items: list[Any] | None = None,
        app: Any = None,
        **kw: Any,
    ) -> None:
        self.host, self.items, self.kw, self.port, self.app = host, items, kw, 0, app

    def __enter__(self) -> InThread:
        import threading

        from aiohttp import web

        from .serve_guard import start_guarded

        started = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self.loop = loop
            app = self.app if self.app is not None else make_app(self.items, **self.kw)
            runner = web.AppRunner(app, access_log=None)
            loop.run_until_complete(runner.setup())
            server, self.guard, self.port = loop.run_until_complete(
                start_guarded(runner, self.host, 0)
            )
            started.set()
            loop.run_forever()
            server.close()
            self.guard.close()
            loop.run_until_complete(runner.cleanup())
            loop.close()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        if not started.wait(30):
            raise LogicforgeError("the verification server did not start within 30 s")
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"
