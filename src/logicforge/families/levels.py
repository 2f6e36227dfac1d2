"""One difficulty level per family: ``level`` ∈ 0..10 maps to the family's parameters, and the
family names the measured difficulty that grows with it.

A family lists ``levels = Levels(params, measure, of, doc)``: ``params(level)`` the parameters at
that level (explicit parameters override them), ``measure`` the name of what grows, ``of(problem)``
its value on an emitted problem (from the problem itself or the oracle's statistics),
``doc`` the map in words. ``tests/test_levels.py`` holds the mean measure to be non-decreasing
over the levels (and higher at 10 than at 0) for every registered family, and
``benchmarks/bench_levels.py`` prints it beside the accuracy of a conflict-budgeted solver.

Example:
    >>> from logicforge.registry import FAMILIES
    >>> FAMILIES.get("zebra").levels.params(10)
    {'n_houses': 6, 'n_attributes': 6}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

LEVELS = range(0, 11)


@dataclass(frozen=True)
class Levels:
    params: Callable[[int], dict[str, Any]]
    measure: str
    of: Callable[[Any], float | None]  # LabelledProblem → the measured difficulty
    doc: str


def check_level(level: Any) -> int:
    """``level`` as an int in 0..10, else a ConfigError naming it."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ConfigError("level", level, "must be an integer in 0..10")
    return level


def level_params(
    family: Any, level: int, params: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The family's parameters at ``level``, with ``params`` layered over them."""
    levels = getattr(family, "levels", None)
    if levels is None:
        raise ConfigError("level", level, f"{family.name} declares no difficulty levels")
    return {**levels.params(check_level(level)), **(params or {})}


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
