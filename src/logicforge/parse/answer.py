"""Text utilities shared by the answer formats: reasoning and echo removal, reported counts,
cited conditions. The formats themselves live with their kinds (:mod:`logicforge.kinds`)."""

from __future__ import annotations

import re
from typing import Any

from ..schema import Item
from .decision import strip_thinking
from .jsonish import json_objects

MAX_CHARS = 2_000_000


def _drop_echo(text: str, item: Item) -> str:
    """Remove response lines that repeat a whole long prompt line verbatim (echoed instructions)."""
    lines = text.splitlines()
    echoed = {
        i for i, ln in enumerate(lines) if len(ln.strip()) >= 25 and _in_prompt(ln.strip(), item)
    }
    if not echoed:
        return text
    return "\n".join(ln for i, ln in enumerate(lines) if i not in echoed)


def _in_prompt(line: str, item: Item) -> bool:
    """True if ``line`` is a whole line of some prompt message (ignoring surrounding blanks)."""
    for m in item.messages:
        c = m.content
        start = c.find(line)
        while start != -1:
            end = start + len(line)
            head_ok = c[:start].rstrip(" \t")[-1:] in ("", "\n")
            tail_ok = c[end:].lstrip(" \t")[:1] in ("", "\n")
            if head_ok and tail_ok:
                return True
            start = c.find(line, start + 1)
    return False


_COUNT = re.compile(
    r"(?:number\s+of\s+)?(branches|decisions|conflicts)\b[^0-9\n]{0,40}?(\d{1,12})", re.I
)


_LISTING1_COUNTS = re.compile(
    r"^[ \t*_\[]*(?:UN)?SAT(?:ISFIABLE)?[ \t*_\].]*\n\s*(\d{1,12})[ \t.]*\n\s*(\d{1,12})[ \t.]*$",
    re.I | re.M,
)


def reported_counts(body: str, objs: list[dict[str, Any]]) -> dict[str, int] | None:
    """Branch and conflict counts a model reported (ADR paper's Listing 1), or None."""
    out: dict[str, int] = {}
    for obj in reversed(objs):
        for key, name in (
            ("branches", "branches"),
            ("decisions", "branches"),
            ("conflicts", "conflicts"),
        ):
            v = obj.get(key)
            if (
                name not in out
                and isinstance(v, int | float)
                and not isinstance(v, bool)
                and v >= 0
            ):
                out[name] = int(v)
    if len(out) < 2:
        for m in _COUNT.finditer(body):
            name = "conflicts" if m.group(1).lower() == "conflicts" else "branches"
            out[name] = int(m.group(2))  # the last mention wins
    if not out:  # Listing 1's order: the verdict line, then the two counts on lines of their own
        bare = list(_LISTING1_COUNTS.finditer(body))
        if bare:
            out = {"branches": int(bare[-1].group(1)), "conflicts": int(bare[-1].group(2))}
    return out or None


def cited_conditions(
    objs: list[dict[str, Any]], keys: tuple[str, ...] = ("conflict", "conditions")
) -> list[int] | None:
    """The condition numbers an UNSAT answer cites under the first of ``keys`` the last object
    holding one has (``"conflict": [1, 4]``, also ``"C4"``), or None."""
    for obj in reversed(objs):
        v = next((obj[k] for k in keys if k in obj), None)
        if isinstance(v, list):
            out = []
            for x in v:
                if isinstance(x, bool):
                    continue
                if isinstance(x, int):
                    out.append(x)
                elif isinstance(x, str) and x.strip().lstrip("Cc#").isdigit():
                    out.append(int(x.strip().lstrip("Cc#")))
            return out
    return None


def prepare(text: str, item: Item) -> tuple[str, list[dict[str, Any]]]:
    """The reply with its reasoning (``<think>``) and echoed prompt lines removed, and the JSON
    objects found in it: what every answer format parses."""
    body = _drop_echo(strip_thinking(text), item)
    return body, json_objects(body)
