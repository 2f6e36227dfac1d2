"""Calibrated levels: level L of one family as hard as level L of another, as one reference
solver sees them.

Each family's own level map (``families/levels.py``) is monotone in its own measure, but
"level 5" of 2-SAT and of a 9 × 9 sudoku need not be alike. The reference here is the
conflict-budgeted MiniSat the ``budget:N`` baseline runs, over a ladder of budgets
(:data:`BUDGETS`): a problem's *ease* is the fraction of the ladder's budgets within which it
is solved (the solver is deterministic, so solved within B means solved within every larger
budget), a level's ease the mean over its problems. No guess is counted, so no chance rate
needs removing.

The fit (:func:`fit`): each family's ease, made non-increasing over its levels (a running
minimum), is matched to a common target — the median eased curve of the families the
reference can grade (ease falling by at least :data:`MIN_SPAN` from level 0 to 10) — by
choosing, for every common level L, the native level whose ease is closest to the target's at
L, never below the native level chosen for L − 1 and, among equally close ones, nearest to L.
Families the reference cannot grade (every level solved at the smallest budgets, or no
budgeted solver) keep their own map: their rows say so.

The fitted table ships as ``calibration_table.json``; ``python benchmarks/bench_levels.py
--write src/logicforge/calibration_table.json`` measures and rewrites it, and
``tests/test_calibration.py`` fails when a family's level map has changed since it was measured.

Example:
    >>> native_level("ksat/random", 0)
    0
    >>> 0 <= native_level("sudoku", 5) <= 10
    True
"""

from __future__ import annotations

import functools
import hashlib
import json
import statistics
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import Any

from .errors import ConfigError
from .families.levels import LEVELS, calibrated_level

BUDGETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)  # conflicts, the reference's ladder
MIN_SPAN = 0.2  # a family is graded when its ease falls by at least this over levels 0..10
TABLE = "calibration_table.json"


def ease(items: Sequence[Any]) -> float | None:
    """The mean fraction of :data:`BUDGETS` within which the budgeted reference solves each
    item (None when the items' answer format has no budgeted solver).

    Example:
        >>> import logicforge as lf
        >>> ease(lf.render(lf.generate("sudoku", {"size": 4}, count=2), "sudoku"))
        1.0
    """
    from .kinds import answer_format, verify

    if not items or answer_format(items[0]).budgeted is None:
        return None
    total = 0.0
    for item in items:
        fmt = answer_format(item)
        for k, b in enumerate(BUDGETS):
            got = fmt.budgeted(item, b)  # type: ignore[misc]
            if got is not None and verify(item, got).correct:
                total += (len(BUDGETS) - k) / len(BUDGETS)  # and within every larger budget
                break
    return total / len(items)


def measure(family: str, count: int = 12, seed: int = 0) -> list[float | None]:
    """The reference's ease of ``family`` at levels 0..10 (``count`` problems each, on the
    family's default renderer)."""
    from .families.base import generate_problems
    from .kinds import get_kind
    from .renderers.base import render_problem
    from .rng import child_seed

    out: list[float | None] = []
    for level in LEVELS:
        ps = list(generate_problems(family, {}, count, child_seed(seed, 0xCA1, level), level=level))
        renderer = get_kind(ps[0].kind).renderer
        out.append(ease([render_problem(p, renderer) for p in ps]))
    return out


def fingerprint(family: str) -> str:
    """A hash of the family's level map (its parameters at every level): a calibration
    measured on another map is stale."""
    from .registry import FAMILIES

    lv: Any = getattr(FAMILIES.get(family), "levels", None)
    if lv is None:
        return ""
    maps = [lv.params(level) for level in LEVELS]
    return hashlib.sha256(json.dumps(maps, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _envelope(xs: Sequence[float]) -> list[float]:
    out, low = [], float("inf")
    for x in xs:
        low = min(low, x)
        out.append(low)
    return out


def graded(ease_by_level: Sequence[float | None]) -> bool:
    """Whether the reference sees the family get harder (its ease falls by ≥ MIN_SPAN)."""
    if any(x is None for x in ease_by_level):
        return False
    env = _envelope([float(x or 0.0) for x in ease_by_level])
    return env[0] - env[-1] >= MIN_SPAN


def fit(table: Mapping[str, Sequence[float | None]]) -> dict[str, list[int]]:
    """Each family's native level for common levels 0..10 (see the module's text).

    Example:
        >>> easy = [1.0] * 11                                  # never harder: kept as it is
        >>> fast = [1.0, 0.8, 0.6, 0.4, 0.2] + [0.0] * 6       # falls within 4 levels
        >>> slow = [1 - lv / 10 for lv in range(11)]            # falls over all 10
        >>> m = fit({"easy": easy, "fast": fast, "slow": slow})
        >>> m["easy"] == list(range(11)), m["fast"][:6], m["slow"][:6]
        (True, [0, 1, 2, 2, 3, 4], [0, 1, 3, 4, 6, 7])
    """
    envs = {f: _envelope([float(x or 0.0) for x in e]) for f, e in table.items() if graded(e)}
    maps = {f: list(LEVELS) for f in table if f not in envs}
    if not envs:
        return maps
    target = _envelope([statistics.median(env[lv] for env in envs.values()) for lv in LEVELS])
    for f, env in envs.items():
        row: list[int] = []
        for big_l in LEVELS:
            low = row[-1] if row else 0
            gaps = {n: (abs(env[n] - target[big_l]), abs(n - big_l)) for n in range(low, len(env))}
            row.append(min(gaps, key=gaps.__getitem__))
        maps[f] = row
    return dict(sorted(maps.items()))


@functools.lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """The shipped calibration (``calibration_table.json``): reference, budgets, per family its
    ease by level, whether it is graded, its native level per common level and the fingerprint
    of the level map it was measured on."""
    text = resources.files("logicforge").joinpath(TABLE).read_text(encoding="utf-8")
    return dict(json.loads(text))


def native_level(family: str, level: int) -> int:
    """The family's own level that the calibration puts at common level ``level``; the level
    itself for a family the calibration has no row for (a plug-in, say)."""
    calibrated_level(level)
    row = table()["families"].get(family)
    return level if row is None else int(row["native"][level])


def build(
    families: Iterable[str], count: int = 12, seed: int = 0, progress: Any = None
) -> dict[str, Any]:
    """Measure every family and fit: the document :func:`table` reads."""
    measured: dict[str, list[float | None]] = {}
    for f in families:  # rounded as stored, so the table refits to itself
        measured[f] = [None if x is None else round(x, 4) for x in measure(f, count, seed)]
        if progress is not None:
            progress(f, measured[f])
    maps = fit(measured)
    return {
        "reference": "MiniSat 2.2 within a conflict budget (the budget:N baseline's solver)",
        "budgets": list(BUDGETS),
        "count": count,
        "seed": seed,
        "min_span": MIN_SPAN,
        "families": {
            f: {
                "ease": measured[f],
                "graded": graded(measured[f]),
                "native": maps[f],
                "levels_fingerprint": fingerprint(f),
            }
            for f in sorted(measured)
        },
    }


def dumps(doc: Mapping[str, Any]) -> str:
    """The table as JSON with one line per family (diffs show which rows moved)."""
    rows = doc["families"]
    head = {k: v for k, v in doc.items() if k != "families"}
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "families": {']
    for i, f in enumerate(sorted(rows)):
        comma = "," if i < len(rows) - 1 else ""
        lines.append(f" {json.dumps(f)}: {json.dumps(rows[f], sort_keys=True)}{comma}")
    return "\n".join([*lines, "}}"]) + "\n"


def check_calibrated(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError("calibrated", value, "must be true or false")
    return value
