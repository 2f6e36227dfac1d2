"""Curricula and adaptive evaluation on the difficulty levels (:mod:`logicforge.families.levels`).

:class:`Curriculum` — per family, raise or lower the level to hold a target accuracy over a
window of recent rewards: when ``window`` rewards at the current level average above
``target + margin`` the level goes up one, below ``target − margin`` it goes down one; every
change is logged with its window's statistics, and the whole state (levels, windows, draw
counters, log) saves to JSON and loads back, so a training run resumes where it stopped.
Problems are drawn from per-family, per-draw seed streams: the same state draws the same items.

:func:`frontier` — the level at which a model's accuracy crosses a threshold, by bisection over
the levels with sequential sampling at each probe (Wilson interval; stop when it excludes the
threshold or the probe's budget is spent), reporting the bracketing levels, the accuracy at each
probe and the items used — a fraction of a full grid.

Example:
    >>> c = Curriculum(["ksat/random"], target=0.7, window=4, seed=1)
    >>> items = c.draw("ksat/random", 2)
    >>> [it.metadata["level"] for it in items]
    [0, 0]
    >>> for it in items * 2:
    ...     c.update(it, 1.0)
    >>> c.levels["ksat/random"], c.log[-1]["to"]
    (1, 1)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .families.levels import LEVELS, calibrated_level
from .rng import child_seed
from .schema import Item


class Curriculum:
    def __init__(
        self,
        families: Sequence[str],
        target: float = 0.7,
        window: int = 32,
        margin: float = 0.05,
        start: int = 0,
        seed: int = 0,
    ) -> None:
        from .registry import FAMILIES

        if not families:
            raise ConfigError("families", families, "name at least one family")
        for f in families:
            if getattr(FAMILIES.get(f), "levels", None) is None:
                raise ConfigError("families", f, "declares no difficulty levels")
        if not 0.0 < target < 1.0:
            raise ConfigError("target", target, "must be in (0, 1)")
        if not isinstance(window, int) or window < 1:
            raise ConfigError("window", window, "must be an integer ≥ 1")
        self.families = list(families)
        self.target, self.window, self.margin, self.seed = target, window, margin, seed
        self.levels = {f: calibrated_level(start) for f in families}
        self.recent: dict[str, list[float]] = {f: [] for f in families}
        self.draws = {f: 0 for f in families}
        self.log: list[dict[str, Any]] = []

    def draw(self, family: str, n: int) -> list[Item]:
        """``n`` items of ``family`` at its current level, rendered by its kind's training
        renderer (a certificate asked for every answer, so the certified reward pays them)."""
        from . import api
        from .families.base import get_family
        from .kinds import get_kind

        lv = self.levels[family]
        k = self.families.index(family)
        # a fresh seed per (curriculum seed, family, draw): a resumed curriculum draws on
        ps = api.generate(
            family, count=n, seed=child_seed(self.seed, k, self.draws[family]), level=lv
        )
        self.draws[family] += 1
        renderer = get_kind(get_family(family).kind).trainer
        return api.render(ps, renderer)

    def update(self, item: Item, reward: float) -> None:
        """Record one reward for an item drawn at its family's current level (rewards of items
        from an earlier level are ignored: they say nothing about the new one)."""
        f, lv = item.family, item.metadata.get("level")
        if f not in self.levels:
            raise ConfigError("item", item.item_id, f"its family {f} is not in this curriculum")
        if lv != self.levels[f]:
            return
        win = self.recent[f]
        win.append(float(reward))
        if len(win) < self.window:
            return
        mean = sum(win) / len(win)
        step = (
            1 if mean > self.target + self.margin else -1 if mean < self.target - self.margin else 0
        )
        new = min(max(lv + step, LEVELS.start), LEVELS.stop - 1)
        if new != lv:
            self.log.append(
                {
                    "family": f,
                    "from": lv,
                    "to": new,
                    "mean": round(mean, 4),
                    "n": len(win),
                    "target": self.target,
                    "at": round(time.time(), 3),
                }  # fmt: skip
            )
            self.levels[f] = new
        self.recent[f] = []

    def state(self) -> dict[str, Any]:
        return {
            "families": self.families, "target": self.target, "window": self.window,
            "margin": self.margin, "seed": self.seed, "levels": self.levels,
            "recent": self.recent, "draws": self.draws, "log": self.log,
        }  # fmt: skip

    def save(self, path: str | Path) -> None:
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(json.dumps(self.state(), indent=1), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def load(cls, path: str | Path) -> Curriculum:
        s = json.loads(Path(path).read_text(encoding="utf-8"))
        c = cls(s["families"], s["target"], s["window"], s["margin"], 0, s["seed"])
        c.levels, c.recent, c.draws, c.log = s["levels"], s["recent"], s["draws"], s["log"]
        return c


def frontier(
    accuracy_of: Callable[[int, int, int], list[bool]],
    threshold: float = 0.5,
    batch: int = 8,
    max_per_level: int = 48,
    z: float = 1.959964,
) -> dict[str, Any]:
    """The crossing of ``threshold`` by bisection over levels 0..10.

    ``accuracy_of(level, n, offset)`` runs the model on ``n`` fresh items of that level (the
    ``offset``-th batch) and returns which were right. At each probe, batches are drawn until the
    Wilson interval of the accuracy excludes ``threshold`` or ``max_per_level`` items are used;
    above → search higher, below (or undecided) → lower. Returns ``frontier`` (the highest level
    judged at or above the threshold, −1 if none), ``bracket`` (that level and the next one
    probed above it), the probes with their accuracy, interval and whether it excluded the
    threshold, ``decided`` (every probe did: otherwise the answer rests on point estimates, as
    for a model whose accuracy sits at the threshold everywhere), and ``items`` used.

    Example:
        >>> def accuracy_of(level: int, n: int, offset: int) -> list[bool]:
        ...     return [level <= 5] * n  # a learner that solves every level up to 5
        >>> r = frontier(accuracy_of)
        >>> r["frontier"], r["bracket"], r["decided"]
        (5, [5, 6], True)
    """
    from .metrics.aggregate import wilson

    lo, hi = 0, 10  # search in [lo, hi]; invariant: levels < lo are above, > hi are below
    probes: list[dict[str, Any]] = []
    used = 0
    best = -1
    below = 11
    while lo <= hi:
        mid = (lo + hi) // 2
        right: list[bool] = []
        k = 0
        while len(right) < max_per_level:
            right += accuracy_of(mid, batch, k)
            k += 1
            a, b = wilson(sum(right), len(right), z)
            if a is not None and b is not None and (a > threshold or b < threshold):
                break
        used += len(right)
        acc = sum(right) / len(right)
        a, b = wilson(sum(right), len(right), z)
        decided = a is not None and b is not None and (a > threshold or b < threshold)
        probes.append(
            {
                "level": mid,
                "n": len(right),
                "accuracy": round(acc, 4),
                "ci": [a, b],
                "decided": decided,
            }  # fmt: skip
        )
        if acc >= threshold:
            best, lo = mid, mid + 1
        else:
            below, hi = min(below, mid), mid - 1
    return {
        "frontier": best,
        "bracket": [best, below],
        "decided": all(p["decided"] for p in probes),  # every probe's interval excluded it
        "probes": probes,
        "items": used,
    }
