"""The OpenAI-compatible wire format, apart from the transport: the spec's head grammar and
option types, reading a response body into :class:`~logicforge.models.base.Response` values,
and redacting credentials from anything kept (records, errors, logs)."""

from __future__ import annotations

import dataclasses
import email.utils
import math
import re
import time
from collections.abc import Sequence
from typing import Any

from .. import jsonfast
from ..errors import ConfigError
from .base import Response

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


def _hosted(url: str) -> bool:
    """Whether ``url`` is a hosted service (needs a key), not a server on this machine or a
    private network: a dotted host name that is not a loopback, private or ``.local`` address.

    Example:
        >>> _hosted("https://api.openai.com/v1"), _hosted("http://127.0.0.1:8000/v1")
        (True, False)
    """
    import ipaddress
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    try:
        ip = ipaddress.ip_address(host)
        return not (ip.is_loopback or ip.is_private or ip.is_unspecified or ip.is_link_local)
    except ValueError:
        return "." in host and not host.endswith((".local", ".localhost", ".internal"))


def _retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` header asks for, or None — the normal back-off then applies —
    when it is absent or invalid: not a number or a date, NaN, infinite, negative, or a date in
    the past (each would otherwise retry at once or wait forever). Large values are capped by
    the caller (``max_retry_after``) and count against the wait budgets.

    Example:
        >>> _retry_after("2"), _retry_after("-5"), _retry_after("nan"), _retry_after("inf")
        (2.0, None, None, None)
    """
    if not value:
        return None
    try:
        v = float(value)
    except ValueError:
        try:
            dt = email.utils.parsedate_to_datetime(value)
            v = dt.timestamp() - time.time()
        except (TypeError, ValueError, OverflowError):
            return None
        return v if math.isfinite(v) and v > 0 else None
    return v if math.isfinite(v) and v >= 0 else None


class _Bad:
    """A message content that is not text (``what`` names its type)."""

    def __init__(self, what: str) -> None:
        self.what = what


def _content_text(content: Any) -> str | _Bad | None:
    """A message's text: a string, or the OpenAI content-parts list (its text parts joined);
    ``None`` when absent, ``_Bad`` for anything else (an int, a bool, an object …)."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif not (isinstance(part, dict) and part.get("type") not in (None, "text")):
                return _Bad("a list with a part that is not text")
        return "".join(parts)
    return _Bad(type(content).__name__)


_CREDENTIAL = re.compile(
    r"(?i)\b(?:proxy-)?authori[sz]ation\b\"?\s*[:=]\s*\"?\s*(?:(?:bearer|basic|token)\s+)?[^\s\",;}]*"
    r"|\b(?:x-)?api[-_]?key\b\"?\s*[:=]\s*\"?[^\s\",;}]*"
    r"|\bbearer\s+[^\s\",;}]{8,}"
)
REDACTED = "[credential redacted]"


FRAGMENT = 8  # a run of this many characters of a secret is redacted wherever it stands


def redact(text: str, secrets: Sequence[str] = ()) -> str:
    """``text`` with every given secret and anything shaped like a credential (an
    ``Authorization`` or ``api-key`` header and its value, a ``Bearer`` token) replaced — and
    every run of :data:`FRAGMENT` or more characters of a secret too, so a secret that a cut
    (an error body shortened to an excerpt) left in part is caught as well as a whole one.

    Example:
        >>> redact('400: echo {"Authorization": "Bearer sk-123"}, then sk-123', ["sk-123"])
        '400: echo {"[credential redacted]"}, then [credential redacted]'
        >>> redact("body: ...xxsk-lf-abcdef", ["sk-lf-abcdef0123456789"])
        'body: ...xx[credential redacted]'
    """
    text = _CREDENTIAL.sub(REDACTED, text)
    for sec in secrets:
        if sec:
            text = text.replace(sec, REDACTED)
    for sec in secrets:
        if len(sec) >= FRAGMENT:
            text = _redact_fragments(text, sec)
    return text


def _redact_fragments(text: str, secret: str) -> str:
    """Every maximal run of ``text`` covered by FRAGMENT-character pieces of ``secret``."""
    grams = {secret[i : i + FRAGMENT] for i in range(len(secret) - FRAGMENT + 1)}
    first = set(secret)
    hit = [False] * len(text)
    found = False
    for i in range(len(text) - FRAGMENT + 1):
        if text[i] in first and text[i : i + FRAGMENT] in grams:
            hit[i : i + FRAGMENT] = [True] * FRAGMENT
            found = True
    if not found:
        return text
    out, i = [], 0
    while i < len(text):
        if hit[i]:
            while i < len(text) and hit[i]:
                i += 1
            out.append(REDACTED)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def redact_response(r: Response, secrets: Sequence[str]) -> Response:
    """The Response with its text, error and string extras redacted (unchanged when clean)."""

    def clean(v: Any) -> Any:
        return redact(v, secrets) if isinstance(v, str) else v

    text, error = clean(r.text), clean(r.error)
    extra = {k: clean(v) for k, v in r.extra.items()}
    if text == r.text and error == r.error and extra == r.extra:
        return r  # nothing to redact: the same Response
    return dataclasses.replace(r, text=text, error=error, extra=extra)


def _json_object(raw: bytes) -> list[Response] | str:
    """A 200 body that is one JSON object, as text; else why not (an ``error`` in it included)."""
    try:
        obj = jsonfast.loads(raw)
    except ValueError:
        return "malformed JSON body"
    if not isinstance(obj, dict):
        return "malformed response: not a JSON object"
    if obj.get("error") not in (None, "", {}, []):
        return f"the server reported an error in a 200 reply: {str(obj['error'])[:200]}"
    return [Response(text=raw.decode("utf-8"))]


def _parse_body(raw: bytes) -> list[Response] | str:
    """One Response per choice of a 200 body (usage split evenly across choices), or the reason
    it is malformed. A body that carries an ``error`` beside its choices is an error."""
    try:
        obj = jsonfast.loads(raw)
        if isinstance(obj, dict) and obj.get("error") not in (None, "", {}, []):
            return f"the server reported an error in a 200 reply: {str(obj['error'])[:200]}"
        choices = obj["choices"]
        if not isinstance(choices, list) or not choices:
            return "malformed response: no choices"
        usage = obj.get("usage") or {}
        k = len(choices)

        if not isinstance(usage, dict):
            usage = {}  # bad usage is ignored, never fatal

        def share(v: Any) -> int | None:
            """A usage count split over the choices; anything but a finite count is ignored."""
            if (
                isinstance(v, bool)
                or not isinstance(v, int | float)
                or not math.isfinite(v)
                or v < 0
            ):
                return None
            return int(round(v / k))

        served = {  # what the server says it ran: stored with the reply, and a change of it
            k: str(obj[f])[:200]  # invalidates the cache (runner/cache.py)
            for k, f in (("served_model", "model"), ("fingerprint", "system_fingerprint"))
            if isinstance(obj.get(f), str) and obj.get(f)
        }
        out = []
        for choice in choices:
            if not isinstance(choice, dict):
                return "malformed response: a choice is not an object"
            msg = choice.get("message") or {}
            if not isinstance(msg, dict):
                return "malformed response: message is not an object"
            text = _content_text(msg.get("content"))
            if text is None:
                text = _content_text(choice.get("text"))
            if isinstance(text, _Bad):
                return f"malformed response: message content is {text.what}"
            if text is None and not isinstance(msg.get("reasoning_content"), str):
                return "malformed response: no message content"
            details = usage.get("completion_tokens_details") or {}
            if not isinstance(details, dict):
                details = {}
            finish = choice.get("finish_reason")
            out.append(
                Response(
                    text=text or "",
                    finish_reason=finish if isinstance(finish, str) else None,
                    prompt_tokens=share(usage.get("prompt_tokens")),
                    completion_tokens=share(usage.get("completion_tokens")),
                    reasoning_tokens=share(details.get("reasoning_tokens")),
                    extra=dict(served),
                )
            )
        return out
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return "malformed JSON body"


_FLOAT = (
    "timeout",
    "backoff",
    "max_backoff",
    "max_retry_after",
    "max_item_wait",
    "max_total_wait",
    "max_body_mb",
    "rpm",
    "tpm",
    "cooldown",
)
_INT = ("max_retries", "connections", "n", "concurrency", "dead_after")
_STR = ("api_key_env", "key_file", "name", "endpoint", "max_tokens_param", "reasoning_effort")


_URL = r"[A-Za-z][A-Za-z0-9+.-]*://[^/\s:|]+(?::\d+)?(?:/[^:|\s]*)?"
_HEAD = re.compile(rf"(?P<base>{_URL}(?:\|{_URL})*):(?P<model>.+)")


def split_head(head: str) -> tuple[str, str]:
    """``<base URL>:<model name>`` → (base URL, model name). The URL ends at its path, so a
    model name may hold colons (Ollama's ``name:tag``); several URLs are joined by ``|``.

    Example:
        >>> split_head("http://127.0.0.1:11434/v1:llama3.1:8b")
        ('http://127.0.0.1:11434/v1', 'llama3.1:8b')
        >>> split_head("http://a:8000/v1|http://b:8000/v1:org/model-7b")
        ('http://a:8000/v1|http://b:8000/v1', 'org/model-7b')
    """
    m = _HEAD.fullmatch(head)
    if m is None or re.match(r"\d+(/|$)", m.group("model")):  # "…:8000/v1": a port, no name
        raise ConfigError(
            "model",
            head,
            "expected openai-compatible:<base URL>:<model name>, the URL with its scheme "
            "(e.g. openai-compatible:http://127.0.0.1:8000/v1:my-model)",
        )
    return m.group("base"), m.group("model")


def down_message(name: str, why: Sequence[str], failed: int, url: str) -> str:
    """What a run says when the first ``failed`` requests of model ``name`` to ``url`` all
    failed (for the reasons ``why``) and none was answered."""
    base = url.rsplit("/chat/completions", 1)[0].rsplit("/completions", 1)[0]
    return (
        f"model {name!r}: the first {failed} requests to {url} all failed "
        f"({'; '.join(why)}) and none has been answered: the endpoint is down or the URL is "
        f"wrong. Check it with `curl {base}/models` (an OpenAI-compatible server lists its models "
        "there; the base URL usually ends in /v1). This model is stopped; the run's other "
        "models go on (dead_after= sets how many failures count)."
    )
