"""Provider batch APIs behind the model interface: ``openai-batch:`` and ``anthropic-batch:``.

Both providers answer a whole file of requests within a day at about half the price of the
interactive API. Suites and ``run`` use them unchanged: ``generate`` queues each request, a pump
submits the queue as one batch once no new request has come for ``window`` seconds (or
``max_batch`` are waiting), polls every ``poll`` seconds and hands every request its reply.

**Durable.** Each batch has a state file in ``state=`` (default ``$LOGICFORGE_BATCH_DIR`` or
``~/.cache/logicforge/batches``), written atomically *before* each step: its requests
(``custom_id`` → prompt key and sample) before the batch is created, its batch id as soon as it
is known, and every result once downloaded. A request's ``custom_id`` is the SHA-256 of its
body, so a killed ``run`` started again finds its requests in the existing batches and polls them
instead of paying twice; results downloaded before the kill are answered from disk. OpenAI
batches carry the state's id in their ``metadata``, so even a kill between the create call and
the write of its id is recovered (by listing the batches); Anthropic batches have no metadata, so
a batch whose create call was cut off before its id was written is submitted again.

**Partial failures** — a request the provider rejected, a batch that expired or was cancelled with
requests unanswered, a failed batch — become ordinary per-item errors (the record says why), and
the runner retries them on the next run as new requests.

Specs::

    openai-batch:<base URL>:<model>;state=DIR;poll=30;window=2;max_batch=50000;max_wait=90000
    anthropic-batch:<base URL>:<model>      (base URL e.g. https://api.anthropic.com/v1)

Options also: ``api_key_env=`` (``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``), ``key_file=``,
``name=``, ``concurrency=`` (requests queued at once; default 10,000), ``timeout=`` (one HTTP
call), ``max_retries=``. Anthropic requests carry no JSON schema (structured sampling is ignored
there) and no seed. Batch replies cost half (``cost_factor = 0.5``, applied by ``--max-cost``).

Example:
    >>> m = load_batch("openai-batch", "http://127.0.0.1:9/v1:tiny", {"state": "/tmp/lf-b"})
    >>> m.name, m.cache_id.startswith("openai-batch:")
    ('tiny', True)
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

from ..errors import ConfigError, ModelError
from ..registry import MODELS
from .base import Prompt, Response, Sampling
from .batch_providers import PROVIDERS, BatchHTTP, Provider
from .openai_wire import redact, redact_response, split_head

ACTIVE = ("creating", "submitted")


def default_state_dir() -> Path:
    env = os.environ.get("LOGICFORGE_BATCH_DIR")
    if env:
        return Path(env)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "logicforge" / "batches"


def custom_id(body: dict[str, Any]) -> str:
    """The request's id in a batch: the SHA-256 of its canonical JSON (32 hex digits).

    >>> len(custom_id({"model": "m", "messages": []}))
    32
    """
    raw = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


class BatchState:
    """The state directory: ``<id>.json`` per batch, ``<id>.results.jsonl`` once collected."""

    def __init__(self, root: Path) -> None:
        self.root = root
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError("state", str(root), f"cannot create it ({e.strerror})") from None

    def write(self, st: dict[str, Any]) -> None:
        path = self.root / f"{st['local_id']}.json"
        tmp = path.with_suffix(".json.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(st, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def batches(self, provider: str) -> list[dict[str, Any]]:
        out = []
        for p in sorted(self.root.glob("*.json")):
            try:
                st = json.loads(p.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # a torn temporary or foreign file: not ours
            if isinstance(st, dict) and st.get("provider") == provider and "local_id" in st:
                out.append(st)
        return out

    def save_results(self, local_id: str, results: dict[str, Response]) -> None:
        path = self.root / f"{local_id}.results.jsonl"
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for cid, r in results.items():
                f.write(json.dumps({"custom_id": cid, "response": dataclasses.asdict(r)}) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def load_results(self, local_id: str) -> dict[str, Response]:
        path = self.root / f"{local_id}.results.jsonl"
        out: dict[str, Response] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                out[row["custom_id"]] = Response(**row["response"])
        return out


class BatchModel:
    """One provider's batch API as a :class:`~logicforge.models.base.Model`."""

    cost_factor = 0.5  # batch replies cost half the interactive price

    def __init__(
        self,
        provider: Provider,
        *,
        name: str | None = None,
        state: str | Path | None = None,
        poll: float = 30.0,
        window: float = 2.0,
        max_batch: int = 50_000,
        max_wait: float = 25 * 3600.0,
        concurrency: int = 10_000,
    ) -> None:
        for k, v in (("poll", poll), ("window", window), ("max_wait", max_wait)):
            if not v > 0:
                raise ConfigError(k, v, "must be a number > 0 (seconds)")
        if max_batch < 1 or concurrency < 1:
            raise ConfigError("max_batch / concurrency", f"{max_batch} / {concurrency}", "≥ 1")
        self.provider = provider
        self.name = name or provider.model
        self.cache_id = f"{provider.kind}:" + json.dumps([provider.base, provider.model])
        self.state = BatchState(Path(state) if state else default_state_dir())
        self.poll, self.window, self.max_batch, self.max_wait = poll, window, max_batch, max_wait
        self.concurrency = concurrency
        self._queue: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        self._waiters: dict[str, list[asyncio.Future[Response]]] = {}
        self._owner: dict[str, str] = {}  # custom_id → local id of the active batch holding it
        self._active: dict[str, dict[str, Any]] = {}
        self._results: dict[str, Response] = {}
        self._bodies: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}  # awaited requests
        self._last = 0.0
        self._pump: asyncio.Task[None] | None = None
        self._http: BatchHTTP | None = None
        self.submitted = 0  # batches this model created (tests and the progress line)

    # -- the model interface -------------------------------------------------------------
    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        body = self.provider.request(prompt, sampling, sample)
        # greedy samples of one prompt share a request; sampled ones are distinct requests
        cid = custom_id({"body": body, "sample": sample if sampling.temperature > 0 else 0})
        self._start()
        r = self._results.get(cid)
        if r is not None:
            if r.error is None:  # answered already (an earlier run, or another greedy sample)
                return dataclasses.replace(r, extra=dict(r.extra))
            del self._results[cid]  # a failed request is sent again
        fut: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        first = cid not in self._waiters
        self._waiters.setdefault(cid, []).append(fut)
        if first:
            self._bodies[cid] = (body, {"key": prompt.key, "sample": sample})
            if cid not in self._owner:  # not in a batch already running: queue it
                self._enqueue(cid)
        return await fut

    def _enqueue(self, cid: str) -> None:
        body, meta = self._bodies[cid]
        self._queue.append((cid, body, meta))
        self._last = time.monotonic()

    async def aclose(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
            self._pump = None
        if self._http is not None:
            await self._http.close()
            self._http = None

    # -- the pump ------------------------------------------------------------------------
    def _start(self) -> None:
        if self._pump is not None:
            return
        for st in self.state.batches(self.provider.kind):  # earlier runs' batches
            if st.get("status") in ACTIVE:
                self._adopt(st)
            elif st.get("status") == "collected":
                self._results.update(self.state.load_results(st["local_id"]))
        self._pump = asyncio.ensure_future(self._run())

    def _adopt(self, st: dict[str, Any]) -> None:
        st["next_poll"] = 0.0
        self._active[st["local_id"]] = st
        for cid in st["requests"]:
            self._owner[cid] = st["local_id"]

    async def _run(self) -> None:
        """The pump; an unexpected failure ends every waiting request with an error (the
        requests in submitted batches stay in the state directory for the next run)."""
        try:
            await self._pump_loop()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 — no request may wait forever
            why = f"batch backend failed: {type(e).__name__}: {e}"
            self._queue.clear()
            self._resolve({cid: Response(text=None, error=why) for cid in list(self._waiters)})
            self._pump = None  # the next request starts a fresh pump

    async def _pump_loop(self) -> None:
        tick = min(self.window, self.poll, 0.5) / 2
        while True:
            now = time.monotonic()
            if self._queue and (
                len(self._queue) >= self.max_batch or now - self._last >= self.window
            ):
                chunk, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
                await self._submit(chunk)
            for st in list(self._active.values()):
                if st["next_poll"] <= now:
                    await self._check(st)
            await asyncio.sleep(tick)

    def _client(self) -> BatchHTTP:
        if self._http is None:
            self._http = self.provider.http()
        return self._http

    async def _submit(self, chunk: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> None:
        local_id = uuid.uuid4().hex[:16]
        st: dict[str, Any] = {
            "provider": self.provider.kind,
            "local_id": local_id,
            "model": self.provider.model,
            "status": "creating",
            "created": time.time(),
            "requests": {cid: meta for cid, _, meta in chunk},
        }
        self.state.write(st)  # the mapping is on disk before anything is sent
        try:
            st["batch_id"] = await self.provider.create(
                self._client(), local_id, [(cid, body) for cid, body, _ in chunk]
            )
        except ModelError as e:
            st["status"] = "failed"
            st["error"] = str(e)
            self.state.write(st)
            self._resolve(
                {
                    cid: Response(text=None, error=f"batch not created: {e}")
                    for cid in st["requests"]
                }
            )
            return
        st["status"] = "submitted"
        self.state.write(st)
        self.submitted += 1
        self._adopt(st)

    async def _check(self, st: dict[str, Any]) -> None:
        st["next_poll"] = time.monotonic() + self.poll
        if not st.get("batch_id"):  # cut off between create and the write of its id
            st["batch_id"] = await self.provider.recover(self._client(), st["local_id"])
            if not st["batch_id"]:
                self._drop(st, "abandoned")
                for cid in st["requests"]:  # the ones this run waits for are submitted again
                    if cid in self._bodies:
                        self._enqueue(cid)
                return
            st["status"] = "submitted"
            self.state.write(st)
        try:
            ended, info = await self.provider.status(self._client(), st["batch_id"])
        except ModelError as e:
            self._fail_waiters(st, f"polling batch {st['batch_id']}: {e}")
            return
        if not ended:
            if time.time() - st["created"] > self.max_wait:
                self._fail_waiters(
                    st, f"batch {st['batch_id']} still running after {self.max_wait:g} s; "
                    "rerun later to collect it (it stays in the state directory)"
                )  # fmt: skip
            return
        try:
            results = await self.provider.fetch(self._client(), st["batch_id"], info)
        except ModelError as e:
            self._fail_waiters(st, f"downloading batch {st['batch_id']}: {e}")
            return
        status = str(info.get("status") or "ended")
        for cid in st["requests"]:
            if cid not in results:
                results[cid] = Response(
                    text=None, error=f"batch {st['batch_id']} ended ({status}) without this request"
                )
        secrets = self.provider.secrets()
        results = {
            cid: redact_response(
                dataclasses.replace(r, extra=r.extra | {"batch_id": st["batch_id"]}), secrets
            )
            for cid, r in results.items()
        }
        self.state.save_results(st["local_id"], results)
        self._drop(st, "collected")
        self._results.update({c: r for c, r in results.items() if r.error is None})
        self._resolve(results)

    def _drop(self, st: dict[str, Any], status: str) -> None:
        st["status"] = status
        self.state.write({k: v for k, v in st.items() if k != "next_poll"})
        self._active.pop(st["local_id"], None)
        for cid in st["requests"]:
            if self._owner.get(cid) == st["local_id"]:
                del self._owner[cid]

    def _fail_waiters(self, st: dict[str, Any], why: str) -> None:
        why = redact(why, self.provider.secrets())  # an error body may quote the key
        self._resolve({cid: Response(text=None, error=why) for cid in st["requests"]})

    def _resolve(self, results: dict[str, Response]) -> None:
        for cid, r in results.items():
            self._bodies.pop(cid, None)
            for fut in self._waiters.pop(cid, []):
                if not fut.done():
                    fut.set_result(dataclasses.replace(r, extra=dict(r.extra)))


_FLOAT = ("poll", "window", "max_wait", "timeout")
_INT = ("max_batch", "concurrency", "max_retries")
_STR = ("state", "name", "api_key_env", "key_file")


def load_batch(kind: str, head: str, opts: dict[str, str]) -> BatchModel:
    """A batch model from a spec's head (``<base URL>:<model>``) and options."""
    base, model = split_head(head)
    model_kw: dict[str, Any] = {}
    http_kw: dict[str, Any] = {}
    for k, v in opts.items():
        try:
            if k in _FLOAT:
                (http_kw if k == "timeout" else model_kw)[k] = float(v)
            elif k in _INT:
                (http_kw if k == "max_retries" else model_kw)[k] = int(v)
            elif k in _STR:
                (http_kw if k in ("api_key_env", "key_file") else model_kw)[k] = v
            else:
                allowed = ", ".join(_FLOAT + _INT + _STR)
                raise ConfigError("model", k, f"unknown option; allowed: {allowed}")
        except ValueError:
            raise ConfigError(k, v, "not a number") from None
    return BatchModel(PROVIDERS[kind](base, model, **http_kw), **model_kw)


for _kind in PROVIDERS:
    MODELS.register(_kind, lambda head, opts, _k=_kind: load_batch(_k, head, opts))
