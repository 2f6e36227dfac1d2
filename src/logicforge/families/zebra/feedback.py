"""What a checker can tell a model about a wrong zebra grid: the cells that are missing or
repeated, else the clues the grid breaks (quoted as the prompt words them) — never the solution.

Imported puzzles without structured clues (ZebraLogic's own text) get no facts, so the repair
strategy says the plain "wrong, try again" there.

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, seed=0))[0]
    >>> from logicforge.schema import Answer, Verdict
    >>> grid_facts(it, Answer(label="SAT", certificate={"grid": {}}), Verdict(correct=False))[0]
    'house 1 has no name'
"""

from __future__ import annotations

import re
from typing import Any

from ...schema import Answer, Item, Verdict
from .clues import Clue
from .pool import BY_NAME


def norm(x: Any) -> str:
    """A grid cell or name as compared: the first of a list, spaces collapsed, lower case."""
    if isinstance(x, list):
        x = x[0] if x else ""
    return re.sub(r"\s+", " ", str(x)).strip().lower()


def _shape_facts(d: dict[str, Any], grid: dict[str, dict[str, str]]) -> list[str]:
    out = []
    n = int(d["n_houses"])
    for a, vals in zip(d["attributes"], d["values"], strict=True):
        key, allowed = norm(a), {norm(v) for v in vals}
        seen: dict[str, int] = {}
        for h in range(1, n + 1):
            v = grid.get(str(h), {}).get(key)
            if v is None:
                out.append(f"house {h} has no {a.lower()}")
            elif v not in allowed:
                out.append(f"{v!r} in house {h} is not one of the {a.lower()} values")
            elif v in seen:
                out.append(f"{v!r} is in house {seen[v]} and in house {h}")
            else:
                seen[v] = h
    return out


def grid_facts(item: Item, answer: Answer, verdict: Verdict) -> list[str]:
    """Facts about a wrong grid answer (see the module docstring)."""
    d = item.problem
    if not d.get("clues") or "attributes" not in d:
        return []
    if answer.label == "UNSAT":
        return (
            ["the clues can all hold in one arrangement"] if item.gold.get("label") == "SAT" else []
        )
    grid = (answer.certificate or {}).get("grid") or {}
    shape = _shape_facts(d, grid)
    if shape:
        return shape
    n = int(d["n_houses"])
    pos = [
        [next(h for h in range(n) if grid[str(h + 1)][norm(a)] == norm(v)) for v in vals]
        for a, vals in zip(d["attributes"], d["values"], strict=True)
    ]

    def phrase(a: int, v: int) -> str:
        return BY_NAME[d["attributes"][a]].who(d["values"][a][v])

    broken = [
        f"clue {i} does not hold in your grid: {c.text(phrase)}"
        for i, c in enumerate((Clue.from_json(x) for x in d["clues"]), start=1)
        if not c.holds(pos)
    ]
    return broken
