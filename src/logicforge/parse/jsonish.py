"""Find JSON objects embedded in free text (code fences, prose, trailing text).

Near-JSON is read where it is unambiguous: ``//`` comments and trailing commas, a Python dict
(single quotes, ``True`` / ``None`` — read as data by :func:`ast.literal_eval`, never run),
and an answer key in another case (``"Solution"``, ``"ANSWER"``). A key given twice with
different values is a conflict either way. :func:`strict_json` (or ``LOGICFORGE_STRICT_JSON=1``,
``--strict-json``) reads JSON only, as the prompts ask.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import json
import os
import re
from collections.abc import Iterator
from typing import Any

_STRICT: contextvars.ContextVar[bool] = contextvars.ContextVar("logicforge_strict_json")

# top-level keys the answer formats read; another case of one of them is read as it
ANSWER_KEYS = frozenset(
    [
        "answer",
        "solution",
        "grid",
        "proof",
        "assignment",
        "coloring",
        "colouring",
        "satisfied",
        "reasoning",
        "core",
        "conflicts",
        "arrangement",
        "order",
        "label",
        "cover",
        "steps",
        "mus",
        "mcs",
    ]
)


def is_strict() -> bool:
    """Whether replies are read as strict JSON only (no near-JSON, no flat answers)."""
    v = _STRICT.get(None)
    return v if v is not None else os.environ.get("LOGICFORGE_STRICT_JSON") == "1"


@contextlib.contextmanager
def strict_json(on: bool = True) -> Iterator[None]:
    """Read replies as strict JSON inside the block (``on=False``: lenient, whatever the
    environment says).

    Example:
        >>> json_objects("{'answer': 'SAT'}")
        [{'answer': 'SAT'}]
        >>> with strict_json():
        ...     json_objects("{'answer': 'SAT'}")
        []
    """
    token = _STRICT.set(on)
    try:
        yield
    finally:
        _STRICT.reset(token)


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
    strict = is_strict()
    for i in starts[-MAX_STARTS:]:
        if i < resume:
            continue
        obj, end = _decode_at(decoder, text, i, budget, None if strict else out.conflicts)
        if isinstance(obj, dict):
            if not strict:
                obj = _fold_keys(obj, out.conflicts)
            out.append(obj)
            resume = end
            if len(out) >= limit:
                break
    return out


def _fold_keys(obj: dict[str, Any], conflicts: list[str]) -> dict[str, Any]:
    """``{"Solution": …}`` read as ``{"solution": …}`` (answer keys only, top level); two
    spellings of one key with different values are a conflict."""
    if all(k in ANSWER_KEYS or k.lower() not in ANSWER_KEYS for k in obj):
        return obj
    out: dict[str, Any] = {}
    for k, v in obj.items():
        key = k.lower() if k.lower() in ANSWER_KEYS else k
        if key in out and out[key] != v and key not in conflicts:
            conflicts.append(key)
        out[key] = v
    return out


def _python_literal(span: str, conflicts: list[str]) -> Any:
    """A Python dict literal (single quotes, True / False / None) as JSON data, or None; only
    literals are read (:func:`ast.literal_eval`), and a key given twice with different values
    is noted as a conflict."""
    try:
        tree = ast.parse(span, mode="eval")
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                seen: dict[Any, str] = {}
                for k, v in zip(node.keys, node.values, strict=True):
                    if not isinstance(k, ast.Constant):
                        return None
                    dumped = ast.dump(v)
                    if (
                        k.value in seen
                        and seen[k.value] != dumped
                        and str(k.value) not in conflicts
                    ):
                        conflicts.append(str(k.value))
                    seen[k.value] = dumped
        value = ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None

    def plain(x: Any) -> Any:
        if isinstance(x, dict):
            if not all(isinstance(k, str) for k in x):
                raise TypeError("a key that is not a string")
            return {k: plain(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [plain(v) for v in x]
        if x is None or isinstance(x, str | int | float | bool):
            return x
        raise TypeError(f"not JSON data: {type(x).__name__}")

    try:
        return plain(value)
    except (TypeError, RecursionError):
        return None


def _decode_at(
    decoder: json.JSONDecoder,
    text: str,
    i: int,
    budget: list[int],
    conflicts: list[str] | None = None,
) -> tuple[Any, int]:
    """The JSON object at ``text[i]`` and where it ends; with ``conflicts`` (lenient), near-JSON
    too: comments and trailing commas, then a Python literal."""
    try:
        return decoder.raw_decode(text, i)
    except RecursionError:
        return None, i + 1
    except ValueError:
        pass
    if conflicts is None or budget[0] <= 0:
        return None, i + 1
    # lenient retry on a bounded balanced span: strip // comments and trailing commas
    depth, j, in_str, esc, quote = 0, i, False, False, ""
    stop = min(len(text), i + 200_000, i + budget[0])
    while j < stop:
        ch = text[j]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == quote:
                in_str = False
        elif ch == "/" and text.startswith("//", j):  # a comment: to the end of its line
            nl = text.find("\n", j, stop)
            j = stop if nl == -1 else nl
            continue
        elif ch in "\"'":
            in_str, quote = True, ch
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
        pass
    got = _python_literal(text[i : j + 1], conflicts) if "'" in span or "True" in span else None
    return (got, j + 1) if isinstance(got, dict) else (None, i + 1)
