"""Difficulty levels per family: ``level`` (any integer ≥ 0) maps to the family's parameters,
and the family names the measured difficulty that grows with it.

A family lists ``levels = Levels(params, measure, of, doc, beyond=…, highest=…, ceiling=…)``:
``params(level)`` the parameters at levels 0-10 (the calibrated range; explicit parameters
override them), ``beyond(level)`` the parameters past 10 — the puzzle keeps growing — ``measure``
the name of what grows, ``of(problem)`` its value on an emitted problem (from the problem itself or
the oracle's statistics), ``doc`` the map in words. A puzzle type with a real ceiling names its
``highest`` level and why (``ceiling``); a higher level is refused naming both. Every level is
bounded by :data:`MAX_LEVEL`. ``tests/test_levels.py`` holds the mean measure to be
non-decreasing over the levels for every registered family, and ``benchmarks/bench_levels.py``
prints it beside the accuracy of a conflict-budgeted solver and the highest level each family
generates within its time limit.

Example:
    >>> from logicforge.registry import FAMILIES
    >>> FAMILIES.get("zebra").levels.params(10)
    {'n_houses': 6, 'n_attributes': 6}
    >>> FAMILIES.get("ksat/random").levels.at(40)["n_vars"]
    248
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

LEVELS = range(0, 11)  # the calibrated levels (the solver calibration, the curriculum's range)
MAX_LEVEL = 1000  # the highest level anyone may ask for (a bound checked before any work)


@dataclass(frozen=True)
class Levels:
    params: Callable[[int], dict[str, Any]]  # levels 0-10
    measure: str
    of: Callable[[Any], float | None]  # LabelledProblem → the measured difficulty
    doc: str
    # levels past 10 (None: ``params`` itself continues); the puzzle keeps growing
    beyond: Callable[[int], dict[str, Any]] | None = None
    # a ceiling the parameters' ranges do not show (a proof that takes minutes past it), and
    # why; without one a family's ceiling is where its parameters leave their ranges
    highest: int | None = None
    ceiling: str = ""

    def at(self, level: int) -> dict[str, Any]:
        """The parameters the map gives at ``level`` (any level from 0 to :data:`MAX_LEVEL`;
        :func:`level_params` also holds it to the family's ceiling)."""
        check_level(level)
        if level > LEVELS.stop - 1 and self.beyond is not None:
            return self.beyond(level)
        return self.params(level)


def check_level(level: Any, highest: int = MAX_LEVEL, ceiling: str = "") -> int:
    """``level`` as an int in 0..``highest``, else a ConfigError naming it (and, for a family
    with a ceiling, the highest level and why).

    >>> check_level(12)
    12
    """
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise ConfigError("level", level, f"must be an integer in 0..{highest}")
    if level > highest:
        why = f"the highest level is {highest}" + (f": {ceiling}" if ceiling else "")
        raise ConfigError("level", level, why)
    return level


def calibrated_level(level: Any) -> int:
    """``level`` as an int in the calibrated range 0..10, else a ConfigError naming it."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ConfigError("level", level, "must be an integer in 0..10 (the calibrated levels)")
    return level


def ceiling_of(family: Any) -> tuple[int, str]:
    """The family's highest level and why: its declared ceiling, else the last level whose
    parameters the family accepts (the reason: the range the next level's parameters leave),
    else :data:`MAX_LEVEL` and "".

    >>> from logicforge.registry import FAMILIES
    >>> ceiling_of(FAMILIES.get("queens"))
    (23, "past it the parameters leave their range: invalid value for 'size': 27 — must be an integer in 4..26")
    """
    lv = family.levels
    if lv.highest is not None:
        return lv.highest, lv.ceiling
    return _ranged_ceiling(family)


@functools.lru_cache(maxsize=256)
def _ranged_ceiling(family: Any) -> tuple[int, str]:
    def refusal(level: int) -> str:
        try:
            family.Params(**family.levels.at(level))
        except ConfigError as e:
            return str(e)
        return ""

    if not refusal(MAX_LEVEL):
        return MAX_LEVEL, ""
    ok, bad = LEVELS.stop - 1, MAX_LEVEL  # the levels grow monotonically: bisect the boundary
    while bad - ok > 1:
        mid = (ok + bad) // 2
        ok, bad = (mid, bad) if not refusal(mid) else (ok, mid)
    return ok, f"past it the parameters leave their range: {refusal(bad)}"


def level_params(
    family: Any, level: int, params: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The family's parameters at ``level`` (up to its ceiling), with ``params`` over them."""
    levels = getattr(family, "levels", None)
    if levels is None:
        raise ConfigError("level", level, f"{family.name} declares no difficulty levels")
    if isinstance(levels, Levels):
        check_level(level, *ceiling_of(family))
        return {**levels.at(level), **(params or {})}
    return {**levels.params(calibrated_level(level)), **(params or {})}  # a plug-in's own


def by_clauses(base: int, step: int, extra: Mapping[str, Any] | None = None) -> Levels:
    """A CNF family whose difficulty is its size: ``n_clauses = base + step · level``."""
    return Levels(
        lambda lv: {"n_clauses": base + step * lv, **(extra or {})},
        "clauses",
        lambda p: float(len(p.problem["clauses"])),
        f"n_clauses = {base} + {step} · level (the 2-SAT paper's |C| axis); other parameters "
        "at their defaults",
    )


def conflicts(p: Any) -> float | None:
    """MiniSat's conflicts deciding the problem (the oracle's statistics)."""
    stats = (p.oracle or {}).get("stats") or {}
    v = stats.get("conflicts", p.metadata.get("conflicts"))
    return None if v is None else float(v)


def log10(x: float) -> float:
    return math.log10(x)


def log10_factorial(n: int) -> float:
    return math.log10(math.factorial(n))


def levels_table(families: Mapping[str, Any]) -> str:
    """The Markdown table of every family's level map, its growth past 10 and its ceiling —
    the one ``docs/levels.md`` holds (a test keeps the page equal to it).

    >>> from logicforge.registry import FAMILIES
    >>> levels_table({"zebra": FAMILIES.get("zebra")}).splitlines()[0]
    '| family | measure | highest level | level → parameters (past 10 as stated) |'
    """
    rows = [
        "| family | measure | highest level | level → parameters (past 10 as stated) |",
        "|---|---|---|---|",
    ]
    for name, fam in sorted(families.items()):
        lv = fam.levels
        highest, why = ceiling_of(fam)
        top = f"{highest:,}" + (f": {why}" if why else " (every level asked for)")
        doc = lv.doc + ("; the same rule past 10" if lv.beyond is None else "")
        cell = doc.replace("|", "\\|")
        rows.append(f"| `{name}` | {lv.measure} | {top} | {cell} |")
    return "\n".join(rows)
