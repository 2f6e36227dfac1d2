"""The certified reward, the default of every training path: on every registered family's
training renderer, no constant answer earns anything and the random baseline stays at or below
its stated chance; a right decision without its certificate earns 0 and with it 1; the
ordering puzzles' arrangement renderer proves its arrangement unique and reads real layouts.
(``benchmarks/bench_rewards.py`` prints the same at levels 0, 5 and 10.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

import logicforge as lf
from logicforge.kinds import answer_format, chance_of, constant_answers, get_kind
from logicforge.metrics.reward import reward, uncertified

FAMILIES = sorted(lf.FAMILIES.names())


def _items(family: str, count: int = 20) -> list[lf.Item]:
    return lf.render(lf.generate(family, count=count, seed=21, level=0), training=True)


@pytest.mark.parametrize("family", FAMILIES)
def test_no_constant_answer_earns_on_the_training_renderer(family: str) -> None:
    """Level 0, the easiest: each constant's mean reward ≤ 0.05 (an all-true assignment may
    satisfy a rare small formula: that is a right certificate, so the bound is on the mean)."""
    items = _items(family)
    assert all(it.rendering == get_kind(it.kind).trainer for it in items)
    assert not [uncertified(it) for it in items if uncertified(it)]
    paid: dict[str, list[float]] = {}
    for it in items:
        fmt = answer_format(it)
        assert reward(it, fmt.to_text(fmt.oracle(it), it)) == 1.0
        consts = constant_answers(it)
        assert consts, it.item_id
        for n, a in consts:
            paid.setdefault(n, []).append(reward(it, fmt.to_text(a, it)))
    means = {n: sum(v) / len(v) for n, v in paid.items()}
    assert max(means.values()) <= 0.05, means


@pytest.mark.parametrize("family", FAMILIES)
def test_random_baseline_at_or_below_its_chance(family: str) -> None:
    items = _items(family, count=8)
    got = []
    for i, it in enumerate(items):
        fmt = answer_format(it)
        a = fmt.random(it, np.random.default_rng(i))
        got.append(reward(it, fmt.to_text(a, it)))
        assert 0.0 < chance_of(it) <= 1.0
    p = sum(map(chance_of, items)) / len(items)
    assert sum(got) / len(got) <= p + 2 * (p * (1 - p) / len(items)) ** 0.5


def test_a_decision_pays_only_with_its_certificate() -> None:
    ps = lf.generate("ksat/random", {"n_vars": 6, "alpha": 6.0}, count=4, seed=2)
    ps += lf.generate("ksat/random", {"n_vars": 6, "alpha": 1.5}, count=4, seed=2)
    items = lf.render(ps, training=True)
    assert {it.gold["label"] for it in items} == {"SAT", "UNSAT"}
    for it in items:
        fmt = answer_format(it)
        bare = json.dumps({"answer": it.gold["label"]})
        assert reward(it, bare) == 0.0  # the right decision, no witness / refutation
        assert reward(it, bare, mode="decision") > 0.0  # decision-only, by name
        assert reward(it, fmt.to_text(fmt.oracle(it), it)) == 1.0


def test_citing_every_condition_is_not_a_core() -> None:
    """``formula-trace``: an UNSAT answer citing all the conditions is a true but trivial core;
    the certified reward pays only a minimal one, and partial credit only for the conditions a
    core leaves out (citing every condition earned 0.5 on any UNSAT item with partial credit)."""
    ps = lf.generate("ksat/random", {"n_vars": 8, "alpha": 7.0}, count=3, seed=5)
    for it in lf.render(ps, "formula-trace"):
        assert it.gold["label"] == "UNSAT"
        fmt = answer_format(it)
        every = list(range(1, len(it.problem["clauses"]) + 1))
        text = fmt.to_text(lf.Answer(label="UNSAT", certificate={"conflict": every}), it)
        assert reward(it, text) == 0.0 and reward(it, text, partial=True) == 0.0
        assert reward(it, text, mode="decision") == 1.0
        core = fmt.oracle(it).certificate["conflict"]
        m = len(every)
        padded = sorted([*core, next(i for i in every if i not in core)])
        text = fmt.to_text(lf.Answer(label="UNSAT", certificate={"conflict": padded}), it)
        assert reward(it, text) == 0.0  # a core with one condition too many: not minimal
        assert reward(it, text, partial=True) == 0.5 * (m - len(padded)) / m > 0
        assert reward(it, fmt.to_text(fmt.oracle(it), it)) == 1.0


def test_arrangement_renderer_reads_layouts_and_refuses_open_puzzles() -> None:
    ps = lf.generate("ordering", {"n_objects": 5}, count=3, seed=3)
    for p, it in zip(ps, lf.render(ps, "deduction-order"), strict=True):
        order = p.problem["arrangement"]
        pos = {o: i for i, o in enumerate(order, start=1)}
        lines = "\n".join(f"- **{o}**: {pos[o]}" for o in p.problem["objects"])
        table = "| object | position |\n|---|---|\n" + "\n".join(
            f"| {o} | {pos[o]} |" for o in p.problem["objects"]
        )
        for text in (
            json.dumps({"order": order}),
            json.dumps({"solution": pos}),
            f"Reasoning first, both {order[0]} and {order[-1]} considered.\n{lines}",
            table,
        ):
            assert reward(it, text) == 1.0, text
        swapped = dict(pos)
        swapped[order[0]], swapped[order[1]] = pos[order[1]], pos[order[0]]
        assert reward(it, json.dumps({"solution": swapped})) == 0.0
        assert reward(it, json.dumps({"solution": swapped}), partial=True) == pytest.approx(0.6)
        assert reward(it, json.dumps({"solution": dict.fromkeys(pos, 1)}), partial=True) == 0.0
        assert reward(it, "\\boxed{A}") == 0.0
    open_ = lf.generate("ordering", {"n_objects": 5, "determine": "question"}, count=6, seed=3)
    refused = 0
    for p in open_:
        try:
            lf.render([p], "deduction-order")
        except lf.ConfigError as e:
            assert "arrangements" in str(e) and "determine" in str(e)
            refused += 1
    assert refused > 0
