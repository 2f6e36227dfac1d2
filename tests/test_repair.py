"""Multi-turn repair: the checker's facts per kind, the ``repair`` strategy's three arms on scripted
models (one that learns only from precise feedback, one that ignores it), the report's tables,
and the conversation a real HTTP endpoint receives."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.kinds import parse_answer, verify
from logicforge.kinds.feedback import HEAD, RETRY, facts, feedback
from tests.fakeserver import FakeServer


def _cnf(renderer: str = "formula") -> list[lf.Item]:
    ps = lf.generate("ksat/random", {"n_vars": 6}, count=6, seed=4, grid={"alpha": [2.0, 7.0]})
    return lf.render(ps, renderer)


def _mixed() -> list[lf.Item]:
    zebra = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=4, seed=0)
    deduction = lf.generate("ordering", {"n_objects": 4}, count=4, seed=0)
    return _cnf() + _cnf("formula-mus") + lf.render(zebra) + lf.render(deduction)


def _facts(it: lf.Item, text: str) -> list[str]:
    a = parse_answer(text, it)
    return facts(it, a, verify(it, a))


def test_cnf_facts_name_the_false_clauses_and_never_the_solution() -> None:
    unsat = next(it for it in _cnf() if it.gold["label"] == "UNSAT")
    names = list(unsat.mapping)
    text = json.dumps({"answer": "SAT", "assignment": dict.fromkeys(names, True)})
    got = _facts(unsat, text)
    assert got and all(" is false under your assignment" in f for f in got)
    first = got[0].split(" (")[0]  # "clause k"
    k = int(first.split()[-1])
    lits = unsat.problem["clauses"][k - 1]
    assert all(x < 0 for x in lits)  # false under all-true: every literal negative
    sat = next(it for it in _cnf() if it.gold["label"] == "SAT")
    assert _facts(sat, '{"answer": "UNSAT"}') == ["all the clauses can hold at once"]
    assert _facts(sat, '{"answer": "SAT", "assignment": {"x1": true}}') == [
        "x2, x3, x4, x5, x6 have no value"
    ]
    assert _facts(sat, "no idea")[0].startswith("your reply has no answer in the requested format")
    right = lf.kinds.answer_format(sat).oracle(sat)
    assert facts(sat, right, verify(sat, right)) == []


def test_certificate_facts_say_which_clauses_are_spare_or_consistent() -> None:
    it = next(i for i in _cnf("formula-mus") if i.gold["label"] == "UNSAT")
    m = len(it.problem["clauses"])
    every = _facts(it, json.dumps({"answer": "UNSAT", "mus": list(range(1, m + 1))}))
    assert every and all("is not needed" in f for f in every)
    two = _facts(it, json.dumps({"answer": "UNSAT", "mus": [1, 2]}))
    assert two[0].startswith("the clauses you cited can all hold together, e.g. ")
    assert _facts(it, json.dumps({"answer": "UNSAT", "mus": [m + 5]})) == [
        f"the formula has no clause {m + 5}"
    ]
    mx = next(i for i in _cnf("formula-maxsat") if i.gold["label"] == "UNSAT")
    names = list(mx.mapping)
    got = _facts(mx, json.dumps({"assignment": dict.fromkeys(names, False), "satisfied": 0}))
    assert got[0].startswith("your assignment satisfies ") and "not 0" in got[0]


def test_zebra_and_deduction_facts_quote_the_broken_clues() -> None:
    z = lf.render(lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=2, seed=0))[0]
    fmt = lf.kinds.answer_format(z)
    wrong = fmt.wrong(z)
    got = facts(z, wrong, verify(z, wrong))
    assert got and all(
        f.startswith("clue ") or " has no " in f or " is in house " in f for f in got
    )
    broken = [f for f in got if f.startswith("clue ")]
    for f in broken:  # the quoted sentence is the prompt's own
        assert f.split(": ", 1)[1] in z.messages[0].content
    d = lf.render(lf.generate("ordering", {"n_objects": 4}, count=3, seed=0))
    for it in d:
        wrong_letter = next(c for c in "ABCD" if c != it.gold["label"])
        a = lf.schema.Answer(label=wrong_letter)
        (fact,) = facts(it, a, verify(it, a))
        assert fact.startswith(f"if option {wrong_letter} were true")
        assert f"option {it.gold['label']}" not in fact  # never the right option
        said = fact.split("could not all hold: ", 1)[1]
        assert said and said in " ".join(it.problem["sentences"])


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(f))


def test_solver_feedback_beats_retries_only_for_a_model_that_listens(tmp_path: Path) -> None:
    items = _mixed()
    recs = tmp_path / "r.jsonl"
    arms = ["solver", "retry", "review"]
    for learner in ("learner", "learner;listens=no"):
        for arm in arms:
            lf.run(items, f"repair:2:{arm}:{learner}", recs)
    lf.report(recs, tmp_path / "rep")
    by = {
        (r["model"], int(r["budget"])): r for r in _rows(tmp_path / "rep" / "repair_vs_retry.csv")
    }
    listens, deaf = by[("learner:p=0.3", 2)], by[("learner:p=0.3;listens=no", 2)]
    first = [json.loads(x) for x in recs.read_text().splitlines()]
    n = len(items)
    right_first = sum(
        r["extra"]["repair_solved"][0] for r in first if r["model"] == "learner:p=0.3+repair2-retry"
    )
    assert 0 < right_first < n  # neither perfect nor constant
    assert float(listens["solver_accuracy"]) == 1.0  # every wrong answer here gets facts
    assert float(listens["retry_accuracy"]) == right_first / n
    assert float(listens["review_accuracy"]) == right_first / n
    assert int(listens["solver_only"]) == n - right_first and int(listens["retry_only"]) == 0
    assert float(listens["sign_test_p"]) < 0.001
    for arm in arms:
        assert float(deaf[f"{arm}_accuracy"]) == right_first / n
    assert float(deaf["solver_minus_retry"]) == 0.0 and deaf["sign_test_p"] == ""
    turns = _rows(tmp_path / "rep" / "repair_turns.csv")
    review = [r for r in turns if r["model"] == "learner:p=0.3" and r["arm"] == "review"]
    assert [float(r["mean_turns_used"]) for r in review] == [0.0, 1.0, 2.0]  # no early stop
    solver = [r for r in turns if r["model"] == "learner:p=0.3" and r["arm"] == "solver"]
    assert [float(r["accuracy"]) for r in solver] == [right_first / n, 1.0, 1.0]
    assert (tmp_path / "rep" / "repair_turns.png").exists()


def test_the_endpoint_receives_the_conversation_with_the_facts(tmp_path: Path) -> None:
    items = _cnf()
    with FakeServer() as srv:  # answers SAT or UNSAT by a hash of the prompt, never a witness
        for arm in ("solver", "retry"):
            lf.run(
                items,
                f"repair:1:{arm}:openai-compatible:{srv.base_url}:m;max_retries=0",
                tmp_path / f"{arm}.jsonl",
            )
        bodies = list(srv.bodies)
    follow = [b["messages"] for b in bodies if len(b["messages"]) > 1]
    assert follow, "a wrong first answer is followed by a second turn"
    for msgs in follow:
        assert msgs[-2]["role"] == "assistant" and msgs[-1]["role"] == "user"
        assert msgs[-1]["content"] == RETRY or msgs[-1]["content"].startswith(HEAD)
    assert any(m[-1]["content"].startswith(HEAD) for m in follow)
    recs = [json.loads(x) for x in (tmp_path / "solver.jsonl").read_text().splitlines()]
    assert all(r["extra"]["repair_mode"] == "solver" for r in recs)


def test_a_token_budget_stops_the_turns_and_bad_specs_fail_first() -> None:
    from logicforge.models.base import load_model

    for bad in ("repair:0:solver:oracle", "repair:2:hint:oracle", "repair:x:solver:oracle",
                "repair:2:solver:oracle;budget=0", "repair:2:oracle"):  # fmt: skip
        with pytest.raises(ConfigError):
            load_model(bad)
    it = next(i for i in _cnf() if i.gold["label"] == "UNSAT")
    a = parse_answer('{"answer": "SAT"}', it)
    assert feedback(it, a, verify(it, a)).startswith(HEAD)  # no assignment: that is the fact


def test_equal_token_cost_cuts_every_arm_at_the_cheapest_arms_spend() -> None:
    from logicforge.reports.repair import repair_vs_retry

    def rec(arm: str, item: str, solved: list[bool], tokens: list[int]) -> dict:
        ex = {
            "repair_mode": arm,
            "repair_turns": 2,
            "repair_solved": solved,
            "repair_tokens": tokens,
        }
        return {"model": f"m+repair2-{arm}", "item_id": item, "sample": 0, "extra": ex}

    recs = [
        rec("solver", "a", [False, True], [100, 200]),  # solved within 200 tokens
        rec("solver", "b", [False, False, True], [100, 200, 300]),  # only after 300
        rec("retry", "a", [False, False, False], [100, 150, 200]),
        rec("retry", "b", [True], [100]),
    ]
    (row,) = repair_vs_retry(recs)
    assert row["token_budget"] == (200 + 100) / 2  # the retry arm's mean final spend
    # at 150 tokens: solver a has turn 0 only (unsolved), b turn 0 (unsolved); retry a turn 1, b turn 0
    assert row["solver_at_budget"] == 0.0 and row["retry_at_budget"] == 0.5
    assert row["solver_accuracy"] == 1.0 and row["retry_accuracy"] == 0.5
    assert row["review_at_budget"] is None


def test_a_reply_cut_off_is_never_solved_and_the_solver_says_so() -> None:
    """The run scores a reply that hit the token limit as wrong; repair agrees, and its feedback
    tells the model it was cut off."""
    import asyncio

    from logicforge.models.base import Response
    from logicforge.strategies.repair import CUT, RepairModel

    it = next(i for i in _cnf() if i.gold["label"] == "UNSAT")
    seen: list[str] = []

    class Cut:
        name, cache_id = "cut", None

        async def generate(self, prompt, sampling, sample):  # type: ignore[no-untyped-def]
            seen.append(prompt.messages[-1].content)
            return Response(text='{"answer": "UNSAT"}', finish_reason="length", completion_tokens=5)

        async def aclose(self) -> None:
            return None

    r = asyncio.run(RepairModel(Cut(), 1, "solver").generate(lf.Prompt.of(it), lf.Sampling(), 0))
    assert r.extra["repair_solved"] == [False, False] and r.completion_tokens == 10
    assert seen[-1].startswith(HEAD) and CUT in seen[-1]
