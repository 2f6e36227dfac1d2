"""First contact on the CLI: list, show, export, completion, --json, nearest-name hints."""

from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.cli import main


def test_list_every_registry_with_descriptions(capsys) -> None:
    assert main(["list", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    got = {k: v for r in rows for k, v in r.items()}
    assert set(got) == {
        "families",
        "renderers",
        "models",
        "transforms",
        "metrics",
        "suites",
        "datasets",
    }
    for what, entries in got.items():
        assert entries, what
        for e in entries:
            assert e["description"].strip(), (what, e["name"])
    fams = {e["name"]: e for e in got["families"]}
    assert "n_houses=4" in fams["zebra"]["parameters"]
    assert {e["name"] for e in got["suites"]} >= {"zebra-grid", "twosat-table1"}


def test_unknown_names_suggest_the_nearest() -> None:
    with pytest.raises(lf.UnknownNameError, match="did you mean 'zebra'"):
        lf.generate("zebar", {}, count=1)
    with pytest.raises(lf.UnknownNameError, match="did you mean 'formula'"):
        lf.render(lf.generate("ksat/random", {"n_vars": 3, "alpha": 1.0}, count=1), "fromula")


def test_generate_json_show_and_exports(tmp_path, capsys) -> None:
    d = tmp_path / "data"
    args = ["generate", "--family", "zebra", "--set", "n_houses=3", "--set", "n_attributes=3"]
    assert main([*args, "--count", "4", "--renderer", "zebra", "--out", str(d), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary == {"problems": 4, "labels": {"SAT": 4}, "items": 4, "out": str(d)}
    item = json.loads((d / "items.jsonl").read_text().splitlines()[0])
    assert main(["show", item["item_id"], "--items", str(d / "items.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "## Clues:" in out and "the oracle's answer" in out and '"solution"' in out
    assert main(["show", "nope", "--items", str(d / "items.jsonl")]) == 2
    assert main(["export", "zebralogic", "--problems", str(d / "problems.jsonl"),
                 "--out", str(tmp_path / "z.jsonl")]) == 0  # fmt: skip
    assert len((tmp_path / "z.jsonl").read_text().splitlines()) == 4
    assert (
        main(["export", "hf", "--items", str(d / "items.jsonl"), "--out", str(tmp_path / "hf")])
        == 0
    )
    assert len(lf.export.load_hf(tmp_path / "hf")) == 4
    assert (
        main(["export", "sft", "--items", str(d / "items.jsonl"), "--out", str(tmp_path / "s")])
        == 2
    )
    assert "--records" in capsys.readouterr().err


def test_completion_script_names_every_verb(capsys) -> None:
    assert main(["completion", "bash"]) == 0
    s = capsys.readouterr().out
    for verb in ("generate", "run", "suite", "report", "export", "list", "show"):
        assert f"{verb})" in s
    assert "complete -F _logicforge logicforge" in s


def test_generate_renders_with_the_kinds_default_renderer(tmp_path, capsys) -> None:
    """The README's zebra command: no --renderer, so the zebra kind's own renderer; the summary
    counts the labels the family has."""
    d = tmp_path / "z"
    args = ["generate", "--family", "zebra", "--set", "n_houses=4", "--set", "n_attributes=3"]
    assert main([*args, "--count", "3", "--out", str(d), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "wrote 3 problems (3 SAT) and 3 items" in out and "UNSAT" not in out
    items = [json.loads(x) for x in (d / "items.jsonl").read_text().splitlines()]
    assert {i["rendering"] for i in items} == {"zebra"} and {i["kind"] for i in items} == {"zebra"}
    assert (
        main(["generate", "--family", "ordering", "--count", "2", "--out", str(tmp_path / "o")])
        == 0
    )
    items = [json.loads(x) for x in (tmp_path / "o" / "items.jsonl").read_text().splitlines()]
    assert {i["rendering"] for i in items} == {"deduction"}


def test_the_stage_packages_import_under_their_own_names() -> None:
    import importlib

    for m in (
        "logicforge.runner.store",
        "logicforge.renderers.formula",
        "logicforge.reports.build",
    ):
        assert importlib.import_module(m).__name__ == m
    assert callable(lf.run) and callable(lf.render) and callable(lf.report)
