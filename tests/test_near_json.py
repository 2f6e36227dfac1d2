"""Near-JSON answers — a Python dict, a ``"Solution"`` key, the grid without its key — scored 0
on every puzzle family, which moved model comparisons more than the models did. They are read
where unambiguous; strict mode (by name) reads JSON only; a conflict is still ambiguous."""

from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.kinds import answer_format, parse_answer, verify
from logicforge.parse.jsonish import json_objects, strict_json

PUZZLES = ["sudoku", "binairo", "knights", "queens", "lightsout", "kenken", "nonogram"]


def _oracle(fam: str) -> tuple[lf.Item, dict]:
    it = lf.render(lf.generate(fam, level=1, count=1, seed=0))[0]
    f = answer_format(it)
    return it, json.loads(f.to_text(f.oracle(it), it).split("\n", 1)[1])


@pytest.mark.parametrize("fam", [*PUZZLES, "zebra"])
def test_near_json_right_answers_are_read_and_strict_mode_refuses_them(fam: str) -> None:
    it, obj = _oracle(fam)
    sol = obj["solution"]
    shapes = {
        "python dict": repr(obj),
        "Solution key": json.dumps({"Solution": sol}),
        "no key": json.dumps(sol),
        "prose then python dict": f"Here is my answer:\n{obj!r}\nDone.",
    }
    for name, text in shapes.items():
        assert verify(it, parse_answer(text, it)).correct, (fam, name)
        assert not verify(it, parse_answer(text, it, strict=True)).correct, (fam, name)
    with strict_json():  # the mode by name, for a whole run or scorer
        assert not verify(it, parse_answer(repr(obj), it)).correct
    assert verify(it, parse_answer(json.dumps(obj), it, strict=True)).correct  # JSON as asked


def test_near_json_wrong_answers_stay_wrong_and_conflicts_stay_ambiguous() -> None:
    it, obj = _oracle("sudoku")
    f = answer_format(it)
    wrong = json.loads(f.to_text(f.wrong(it), it).split("\n", 1)[1])
    assert not verify(it, parse_answer(repr(wrong), it)).correct
    for text in (
        "{'answer': 'SAT', 'answer': 'UNSAT'}",  # a Python dict giving one key twice
        '{"Answer": "SAT", "answer": "UNSAT"}',  # two spellings of one key
    ):
        cnf = lf.render(lf.generate("ksat/random", {"n_vars": 4}, count=1, seed=0))[0]
        a = parse_answer(text, cnf)
        assert a.label is None and "ambiguous" in (a.parse_error or ""), text
    cnf = lf.render(lf.generate("ksat/random", {"n_vars": 4}, count=1, seed=0))[0]
    gold = cnf.gold["label"]
    assert parse_answer(f"{{'answer': '{gold}'}}", cnf).label == gold


def test_python_literals_are_read_as_data_never_run() -> None:
    assert json_objects("{'a': __import__('os').getcwd()}") == []
    assert json_objects("{'a': (1, 2), 'b': None, 'c': True}") == [
        {"a": [1, 2], "b": None, "c": True}
    ]
    assert json_objects("{'a': {1, 2}}") == []  # a set is no JSON
    assert json_objects("{1: 'x'}") == []  # nor a number as a key
    deep = "{'a': " * 30_000 + "1" + "}" * 30_000  # past the lenient budget: read as nothing
    assert json_objects(deep) == []


def test_strict_json_on_the_cli_scores_near_json_as_unreadable(tmp_path, capsys) -> None:
    from logicforge.cli import main
    from logicforge.runner.store import write_jsonl

    it, obj = _oracle("sudoku")
    write_jsonl(tmp_path / "items.jsonl", [it])
    rec = {"record_id": "r1", "item_id": it.item_id, "model": "m", "sample": 0,
           "text": repr(obj), "error": None}  # fmt: skip
    (tmp_path / "r.jsonl").write_text(json.dumps(rec) + "\n")
    base = [
        "score",
        "--items",
        str(tmp_path / "items.jsonl"),
        "--records",
        str(tmp_path / "r.jsonl"),
    ]
    assert main([*base, "--out", str(tmp_path / "lenient.jsonl"), "--quiet"]) == 0
    assert main([*base, "--out", str(tmp_path / "strict.jsonl"), "--quiet", "--strict-json"]) == 0
    lenient = json.loads((tmp_path / "lenient.jsonl").read_text())
    strict = json.loads((tmp_path / "strict.jsonl").read_text())
    assert lenient["verdict"]["correct"] is True and strict["verdict"]["correct"] is False
    import os

    assert "LOGICFORGE_STRICT_JSON" not in os.environ  # the flag ends with its command
