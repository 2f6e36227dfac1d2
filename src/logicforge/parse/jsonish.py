"""Find JSON objects embedded in free text (code fences, prose, trailing text)."""

from __future__ import annotations

import json
import re
from typing import Any

_DECODER = json.JSONDecoder()
_LINE_COMMENT = re.compile(r"//[^\n]*")


def json_objects(text: str, limit: int = 200) -> list[dict[str, Any]]:
    """Every top-level JSON object that decodes, in order of appearance (at most ``limit``).

    Objects that fail to decode are retried once with ``//`` comments and trailing commas removed.
    """
    out: list[dict[str, Any]] = []
    i = text.find("{")
    while i != -1 and len(out) < limit:
        obj, end = _decode_at(text, i)
        if isinstance(obj, dict):
            out.append(obj)
            i = text.find("{", end)
        else:
            i = text.find("{", i + 1)
    return out


def _decode_at(text: str, i: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, i)
    except (ValueError, RecursionError):
        pass
    # lenient retry on a bounded balanced span: strip // comments and trailing commas
    depth, j, in_str, esc = 0, i, False, False
    stop = min(len(text), i + 200_000)
    while j < stop:
        ch = text[j]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                break
        j += 1
    if depth != 0 or j >= stop:
        return None, i + 1
    span = _LINE_COMMENT.sub("", text[i : j + 1])
    span = re.sub(r",\s*([}\]])", r"\1", span)
    try:
        return json.loads(span), j + 1
    except (ValueError, RecursionError):
        return None, i + 1
