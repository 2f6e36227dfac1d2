"""The two documented batch APIs, request and reply shapes only (the pump is in :mod:`.batch`).

* OpenAI Batch API: upload a JSONL file of ``{"custom_id", "method": "POST", "url":
  "/v1/chat/completions", "body"}`` lines (``POST /files``, ``purpose=batch``), create the batch
  (``POST /batches`` with the file id, ``completion_window: 24h`` and ``metadata``), poll
  ``GET /batches/{id}`` until ``completed`` / ``failed`` / ``expired`` / ``cancelled``, download
  ``output_file_id`` and ``error_file_id`` (``GET /files/{id}/content``): one
  ``{"custom_id", "response": {"status_code", "body"}, "error"}`` line per request.
* Anthropic Message Batches: ``POST /messages/batches`` with ``{"requests": [{"custom_id",
  "params"}]}``, poll ``GET /messages/batches/{id}`` until ``processing_status`` is ``ended``,
  download ``results_url``: one ``{"custom_id", "result": {"type": "succeeded" | "errored" |
  "expired" | "canceled", …}}`` line per request.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from typing import Any

from ..errors import ModelError
from .base import Prompt, Response, Sampling
from .openai_compat import OpenAICompatModel
from .openai_wire import _parse_body

RETRY = {408, 409, 425, 429, 500, 502, 503, 504, 529}


class BatchHTTP:
    """A small JSON/file client with bounded retries (429 and 5xx, connection errors)."""

    def __init__(self, headers: dict[str, str], timeout: float, max_retries: int) -> None:
        self.headers, self.timeout, self.max_retries = headers, timeout, max_retries
        self._session: Any = None

    async def call(self, method: str, url: str, **kw: Any) -> bytes:
        import aiohttp

        if self._session is None:
            self._session = aiohttp.ClientSession(
                headers=self.headers, timeout=aiohttp.ClientTimeout(total=self.timeout)
            )
        reason = ""
        for attempt in range(self.max_retries + 1):
            try:
                async with self._session.request(method, url, **kw) as r:
                    raw = await r.read()
                    if r.status < 300:
                        return bytes(raw)
                    if r.status in (401, 403):
                        raise ModelError(f"HTTP {r.status} from {url}: the key was refused")
                    reason = f"HTTP {r.status}: {raw[:200].decode('utf-8', 'replace')}"
                    if r.status not in RETRY:
                        break
            except (aiohttp.ClientError, TimeoutError) as e:
                reason = f"connection error: {type(e).__name__}"
            if attempt < self.max_retries:
                await asyncio.sleep(min(30.0, 0.25 * 2**attempt) * random.uniform(0.5, 1.0))
        raise ModelError(f"{method} {url} failed: {reason}")

    async def json(self, method: str, url: str, **kw: Any) -> dict[str, Any]:
        raw = await self.call(method, url, **kw)
        try:
            obj = json.loads(raw)
        except ValueError:
            raise ModelError(f"{method} {url}: the reply is not JSON") from None
        if not isinstance(obj, dict):
            raise ModelError(f"{method} {url}: the reply is not a JSON object")
        return obj

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


def jsonl(raw: bytes) -> list[dict[str, Any]]:
    rows = []
    for line in raw.decode("utf-8", "replace").splitlines():
        if line.strip():
            try:
                row = json.loads(line)
            except ValueError:
                continue  # one torn line costs its request (reported missing), not the batch
            if isinstance(row, dict) and isinstance(row.get("custom_id"), str):
                rows.append(row)
    return rows


class Provider:
    """One batch API: builds request bodies, creates, recovers, polls and downloads batches."""

    kind = ""
    key_env = ""

    def __init__(
        self,
        base: str,
        model: str,
        *,
        api_key_env: str | None = None,
        key_file: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 5,
    ) -> None:
        if not base.startswith(("http://", "https://")):
            raise ModelError(f"{base}: the base URL must start with http:// or https://")
        self.base, self.model = base.rstrip("/"), model
        if api_key_env is not None and not key_file and not os.environ.get(api_key_env):
            from ..errors import ConfigError

            raise ConfigError(
                "api_key_env",
                api_key_env,
                f"names an environment variable that is not set (or empty): export "
                f"{api_key_env}=… before the run, or give key_file=…",
            )
        self.api_key_env = api_key_env or self.key_env
        self.key_file, self.timeout, self.max_retries = key_file, timeout, max_retries

    def key(self) -> str | None:
        if self.key_file:
            with open(self.key_file, encoding="utf-8") as f:
                return f.read().strip() or None
        return os.environ.get(self.api_key_env) or None

    def secrets(self) -> tuple[str, ...]:
        k = self.key()
        return (k,) if k else ()

    def headers(self) -> dict[str, str]:
        raise NotImplementedError

    def http(self) -> BatchHTTP:
        return BatchHTTP(self.headers(), self.timeout, self.max_retries)

    def request(self, prompt: Prompt, s: Sampling, sample: int) -> dict[str, Any]:
        raise NotImplementedError

    async def create(self, http: BatchHTTP, local_id: str, reqs: list[tuple[str, Any]]) -> str:
        raise NotImplementedError

    async def recover(self, http: BatchHTTP, local_id: str) -> str | None:
        return None  # no way to find a batch whose create reply was lost: submit again

    async def status(self, http: BatchHTTP, batch_id: str) -> tuple[bool, dict[str, Any]]:
        raise NotImplementedError

    async def fetch(
        self, http: BatchHTTP, batch_id: str, info: dict[str, Any]
    ) -> dict[str, Response]:
        raise NotImplementedError


class OpenAIBatch(Provider):
    kind = "openai-batch"
    key_env = "OPENAI_API_KEY"
    ENDED = ("completed", "failed", "expired", "cancelled")

    def __init__(self, base: str, model: str, **kw: Any) -> None:
        super().__init__(base, model, **kw)
        self._chat = OpenAICompatModel("http://127.0.0.1:9/v1", model)  # the same request bodies

    def headers(self) -> dict[str, str]:
        key = self.key()
        return {"Authorization": f"Bearer {key}"} if key else {}

    def request(self, prompt: Prompt, s: Sampling, sample: int) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self._chat._body(prompt, s, sample))
        return body

    async def create(self, http: BatchHTTP, local_id: str, reqs: list[tuple[str, Any]]) -> str:
        import aiohttp

        lines = "".join(
            json.dumps(
                {"custom_id": cid, "method": "POST", "url": "/v1/chat/completions", "body": b}
            )
            + "\n"
            for cid, b in reqs
        )
        form = aiohttp.FormData()
        form.add_field("purpose", "batch")
        form.add_field("file", lines.encode(), filename=f"{local_id}.jsonl")
        f = await http.json("POST", f"{self.base}/files", data=form)
        batch = await http.json(
            "POST",
            f"{self.base}/batches",
            json={
                "input_file_id": f.get("id"),
                "endpoint": "/v1/chat/completions",
                "completion_window": "24h",
                "metadata": {"logicforge_id": local_id},
            },
        )
        if not isinstance(batch.get("id"), str):
            raise ModelError(f"{self.base}/batches: the reply has no batch id")
        return str(batch["id"])

    async def recover(self, http: BatchHTTP, local_id: str) -> str | None:
        page = await http.json("GET", f"{self.base}/batches", params={"limit": "100"})
        for b in page.get("data") or []:
            if isinstance(b, dict) and (b.get("metadata") or {}).get("logicforge_id") == local_id:
                return str(b.get("id"))
        return None

    async def status(self, http: BatchHTTP, batch_id: str) -> tuple[bool, dict[str, Any]]:
        info = await http.json("GET", f"{self.base}/batches/{batch_id}")
        return info.get("status") in self.ENDED, info

    async def fetch(
        self, http: BatchHTTP, batch_id: str, info: dict[str, Any]
    ) -> dict[str, Response]:
        out: dict[str, Response] = {}
        for field in ("error_file_id", "output_file_id"):  # outputs win over errors
            fid = info.get(field)
            if not fid:
                continue
            for row in jsonl(await http.call("GET", f"{self.base}/files/{fid}/content")):
                out[row["custom_id"]] = self._result(row)
        if info.get("status") == "failed" and not out:
            errs = ((info.get("errors") or {}).get("data") or [{}])[0]
            why = errs.get("message") if isinstance(errs, dict) else None
            raise ModelError(f"batch {batch_id} failed: {why or 'no reason given'}")
        return out

    @staticmethod
    def _result(row: dict[str, Any]) -> Response:
        resp = row.get("response") or {}
        err = row.get("error")
        code = resp.get("status_code") if isinstance(resp, dict) else None
        if code == 200 and not err:
            parsed = _parse_body(json.dumps(resp.get("body")).encode())
            if isinstance(parsed, str):
                return Response(text=None, error=parsed)
            return parsed[0]
        body = resp.get("body") if isinstance(resp, dict) else None
        detail = err or (body.get("error") if isinstance(body, dict) else body)
        if isinstance(detail, dict):
            detail = detail.get("message") or detail.get("code") or detail
        return Response(text=None, error=f"batch request failed (HTTP {code}): {str(detail)[:300]}")


STOP = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


class AnthropicBatch(Provider):
    kind = "anthropic-batch"
    key_env = "ANTHROPIC_API_KEY"
    VERSION = "2023-06-01"

    def headers(self) -> dict[str, str]:
        key = self.key()
        h = {"anthropic-version": self.VERSION}
        return h | ({"x-api-key": key} if key else {})

    def request(self, prompt: Prompt, s: Sampling, sample: int) -> dict[str, Any]:
        system = "\n\n".join(m.content for m in prompt.messages if m.role == "system")
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": s.max_tokens,
            "messages": [m.model_dump() for m in prompt.messages if m.role != "system"],
            "temperature": s.temperature,
        }
        if system:
            params["system"] = system
        if s.top_p < 1:
            params["top_p"] = s.top_p
        if s.stop:
            params["stop_sequences"] = list(s.stop)
        return params

    async def create(self, http: BatchHTTP, local_id: str, reqs: list[tuple[str, Any]]) -> str:
        batch = await http.json(
            "POST",
            f"{self.base}/messages/batches",
            json={"requests": [{"custom_id": cid, "params": p} for cid, p in reqs]},
        )
        if not isinstance(batch.get("id"), str):
            raise ModelError(f"{self.base}/messages/batches: the reply has no batch id")
        return str(batch["id"])

    async def status(self, http: BatchHTTP, batch_id: str) -> tuple[bool, dict[str, Any]]:
        info = await http.json("GET", f"{self.base}/messages/batches/{batch_id}")
        return info.get("processing_status") == "ended", info

    async def fetch(
        self, http: BatchHTTP, batch_id: str, info: dict[str, Any]
    ) -> dict[str, Response]:
        url = info.get("results_url") or f"{self.base}/messages/batches/{batch_id}/results"
        return {row["custom_id"]: self._result(row) for row in jsonl(await http.call("GET", url))}

    @staticmethod
    def _result(row: dict[str, Any]) -> Response:
        res = row.get("result") or {}
        kind = res.get("type") if isinstance(res, dict) else None
        if kind != "succeeded":
            err = res.get("error") if isinstance(res, dict) else None
            while isinstance(err, dict) and "error" in err:
                err = err["error"]
            why = err.get("message") if isinstance(err, dict) else None
            return Response(
                text=None, error=f"batch request {kind or 'malformed'}: {why or ''}".strip()
            )
        msg = res.get("message") or {}
        blocks = msg.get("content") if isinstance(msg, dict) else None
        if not isinstance(blocks, list):
            return Response(text=None, error="malformed batch result: no content blocks")
        text = "".join(
            b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text"
        )
        usage = msg.get("usage") or {}
        return Response(
            text=text,
            finish_reason=STOP.get(str(msg.get("stop_reason")), msg.get("stop_reason")),
            prompt_tokens=usage.get("input_tokens"),
            completion_tokens=usage.get("output_tokens"),
            extra={"served_model": str(msg.get("model"))} if msg.get("model") else {},
        )


PROVIDERS: dict[str, type[Provider]] = {
    "openai-batch": OpenAIBatch,
    "anthropic-batch": AnthropicBatch,
}
