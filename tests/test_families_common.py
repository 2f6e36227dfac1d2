"""One parametrised contract over every registered family and renderer."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import logicforge as lf
from logicforge.kinds import parse_answer, verify
from logicforge.metrics.reward import uncertified
from logicforge.models.baselines import OracleBaseline
from logicforge.runner.store import write_jsonl

from .helpers import render_any

SMALL = {
    "ksat/random": {"n_vars": 8, "alpha": 4.26},
    "2sat/implication-cycle": {"n_clauses": 10},
    "2sat/equivalence-core": {"n_clauses": 10},
    "2sat/backbone": {"n_clauses": 10},
    "2sat/mono-bridge": {"n_clauses": 10},
    "2sat/symmetry": {"base_family": "2sat/mono-bridge", "base_params": {"n_clauses": 6}},
    "coloring/planted": {"n_nodes": 8, "k": 3},
    "zebra": {"n_houses": 3, "n_attributes": 3},
    "ordering": {"n_objects": 4},
    "satbench": {"n_clauses": 10},
    "sudoku": {"size": 4},
    "futoshiki": {"size": 4},
    "binairo": {"size": 6},
    "lightsout": {"rows": 3, "cols": 3},
    "knights": {"n_people": 4},
    "xorsat": {"n_vars": 6},
    "minesweeper": {"rows": 4, "cols": 4, "n_mines": 3},
    "queens": {"size": 5},
    "latinsquare": {"size": 4},
    "kenken": {"size": 4},
    "nonogram": {"rows": 4, "cols": 4},
    "exactcover": {"n_elements": 8, "n_decoys": 4},
    "circuit": {"n_inputs": 3, "n_gates": 5},
    "toposort": {"n_tasks": 5, "n_extra": 2},
    "kakurasu": {"size": 4},
    "sumplete": {"size": 3},
    "uniquesat": {"n_vars": 6},
    "graphcolour": {"n_nodes": 6},
    "skyscrapers": {"size": 4},
    "thermometers": {"size": 4},
}
FAMILIES = lf.FAMILIES.names()
# a family not listed above (a new or a plug-in family) is tested at its declared `example`
SMALL |= {f: lf.FAMILIES.get(f).example for f in FAMILIES if f not in SMALL}  # type: ignore[attr-defined]
RENDERERS = [
    r for r in lf.RENDERERS.names() if getattr(lf.RENDERERS.get(r), "kind", "cnf") == "cnf"
]


def _kind(name: str, registry: object) -> str:
    return getattr(registry.get(name), "kind", "cnf")  # type: ignore[attr-defined]


FAMILY_RENDERERS = [
    (f, r)
    for f in FAMILIES
    for r in lf.RENDERERS.names()
    if _kind(r, lf.RENDERERS) == _kind(f, lf.FAMILIES)
]


def test_every_family_has_small_params() -> None:
    for f in FAMILIES:  # its example, or smaller parameters listed above
        assert lf.generate(f, SMALL[f], count=1, seed=0), f


@pytest.mark.parametrize("family", FAMILIES)
def test_same_seed_same_bytes(family: str, tmp_path) -> None:
    a = lf.generate(family, SMALL[family], count=5, seed=42)
    b = lf.generate(family, SMALL[family], count=5, seed=42)
    write_jsonl(tmp_path / "a.jsonl", a)
    write_jsonl(tmp_path / "b.jsonl", b)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    c = lf.generate(family, SMALL[family], count=5, seed=43)
    assert [p.problem for p in a] != [p.problem for p in c]


@pytest.mark.parametrize("family", FAMILIES)
def test_two_worker_processes_give_the_same_bytes(family: str, tmp_path) -> None:
    a = lf.generate(family, SMALL[family], count=70, seed=9, grid=None)
    b = lf.generate(family, SMALL[family], count=70, seed=9, workers=2)  # two shards of ≤ 64
    write_jsonl(tmp_path / "a.jsonl", a)
    write_jsonl(tmp_path / "b.jsonl", b)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


@pytest.mark.parametrize("family", FAMILIES)
def test_items_are_independent_streams(family: str) -> None:
    """Item i of a larger batch equals item i of a smaller one (spawned, not sequential)."""
    a = lf.generate(family, SMALL[family], count=3, seed=5)
    b = lf.generate(family, SMALL[family], count=6, seed=5)
    assert [p.problem for p in a] == [p.problem for p in b[:3]]


@pytest.mark.parametrize("family", FAMILIES)
def test_global_random_state_untouched(family: str, tmp_path) -> None:
    random.seed(1)
    np.random.seed(1)
    py, npy = random.getstate(), np.random.get_state()
    renderer = next(r for f, r in FAMILY_RENDERERS if f == family)
    items = render_any(lf.generate(family, SMALL[family], count=3, seed=0), renderer)
    lf.run(items, "random", tmp_path / "records.jsonl", progress=False)
    assert random.getstate() == py
    assert all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        for x, y in zip(np.random.get_state(), npy, strict=True)
    )


@pytest.mark.parametrize("family, renderer", FAMILY_RENDERERS)
def test_oracle_scores_perfectly_and_perturbed_fails(family: str, renderer: str) -> None:
    import asyncio

    problems = lf.generate(family, SMALL[family], count=8, seed=7)
    items = render_any(problems, renderer)
    oracle = OracleBaseline()
    for it in items:
        text = asyncio.run(oracle.generate(lf.Prompt.of(it), lf.Sampling(), 0)).text
        v = verify(it, parse_answer(text, it))
        assert v.correct and v.witness_valid in (True, None) and not v.parse_failure
        obj = json.loads(text.rsplit("\n", 1)[-1])  # the closing JSON line
        if it.gold.get("cell") or (it.kind == "deduction" and "answer" in obj):
            # multiple choice: any other letter must fail
            wrong = next(c for c in "ABCDEFGHIJ" if c != obj["answer"])
            assert not verify(it, parse_answer(json.dumps({"answer": wrong}), it)).correct
            continue
        if "solution" in obj and "House 1" not in obj["solution"]:  # a solution puzzle: change
            sol = obj["solution"]  # one cell to another value of the domain; unique, so it fails
            dom = it.problem.get("domain") or list(range(1, len(sol) + 1))
            if isinstance(sol, list):
                sol[0][0] = next(x for x in dom if x != str(sol[0][0]))
            else:
                first = next(iter(sol))
                sol[first] = next(x for x in dom if x != sol[first])
            assert not verify(it, parse_answer(json.dumps(obj), it)).correct
            continue
        if "solution" in obj:  # swap two houses' names: the grid must fail
            sol = obj["solution"]
            sol["House 1"]["Name"], sol["House 2"]["Name"] = (
                sol["House 2"]["Name"],
                sol["House 1"]["Name"],
            )
            assert not verify(it, parse_answer(json.dumps(obj), it)).correct
            continue
        if "colouring" in obj:  # make one edge monochromatic: the witness must fail
            u, v = it.problem["edges"][0]
            obj["colouring"][str(u)] = obj["colouring"][str(v)]
            assert verify(it, parse_answer(json.dumps(obj), it)).witness_valid is False
            continue
        if "satisfied" in obj:  # MaxSAT: a count one too high must fail
            obj["satisfied"] += 1
            assert not verify(it, parse_answer(json.dumps(obj), it)).correct
            continue
        if obj["answer"] in ("UNSAT", "NO"):
            bad = '{"answer": "SAT"}'
        else:  # flip every value: the witness must now fail (or the decision must)
            obj["assignment"] = {k: not v for k, v in obj["assignment"].items()}
            bad = json.dumps(obj)
            flipped = verify(it, parse_answer(bad, it))
            cnf = lf.CNF(it.problem["clauses"], it.problem["num_vars"])
            if cnf.evaluate({it.mapping[k]: v for k, v in obj["assignment"].items()}):
                continue  # the complement happens to satisfy too: nothing to perturb
            assert flipped.witness_valid is False
            bad = '{"answer": "UNSAT"}'
        assert not verify(it, parse_answer(bad, it)).correct


@pytest.mark.parametrize("renderer", RENDERERS)
def test_rendered_prompt_contains_every_clause_variable(renderer: str) -> None:
    p = lf.generate("2sat/mono-bridge", {"n_clauses": 8}, count=1, seed=0)[0]
    it = render_any([p], renderer)[0]
    prompt = it.messages[0].content
    for name in it.mapping:
        assert name in prompt
    assert it.gold["label"] == p.label and it.problem_id == p.problem_id


@pytest.mark.parametrize("family, renderer", FAMILY_RENDERERS)
def test_reward_is_one_for_the_oracle_and_less_for_a_perturbed_answer(
    family: str, renderer: str
) -> None:
    import asyncio

    items = render_any(lf.generate(family, SMALL[family], count=6, seed=11), renderer)
    oracle = OracleBaseline()
    for it in items:
        text = asyncio.run(oracle.generate(lf.Prompt.of(it), lf.Sampling(), 0)).text
        mode = "decision" if uncertified(it) else "certified"  # UNSAT asked without proof
        assert lf.reward(it, text, mode=mode) == 1.0
        obj = json.loads(text.rsplit("\n", 1)[-1])  # the closing JSON line
        if it.gold.get("cell") or (it.kind == "deduction" and "answer" in obj):
            obj["answer"] = next(c for c in "ABCDEFGHIJ" if c != obj["answer"])
        elif "solution" in obj and "House 1" not in obj["solution"]:  # a solution puzzle
            sol = obj["solution"]
            dom = it.problem.get("domain") or list(range(1, len(sol) + 1))
            if isinstance(sol, list):
                sol[0][0] = next(x for x in dom if x != str(sol[0][0]))
            else:
                first = next(iter(sol))
                sol[first] = next(x for x in dom if x != sol[first])
        elif "solution" in obj:
            sol = obj["solution"]
            sol["House 1"]["Name"], sol["House 2"]["Name"] = (
                sol["House 2"]["Name"],
                sol["House 1"]["Name"],
            )
        elif "satisfied" in obj:  # MaxSAT: a false count
            obj["satisfied"] += 1
        elif obj["answer"] in ("SAT", "YES"):
            obj = {"answer": obj["answer"]}  # the right decision without its witness
        else:
            obj["answer"] = {"UNSAT": "SAT", "NO": "YES"}[obj["answer"]]
        r = lf.reward(it, json.dumps(obj), mode=mode)
        assert 0.0 <= r < 1.0, (obj, r)
        assert lf.reward(it, None, mode=mode) == 0.0 and lf.reward(it, "", mode=mode) == 0.0
