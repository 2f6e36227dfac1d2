"""The command line's first-use edges: counts of 0, misspelt options, suite names and suite
keys, and one of logicforge's files given where another is expected — each a clear error that
says what to do, with the verb's own usage."""

from __future__ import annotations

from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main
from logicforge.runner.store import write_jsonl


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--family", "zebra", "--count", "0", "--out", "o"],
        ["suite", "twosat-table1", "--model", "oracle", "--count", "0", "--out", "o"],
    ],
)
def test_a_count_of_zero_is_refused(args: list[str], tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--count: must be an integer ≥ 1" in err and f"usage: logicforge {args[0]}" in err
    assert not (tmp_path / "o").exists()


def test_an_unknown_option_after_a_verb_gets_the_verbs_usage_and_a_suggestion(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(["run", "--items", "x", "--model", "oracle", "--records", "y", "--cuncurrency", "3"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: logicforge run ")
    assert "unrecognized arguments: --cuncurrency 3" in err and "did you mean --concurrency" in err
    with pytest.raises(SystemExit):
        main(["generate", "--family", "zebra", "--out", "o", "stray"])
    err = capsys.readouterr().err
    assert err.startswith("usage: logicforge generate ") and "logicforge generate --help" in err


def test_a_misspelt_suite_name_or_key_is_answered_with_the_closest(tmp_path, capsys) -> None:
    assert main(["suite", "twosat-tabel1", "--model", "oracle"]) == 2
    assert "did you mean 'twosat-table1'" in capsys.readouterr().err
    bad = tmp_path / "s.yaml"
    bad.write_text(
        "name: x\nproblems:\n  - family: ksat/random\n    parms: {n_vars: 5}\n"
        "renderers: [formula]\nmodels: [oracle]\n"
    )
    assert main(["suite", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "'problems.0.parms'" in err and "did you mean 'params'" in err
    bad.write_text("name: x\nproblems: [{family: zebra}]\nrenderers: [zebra]\nmodles: [oracle]\n")
    assert main(["suite", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "'modles'" in err and "did you mean 'models'" in err and "allowed here:" in err


def test_a_records_file_given_as_items_is_named_as_such(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # a run's default cache folder is made in the working directory
    ps = lf.generate("ksat/random", {"n_vars": 5}, count=2, seed=0)
    items = lf.render(ps)
    write_jsonl(tmp_path / "items.jsonl", items)
    write_jsonl(tmp_path / "problems.jsonl", ps)
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    args = ["run", "--items", str(tmp_path / "r.jsonl"), "--model", "oracle"]
    assert main([*args, "--records", str(tmp_path / "r2.jsonl"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "this is a records file" in err and "give it as --records" in err
    assert main(["report", "--records", str(tmp_path / "items.jsonl"), "--out",
                 str(tmp_path / "rep")]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "this is an items file" in err and "give it as --items" in err
    score = ["score", "--items", str(tmp_path / "items.jsonl"), "--out", str(tmp_path / "s")]
    assert main([*score, "--records", str(tmp_path / "problems.jsonl"), "--quiet"]) == 2
    assert "but a problem" in capsys.readouterr().err
