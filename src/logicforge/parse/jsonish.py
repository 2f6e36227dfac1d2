"""Find JSON objects embedded in free text (code fences, prose, trailing text)."""

from __future__ import annotations

import json
import re
from typing import Any


class Objects(list[dict[str, Any]]):
    """The objects found, and ``conflicts``: keys an object gave twice with different values
    (``{"answer": "SAT", "answer": "UNSAT"}`` — JSON keeps the last, a reader cannot tell)."""

    conflicts: list[str]


def _pairs(conflicts: list[str]) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out and out[k] != v and k not in conflicts:
                conflicts.append(k)
            out[k] = v
        return out

    return hook


_LINE_COMMENT = re.compile(r"//[^\n]*")
_BRACE = re.compile(r"\{")


MAX_STARTS = 2_000  # opening braces tried per text (the last ones: answers come last)
LENIENT_BUDGET = 200_000  # characters the lenient retries may scan per text, in all


def json_objects(text: str, limit: int = 200) -> list[dict[str, Any]]:
    """Every top-level JSON object that decodes, in order of appearance (at most ``limit``).

    Objects that fail to decode are retried once with ``//`` comments and trailing commas removed.
    Work is bounded whatever the text: at most the last ``MAX_STARTS`` opening braces are tried
    and the lenient retries scan at most ``LENIENT_BUDGET`` characters in all (a megabyte of
    ``{`` takes well under a second instead of hours).

    Example:
        >>> json_objects('I think {"answer": "SAT",} // done')
        [{'answer': 'SAT'}]
    """
    out = Objects()
    out.conflicts = []
    decoder = json.JSONDecoder(object_pairs_hook=_pairs(out.conflicts))
    starts = [m.start() for m in _BRACE.finditer(text)]
    budget = [LENIENT_BUDGET]
    resume = 0
    for i in starts[-MAX_STARTS:]:
        if i < resume:
            continue
        obj, end = _decode_at(decoder, text, i, budget)
        if isinstance(obj, dict):
            out.append(obj)
            resume = end
            if len(out) >= limit:
                break
    return out


def _decode_at(decoder: json.JSONDecoder, text: str, i: int, budget: list[int]) -> tuple[Any, int]:
    try:
        return decoder.raw_decode(text, i)
    except RecursionError:
        return None, i + 1
    except ValueError:
        pass
    if budget[0] <= 0:
        return None, i + 1
    # lenient retry on a bounded balanced span: strip // comments and trailing commas
    depth, j, in_str, esc = 0, i, False, False
    stop = min(len(text), i + 200_000, i + budget[0])
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
    budget[0] -= j - i + 1
    if depth != 0 or j >= stop:
        return None, i + 1
    span = _LINE_COMMENT.sub("", text[i : j + 1])
    span = re.sub(r",\s*([}\]])", r"\1", span)
    try:
        return decoder.decode(span), j + 1
    except (ValueError, RecursionError):
        return None, i + 1
