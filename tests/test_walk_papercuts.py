"""The papercuts of a walk through the CLI as an ML researcher and as an RL engineer; each test
failed before its fix."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main
from logicforge.runner.store import write_jsonl


def test_renderer_descriptions_tell_each_renderer_apart(capsys) -> None:
    """Every `X` / `X-formal` pair shared one description."""
    assert main(["list", "renderers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["renderers"]
    descs = [r["description"] for r in rows]
    assert len(set(descs)) == len(descs), [d for d in descs if descs.count(d) > 1][:3]
    by = {r["name"]: r["description"] for r in rows}
    assert "formal notation" in by["binairo-formal"] and "formal" not in by["binairo"]


def test_family_descriptions_show_no_markup_and_suites_json_is_whole(capsys) -> None:
    """`list families` showed raw ``double backticks``; `list suites --json` cut descriptions."""
    assert main(["list", "families"]) == 0
    assert "``" not in capsys.readouterr().out
    assert main(["list", "suites", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["suites"]
    assert not [r["name"] for r in rows if r["description"].endswith("…")]
    assert max(len(r["description"]) for r in rows) > 150


def test_a_folio_parse_error_names_the_character() -> None:
    """Import notes read `… at position 13:)` — the character was on a dropped line."""
    from logicforge.logic.fol import FOLParseError, parse_fol

    with pytest.raises(FOLParseError) as e:
        parse_fol("P(x) @ Q(x)")
    first = str(e.value).splitlines()[0]
    assert "'@'" in first and "position 5" in first


def test_a_progress_line_in_a_log_is_not_written_twice() -> None:
    """`narrate` printed its last progress line twice."""
    from logicforge.runner.progress import Progress

    buf = io.StringIO()
    bar = Progress(3, "narrate story", stream=buf)
    bar.update(3)  # the first line is drawn at once in a log
    bar.close()
    lines = buf.getvalue().splitlines()
    assert len(lines) == 1 and "3/3" in lines[0]
    bar = Progress(3, "narrate story", stream=(buf := io.StringIO()))
    bar.update(1)
    bar.update(2)  # within 5 s of the first: not drawn; close shows the final count once
    bar.close()
    assert [x.split(" (")[0] for x in buf.getvalue().splitlines()] == [
        "narrate story: 1/3",
        "narrate story: 3/3",
    ]
    assert time.monotonic() > 0


def test_records_given_as_items_are_refused_before_any_output(tmp_path, capsys) -> None:
    """`run` printed a progress line, then refused the file."""
    items = lf.render(lf.generate("ksat/random", {"n_vars": 4}, count=2, seed=0))
    write_jsonl(tmp_path / "items.jsonl", items)
    lf.run(items, "random", tmp_path / "r.jsonl")
    assert main(["run", "--items", str(tmp_path / "r.jsonl"), "--model", "random",
                 "--records", str(tmp_path / "r2.jsonl")]) == 2  # fmt: skip
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err.count("\n") == 1 and "records file" in cap.err
    assert not (tmp_path / "r2.jsonl").exists()


def test_every_concurrency_option_says_what_it_bounds() -> None:
    from logicforge.cli import build_parser

    root = build_parser()
    sub = next(a for a in root._actions if a.__class__.__name__ == "_SubParsersAction")
    seen = 0
    for name, parser in sub.choices.items():  # type: ignore[attr-defined]
        for act in parser._actions:
            if "--concurrency" in act.option_strings:
                seen += 1
                assert act.help, f"{name} --concurrency has no help"
    assert seen >= 5


def test_a_wrong_grid_is_no_right_decision() -> None:
    """The verifiers metrics read `decision 1.0` for a zebra grid with every cell wrong."""
    from logicforge.kinds import answer_format
    from logicforge.metrics.reward import reward_components

    for fam, params in (("zebra", {"n_houses": 3, "n_attributes": 3}), ("sudoku", {})):
        it = lf.render(lf.generate(fam, params, count=1, seed=0))[0]
        f = answer_format(it)
        wrong = reward_components(it, f.to_text(f.wrong(it), it))
        right = reward_components(it, f.to_text(f.oracle(it), it))
        assert (wrong["decision"], wrong["reward"]) == (0.0, 0.0), fam
        assert (right["decision"], right["reward"]) == (1.0, 1.0), fam
    it = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=1, seed=0))[0]
    gold = it.gold["label"]
    assert (
        reward_components(it, json.dumps({"answer": gold}))["decision"] == 1.0
    )  # labels as before


def test_show_gives_a_puzzles_solution_not_sat(tmp_path: Path, capsys) -> None:
    """`show` printed `gold: SAT` for a sudoku."""
    items = lf.render(lf.generate("sudoku", level=1, count=1, seed=0))
    write_jsonl(tmp_path / "items.jsonl", items)
    assert main(["show", "--items", str(tmp_path / "items.jsonl"), items[0].item_id]) == 0
    out = capsys.readouterr().out
    assert 'gold: {"label": "SAT"}' not in out and "solution" in out.splitlines()[2]
