"""Trace evaluation without a judge: cited UNSAT cores checked by the solver, assignments checked
clause by clause, and the rule-decided error taxonomy."""

from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.kinds import parse_answer, verify
from logicforge.reports.compute import error_taxonomy


@pytest.fixture(scope="module")
def items() -> dict[str, lf.Item]:
    ps = lf.generate(
        "satbench", {"n_clauses": 12}, count=4, seed=8, grid={"target_label": ["SAT", "UNSAT"]}
    )
    its = lf.render(ps, "formula-trace")
    return {"SAT": next(i for i in its if i.gold["label"] == "SAT"),
            "UNSAT": next(i for i in its if i.gold["label"] == "UNSAT")}  # fmt: skip


def _v(item: lf.Item, text: str) -> lf.Verdict:
    return verify(item, parse_answer(text, item))


def test_cited_cores(items) -> None:
    it = items["UNSAT"]
    p_mus = [i + 1 for i in _problem_mus(it)]
    v = _v(it, "[UNSAT]\n" + json.dumps({"answer": "UNSAT", "conflict": p_mus}))
    assert v.correct and v.witness_valid and v.details["cited_minimal"] and v.error_type is None
    everything = list(range(1, len(it.problem["clauses"]) + 1))
    v = _v(it, json.dumps({"answer": "UNSAT", "conflict": everything}))
    assert v.witness_valid and v.details["cited_unsat"] and not v.details["cited_minimal"]
    v = _v(it, json.dumps({"answer": "UNSAT", "conflict": p_mus[:-1]}))
    assert v.correct and v.witness_valid is False and v.error_type == "invalid core"
    v = _v(it, json.dumps({"answer": "UNSAT", "conflict": [*p_mus, 999]}))
    assert v.error_type == "condition hallucination" and v.details["nonexistent"] == [999]
    v = _v(it, '{"answer": "UNSAT"}')  # no justification: decision only
    assert v.correct and v.witness_valid is None


def _problem_mus(it: lf.Item) -> list[int]:
    from logicforge.families.satbench import mus

    return mus([list(c) for c in it.problem["clauses"]], it.problem["num_vars"])


def test_taxonomy_of_wrong_answers(items) -> None:
    sat, unsat = items["SAT"], items["UNSAT"]
    names = list(unsat.mapping)
    assert (
        _v(unsat, json.dumps({"answer": "SAT", "assignment": {n: True for n in names}})).error_type
        == "satisfiability bias"
    )
    assert _v(sat, '{"answer": "UNSAT", "conflict": [1, 2]}').error_type == "spurious contradiction"
    n0 = next(iter(sat.mapping))  # SATBench's array names, e.g. x(0, 0)
    both = f"Answer: SAT. {n0} = true, {n0} = false"
    assert _v(sat, both).error_type == "context inconsistency"
    wrong = json.dumps({"answer": "SAT", "assignment": {n: False for n in sat.mapping}})
    v = _v(sat, wrong)
    if not v.witness_valid:
        assert v.error_type == "condition omission"


def test_oracle_traces_and_the_report_table(tmp_path) -> None:
    ps = lf.generate(
        "satbench", {"n_clauses": 10}, count=5, seed=2, grid={"target_label": ["SAT", "UNSAT"]}
    )
    items = lf.render(ps, "formula-trace")
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    lf.run(items, "always-sat", tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    t = {r["model"]: r for r in error_taxonomy(recs)}
    assert t["oracle"]["trace_accuracy"] == 1.0 and t["oracle"]["cores_minimal"] == 5
    assert t["always-sat"]["satisfiability bias"] == 5
