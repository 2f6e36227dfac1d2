from __future__ import annotations

import json
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main


def test_cli_pipeline_end_to_end(tmp_path: Path, capsys) -> None:
    d = tmp_path / "run"
    assert (
        main(
            [
                "generate",
                "--family",
                "ksat/random",
                "--set",
                "n_vars=10",
                "--grid",
                "alpha=3.0,4.26,6.0",
                "--count",
                "4",
                "--seed",
                "1",
                "--renderer",
                "formula",
                "--renderer",
                "logic",
                "--out",
                str(d),
            ]
        )
        == 0
    )
    assert len((d / "problems.jsonl").read_text().splitlines()) == 12
    assert len((d / "items.jsonl").read_text().splitlines()) == 24
    assert (
        main(
            [
                "run",
                "--items",
                str(d / "items.jsonl"),
                "--model",
                "oracle",
                "--model",
                "always-sat",
                "--records",
                str(d / "records.jsonl"),
                "--no-cache",
                "--quiet",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "score",
                "--items",
                str(d / "items.jsonl"),
                "--records",
                str(d / "records.jsonl"),
                "--out",
                str(d / "scored.jsonl"),
            ]
        )
        == 0
    )
    a = [json.loads(x) for x in (d / "records.jsonl").read_text().splitlines()]
    b = [json.loads(x) for x in (d / "scored.jsonl").read_text().splitlines()]
    assert [r["verdict"] for r in a] == [r["verdict"] for r in b]
    assert (
        main(
            [
                "report",
                "--records",
                str(d / "records.jsonl"),
                "--problems",
                str(d / "problems.jsonl"),
                "--out",
                str(d / "rep"),
            ]
        )
        == 0
    )
    for f in [
        "report.html",
        "metrics_by_model.csv",
        "metrics_by_model.md",
        "metrics_by_model_rendering_alpha.csv",  # two renderings: never pooled
        "phase_transition.png",
    ]:
        assert (d / "rep" / f).exists(), f
    md = (d / "rep" / "metrics_by_model.md").read_text()
    assert "| oracle | 24 | 0 | 1.000 |" in md  # n, errors, accuracy


def test_cli_bad_config_fails_before_work(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # where the default response cache would be made
    rc = main(
        [
            "generate",
            "--family",
            "ksat/random",
            "--set",
            "n_vars=-3",
            "--set",
            "alpha=4",
            "--out",
            str(tmp_path / "x"),
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "'n_vars'" in err and "-3" in err
    assert not (tmp_path / "x").exists()
    rc = main(
        [
            "generate",
            "--family",
            "ksat/random",
            "--set",
            "alpha=4",
            "--renderer",
            "nosuch",
            "--out",
            str(tmp_path / "y"),
        ]
    )
    assert rc == 2 and "unknown renderer 'nosuch'" in capsys.readouterr().err
    rc = main(
        [
            "run",
            "--items",
            str(tmp_path / "none.jsonl"),
            "--model",
            "oracle",
            "--records",
            str(tmp_path / "r.jsonl"),
        ]
    )
    assert rc == 2 and "not found" in capsys.readouterr().err
    assert not (tmp_path / ".logicforge-cache").exists()  # nothing made before the error


def test_items_with_wrong_schema_name_the_line(tmp_path: Path) -> None:
    p = tmp_path / "items.jsonl"
    p.write_text('{"item_id": "a"}\n')
    with pytest.raises(lf.DataFileError, match="line 1"):
        from logicforge.api import load_items

        load_items(p)


def test_help_for_every_verb(capsys) -> None:
    for verb in ["generate", "render", "run", "score", "report", "demo", "list"]:
        with pytest.raises(SystemExit) as e:
            main([verb, "--help"])
        assert e.value.code == 0
        assert "usage: logicforge " + verb in capsys.readouterr().out


def test_report_escapes_model_text(tmp_path: Path, small_items) -> None:
    recs = [json.loads(r.model_dump_json()) for r in lf.score([], small_items)]
    assert recs == []
    evil = '<script>alert(1)</script><img src=x onerror="alert(2)"> {"answer": "UNSAT"}'
    it = small_items[0]
    from logicforge.models.base import Response
    from logicforge.runner.records import score_response

    rec = score_response(it, "evil<model>", 0, Response(text=evil)).model_dump(mode="json")
    html = lf.report([rec], tmp_path / "rep").read_text()
    assert "<script>alert(1)" not in html and "<img src=x" not in html and "evil<model>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_public_api_example() -> None:
    problems = lf.generate("ksat/random", {"n_vars": 8, "alpha": 4.26}, count=3, seed=0)
    items = lf.render(problems, "formula")
    assert len(items) == 3 and items[0].answer_schema is not None


def test_the_report_runs_the_analyses_that_apply_or_those_named(tmp_path) -> None:
    """Analyses declare when they apply; a suite or a caller may name the ones it wants."""
    import logicforge as lf
    from logicforge.reports.analysis import all_analyses, select

    ps = lf.generate("ksat/random", {"n_vars": 6}, count=3, seed=1, grid={"alpha": [2.0, 6.0]})
    items = lf.render(ps, "formula")
    lf.run(items, "random", tmp_path / "r.jsonl", samples=2)
    lf.report(tmp_path / "r.jsonl", tmp_path / "all", ps)
    every = {p.stem for p in (tmp_path / "all").glob("*.csv")}
    assert {"metrics_by_model", "metrics_by_model_alpha", "pass_at_k", "majority_vote"} <= every
    lf.report(tmp_path / "r.jsonl", tmp_path / "some", ps, analyses=["metrics"])
    some = {p.stem for p in (tmp_path / "some").glob("*.csv")}
    assert "metrics_by_model" in some and "pass_at_k" not in some and some < every
    every_analysis = all_analyses()
    assert len({a.name for a in every_analysis}) == len(every_analysis) > 20
    with pytest.raises(lf.ConfigError, match="known analyses"):
        select(["no-such-analysis"])


def test_no_report_table_mixes_renderings_unless_it_says_so(tmp_path) -> None:
    """Two renderings of the same problems: every metrics table is split by rendering except the
    one pooled table, whose caption says it pools; the pooled table is the mean of the two."""
    import csv

    import logicforge as lf

    ps = lf.generate("ksat/random", {"n_vars": 6}, count=4, seed=2, grid={"alpha": [2.0, 6.0]})
    items = lf.render(ps, "formula") + lf.render(ps, "logic")
    lf.run(items, "random", tmp_path / "r.jsonl")
    html = lf.report(tmp_path / "r.jsonl", tmp_path / "rep", ps).read_text()
    tables = sorted((tmp_path / "rep").glob("metrics_by_*.csv"))
    assert len(tables) >= 3
    for t in tables:
        cols = next(csv.reader(t.open()))
        assert t.stem == "metrics_by_model" or "rendering" in cols, t.name
    assert "metrics_by_model (all renderings pooled)" in html
    by = {
        r["rendering"]: r
        for r in csv.DictReader((tmp_path / "rep" / "metrics_by_model_rendering.csv").open())
    }
    pooled = next(csv.DictReader((tmp_path / "rep" / "metrics_by_model.csv").open()))
    assert float(pooled["accuracy"]) == pytest.approx(
        (float(by["formula"]["accuracy"]) + float(by["logic"]["accuracy"])) / 2
    )


def test_the_conventional_metrics_are_drawn_against_alpha(tmp_path) -> None:
    """The ADR paper's Fig. 2 c–j (accuracy, P/R/F1 for SAT and UNSAT, MCC vs α) as a figure,
    not only as tables."""
    ps = lf.generate("ksat/random", {"n_vars": 8}, count=6, seed=2, grid={"alpha": [3.0, 4.3, 6.0]})
    items = lf.render(ps)
    lf.run(items, "noisy:p=0.7", tmp_path / "r.jsonl")
    lf.run(items, "always-sat", tmp_path / "r.jsonl")
    page = lf.report(tmp_path / "r.jsonl", tmp_path / "rep", ps).read_text()
    assert (tmp_path / "rep" / "conventional_vs_alpha.png").stat().st_size > 10_000
    assert "Conventional metrics vs α: accuracy, precision sat" in page


def test_the_overview_lists_parameter_rows_in_numeric_order(tmp_path) -> None:
    """n_vars 5, 10, 25, 50 — not 10, 25, 5, 50 as strings."""
    import re

    import logicforge as lf

    ps = lf.generate("ksat/random", {"alpha": 2.0}, count=1, seed=0,
                     grid={"n_vars": [50, 10, 5, 25]})  # fmt: skip
    recs = tmp_path / "r.jsonl"
    lf.run(lf.render(ps), "oracle", recs)
    page = lf.report(recs, tmp_path / "rep", ps).read_text()
    order = [int(x) for x in re.findall(r"n_vars=(\d+)", page)]
    first = list(dict.fromkeys(order))
    assert first == [5, 10, 25, 50], first
