from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main
from logicforge.suites import list_suites, load_suite, run_suite


def test_every_shipped_suite_loads() -> None:
    names = list_suites()
    assert {
        "twosat-table1",
        "twosat-sweeps",
        "twosat-fillers",
        "twosat-order",
        "twosat-repetition",
    } <= set(names)
    for n in names:
        assert load_suite(n).name == n


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_table1_on_baselines(tmp_path: Path) -> None:
    suite = load_suite("twosat-table1")
    suite = suite.with_blocks(count=2)
    run_suite(suite, tmp_path, progress=False)
    recs = _rows(tmp_path / "records.jsonl")
    assert len(recs) == 4 * 6 * 2 * (7 + 4 + 4 + 7)  # models × schemes × formulas × cells
    for r in recs:
        m, meta, v = r["model"], r["meta"], r["verdict"]
        if m == "oracle":
            assert v["correct"] and v["witness_valid"] in (True, None)
        if m == "always-sat" and meta["family"] == "2sat/implication-cycle":
            assert not v["correct"] and r["answer"]["label"] == "SAT"
    agg = {(a["model"], a["label"]): a for a in lf.metrics.aggregate(recs, ("model", "label"))}
    assert agg[("always-sat", "UNSAT")]["sat_rate_on_unsat"] == 1.0
    assert agg[("oracle", "SAT")]["witness_valid_on_sat"] == 1.0
    table = (tmp_path / "report" / "table1.md").read_text()
    assert (
        "| 2sat/implication-cycle | 20 | 2 | 0.0 | — |" in table
    )  # always-sat: 0 Sat., no witness column


def test_variant_and_sweep_reports(tmp_path: Path) -> None:
    for name in ["twosat-order", "twosat-sweeps"]:
        suite = load_suite(name)
        suite = suite.model_copy(
            update={
                "problems": [b.model_copy(update={"count": 3}) for b in suite.problems[:1]],
                "renderers": ["logic", "team"],
                "models": ["oracle", "random"],
            }
        )
        run_suite(suite, tmp_path / name, progress=False)
    vt = (tmp_path / "twosat-order" / "report" / "variant_tests.csv").read_text()
    assert "shuffled,construction" in vt
    sw = (tmp_path / "twosat-sweeps" / "report" / "sweep_tests.csv").read_text().splitlines()
    assert (
        sw[0].startswith("model,family,knob,levels,formulas") and len(sw) == 1 + 2 * 3
    )  # 2 models × 3 knobs
    # each level's realised value is the mean of the problems' measured knob at that level
    rows = list(csv.DictReader(sw))
    items = (tmp_path / "twosat-sweeps" / "items.jsonl").read_text().splitlines()
    probs = list({(p := json.loads(line))["problem_id"]: p for line in items}.values())
    for row in rows:
        for col in (c for c in row if c.startswith("realised@")):
            lv = float(col.split("@")[1])
            vals = [
                p["metadata"][f"{row['knob']}_actual"]
                for p in probs
                if p["metadata"].get("sweep_knob") == row["knob"]
                and abs(p["metadata"]["sweep_level"] - lv) < 0.005
                and p["metadata"][f"{row['knob']}_actual"] is not None
            ]
            if not vals:  # a level this knob does not sweep (L/n = 0 does not exist)
                assert row[col] == "" and (row["knob"], lv) == ("core_share", 0.0)
                continue
            assert float(row[col]) == pytest.approx(sum(vals) / len(vals), abs=1e-4)
    assert (tmp_path / "twosat-sweeps" / "report" / "sweep_2sat_implication-cycle.png").exists()


def test_suite_resumes(tmp_path: Path) -> None:
    suite = load_suite("twosat-order", models=["random"], renderers=["logic"])
    suite = suite.with_blocks(count=2)
    run_suite(suite, tmp_path, progress=False)
    first = (tmp_path / "records.jsonl").read_bytes()
    run_suite(suite, tmp_path, progress=False)
    assert (tmp_path / "records.jsonl").read_bytes() == first


@pytest.mark.parametrize(
    "yaml_text, field",
    [
        ("name: x\nproblems: [{family: 2sat/backbone}]\ncolour: red\n", "colour"),
        ("name: x\nproblems: [{family: 2sat/backbone, count: many}]\n", "problems.0.count"),
        ("name: x\nproblems: [{family: nosuch}]\n", None),
        (
            "name: x\nproblems: [{family: 2sat/backbone}]\nsampling: {temperature: 9}\n",
            "temperature",
        ),
        ("- just\n- a list\n", "suite"),
        ("name: x\nproblems: [{family: 2sat/backbone}]\nmodels: [nosuch]\n", None),
    ],
)
def test_bad_suites_fail_before_work(tmp_path: Path, yaml_text: str, field: str | None) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(yaml_text)
    with pytest.raises(lf.LogicforgeError) as e:
        load_suite(p)
    if field:
        assert repr(field) in str(e.value) or field in str(e.value)


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text("name: !!python/object/apply:os.system ['echo pwned']\nproblems: []\n")
    with pytest.raises(lf.ConfigError, match="not valid YAML"):
        load_suite(p)


def test_cli_suite_list_and_run(tmp_path: Path, capsys) -> None:
    assert main(["suite"]) == 0
    assert "twosat-table1" in capsys.readouterr().out
    assert (
        main(
            [
                "suite",
                "twosat-fillers",
                "--out",
                str(tmp_path),
                "--count",
                "1",
                "--model",
                "always-unsat",
                "--renderer",
                "door",
                "--quiet",
            ]
        )
        == 0
    )
    assert (tmp_path / "report" / "variant_tests.md").exists()


@pytest.mark.embedded
def test_embedded_model_on_a_small_suite(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
    suite = load_suite(
        "twosat-table1",
        models=["embedded"],
        renderers=["logic"],
        sampling={"max_tokens": 96, "structured": True},
    )
    run_suite(suite.with_blocks(count=1, grid={"n_clauses": [5]}), tmp_path, progress=False)
    recs = _rows(tmp_path / "records.jsonl")
    assert len(recs) == 4 and all(r["error"] is None and r["verdict"] is not None for r in recs)


def test_adr_pair_suites(tmp_path: Path) -> None:
    for name in ("adr-pairs-3sat", "adr-pairs-2sat"):
        count = 5 if name == "adr-pairs-2sat" else 3  # at 5, one 2-SAT source has no twin
        suite = load_suite(name)
        suite = suite.with_blocks(count=count)
        run_suite(suite, tmp_path / name, progress=False)
        rep = tmp_path / name / "report"
        assert (rep / "adr_vs_n.png").exists()
        rows = (rep / "adr_by_model.csv").read_text().splitlines()
        assert any(r.startswith("always-sat,") and ",0.0," in r for r in rows)
        notes = json.loads((tmp_path / name / "pairing.json").read_text())
        ns = suite.problems[0].grid["n_vars"]
        assert [n["point"] for n in notes] == [{"n_vars": n} for n in ns]
        for n in notes:  # a source with no twin is replaced: every N has its pairs
            assert n["pairs"] == count, n
            assert n["pairs"] + n["skipped"] == count + n["replacements"], n
        problems = _rows(tmp_path / name / "problems.jsonl")
        assert len(problems) == 2 * count * len(ns)
        if name == "adr-pairs-2sat":  # 2-SAT sources often have no single-edit twin
            assert sum(n["replacements"] for n in notes) > 0
            assert any(p["metadata"].get("replacement") for p in problems)


def test_pair_replacement_can_be_turned_off(tmp_path: Path) -> None:
    suite = load_suite("adr-pairs-2sat").with_blocks(count=4, grid={"n_vars": [50]})
    block = suite.problems[0].model_copy(update={"replace_skipped": False})
    run_suite(suite.model_copy(update={"problems": [block]}), tmp_path, progress=False)
    (note,) = json.loads((tmp_path / "pairing.json").read_text())
    assert note["replacements"] == 0 and note["pairs"] + note["skipped"] == 4


def test_cross_representation_suites(tmp_path: Path) -> None:
    for name, kind in (("adr-vc", "vc"), ("adr-packing", "packing")):
        suite = load_suite(name)
        run_suite(
            suite.with_blocks(count=2, grid={"n_vars": [5, 8]}), tmp_path / name, progress=False
        )
        rep = tmp_path / name / "report"
        ag = (rep / "agreement.csv").read_text().splitlines()
        assert any(r.startswith(f"oracle,cnf,{kind},8,1.0,0") for r in ag), ag
        adr = (rep / "adr_by_model_variant.csv").read_text()
        assert f"oracle,{kind},4,1.0" in adr and "oracle,cnf,4,1.0" in adr


def test_coloring_suite(tmp_path: Path) -> None:
    suite = load_suite("adr-coloring")
    run_suite(suite.with_blocks(count=2, grid={"n_nodes": [8, 10]}), tmp_path, progress=False)
    ag = (tmp_path / "report" / "agreement.csv").read_text()
    assert "oracle,coloring,cnf,8,1.0,0" in ag


@pytest.mark.embedded
def test_embedded_model_on_paired_and_reduced_suites(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
    suite = load_suite(
        "adr-vc", models=["embedded"], sampling={"max_tokens": 64, "structured": True}
    )
    run_suite(suite.with_blocks(count=1, grid={"n_vars": [5]}), tmp_path, progress=False)
    recs = _rows(tmp_path / "records.jsonl")
    assert len(recs) == 4 and all(r["error"] is None and r["verdict"] is not None for r in recs)
    assert (tmp_path / "report" / "adr_by_model_variant.csv").exists()


def test_samples_in_suites(tmp_path: Path) -> None:
    suite = load_suite("zebra-bon", models=["random"])
    run_suite(
        suite.with_blocks(count=2, grid={"n_houses": [3], "n_attributes": [3]}).model_copy(
            update={"samples": 3}
        ),
        tmp_path,
        progress=False,
    )
    recs = _rows(tmp_path / "records.jsonl")
    assert sorted({r["sample"] for r in recs}) == [0, 1, 2] and len(recs) == 6
    assert (
        (tmp_path / "report" / "pass_at_k.csv")
        .read_text()
        .startswith("model,items,samples,pass@1,pass@2")
    )


def test_agreement_compares_the_answers_labels() -> None:
    """Two representations of the same formula answered differently must not agree."""
    from logicforge.reports.studies import representation_agreement

    def rec(variant: str, label: str, correct: bool) -> dict:
        meta = {"variant": variant, "source_problem_id": "p1"}
        return {"model": "m", "sample": 0, "meta": meta, "answer": {"label": label},
                "verdict": {"correct": correct}}  # fmt: skip

    row = representation_agreement([rec("cnf", "SAT", True), rec("vc", "UNSAT", False)])[0]
    assert row["formulas"] == 1 and row["agreement"] == 0.0
    same = representation_agreement([rec("cnf", "SAT", True), rec("vc", "SAT", True)])[0]
    assert same["agreement"] == 1.0


def test_agreement_matches_members_within_a_rendering() -> None:
    """Two variants × two renderings: the variants agree under each rendering even though the
    renderings disagree with each other; pooling them used to let one overwrite the other."""
    from logicforge.reports.studies import representation_agreement

    def rec(variant: str, rendering: str, label: str) -> dict:
        meta = {"variant": variant, "source_problem_id": "p1", "rendering": rendering}
        return {"model": "m", "sample": 0, "meta": meta, "answer": {"label": label},
                "verdict": {"correct": label == "SAT"}}  # fmt: skip

    recs = [
        rec(v, r, "SAT" if r == "logic" else "UNSAT")
        for v in ("base", "shuffled")
        for r in ("logic", "team")
    ]
    row = representation_agreement(recs)[0]
    assert row["formulas"] == 2 and row["agreement"] == 1.0


def test_every_shipped_suite_states_the_papers_scale_and_the_report_says_it(tmp_path) -> None:
    """The overview puts the run's own counts beside the paper's scale."""
    from logicforge.suites import list_suites, run_suite

    for name in list_suites():
        assert load_suite(name).paper_scale, f"{name} does not state the paper's scale"
    suite = load_suite("twosat-order", models=["noisy:p=0.7"], renderers=["logic"])
    small = suite.with_blocks(count=1)
    html = run_suite(small, tmp_path, progress=False).read_text()
    assert "the paper: 10 formulas per generator × 6 templates (§5.3)" in html
    assert "Scale: this run has 8 problems and 8 records" in html  # 4 formulas × 2 orders


def test_a_reused_out_holding_other_models_or_another_run_is_refused(tmp_path) -> None:
    """`suite` refuses, before it rewrites anything, a folder whose records another model or
    another configuration made (the report would mix them in); a resume and a larger --count of
    the same suite and models go on."""
    from logicforge.cli import main

    out = tmp_path / "t1"
    base = ["suite", "twosat-table1", "--out", str(out), "--quiet"]
    assert main([*base, "--model", "always-sat", "--count", "1"]) == 0
    items = (out / "items.jsonl").read_bytes()
    records = (out / "records.jsonl").read_bytes()
    report = (out / "report" / "report.html").read_bytes()
    man = (out / "manifest.json").read_bytes()
    # another model: refused, nothing rewritten
    assert main([*base, "--model", "oracle", "--model", "random", "--count", "1"]) == 2
    # another rendering set (records this run would not make): refused
    assert main([*base, "--model", "always-sat", "--count", "1", "--renderer", "logic"]) == 2
    other = ["suite", "twosat-fillers", "--out", str(out), "--quiet", "--model", "always-sat"]
    assert main([*other, "--count", "1"]) == 2
    assert (out / "items.jsonl").read_bytes() == items
    assert (out / "records.jsonl").read_bytes() == records
    assert (out / "report" / "report.html").read_bytes() == report
    assert (out / "manifest.json").read_bytes() == man  # a refusal leaves no trace
    # the same run resumes; naming the other model too, or a larger count, goes on
    assert main([*base, "--model", "always-sat", "--count", "1"]) == 0
    assert (out / "records.jsonl").read_bytes() == records
    assert main([*base, "--model", "always-sat", "--model", "random", "--count", "2"]) == 0
    models = {json.loads(x)["model"] for x in (out / "records.jsonl").read_text().splitlines()}
    assert models == {"always-sat", "random"}
    runs = json.loads((out / "manifest.json").read_text())["invocations"]
    assert [r["status"] for r in runs] == ["finished"] * 3  # the first, the resume, the larger


def test_a_suite_whose_every_story_was_discarded_exits_non_zero(tmp_path, capsys) -> None:
    """satbench-formula-vs-story with a writer whose stories never validate: the report is
    still written (nothing is lost), but the command says the comparison has no stories and
    exits 3 instead of 0."""
    from logicforge.cli import main

    out = tmp_path / "fs"
    args = ["suite", "satbench-formula-vs-story", "--writer", "random", "--model", "oracle"]
    assert main([*args, "--count", "1", "--out", str(out), "--quiet"]) == 3
    err = capsys.readouterr().err
    assert "all 16 stories for renderer 'story' failed validation" in err
    assert "story stories" not in err
    assert (out / "report" / "report.html").is_file()
    d = json.loads((out / "story-discards-story.json").read_text())
    assert d["kept"] == 0 and d["discarded"] == 16


def test_suite_problems_are_the_same_from_worker_processes() -> None:
    from logicforge.suites.suite import expand_problems

    suite = load_suite("zebra-grid").with_blocks(count=2)
    suite = suite.model_copy(
        update={
            "problems": [b.model_copy(update={"params": {"z3_runs": 2}}) for b in suite.problems]
        }
    )
    one = [p.model_dump_json() for p in expand_problems(suite)]
    two = [p.model_dump_json() for p in expand_problems(suite, workers=2)]
    assert one == two and len(one) == 50
    assert all("z3_conflicts" in p for p in one)
