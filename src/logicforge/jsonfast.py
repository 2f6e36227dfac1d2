"""JSON at the harness's hot spots (items lines, request bodies, replies): orjson where it is
installed (a dependency where it has wheels), the standard library and pydantic-core otherwise,
with the same values either way.

orjson reads an integer past 64 bits as a float, which would lose digits, so a text with a run
of 19 digits is never given to it; a text orjson refuses (a lone surrogate, ``NaN``) goes to the
standard reader, which decides. Written JSON is compact UTF-8, the same bytes as pydantic-core's
``to_json`` except for non-finite floats, which JSON cannot hold (orjson writes ``null``,
pydantic-core ``Infinity``).

Example:
    >>> loads('{"a": [1, 2.5, "é"]}'.encode())
    {'a': [1, 2.5, 'é']}
    >>> loads(b'{"n": 123456789012345678901234567890}')["n"]  # every digit kept
    123456789012345678901234567890
    >>> dumps({"role": "user", "content": "¬x1 ∨ x2"}).decode()
    '{"role":"user","content":"¬x1 ∨ x2"}'
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a platform without orjson's wheels
    _orjson = None  # type: ignore[assignment]

# every digit as "0", everything else as " ": a run of 19 digits is then one bytes search
_DIGITS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG = b"0" * 19


class Unread(Exception):
    """:func:`fast_loads` left the text to another reader (see the module docstring)."""


def fast_loads(raw: bytes) -> Any:
    """orjson's reading of ``raw`` where it is exact; raises :class:`Unread` where orjson is
    missing, refuses the text or could lose digits of an integer in it — the caller's own
    reader (``json.loads``, pydantic's ``model_validate_json``) takes it then and names any
    error the way it always does."""
    if _orjson is None or _LONG in raw.translate(_DIGITS):
        raise Unread
    try:
        return _orjson.loads(raw)
    except ValueError:
        raise Unread from None


def loads(raw: bytes) -> Any:
    """``json.loads(raw)``, through orjson where that is exact (about 4× faster on a reply)."""
    try:
        return fast_loads(raw)
    except Unread:
        return json.loads(raw)


def dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON of ``obj`` (about 2× faster than pydantic-core's ``to_json`` on a
    request body); what orjson cannot write (an integer past 64 bits, a type it does not know)
    goes to ``to_json``."""
    if _orjson is not None:
        try:
            return _orjson.dumps(obj)
        except TypeError:
            pass
    from pydantic_core import to_json

    return to_json(obj)
