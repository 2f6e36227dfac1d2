"""Curriculum and frontier search against a scripted learner whose accuracy depends on the
level (a test double: right with probability p(level), keyed on the item so it is
reproducible): the curriculum holds the target within ±10 points after warm-up and resumes
exactly; the frontier finds the true crossing with a quarter of a full grid's items."""

from __future__ import annotations

import math

import numpy as np

import logicforge as lf
from logicforge.curriculum import Curriculum, frontier
from logicforge.kinds import answer_format
from logicforge.rng import stable_int


def p_right(level: int) -> float:
    return 1 / (1 + math.exp(1.6 * (level - 5.5)))  # 0.5 between levels 5 and 6


def learner(item: lf.Item) -> float:
    """The reward of the scripted learner's reply (the oracle's text or a wrong one)."""
    rng = np.random.default_rng(stable_int("learner", item.item_id))
    fmt = answer_format(item)
    right = rng.random() < p_right(item.metadata["level"])
    return lf.reward(item, fmt.to_text(fmt.oracle(item) if right else fmt.wrong(item), item))


def _run(c: Curriculum, steps: int) -> list[float]:
    got = []
    for _ in range(steps):
        for it in c.draw("zebra", 10):
            r = learner(it)
            c.update(it, r)
            got.append(r)
    return got


def test_the_curriculum_holds_the_target_after_warm_up(tmp_path) -> None:
    c = Curriculum(["zebra"], target=0.7, window=20, seed=3)
    rewards = _run(c, 60)
    assert c.log and c.log[0] == {**c.log[0], "from": 0, "to": 1}
    after = rewards[200:]
    assert abs(sum(after) / len(after) - 0.7) <= 0.10, sum(after) / len(after)
    assert 4 <= c.levels["zebra"] <= 6
    for change in c.log:
        assert change["n"] == 20 and abs(change["to"] - change["from"]) == 1
        assert (change["mean"] > 0.75) == (change["to"] > change["from"])


def test_a_saved_curriculum_resumes_exactly(tmp_path) -> None:
    whole = Curriculum(["zebra"], target=0.7, window=20, seed=3)
    _run(whole, 30)
    half = Curriculum(["zebra"], target=0.7, window=20, seed=3)
    _run(half, 14)
    half.save(tmp_path / "cur.json")
    resumed = Curriculum.load(tmp_path / "cur.json")
    _run(resumed, 16)
    strip = lambda log: [{k: v for k, v in e.items() if k != "at"} for e in log]  # noqa: E731
    assert resumed.levels == whole.levels and strip(resumed.log) == strip(whole.log)
    assert resumed.draws == whole.draws


def _accuracy_of(level: int, n: int, offset: int) -> list[bool]:
    items = lf.render(lf.generate("zebra", level=level, count=n, seed=100 + offset), "zebra")
    return [learner(it) == 1.0 for it in items]


def test_the_frontier_finds_the_crossing_with_a_quarter_of_the_items() -> None:
    grid = {lv: _accuracy_of(lv, 48, 0) for lv in range(11)}
    full = max(lv for lv, r in grid.items() if sum(r) / len(r) >= 0.5)
    res = frontier(_accuracy_of, threshold=0.5, batch=8, max_per_level=48)
    assert res["frontier"] == full == 5 and res["bracket"] == [5, 6] and res["decided"]
    assert res["items"] <= 0.25 * 11 * 48, res
    for pr in res["probes"]:
        lo, hi = pr["ci"]
        assert lo <= pr["accuracy"] <= hi
