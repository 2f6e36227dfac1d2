"""Turn a response into an :class:`~logicforge.schema.Answer` for an Item. Never raises."""

from __future__ import annotations

import re
from typing import Any

from ..schema import Answer, Item
from .assignment import parse_assignment
from .decision import parse_decision, strip_thinking
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
    return out or None


def cited_conditions(objs: list[dict[str, Any]]) -> list[int] | None:
    """The condition numbers an UNSAT answer cites (``"conflict": [1, 4]``, also ``"C4"``), or None."""
    for obj in reversed(objs):
        v = obj.get("conflict", obj.get("conditions"))
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


def parse_answer(text: str | None, item: Item) -> Answer:
    """Read decision and (for SAT) assignment from ``text``.

    Example:
        >>> from logicforge.schema import Item, Message
        >>> it = Item(item_id="i", problem_id="p", family="f", kind="cnf", params={}, seed=0,
        ...           rendering="formula", messages=[Message(role="user", content="?")],
        ...           gold={"label": "SAT"}, mapping={"x1": 1}, problem={})
        >>> parse_answer('{"answer": "SAT", "assignment": {"x1": true}}', it).assignment
        {1: True}
    """
    try:
        if text is None:
            return Answer(parse_error="no response text")
        if len(text) > MAX_CHARS:
            text = text[-MAX_CHARS:]
        body = _drop_echo(strip_thinking(text), item)
        objs = json_objects(body)
        if item.kind != "cnf":
            from ..kinds import get_kind

            return get_kind(item.kind).parse(body, objs, item)
        decision, rule = parse_decision(body, objs)
        if decision is None:
            return Answer(parse_error=rule)
        stats = reported_counts(body, objs)
        if decision != "SAT":
            cited = cited_conditions(objs)
            return Answer(
                decision="UNSAT",
                rule=rule,
                stats=stats,
                certificate={"conflict": cited} if cited is not None else None,
            )
        tw = [w for w, v in item.value_words.items() if v]
        fw = [w for w, v in item.value_words.items() if not v]
        values, unknown, conflict = parse_assignment(body, item.mapping, objs, tw, fw)
        if conflict:
            return Answer(
                decision="SAT",
                rule=rule,
                assignment=None,
                unknown_names=unknown,
                parse_error=conflict,
            )
        return Answer(
            decision="SAT", rule=rule, assignment=values, unknown_names=unknown, stats=stats
        )
    except Exception as e:  # a parser bug must never take a run down; record it
        return Answer(parse_error=f"parser error: {type(e).__name__}: {e}")
