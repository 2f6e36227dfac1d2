"""OpenAI-compatible chat client (vLLM, llama.cpp server, Ollama, hosted APIs) over
:mod:`logicforge.models.http`; the wire format (bodies, spec grammar, redaction) is
:mod:`logicforge.models.openai_wire`.

Retries 408/409/425/429/5xx, time-outs, connection errors and malformed bodies with exponential
back-off and full jitter, honouring ``Retry-After``; 401/403 stop the run at once. The API key
comes from the variable ``api_key_env`` names (default ``OPENAI_API_KEY``) or from ``key_file``,
goes only in the ``Authorization`` header and is never written anywhere; a named variable that is
unset, or a hosted endpoint without a key, is refused before any work.

Hostile servers are bounded: ``timeout`` caps a whole request (a body that drips forever
included), bodies over ``max_body_mb`` (16 MiB) are refused unread past the cap, and text that is
not UTF-8 or not the expected JSON is a malformed reply (retried, then an error record).

Several endpoints serving one model (``openai-compatible:http://a:8000/v1|http://b:8000/v1:m``)
rotate, one that fails is skipped for ``cooldown`` seconds. ``rpm=`` / ``tpm=`` cap requests and
tokens per minute; ``endpoint=completions`` uses the completions API (base models);
``max_tokens_param=`` and ``reasoning_effort=`` cover servers that want them; ``n=K``: K samples
per request (each keeps its own sample index and cache key); ``concurrency=``: this model's own.

Spec: ``openai-compatible:<base URL>:<model>;timeout=60;max_retries=5;backoff=0.5;api_key_env=NAME``

Example:
    >>> m = OpenAICompatModel("http://127.0.0.1:9/v1", "tiny")
    >>> m.name
    'tiny'
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import os
import random
import re
import time
from collections.abc import Callable
from typing import Any

from .. import jsonfast
from ..errors import ConfigError, EndpointDown, ModelError
from ..registry import MODELS
from ..rng import child_seed
from .base import Prompt, Response, Sampling
from .limits import Endpoints, TokenBucket
from .openai_wire import (
    _FLOAT,
    _INT,
    _STR,
    RETRY_STATUS,
    _hosted,
    _json_object,
    _parse_body,
    _retry_after,
    down_message,
    redact_response,
    split_head,
)


class OpenAICompatModel:
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        name: str | None = None,
        api_key_env: str | None = None,
        key_file: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 5,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        max_retry_after: float = 120.0,
        max_item_wait: float = 180.0,
        max_total_wait: float = 1800.0,
        connections: int = 256,
        max_body_mb: float = 16.0,
        rpm: float | None = None,
        tpm: float | None = None,
        cooldown: float = 10.0,
        endpoint: str = "chat",
        max_tokens_param: str = "max_tokens",
        reasoning_effort: str | None = None,
        n: int = 1,
        concurrency: int | None = None,
        dead_after: int = 3,
    ) -> None:
        urls = [u.strip() for u in base_url.split("|") if u.strip()]
        for u in urls or [base_url]:
            if not u.startswith(("http://", "https://")):
                raise ConfigError("model", u, "base URL must start with http:// or https://")
        if endpoint not in ("chat", "completions"):
            raise ConfigError("endpoint", endpoint, "choose chat or completions")
        if max_tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise ConfigError(
                "max_tokens_param", max_tokens_param, "choose max_tokens or max_completion_tokens"
            )
        for k, v in (  # every numeric option finite and in range (nan passes a `<= 0` check)
            ("timeout", timeout),
            ("backoff", backoff),
            ("max_backoff", max_backoff),
            ("max_retry_after", max_retry_after),
            ("max_item_wait", max_item_wait),
            ("max_total_wait", max_total_wait),
            ("max_body_mb", max_body_mb),
            ("cooldown", cooldown),
            ("rpm", rpm),
            ("tpm", tpm),
        ):
            if v is not None and (not math.isfinite(v) or v < 0):
                raise ConfigError(k, v, "must be a finite number ≥ 0")
        for k, v in (("rpm", rpm), ("tpm", tpm), ("max_body_mb", max_body_mb)):
            if v is not None and v <= 0:
                raise ConfigError(k, v, "must be > 0")
        if timeout <= 0 or max_retries < 0 or backoff < 0:
            raise ConfigError(
                "model", f"timeout={timeout}, max_retries={max_retries}", "must be positive"
            )
        path = "/chat/completions" if endpoint == "chat" else "/completions"
        self.bases = [u.rstrip("/") for u in urls]
        self.urls = [b + path for b in self.bases]
        self.url = self.urls[0]
        self.endpoints = Endpoints(self.urls, cooldown)
        self.endpoint = endpoint
        self.max_tokens_param = max_tokens_param
        self.reasoning_effort = reasoning_effort
        self.rpm = TokenBucket(rpm) if rpm else None
        if dead_after < 0:
            raise ConfigError("dead_after", dead_after, "must be ≥ 0 (0 never stops the model)")
        self.dead_after = dead_after  # failed first attempts before the endpoint counts as down
        self._reached = False  # some request got an answer from a server
        self._dead: list[str] = []  # how the first attempts failed, while none got an answer
        if n < 1 or (concurrency is not None and concurrency < 1):
            raise ConfigError("n / concurrency", f"{n} / {concurrency}", "must be ≥ 1")
        self.n_per_request = n  # samples per request through the API's ``n``
        self.concurrency = concurrency  # this model's own concurrency in a multi-model run
        self._blocks: dict[Any, Any] = {}
        self.tpm = TokenBucket(tpm) if tpm else None
        self.model = model
        self.name = name or model
        # everything that changes a reply: the servers, the API, the served name, how the
        # token limit and reasoning effort are sent, and how samples map onto choices
        self.cache_id = "openai-compatible:" + json.dumps(
            [sorted(self.urls), model, max_tokens_param, reasoning_effort, n], separators=(",", ":")
        )
        if api_key_env is not None and not key_file and not os.environ.get(api_key_env):
            raise ConfigError(  # named on purpose: a request without the key would be a surprise
                "api_key_env",
                api_key_env,
                f"names an environment variable that is not set (or empty): export "
                f"{api_key_env}=… before the run, give key_file=…, or leave api_key_env out to "
                "send no key to a local server",
            )
        api_key_env = api_key_env or "OPENAI_API_KEY"
        self.api_key_env = api_key_env
        self.key_file = key_file
        hosted = [u for u in self.urls if _hosted(u)]
        if hosted and not key_file and not os.environ.get(api_key_env):
            raise ConfigError(
                "api_key_env",
                api_key_env,
                f"is not set, and {hosted[0]} is a hosted endpoint: export {api_key_env}=… "
                "(or give key_file=…, or api_key_env=<the variable that holds it>)",
            )
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.max_item_wait = max_item_wait  # seconds one request may spend waiting to retry
        self.max_total_wait = max_total_wait  # … and all of this model's requests together
        self.waited_s = 0.0  # retry waits so far (shown on the progress line)
        self.connections = connections
        self.max_body = int(max_body_mb * 2**20)
        self._session: Any = None
        self._jitter = random.Random()

    def _down(self, url: str, why: str) -> None:
        """Count a failed first attempt; at ``dead_after`` of them, stop the model."""
        self._dead.append(why)
        if self.dead_after and len(self._dead) >= self.dead_after:
            raise EndpointDown(
                down_message(self.name, sorted(set(self._dead)), len(self._dead), url)
            )

    def _key(self) -> str | None:
        if self.key_file:
            try:
                with open(self.key_file, encoding="utf-8") as f:
                    return f.read().strip() or None
            except OSError as e:
                raise ModelError(f"cannot read key file {self.key_file!r}: {e.strerror}") from None
        return os.environ.get(self.api_key_env) or None

    async def _get_session(self) -> Any:
        if self._session is None:
            from .http import HttpClient, HttpError

            headers = {"Content-Type": "application/json"}
            key = self._key()
            if key:
                headers["Authorization"] = f"Bearer {key}"
            try:
                self._session = HttpClient(headers, limit=self.connections, timeout=self.timeout)
            except HttpError:
                raise ModelError(
                    f"the API key in ${self.api_key_env} (or key_file=) holds a line break; "
                    "store the key alone on one line"
                ) from None
        return self._session

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _body(self, prompt: Prompt, s: Sampling, sample: int, n: int = 1) -> bytes:
        body: dict[str, Any] = {"model": self.model}
        if n > 1:
            body["n"] = n
        if self.endpoint == "chat":
            body["messages"] = [m.model_dump() for m in prompt.messages]
        else:  # plain completions (base models): the messages' text, no chat template
            body["prompt"] = "\n\n".join(m.content for m in prompt.messages)
        body |= {
            "temperature": s.temperature,
            "top_p": s.top_p,
            self.max_tokens_param: s.max_tokens,
        }
        if self.reasoning_effort:
            body["reasoning_effort"] = self.reasoning_effort
        if s.seed is not None:
            body["seed"] = child_seed(s.seed, sample) if s.temperature > 0 else s.seed  # spawn key
        if s.stop:
            body["stop"] = list(s.stop)
        if s.structured and prompt.schema:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": prompt.schema},
            }
        # compact UTF-8: orjson, else pydantic-core (about 8× / 4× faster than json.dumps)
        return jsonfast.dumps(body)

    async def generate(self, prompt: Prompt, sampling: Sampling, sample: int) -> Response:
        k = self.n_per_request
        if k <= 1:
            return (await self._request(prompt, sampling, sample, 1))[0]
        # samples k·b … k·b + k − 1 share one request with n = k; each takes its own choice
        block, idx = divmod(sample, k)
        key = (prompt.key, sampling, block)
        if key not in self._blocks:
            self._blocks[key] = (
                asyncio.ensure_future(self._request(prompt, sampling, block * k, k)),
                [0],
            )
        fut, taken = self._blocks[key]
        rs = await fut
        taken[0] += 1
        if taken[0] >= k:
            self._blocks.pop(key, None)
        if rs[0].error is not None:
            return dataclasses.replace(rs[0], extra=dict(rs[0].extra))
        if idx >= len(rs):
            return Response(text=None, error=f"the server returned {len(rs)} choices for n={k}")
        return dataclasses.replace(rs[idx], extra={"n_per_request": k})

    async def _request(
        self, prompt: Prompt, sampling: Sampling, sample: int, n: int
    ) -> list[Response]:
        """The request's Responses with every credential redacted from their text and errors,
        before anything (the cache, records, reports, exports) can store them."""
        key = self._key()
        return [
            redact_response(r, (key,) if key else ())
            for r in await self._request_raw(prompt, sampling, sample, n)
        ]

    async def _request_raw(
        self, prompt: Prompt, sampling: Sampling, sample: int, n: int
    ) -> list[Response]:
        data = self._body(prompt, sampling, sample, n)
        # the rate limiter counts the prompt (≈ 4 bytes a token) and the completion ceiling
        return await self._send(data, self.urls, _parse_body, len(data) / 4 + sampling.max_tokens)

    async def post_json(self, path: str, body: dict[str, Any]) -> Response:
        """POST ``body`` to every endpoint's base URL + ``path`` with this client's retries,
        fail-over, limits and key; the Response's text is the reply's JSON (an object), with
        every credential redacted, or its ``error`` says why there is none. Used by scorers
        that call endpoints other than chat (a reward model's ``/pooling``, ``/completions``
        with logprobs).

        Example:
            >>> m = OpenAICompatModel("http://127.0.0.1:9/v1", "rm")
            >>> [b + "/pooling" for b in m.bases]
            ['http://127.0.0.1:9/v1/pooling']
        """
        data = json.dumps(body).encode()
        key = self._key()
        urls = [b + path for b in self.bases]
        r = (await self._send(data, urls, _json_object, len(data) / 4))[0]
        return redact_response(r, (key,) if key else ())

    async def _send(
        self,
        data: bytes,
        urls: list[str],
        parse: Callable[[bytes], list[Response] | str],
        tokens: float,
    ) -> list[Response]:
        from .http import HttpError

        client = await self._get_session()
        reason = ""
        waited = 0.0
        for attempt in range(1, self.max_retries + 2):
            wait: float | None = None
            if self.rpm is not None:
                await self.rpm.take(1)
            if self.tpm is not None:
                await self.tpm.take(tokens)
            ep = self.endpoints.pick()
            url = urls[ep]
            t0 = time.perf_counter()
            try:
                r = await client.post(url, data, self.max_body)
                raw = r.body
                if r.status == 404 and not self._reached:
                    self._down(url, f"HTTP 404 from {url}")
                else:
                    self._reached = True
                if raw is None:
                    return [
                        Response(
                            text=None,
                            error=f"response body over {self.max_body / 2**20:g} MiB "
                            "(raise max_body_mb= if that is expected)",
                            attempts=attempt,
                        )
                    ]
                if r.status == 200:
                    parsed = parse(raw)
                    if not isinstance(parsed, str):
                        for p in parsed:
                            p.latency_s = time.perf_counter() - t0
                            p.attempts = attempt
                        return parsed
                    reason = parsed
                elif r.status in (401, 403):
                    raise EndpointDown(
                        f"HTTP {r.status} from {url}: the server refused the credentials; "
                        f"set a valid key in ${self.api_key_env} (or key_file=)"
                    )
                elif r.status in RETRY_STATUS:
                    reason = f"HTTP {r.status}"
                    wait = _retry_after(r.headers.get("retry-after"))
                    if r.status >= 500:
                        self.endpoints.mark_down(ep)
                else:
                    snippet = raw[:200].decode("utf-8", "replace")
                    return [
                        Response(text=None, error=f"HTTP {r.status}: {snippet}", attempts=attempt)
                    ]
            except TimeoutError:
                reason = f"timed out after {self.timeout:g} s"
                self.endpoints.mark_down(ep)
            except HttpError as e:
                reason = f"connection error: {e.kind}"
                if "SSL" in e.kind or "certificate" in str(e).lower():
                    reason += (
                        " (the server's TLS certificate is not trusted: point SSL_CERT_FILE "
                        "at the CA that signed it)"
                    )
                self.endpoints.mark_down(ep)
                if not self._reached:
                    self._down(url, reason)
            if attempt > self.max_retries:
                break
            if wait is None and len(self.urls) > 1 and self.endpoints.any_up():
                continue  # fail over to another endpoint at once
            if wait is None:
                wait = min(
                    self.max_backoff, self.backoff * 2 ** (attempt - 1)
                ) * self._jitter.uniform(0.5, 1.0)
            wait = min(wait, self.max_retry_after)
            budget = ""
            if waited + wait > self.max_item_wait:
                budget = (
                    f"this request's retry waits would pass max_item_wait={self.max_item_wait:g} s"
                )
            elif self.waited_s + wait > self.max_total_wait:
                budget = (
                    f"the run's retry waits would pass max_total_wait={self.max_total_wait:g} s"
                )
            if budget:
                return [
                    Response(
                        text=None,
                        error=f"gave up after {attempt} attempts ({budget}): {reason}",
                        attempts=attempt,
                    )
                ]
            waited += wait
            self.waited_s += wait
            await asyncio.sleep(wait)
        return [
            Response(
                text=None,
                error=f"gave up after {self.max_retries + 1} attempts: {reason}",
                attempts=self.max_retries + 1,
            )
        ]


def _factory(head: str, opts: dict[str, str]) -> OpenAICompatModel:
    base, model = split_head(head)
    kw: dict[str, Any] = {}
    for k, v in opts.items():
        try:
            if k in _FLOAT:
                kw[k] = float(v)
            elif k in _INT:
                kw[k] = int(v)
            elif k in _STR:
                kw[k] = v
            else:
                raise ConfigError(
                    "model", k, f"unknown option; allowed: {', '.join(_FLOAT + _INT + _STR)}"
                )
        except ValueError:
            raise ConfigError(k, v, "not a number") from None
    return OpenAICompatModel(base, model, **kw)


OPENAI_URL = "https://api.openai.com/v1"


def _openai_factory(head: str, opts: dict[str, str]) -> OpenAICompatModel:
    """``openai:<model>`` is OpenAI's own API (``$OPENAI_BASE_URL`` when set, as OpenAI's SDK
    reads it); ``openai:<base URL>:<model>`` is ``openai-compatible:`` by another name."""
    if head and not re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", head):
        base = os.environ.get("OPENAI_BASE_URL") or OPENAI_URL
        head = f"{base.rstrip('/')}:{head}"
    return _factory(head, opts)


MODELS.register("openai-compatible", _factory)
MODELS.register("openai", _openai_factory)
