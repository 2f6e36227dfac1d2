"""ZebraLogic and SATBench imports, and ``logicforge rescore``: the 16 public ZeroEval puzzles
import with exactly one solution each (three checked against solutions derived by hand), the
Llama-3.1-405B replies re-score per puzzle and per size group, and joins are honest (unknown
ids, changed prompts and ambiguous matches are left out and said)."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main
from logicforge.imports.zebralogic_text import PuzzleError, parse_clue

ZE = "zebra-grid_Meta-Llama-3.1-405B-Instruct@hyperbolic.json"

# derived by hand from the clue sentences (house → name, then the other attributes in order)
BY_HAND = {
    # Eric left of Arnold; the dog is not in house 1
    "lgp-test-2x2-33": [["1", "Eric", "cat"], ["2", "Arnold", "dog"]],
    # daffodils and red in house 1; very short not in 1; Eric not in 2
    "lgp-test-2x4-5": [
        ["1", "Eric", "daffodils", "red", "short"],
        ["2", "Arnold", "carnations", "yellow", "very short"],
    ],
    # Alice in 1; red, Eric, yellow in a row; Arnold is green — only red in 1 leaves green a house
    "lgp-test-4x2-18": [
        ["1", "Alice", "red"],
        ["2", "Eric", "white"],
        ["3", "Peter", "yellow"],
        ["4", "Arnold", "green"],
    ],
}


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def zeroeval(shared_data) -> Path:
    return shared_data / "zeroeval" / ZE


def test_the_16_public_puzzles_import_each_with_one_solution(zeroeval, tmp_path) -> None:
    assert main(["import", "zebralogic", str(zeroeval), "--out", str(tmp_path)]) == 0
    log = json.loads((tmp_path / "import_report.json").read_text())
    assert log["read"] == log["imported"] == 16 and not log["rejected"]
    rows = {r["id"]: r for r in json.loads(zeroeval.read_text())}
    problems = {p["params"]["id"]: p for p in _rows(tmp_path / "problems.jsonl")}
    assert set(problems) == set(rows)
    for rid, p in problems.items():
        assert p["oracle"]["unique"] and p["kind"] == "zebra"
        assert p["metadata"]["size"] == rows[rid]["size"]
        assert p["metadata"]["n_clues"] == rows[rid]["puzzle"].split("## Clues:")[1].count(". ")
        assert p["metadata"]["answer_keys_from"] == "prompt template"
    for rid, grid in BY_HAND.items():
        assert problems[rid]["problem"]["solution"]["rows"] == grid, rid
    # the item is the puzzle ZeroEval asked, in ZebraLogic's own words
    items = {it["problem_id"]: it for it in _rows(tmp_path / "items.jsonl")}
    it = items["zebralogic-lgp-test-2x2-33"]
    assert rows["lgp-test-2x2-33"]["puzzle"].strip() in it["messages"][0]["content"]


def test_rescoring_the_zeroeval_replies(zeroeval, tmp_path) -> None:
    out = tmp_path / "res"
    assert main(["rescore", "zeroeval", str(zeroeval), "--out", str(out), "--json"]) == 0
    recs = {
        r["item_id"].split(":")[0][len("zebralogic-") :]: r for r in _rows(out / "records.jsonl")
    }
    assert len(recs) == 16
    assert {r["model"] for r in recs.values()} == {
        "meta-llama/Meta-Llama-3.1-405B-Instruct@hyperbolic"
    }
    assert recs["lgp-test-2x2-33"]["verdict"]["correct"] is True
    assert recs["lgp-test-2x4-5"]["verdict"]["correct"] is True
    # the reply puts Arnold/green in house 2 and Eric, Peter one house right: only house 1 right
    v = recs["lgp-test-4x2-18"]["verdict"]
    assert not v["correct"] and v["details"] == {"cells_right": 2, "cells_total": 8}
    # "No solution provided due to complexity": no grid at all, a recorded parse failure
    a = recs["lgp-test-6x4-15"]["answer"]
    assert (
        a["parse_error"].startswith("no answer")
        and not recs["lgp-test-6x4-15"]["verdict"]["correct"]
    )
    assert sum(r["verdict"]["correct"] for r in recs.values()) == 4
    # report, by size group, numbers from the records
    assert (
        main(
            [
                "report",
                "--records",
                str(out / "records.jsonl"),
                "--items",
                str(out / "items.jsonl"),
                "--out",
                str(out / "rep"),
            ]
        )
        == 0
    )
    with (out / "rep" / "zebralogic_table1.csv").open() as f:
        row = next(csv.DictReader(f))
    groups: dict[str, list[bool]] = defaultdict(list)
    for r in recs.values():
        groups[r["meta"]["size_group"]].append(bool(r["verdict"]["correct"]))
    assert float(row["Overall"]) == pytest.approx(25.0)
    cols = {c for c in row if c.split()[0] in ("Small", "Medium", "Large", "X-Large")}
    for c in cols:
        g = groups[c.split()[0]]
        assert float(row[c]) == pytest.approx(100 * sum(g) / len(g), abs=0.05), c


def test_grid_mode_rows_with_solutions_and_broken_rows(zeroeval, tmp_path) -> None:
    src = json.loads(zeroeval.read_text())
    problems, _ = lf.import_problems("zebralogic", [zeroeval])
    proved = {p.params["id"]: p.problem["solution"] for p in problems}
    rows = []
    for x in src[:6]:
        rows.append(
            {"id": x["id"], "size": x["size"], "puzzle": x["puzzle"], "solution": proved[x["id"]]}
        )
    wrong = json.loads(json.dumps(rows[1]["solution"]))
    wrong["rows"][0][1], wrong["rows"][1][1] = wrong["rows"][1][1], wrong["rows"][0][1]
    rows[1]["solution"] = wrong  # the shipped solution swaps two names
    del rows[2]["solution"]  # the gated solutions missing: still certified by the solver
    rows.append({"id": "broken", "size": "2*2", "puzzle": src[4]["puzzle"] + "3. Bob is happy.\n"})
    rows.append({"id": "no-text", "size": "2*2"})
    path = tmp_path / "grid_mode.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "not json\n")
    got, log = lf.import_problems("zebralogic", [path])
    assert log.read == 9 and log.imported == 6 == len(got)
    reasons = {n.source.split("#")[1]: n.message for n in log.rejected}
    assert set(reasons) == {"broken", "no-text", "9"}
    assert "clue 3 ('Bob is happy.')" in reasons["broken"]
    assert [d["source"].split("#")[1] for d in log.disagreements] == [src[1]["id"]]
    assert "differs in 2 cells" in log.disagreements[0]["found"]
    keys = {p.params["id"]: p.metadata["answer_keys_from"] for p in got}
    assert keys[src[0]["id"]] == "solution header" and keys[src[2]["id"]] == "intro lines"
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    table = pa.Table.from_pylist([{"id": r["id"], "puzzle": r["puzzle"]} for r in rows[:3]])
    pq.write_table(table, tmp_path / "grid.parquet")
    got, log = lf.import_problems("zebralogic", [tmp_path / "grid.parquet"])
    assert log.imported == 3 and not log.rejected


def test_clue_sentences_in_zebralogic_templates() -> None:
    values = [["Alice", "Bob"], ["Alice", "Fred"], ["brit", "dane"]]
    intros = [
        "Each person has a unique name",
        "Each mother is accompanied by their child",
        "The people are of nationalities",
    ]
    c = parse_clue("The person's child is named Alice is the British person.", values, intros)
    assert (c.type, c.a, c.second) == ("SameHouse", (1, 0), (2, 0))
    c = parse_clue("Alice is somewhere to the right of the Dane.", values, intros)
    assert (c.type, c.a, c.second) == ("RightOf", (0, 0), (2, 1))
    c = parse_clue(
        "There are two houses between Bob and The person's child is named Fred.", values, intros
    )
    assert (c.type, c.a, c.second) == ("TwoBetween", (0, 1), (1, 1))
    c = parse_clue("The Danish person is not in the second house.", values, intros)
    assert (c.type, c.a, c.second) == ("NotAt", (2, 1), 1)
    with pytest.raises(PuzzleError, match="expected two people"):
        parse_clue("Bob is directly left of the tallest person.", values, intros)


def test_plain_jsonl_replies_joins_are_honest(zeroeval, tmp_path) -> None:
    assert main(["import", "zebralogic", str(zeroeval), "--out", str(tmp_path / "p")]) == 0
    items = {it["problem_id"]: it for it in _rows(tmp_path / "p" / "items.jsonl")}
    src = {r["id"]: r for r in json.loads(zeroeval.read_text())}
    ids = sorted(src)
    replies = [
        # the source says right where logicforge finds the grid wrong, and the reverse
        {"id": ids[-1], "model": "m", "response": src[ids[-1]]["output"][0], "correct": True},
        {
            "id": "lgp-test-2x2-33",
            "model": "m",
            "response": src["lgp-test-2x2-33"]["output"][0],
            "correct": False,
        },
        {
            "id": "lgp-test-2x4-5",
            "model": "m",
            "response": src["lgp-test-2x4-5"]["output"][0],
            "correct": True,
        },
        {"id": "no-such-puzzle", "model": "m", "response": "{}"},
        {"id": "lgp-test-4x2-18", "model": "m", "response": "x", "prompt": "a different prompt"},
        {
            "id": "lgp-test-4x2-18",
            "model": "m",
            "response": "x",
            "prompt": items["zebralogic-lgp-test-4x2-18"]["messages"][0]["content"] + "  \n",
        },
        {"model": "m", "response": "no id"},
    ]
    f = tmp_path / "replies.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in replies))
    out = tmp_path / "r"
    args = [
        "rescore",
        "jsonl",
        str(f),
        "--items",
        str(tmp_path / "p" / "items.jsonl"),
        "--out",
        str(out),
    ]
    assert main(args) == 0
    log = json.loads((out / "rescore_report.json").read_text())
    said = {n["source"].split("#")[1]: n["message"] for n in log["rejected"]}
    assert set(said) == {"4", "5", "7"}
    assert "no item or problem with id 'no-such-puzzle'" in said["4"]
    assert "stored prompt differs" in said["5"]
    recs = _rows(out / "records.jsonl")
    assert len(recs) == 4 and not (out / "items.jsonl").exists()
    assert main(["report", "--records", str(out / "records.jsonl"), "--out", str(out / "rep")]) == 0
    with (out / "rep" / "rescore_disagreements.csv").open() as f2:
        (row,) = list(csv.DictReader(f2))
    assert (
        row["records"],
        row["agree"],
        row["right_by_source_only"],
        row["right_by_logicforge_only"],
    ) == ("3", "1", "1", "1")


def test_dimacs_plus_reply_files(tmp_path) -> None:
    d = tmp_path / "replies"
    d.mkdir()
    (d / "a.txt").write_text("p cnf 2 2\n1 2 0\n-1 0\n=== REPLY ===\nSAT: x1 = false, x2 = true\n")
    (d / "b.txt").write_text("p cnf 1 2\n1 0\n-1 0\n=== REPLY ===\nI think it is SAT.\n")
    (d / "c.txt").write_text("p cnf 1 1\n1 0\nno marker here\n")
    (d / "d.txt").write_text("p cnf 1 2\n1 0\n-1 0\n### answer\nUNSAT\n")
    recs, items, problems, log = lf.rescore("dimacs-reply", [d], model="m")
    assert [p.label for p in problems] == ["SAT", "UNSAT"] and len(items) == 2
    assert [r.verdict.correct for r in recs] == [True, False]
    assert {n.source for n in log.rejected} == {"replies/c.txt", "replies/d.txt"}
    recs, *_ = lf.rescore("dimacs-reply", [d / "d.txt"], model="m", marker="### answer")
    assert recs[0].verdict.correct and recs[0].model == "m"


SATBENCH_ROWS = [
    {  # SAT, with the column some rows lack
        "dims": [2, 2],
        "num_vars": 4,
        "num_clauses": 3,
        "satisfiable": True,
        "readable": "(x(0, 0) ∨ x(0, 1)) ∧ (¬x(0, 0)) ∧ (x(1, 1))",
        "scenario": "Two friends plan two evenings.",
        "variable_mapping": "x(i, j) means friend i goes out on evening j.",
        "conditions": [
            "Friend 0 goes out on some evening.",
            "Friend 0 does not go out on evening 0.",
            "Friend 1 goes out on evening 1.",
        ],
        "question": "Can all these conditions be satisfied at the same time?",
        "clauses": [[1, 2], [-1], [4]],
        "sat_solver_equivalence_check": True,
    },
    {  # UNSAT, without it
        "dims": [2],
        "num_vars": 2,
        "num_clauses": 3,
        "satisfiable": False,
        "scenario": "A lamp and a fan.",
        "variable_mapping": "x(0): the lamp is on; x(1): the fan is on.",
        "conditions": ["The lamp is on.", "If the lamp is on, the fan is on.", "The fan is off."],
        "question": "Can all these conditions hold?",
        "clauses": [[1], [-1, 2], [-2]],
    },
    {  # mislabelled: SATBench says UNSAT, the clauses are satisfiable
        "dims": [1],
        "num_vars": 1,
        "satisfiable": False,
        "scenario": "One switch.",
        "conditions": ["The switch is on."],
        "question": "Possible?",
        "clauses": [[1]],
    },
    {  # conditions do not match the clauses
        "dims": [1],
        "num_vars": 1,
        "satisfiable": True,
        "conditions": [],
        "clauses": [[1]],
    },
]


def test_satbench_rows_import_and_score_by_the_trace_checks(tmp_path) -> None:
    f = tmp_path / "SATBench-problems.jsonl"
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in SATBENCH_ROWS))
    out = tmp_path / "imp"
    assert main(["import", "satbench", str(f), "--out", str(out)]) == 0
    log = json.loads((out / "import_report.json").read_text())
    assert (log["read"], log["imported"], len(log["rejected"])) == (4, 3, 1)
    assert "0 conditions for 1 clauses" in log["rejected"][0]["message"]
    assert [(d["declared"], d["found"]) for d in log["disagreements"]] == [("UNSAT", "SAT")]
    items = [lf.Item.model_validate(x) for x in _rows(out / "items.jsonl")]
    assert [it.rendering for it in items] == ["satbench-story"] * 3
    assert "Two friends plan two evenings." in items[0].messages[0].content
    assert "[UNSAT]" in items[0].messages[0].content and "x(0, 1)" in items[0].messages[0].content
    replies = [
        '[SAT]\n{"answer": "SAT", "assignment": {"x(0, 0)": false, "x(0, 1)": true, "x(1, 0)": false, "x(1, 1)": true}}',
        '[UNSAT]\n{"answer": "UNSAT", "conflict": [1, 2, 3]}',
        '[UNSAT]\n{"answer": "UNSAT", "conflict": [1]}',
    ]
    rows = [
        {"id": it.problem_id, "model": "m", "response": t}
        for it, t in zip(items, replies, strict=True)
    ]
    g = tmp_path / "replies.jsonl"
    g.write_text("".join(json.dumps(r) + "\n" for r in rows))
    recs, *_ = lf.rescore("jsonl", [g], items=items)
    assert [r.verdict.correct for r in recs] == [True, True, False]


def test_an_inspect_json_log_whose_scorer_disagrees(tmp_path) -> None:
    """A hand-written Inspect JSON log (the documented sample shape) with a naive scorer: its
    "C" on a wrong reply and "I" on a right one land in the disagreement table's counts."""
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 4.26}, count=3, seed=2))
    gold = [it.gold["label"] for it in items]
    texts = [f'{{"answer": "{g}"}}' for g in gold]  # right decisions, no witnesses asked
    texts[1] = '{"answer": "UNSAT"}' if gold[1] == "SAT" else '{"answer": "SAT"}'
    samples = [
        {
            "id": it.item_id,
            "epoch": 1,
            "input": [
                {"role": "user", "content": [{"type": "text", "text": it.messages[0].content}]}
            ],
            "output": {"completion": t, "choices": [{"stop_reason": "stop"}]},
            "scores": {"match": {"value": v}},
        }
        for it, t, v in zip(items, texts, ["I", "C", "C"], strict=True)
    ]
    samples.append({"id": "elsewhere", "epoch": 1, "input": "x", "output": {"completion": "SAT"}})
    f = tmp_path / "log.json"
    f.write_text(json.dumps({"eval": {"model": "openai/m"}, "samples": samples}))
    recs, _, _, log = lf.rescore("inspect", [f], items=items)
    assert len(recs) == 3 and [n.source.split("#")[1] for n in log.rejected] == ["elsewhere"]
    from logicforge.reports.compute import rescore_disagreements

    (row,) = rescore_disagreements([r.model_dump() for r in recs])
    assert {r.verdict.correct for r in recs[::2]} == {True} and not recs[1].verdict.correct
    assert (row["agree"], row["right_by_source_only"], row["right_by_logicforge_only"]) == (1, 1, 1)


LM_EVAL_TASK = """task: logicforge_items
dataset_path: json
dataset_kwargs:
  data_files:
    test: {docs}
test_split: test
output_type: generate_until
doc_to_text: "{{{{prompt}}}}"
doc_to_target: "{{{{label}}}}"
generation_kwargs:
  until: []
  max_gen_toks: 64
  do_sample: false
metric_list:
  - metric: exact_match
"""


def test_lm_eval_log_samples_rescore_to_a_logicforge_runs_verdicts(tmp_path) -> None:
    """lm-evaluation-harness run for real (local-chat-completions against a server on
    127.0.0.1, `--log_samples`): its samples re-score to the verdicts of a logicforge run on the
    same replies; its exact-match metric (the JSON reply never equals "SAT") is the source verdict
    the disagreement table counts."""
    pytest.importorskip("lm_eval")
    import os
    import subprocess
    import sys

    from .fakeserver import FakeServer

    items = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 4.26}, count=8, seed=4))
    docs = tmp_path / "docs.jsonl"
    docs.write_text(
        "".join(
            json.dumps(
                {"id": it.item_id, "prompt": it.messages[0].content, "label": it.gold["label"]}
            )
            + "\n"
            for it in items
        )
    )
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "lf.yaml").write_text(LM_EVAL_TASK.format(docs=docs))
    env = {
        **os.environ,
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),
        "OPENAI_API_KEY": "unused",
    }
    with FakeServer() as srv:
        p = subprocess.run(
            [
                sys.executable, "-m", "lm_eval", "run",
                "--model", "local-chat-completions",
                "--model_args", f"model=fake,base_url={srv.base_url}/chat/completions,tokenizer_backend=none",
                "--tasks", "logicforge_items", "--include_path", str(tmp_path / "tasks"),
                "--apply_chat_template", "--log_samples", "--output_path", str(tmp_path / "out"),
            ],
            capture_output=True, text=True, env=env, timeout=300,
        )  # fmt: skip
        assert p.returncode == 0, p.stderr[-2000:]
        lf.run(items, f"openai-compatible:{srv.base_url}:fake", tmp_path / "r.jsonl")
    samples = sorted((tmp_path / "out").rglob("samples_*.jsonl"))
    assert len(samples) == 1
    recs, _, _, log = lf.rescore("lm-eval", samples, items=items)
    assert not log.rejected and len(recs) == len(items)
    mine = {r["item_id"]: r["verdict"]["correct"] for r in _rows(tmp_path / "r.jsonl")}
    assert {r.item_id: r.verdict.correct for r in recs} == mine
    assert {r.model for r in recs} == {"fake"}
    from logicforge.reports.compute import rescore_disagreements

    (row,) = rescore_disagreements([r.model_dump() for r in recs])
    assert (
        row["right_by_source_only"] == 0
        and row["right_by_logicforge_only"] == sum(mine.values()) > 0
    )


def test_mc_mode_rows_take_their_answer_from_the_proved_grid(zeroeval, tmp_path) -> None:
    """Multiple-choice rows (``question``, ``choices``; the answer gated, so optional): the right
    choice is read off the proved solution — here checked against the hand-derived grids."""
    src = {r["id"]: r for r in json.loads(zeroeval.read_text())}
    p22, p42 = src["lgp-test-2x2-33"]["puzzle"], src["lgp-test-4x2-18"]["puzzle"]
    rows = [
        {
            "id": "mc-1",
            "puzzle": p22,
            "question": "What is the name of the person in House 2?",
            "choices": ["Eric", "Arnold"],
        },
        {"id": "mc-2", "puzzle": p22, "question": "Which house is Eric in?", "choices": ["1", "2"]},
        {
            "id": "mc-3",
            "puzzle": p42,
            "question": "What is the favorite color of the person in the third house?",
            "choices": ["green", "red", "white", "yellow"],
            "answer": "yellow",
        },
        {
            "id": "mc-4",
            "puzzle": p42,
            "question": "What color does Eric like?",
            "choices": ["green", "red", "white", "yellow"],
            "answer": "red",
        },
        {"id": "mc-5", "puzzle": p42, "question": "Is this puzzle hard?", "choices": ["yes", "no"]},
    ]
    f = tmp_path / "mc_mode.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "mc"
    assert main(["import", "zebralogic", str(f), "--out", str(out)]) == 0
    log = json.loads((out / "import_report.json").read_text())
    assert log["imported"] == 4 and [n["source"].split("#")[1] for n in log["rejected"]] == ["mc-5"]
    # mc-4's shipped answer is wrong: Eric is in house 2, white (BY_HAND)
    assert [(d["declared"], d["found"]) for d in log["disagreements"]] == [("red", "white")]
    items = {it["problem_id"]: lf.Item.model_validate(it) for it in _rows(out / "items.jsonl")}
    got = {pid.split("-", 1)[1]: it.gold["cell"]["value"] for pid, it in items.items()}
    assert got == {"mc-1": "Arnold", "mc-2": "1", "mc-3": "yellow", "mc-4": "white"}
    it = items["zebralogic-mc-3"]
    assert (
        it.rendering == "zebra-mc"
        and "the favorite color of the person in the third house?\nA) green"
        in it.messages[0].content
    )
    replies = [
        {"id": "mc-3", "model": "m", "response": "…so the answer is D"},
        {"id": "mc-1", "model": "m", "response": '{"answer": "A"}'},
    ]
    g = tmp_path / "r.jsonl"
    g.write_text("".join(json.dumps(r) + "\n" for r in replies))
    recs, *_ = lf.rescore("jsonl", [g], items=list(items.values()))
    assert [r.verdict.correct for r in recs] == [True, False]
