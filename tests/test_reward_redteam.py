"""The reward's red team, on every registered renderer (every kind and answer format) and on
items of both labels: attacks that must earn 0 — empty, hedged between labels in either order,
an echoed prompt, stuffing every option, a wrong answer claiming to be right, very long replies,
a witness that does not check out, partial / stuffed / copied grids — earn 0; the right answer
in unusual layouts earns 1."""

from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.metrics.redteam import attacks, legit, redteam
from logicforge.metrics.reward import reward, uncertified

from .fuzzing import _items
from .helpers import render_any

ITEMS = _items()


def _more() -> list[lf.Item]:
    """Items of the other label too (UNSAT formulas, contradictory zebra twins)."""
    unsat = lf.generate("ksat/random", {"n_vars": 6, "alpha": 6.0}, count=3, seed=2)
    out = lf.render(unsat)
    for r in ("formula-proof", "formula-mus", "formula-mcs", "formula-maxsat", "formula-search"):
        out += lf.render(unsat, r)  # the certificate formats' UNSAT side
    out += lf.render(lf.generate("2sat/backbone", {"n_clauses": 20}, count=3, seed=2), "logic")
    sb = lf.generate("satbench", {"n_clauses": 8}, count=2, seed=2)
    out += render_any(sb, "formula-trace") + render_any(sb, "formula-trace-last")  # label last too
    pairs, _ = lf.transforms.pair.make_pairs(
        lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=2, seed=2)
    )
    out += lf.render(pairs, "zebra-pairs")
    out += lf.render(lf.generate("ordering", {"n_objects": 5}, count=3, seed=2), "deduction")
    out += lf.render(lf.generate("coloring/planted", {"n_nodes": 8}, count=2, seed=2), "coloring")
    return out


MORE = _more()


MODES = ("certified", "decision")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(ITEMS))
def test_no_attack_earns_anything(name: str, mode: str) -> None:
    it = ITEMS[name]
    paid = [
        (a, reward(it, t, mode=mode)) for a, t in attacks(it, mode) if reward(it, t, mode=mode) > 0
    ]
    assert not paid, paid


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(ITEMS))
def test_legitimate_layouts_earn_the_full_reward(name: str, mode: str) -> None:
    it = ITEMS[name]
    short = [(a, reward(it, t, mode=mode)) for a, t in legit(it) if reward(it, t, mode=mode) < 1]
    assert not short, short


@pytest.mark.parametrize("mode", MODES)
def test_both_labels_and_the_table(mode: str) -> None:
    every = [*ITEMS.values(), *MORE]
    payable = [it for it in every if mode == "decision" or not uncertified(it)]
    labels = {it.gold.get("label") for it in payable}
    assert {"SAT", "UNSAT"} <= labels
    rows = redteam(payable, mode)
    assert {r["family"] for r in rows} >= {"ksat/random", "zebra", "ordering", "2sat/backbone"}
    for r in rows:
        assert r["attacks"] > 0 and r["false_positive_rate"] == 0.0, r
        assert r["false_negative_rate"] == 0.0, r


def test_certified_refuses_what_it_cannot_pay() -> None:
    """A prompt that asks no certificate of the gold label is refused, naming the renderer to
    use; the same item is paid by name in decision mode."""
    unsat = [it for it in MORE if it.rendering == "formula" and it.gold["label"] == "UNSAT"]
    assert unsat
    with pytest.raises(ConfigError, match="formula-proof"):
        reward(unsat[0], '{"answer": "UNSAT"}')
    assert reward(unsat[0], '{"answer": "UNSAT"}', mode="decision") == 1.0
    with pytest.raises(ConfigError, match="reward_mode"):
        reward(unsat[0], '{"answer": "UNSAT"}', mode="lenient")
    twins = [it for it in MORE if it.rendering == "zebra-pairs" and it.gold["label"] == "UNSAT"]
    assert twins and uncertified(twins[0])


def test_witness_and_grid_rules() -> None:
    it = lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1, seed=0))[0]
    assert it.gold["label"] == "SAT"
    assert reward(it, '{"answer": "SAT"}', mode="decision") == 0.5  # a bare right decision: half
    assert reward(it, '{"answer": "SAT"}') == 0.0  # certified: nothing without the witness
    from logicforge.kinds import parse_answer, verify

    for bits in range(8):  # every assignment: a valid witness earns 1, any other 0
        vals = {f"x{i + 1}": bool(bits >> i & 1) for i in range(3)}
        text = json.dumps({"answer": "SAT", "assignment": vals})
        ok = verify(it, parse_answer(text, it)).witness_valid
        assert reward(it, text) == (1.0 if ok else 0.0)
    z = lf.render(
        lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, seed=4), "zebra"
    )[0]
    sol = {
        f"House {r[0]}": dict(zip(z.problem["solution"]["header"][1:], r[1:], strict=True))
        for r in z.problem["solution"]["rows"]
    }
    names = [sol[h]["Name"] for h in sol]
    swapped = json.loads(json.dumps(sol))
    swapped["House 1"]["Name"], swapped["House 2"]["Name"] = names[1], names[0]
    text = json.dumps({"solution": swapped})
    cells = 3 * 3
    assert reward(z, text) == 0.0 and reward(z, text, partial=True) == pytest.approx(
        (cells - 2) / cells
    )
    partial = {"House 1": sol["House 1"]}
    assert reward(z, json.dumps({"solution": partial}), partial=True) == 0.0
    assert reward(z, json.dumps({"solution": sol})) == 1.0
