"""The trace judge reads free text; the solver decides. A scripted judge (test double) extracts
right, wrong and malformed assignments and gives core opinions; a real HTTP judge that never
answers in JSON is recorded as a judge error."""

from __future__ import annotations

import json

import logicforge as lf
from logicforge.llm.trace_judge import judge_traces
from logicforge.metrics.trace_judge import judged_summary

from .test_judge import Scripted


def _items():
    sat = lf.generate(
        "satbench", {"n_clauses": 8, "dims": [2, 2], "target_label": "SAT"}, count=1, seed=2
    )
    uns = lf.generate(
        "satbench", {"n_clauses": 8, "dims": [2, 2], "target_label": "UNSAT"}, count=1, seed=2
    )
    return sat[0], uns[0], lf.render(sat + uns, "formula-trace")


def _rec(item, text: str, model: str = "m"):
    return lf.score(
        [
            {
                "record_id": f"{item.item_id}|{model}",
                "item_id": item.item_id,
                "model": model,
                "sample": 0,
                "text": text,
            }
        ],
        [item],
    )[0]


def test_extraction_is_checked_by_the_solver_not_the_judge() -> None:
    sat, _, (it, _) = _items()
    model = {abs(x): x > 0 for x in sat.oracle["model"]}
    name = {v: k for k, v in it.mapping.items()}  # the item's own names (x(0, 0) …)
    good = {name[v]: b for v, b in model.items()}
    bad = {k: not b for k, b in good.items()}  # the judge "extracts" a wrong assignment
    free = "[SAT]\nI set every variable as described above, so everything works."
    r = _rec(it, free)
    assert r.verdict.correct and r.verdict.witness_valid is False  # nothing structured to check
    for extracted, valid in [(good, True), (bad, False)]:
        judge = Scripted([json.dumps({"assignment": extracted})])
        out = judge_traces([r], [it], judge)[0]
        assert out.verdict.details["assignment_source"] == "judge"
        assert (
            out.verdict.witness_valid is valid
            and out.verdict.details["judge_assignment_valid"] is valid
        )
        tj = out.extra["trace_judge"]
        assert (
            tj["judge"] == "scripted-judge" and "Reasoning:" in tj["prompt"] and tj["error"] is None
        )
    # a structured, complete answer needs no judge
    full = _rec(it, "[SAT]\n" + json.dumps({"answer": "SAT", "assignment": good}))
    assert judge_traces([full], [it], Scripted([]))[0] == full


def test_malformed_judge_output_is_retried_then_recorded() -> None:
    sat, _, (it, _) = _items()
    r = _rec(it, "[SAT] trust me")
    first = next(iter(it.mapping))
    judge = Scripted(["not json", json.dumps({"assignment": {first: "yes"}}), None])
    out = judge_traces([r], [it], judge)[0]
    tj = out.extra["trace_judge"]
    assert tj["attempts"] == 3 and tj["verdict"] is None and "judge error" in tj["error"]
    assert out.verdict == r.verdict  # no silent pass, no crash
    assert judged_summary([out.model_dump()])[0]["judge_errors"] == 1


def test_core_second_opinion_beside_the_deterministic_check() -> None:
    _, uns, (_, it) = _items()
    core = [i + 1 for i in uns.oracle["mus"]]
    cited = _rec(it, "[UNSAT]\n" + json.dumps({"answer": "UNSAT", "conflict": core}))
    bogus = _rec(it, "[UNSAT]\n" + json.dumps({"answer": "UNSAT", "conflict": [1]}), model="m2")
    judge = Scripted(
        [json.dumps({"valid": True, "explanation": "ok"}), json.dumps({"valid": True})]
    )
    a, b = judge_traces([cited, bogus], [it], judge, concurrency=1)
    assert a.verdict.details["judge_core_valid"] and a.verdict.details["cited_unsat"]
    assert a.verdict.details["mus"] == core
    assert "minimal contradictory set" in judge.seen[0][0]
    # the judge calls the bogus proof valid; the deterministic check still says invalid
    assert b.verdict.details["judge_core_valid"] and not b.verdict.details["cited_unsat"]
    assert b.verdict.witness_valid is False
    rows = {r["model"]: r for r in judged_summary([a.model_dump(), b.model_dump()])}
    assert rows["m"]["agreement"] == 1.0 and rows["m2"]["agreement"] == 0.0


def test_judge_cli_over_http_judge_that_never_answers_json(tmp_path) -> None:
    from .fakeserver import FakeServer

    sat, _, (it, _) = _items()
    (tmp_path / "items.jsonl").write_text(it.model_dump_json() + "\n")
    r = _rec(it, "[SAT] it works")
    (tmp_path / "r.jsonl").write_text(r.model_dump_json() + "\n")
    with FakeServer() as srv:  # replies {"answer": ...}: JSON, but not the judge's schema
        from logicforge.cli import main

        rc = main(
            [
                "judge",
                str(tmp_path / "r.jsonl"),
                "--items",
                str(tmp_path / "items.jsonl"),
                "--judge",
                f"openai-compatible:{srv.base_url}:judge",
                "--out",
                str(tmp_path / "j.jsonl"),
            ]
        )
        assert srv.requests == 3
    assert rc == 3  # every judgement failed: said on stderr, and not a success
    out = json.loads((tmp_path / "j.jsonl").read_text())
    assert "judge error" in out["extra"]["trace_judge"]["error"]
    assert out["verdict"] == json.loads(r.model_dump_json())["verdict"]


def test_judge_classifies_what_no_rule_could() -> None:
    sat, _, (it, _) = _items()
    wrong = _rec(it, "Everyone knows such puzzles never work out.\n[UNSAT]")
    assert not wrong.verdict.correct and wrong.verdict.error_type == "spurious contradiction"
    judge = Scripted(
        [
            '{"error_type": "vibes"}',
            json.dumps({"error_type": "spurious priors", "evidence": "Everyone knows"}),
        ]
    )
    out = judge_traces([wrong], [it], judge)[0]
    assert out.verdict.details["judge_error_type"] == "spurious priors"
    assert out.verdict.error_type == "spurious contradiction"  # the rule's class stays
    assert (
        out.extra["trace_judge"]["attempts"] == 2 and out.extra["trace_judge"]["task"] == "classify"
    )
    row = judged_summary([out.model_dump()])[0]
    assert row["classified"] == 1 and row["judge: spurious priors"] == 1
    # a rule-classified error (claimed SAT with a falsifying assignment) is not sent to the judge
    uns_it = _items()[2][1]
    bias = _rec(
        uns_it,
        "[SAT]\n"
        + json.dumps({"answer": "SAT", "assignment": dict.fromkeys(uns_it.mapping, True)}),
    )
    assert bias.verdict.error_type == "satisfiability bias"
    assert judge_traces([bias], [uns_it], Scripted([]))[0] == bias


def test_a_killed_judge_run_resumes_without_losing_or_redoing_a_record(tmp_path) -> None:
    """The judge writes each judged record as it is ready; after a kill (here: the file cut to
    one record and a torn half line) a rerun judges only the rest, and the file ends with one
    line per record, in input order."""
    from logicforge.cli import main

    from .fakeserver import FakeServer

    _, _, (it, _) = _items()
    (tmp_path / "items.jsonl").write_text(it.model_dump_json() + "\n")
    recs = [_rec(it, f"[SAT] it works ({k})", model=f"m{k}") for k in range(3)]
    (tmp_path / "r.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in recs))
    out = tmp_path / "j.jsonl"
    args = ["judge", str(tmp_path / "r.jsonl"), "--items", str(tmp_path / "items.jsonl"),
            "--out", str(out), "--json", "--allow-errors"]  # fmt: skip
    with FakeServer() as srv:
        spec = f"openai-compatible:{srv.base_url}:judge"
        assert main([*args, "--judge", spec]) == 0
        first = srv.requests
        lines = out.read_text().splitlines()
        assert [json.loads(x)["record_id"] for x in lines] == [r.record_id for r in recs]
        out.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])  # killed mid-write
        assert main([*args, "--judge", spec]) == 0
        assert srv.requests - first == 2 * first // 3  # only the two lost records again
    again = out.read_text().splitlines()
    assert [json.loads(x)["record_id"] for x in again] == [r.record_id for r in recs]
    assert again[0] == lines[0]


def test_satbench_reading_counts_unmentioned_variables_as_false_beside_the_strict_one() -> None:
    """SATBench's judge reads a variable the trace never settles as false; logicforge's own
    check calls it a gap. Both are kept, and Table 4 shows the judge-based trace beside the
    solver-checked one."""
    from logicforge.reports.satbench_tables import table4

    sat, uns, (it, it_u) = _items()
    model = {abs(x): x > 0 for x in sat.oracle["model"]}
    name = {v: k for k, v in it.mapping.items()}
    # the true values, minus the variables that are false in the model: unmentioned = false
    said = {name[v]: True for v, b in model.items() if b}
    assert len(said) < len(model)  # some variable is left unmentioned
    r = _rec(it, "[SAT]\nI set the true ones as above.")
    out = judge_traces([r], [it], Scripted([json.dumps({"assignment": said})]))[0]
    d = out.verdict.details
    assert d["judge_assignment_valid"] is False and d["satbench_trace_valid"] is True
    # a wrong value said outright is wrong under both readings
    wrong = {name[v]: not b for v, b in model.items()}
    out2 = judge_traces([r], [it], Scripted([json.dumps({"assignment": wrong})]))[0]
    assert out2.verdict.details["satbench_trace_valid"] is False
    rows = table4([json.loads(out.model_dump_json()) | {"meta": out.meta | {"bucket": "easy"}}])
    assert rows[0]["SAT Trace"] == 0.0 and rows[0]["SAT Trace (judge)"] == 100.0
    plain = _rec(it, "[SAT]\nI set the true ones as above.")
    rows = table4([json.loads(plain.model_dump_json()) | {"meta": plain.meta | {"bucket": "easy"}}])
    assert "SAT Trace (judge)" not in rows[0]  # no judge ran: no judge column
