"""Assignment extraction: JSON objects, JSON lists of literals, and ``name = value`` pairs —
one per line (``x1 = TRUE``, ``- x2: F``, ``**x3** = **True**``), comma lists
(``x1=true, x2=false``) and markdown tables with one or several name / value column pairs per
row (``| x1 | True | x2 | False |``); blank lines and a table's ``|---|`` rule do not end a block.

Names are read back through the Item's mapping (display name → variable). A name the mapping
does not know is reported in ``unknown``; a variable given two different values makes the whole
assignment invalid (``conflict``). Accepted values: true/false, 1/0, T/F, yes/no, on/off and the
scheme words passed in ``true_words`` / ``false_words``.

Example:
    >>> parse_assignment('x1 = True\\nx2 = 0', {"x1": 1, "x2": 2})
    ({1: True, 2: False}, [], None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .jsonish import json_objects

_TRUE = {"true", "t", "1", "yes", "y", "on"}
_FALSE = {"false", "f", "0", "no", "n", "off"}
_NEG_PREFIX = re.compile(r"^\s*(?:¬|~|!|-|not\s+)\s*", re.I)
_PAIR = re.compile(
    r"(?<![A-Za-z0-9_])[`\"'*_]{0,2}([A-Za-z][A-Za-z0-9_]*\(\s*\d+(?:\s*,\s*\d+){0,2}\s*\)"
    r"|[A-Za-z][A-Za-z0-9_]*(?: \d+)?|\d+)[`\"'*_]{0,2}\s*"
    r"(?:=|:|->|→|\bis\b|\|)\s*[`\"'*_]{0,2}([A-Za-z0-9]+)\b",
    re.I,
)


_TABLE_RULE = re.compile(r"^\s*\|?[\s:|-]*-[\s:|-]*$")


def _norm_name(name: str) -> str:
    return re.sub(r"\s+", " ", name.strip().strip("`'\"*")).strip()


def _lookup(name: str, mapping: Mapping[str, int], folded: Mapping[str, int]) -> int | None:
    n = _norm_name(name)
    if n in mapping:
        return mapping[n]
    # case-folded, and without spaces: "X(0,1)" is the array variable "x(0, 1)"
    return folded.get(n.lower(), folded.get(n.lower().replace(" ", "")))


def _value(v: Any, true_words: Iterable[str], false_words: Iterable[str]) -> bool | None:
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float) and v in (0, 1):
        return bool(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in _TRUE or s in true_words:
            return True
        if s in _FALSE or s in false_words:
            return False
    return None


class _Builder:
    def __init__(self, mapping: Mapping[str, int], tw: set[str], fw: set[str]) -> None:
        self.mapping, self.tw, self.fw = mapping, tw, fw
        self.folded = {k.lower().replace(" ", ""): v for k, v in mapping.items()} | {
            k.lower(): v for k, v in mapping.items()
        }
        self.values: dict[int, bool] = {}
        self.unknown: list[str] = []
        self.conflict: str | None = None

    def put(self, name: str, value: bool) -> None:
        var = _lookup(name, self.mapping, self.folded)
        if var is None:
            self.unknown.append(_norm_name(name))
            return
        old = self.values.get(var)
        if old is not None and old != value:
            self.conflict = f"variable {_norm_name(name)!r} given both values"
        self.values[var] = value

    def literal(self, tok: Any) -> bool:
        """Read a list element: 3 / -3 / "x3" / "-x3" / "¬x3"; False if unreadable."""
        if isinstance(tok, bool):
            return False
        if isinstance(tok, int):
            name = None
            for k, v in self.mapping.items():
                if v == abs(tok):
                    name = k
                    break
            if tok == 0 or name is None:
                self.unknown.append(str(tok))
            else:
                self.put(name, tok > 0)
            return True
        if isinstance(tok, str):
            m = _NEG_PREFIX.match(tok)
            neg = bool(m and m.group(0))
            self.put(tok[m.end() :] if m else tok, not neg)
            return True
        return False


def assignment_from_obj(obj: Any, b: _Builder) -> bool:
    if isinstance(obj, dict):
        for k, v in obj.items():
            val = _value(v, b.tw, b.fw)
            if val is None:
                b.unknown.append(f"{k}={v!r}")
            else:
                b.put(str(k), val)
        return True
    if isinstance(obj, list):
        return all(b.literal(t) for t in obj)
    return False


def parse_assignment(
    text: str,
    mapping: Mapping[str, int],
    objs: list[dict[str, Any]] | None = None,
    true_words: Iterable[str] = (),
    false_words: Iterable[str] = (),
) -> tuple[dict[int, bool] | None, list[str], str | None]:
    """Return ``(assignment or None, unknown names, conflict message or None)``.

    Preference: the ``assignment`` (or ``model`` / ``values``) field of the last JSON object that
    has one; else the last JSON object whose keys are all known names; else ``name = value`` lines.
    """
    b = _Builder(mapping, {w.lower() for w in true_words}, {w.lower() for w in false_words})
    if objs is None:
        objs = json_objects(text)
    for obj in reversed(objs):
        for key in ("assignment", "model", "values", "witness"):
            if key in obj and assignment_from_obj(obj[key], b):
                return b.values, b.unknown, b.conflict
    for obj in reversed(objs):
        if obj and all(_lookup(str(k), mapping, b.folded) is not None for k in obj):
            assignment_from_obj(obj, b)
            return b.values, b.unknown, b.conflict
    # ``name = value`` pairs: the last block of consecutive lines that hold known pairs
    blocks: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    for line in text.splitlines():
        pairs = []
        pos = 0
        while (m := _PAIR.search(line, pos)) is not None:
            val = _value(m.group(2), b.tw, b.fw)
            if val is not None and _lookup(m.group(1), mapping, b.folded) is not None:
                pairs.append((m.group(1), val))
                pos = m.end()
            else:  # "Assignment: x1=1": retry from the value, which may itself be a name
                pos = m.start(2)
        if pairs:
            current.extend(pairs)
        elif current and line.strip() and not _TABLE_RULE.match(line):
            blocks.append(current)  # a blank line or a table's |---| rule keeps the block
            current = []
    if current:
        blocks.append(current)
    if blocks:
        for name, val in blocks[-1]:
            b.put(name, val)
        return b.values, b.unknown, b.conflict
    return None, [], None
