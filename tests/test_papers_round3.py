"""The five papers, round three: outputs that printed wrong numbers or words, each checked on
the command that showed it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_reproduce_names_the_zebralogic_reward_model() -> None:
    """The doc said the paper's reward model "is not named beyond 'a reward model'"; §5 names
    Skywork-Reward-Llama-3.1-8B-v0.2."""
    doc = (ROOT / "docs" / "reproduce.md").read_text(encoding="utf-8")
    assert "Skywork-Reward-Llama-3.1-8B-v0.2" in doc and "not named" not in doc


def test_filler_arms_have_the_stated_core_and_the_table_counts_every_filler() -> None:
    """`filler_regimes.md` printed `(75, 0) | core 75 | fillers 0` for implication cycles whose
    generator had put 36 fillers beside a 39-clause core."""
    import logicforge as lf
    from logicforge.reports.twosat_fillers import _fillers
    from logicforge.suites.suite import load_suite

    suite = load_suite("twosat-fillers")
    cycles = [b for b in suite.problems if b.family == "2sat/implication-cycle"]
    assert cycles and all(b.params["filler_ratio"] == 0.0 for b in cycles)
    for b in cycles:
        (p,) = lf.generate(b.family, b.params, count=1, seed=0)
        assert p.metadata["core_size"] == b.params["n_clauses"] and p.metadata["filler_count"] == 0
    meta = {"filler_count": 36, "transforms": [{"name": "filler", "fillers": 25}]}
    assert _fillers(meta) == 61  # the generator's own and the transform's


def test_a_one_formula_comparison_shows_its_observed_difference() -> None:
    """`variant_tests.md` read `33.3 | 100.0 | diff 0.000` for a group of one formula."""
    from logicforge.reports.twosat_studies import _compare

    row = _compare("m", "f", "shuffled", "construction", {"p1": 1 / 3}, {"p1": 1.0})
    assert abs(row["diff"] - (1 / 3 - 1.0)) < 1e-9 and row["p"] is None  # no test on one
    row = _compare("m", "f", "shuffled", "construction", {"p1": 0.5}, {"p1": 0.5})
    assert row["diff"] == 0.0


def test_the_llm_verbalisers_prompt_keeps_its_verb() -> None:
    """Every story item read "Each of the butler, …, the professor either guilty or innocent"."""
    from logicforge.llm.verbaliser import either

    assert either("is guilty", "is innocent") == "is either guilty or innocent"
    assert either("is a double agent", "is loyal") == "is either a double agent or loyal"


def test_story_puzzles_that_fail_validation_are_discarded_by_default() -> None:
    """`suite satbench --renderer story --writer W` fell back to templates for 718 of 718
    conditions and exited 0; SATBench discards such puzzles, as satbench-formula-vs-story did."""
    from logicforge.suites.suite import load_suite

    assert load_suite("satbench", writer="random").story.on_failure == "discard"
    assert load_suite("satbench-formula-vs-story").story.on_failure == "discard"
    assert load_suite("twosat-llm-verbaliser").story.on_failure == "template"  # §4, by name


def test_satbench_with_a_writer_measures_story_puzzles_beside_the_formulas() -> None:
    """SATBench's Tables 3-5 are measured on story puzzles: given a writer, the suite adds the
    story rendering (formulas stay arms); without one, or with --renderer, nothing is added."""
    from logicforge.suites.suite import load_suite

    assert load_suite("satbench").renderers == ["formula", "formula-trace-last"]
    with_w = load_suite("satbench", writer="random")
    assert with_w.renderers == ["formula", "formula-trace-last", "story-last"]
    assert with_w.story is not None and with_w.story.writer == "random"
    assert load_suite("satbench", writer="random", renderers=["story"]).renderers == ["story"]
    assert (
        load_suite("twosat-table1", writer="random").renderers
        == load_suite("twosat-table1").renderers
    )


def _adr_folder(tmp: Path) -> Path:
    """Files laid out like the ADR authors' published replies: the DIMACS formula, a varying
    `c … solve time …` line, the raw reply — some of them stored API failures."""
    d = tmp / "adr"
    d.mkdir()

    def sat(k: int) -> str:  # a distinct satisfiable formula per pair
        return f"p cnf {k} 2\n1 2 0\n-1 {k} 0\n"

    def unsat(k: int) -> str:
        return f"p cnf {k} 3\n1 0\n-1 {k} 0\n-{k} 0\n"

    files = {
        "cnf_k3_N10_L35_alpha3.5_inst1040.txt": (sat(3), "114.52", "x1 = T, x3 = T.\n**SATISFIABLE**"),
        "cnf_k3_N10_L35_alpha3.5_inst1040_RC2_fixed.cnf": (unsat(3), "3.07", "x1, x3 clash: UNSAT"),
        "cnf_k3_N10_L35_alpha3.5_inst1041.txt": (sat(4), "60.00", "[Error] Request timed out."),
        "cnf_k3_N10_L35_alpha3.5_inst1041_RC2_fixed.cnf": (
            unsat(4), "9.9", "<html><head><title>502 Bad Gateway</title></head></html>"),
        "cnf_k3_N10_L35_alpha3.5_inst1042.txt": (
            sat(5), "0.1", "[Error] module 'openai' has no attribute 'error'"),
        "cnf_k3_N10_L35_alpha3.5_inst1042_RC2_fixed.cnf": (
            unsat(5), "88.2", "Branch 1: x1 = T. Clause 2 fails, this branch is unsatisfiable. "
            "Backtrack.\nBranch 2: x1 = F. Clause"),
    }  # fmt: skip
    for name, (cnf, secs, reply) in files.items():
        (d / name).write_text(f"{cnf}c GPT solve time: {secs} seconds\n{reply}\n")
    return d


def test_published_replies_rescore_with_no_glue(tmp_path, capsys) -> None:
    """A varying marker line, stored API failures and cut-off replies: before, the marker had
    to be one fixed line (the error then pointed at --items / --import), failures were scored as
    wrong answers and the cut-off reply read as UNSAT."""
    import json

    from logicforge.cli import main

    d = _adr_folder(tmp_path)
    assert main(["rescore", "dimacs-reply", str(d), "--out", str(tmp_path / "a"),
                 "--model", "gpt"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "--marker-pattern" in err and "--items" not in err
    argv = ["rescore", "dimacs-reply", str(d), "--out", str(tmp_path / "b"), "--model", "gpt",
            "--marker-pattern", r"c .* solve time: [\d.]+ seconds"]  # fmt: skip
    main(argv)
    recs = [json.loads(x) for x in (tmp_path / "b" / "records.jsonl").read_text().splitlines()]
    assert len(recs) == 6
    errors = [r for r in recs if r["error"]]
    assert len(errors) == 3 and all("stored API failure" in r["error"] for r in errors)
    scored = [r for r in recs if not r["error"]]
    by_right = sorted(bool(r["verdict"]["correct"]) for r in scored)
    assert by_right == [False, True, True]  # the cut-off reply: no decision, not UNSAT
    cut = next(r for r in scored if not r["verdict"]["correct"])
    assert cut["verdict"]["parse_failure"]
    # pair ids from the file names: an ADR table with the paper's columns, no code written
    argv = [*argv[:3], "--out", str(tmp_path / "c"), *argv[5:],
            "--pair-pattern", r"cnf_k\d+_N\d+_L\d+_alpha[\d.]+_inst\d+"]  # fmt: skip
    main(argv)
    assert main(["report", "--records", str(tmp_path / "c" / "records.jsonl"),
                 "--out", str(tmp_path / "c" / "report")]) == 0  # fmt: skip
    table = (tmp_path / "c" / "report" / "adr_by_model.md").read_text()
    for col in ("adr", "accuracy", "precision_sat", "recall_sat", "f1_sat", "mcc",
                "witness_valid_on_sat_claims", "incomplete"):  # fmt: skip
        assert f"| {col} |" in table or f"| {col}" in table, col
    row = table.splitlines()[2].split("|")
    head = table.splitlines()[0].split("|")
    got = dict(zip([h.strip() for h in head], [c.strip() for c in row], strict=True))
    assert got["pairs"] == "1" and got["incomplete"] == "2"  # two pairs lost a member to outages


def test_adr_tables_carry_the_papers_metrics(tmp_path) -> None:
    """The ADR paper's table reads accuracy, precision, recall, F1, MCC and the valid
    witnesses among SAT claims beside ADR; the ADR table held ADR alone."""
    import csv

    import logicforge as lf
    from logicforge.suites.suite import load_suite, run_suite

    s = load_suite("adr-pairs-3sat", models=["oracle", "noisy:p=0.7"]).with_blocks(count=1)
    run_suite(s, tmp_path, progress=False)
    rows = list(csv.DictReader((tmp_path / "report" / "adr_by_model.csv").open()))
    for col in ("adr", "accuracy", "precision_sat", "recall_sat", "f1_sat", "mcc",
                "witness_valid_on_sat_claims"):  # fmt: skip
        assert col in rows[0], col
    oracle = next(r for r in rows if r["model"] == "oracle")
    assert float(oracle["witness_valid_on_sat_claims"]) == 1.0
    assert lf.__version__


def test_the_adr_vs_n_figure_has_precision_recall_and_f1_panels(tmp_path) -> None:
    """The ADR paper plots precision, recall and F1 beside accuracy against N; the figure had
    ADR, accuracy and MCC only."""
    from logicforge.reports.studies import adr_figure
    from logicforge.suites.suite import load_suite, run_suite

    s = load_suite("adr-pairs-3sat", models=["oracle", "noisy:p=0.7"]).with_blocks(count=1)
    run_suite(s, tmp_path, progress=False)
    import json

    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    got = adr_figure(recs, {}, tmp_path)
    assert got is not None
    name, caption = got
    assert all(w in caption for w in ("precision", "recall", "F1"))
    assert (tmp_path / name).stat().st_size > 10_000


def test_satbench_arrays_are_one_two_and_three_dimensional_and_table2_has_words(
    tmp_path,
) -> None:
    """SATBench's public puzzles use x(i), x(i, j) and x(i, j, k); the suite drew only 2-D
    arrays. Table 2 gives words and sentences per puzzle beside the formulas' statistics."""
    import csv
    import json

    from logicforge.suites import load_suite, run_suite

    suite = load_suite("satbench", models=["noisy:p=0.7"])
    small = suite.with_blocks(
        count=2, grid={"n_clauses": [7, 26], "target_label": ["SAT", "UNSAT"]}
    )
    html = run_suite(small, tmp_path, progress=False)
    problems = [json.loads(x) for x in (tmp_path / "problems.jsonl").read_text().splitlines()]
    assert {len(p["metadata"]["dims"]) for p in problems} == {1, 2, 3}
    for p in problems:
        arity = len(p["metadata"]["dims"])
        assert all(n.count(",") == arity - 1 for n in p["problem"]["var_names"])
    sizes = [p["metadata"]["n_vars"] for p in problems]
    assert min(sizes) >= 12 and max(sizes) <= 63
    with (html.parent / "satbench_table2_text.csv").open() as f:
        rows = {r["rendering"]: r for r in csv.DictReader(f)}
    assert set(rows) == set(suite.renderers)
    for r in rows.values():
        assert int(r["puzzles"]) == len(problems)
        assert float(r["mean_words"]) > 20 and float(r["mean_sentences"]) >= 5


@pytest.mark.parametrize(
    "spec",
    [("shuffle", {}), ("shuffle", {"mode": "reverse"}), ("filler", {"ratio": 0.5}),
     ("filler", {"ratio": 0.5, "layout": "grouped"}), ("duplicate", {"layout": "interleaved"}),
     ("rename", {})],
)  # fmt: skip
def test_clause_indices_follow_their_clauses_through_every_transform(spec) -> None:
    """`core_clauses` and `bridge_index` went stale after `shuffle`: they must name the same
    clauses (renamed where the transform renames) after any transform that moves clauses."""
    import logicforge as lf
    from logicforge.transforms.base import apply_transform

    name, params = spec
    srcs = [
        *lf.generate("2sat/implication-cycle", {"n_clauses": 30}, count=2, seed=4),
        *lf.generate("2sat/mono-bridge", {"n_clauses": 20}, count=2, seed=4),
    ]
    checked = 0
    for p in srcs:
        q = apply_transform(p, name, params)
        before, after = p.problem["clauses"], q.problem["clauses"]
        perm = q.metadata["transforms"][-1].get("permutation")
        for key in ("core_clauses", "bridge_index", "trigger_index"):
            if key not in p.metadata:
                continue
            old = p.metadata[key] if isinstance(p.metadata[key], list) else [p.metadata[key]]
            new = q.metadata[key] if isinstance(q.metadata[key], list) else [q.metadata[key]]
            want = [before[i] for i in old]
            if perm:
                want = [[perm[abs(x) - 1] * (1 if x > 0 else -1) for x in c] for c in want]
            assert sorted(map(sorted, (after[i] for i in new))) == sorted(map(sorted, want)), key
            checked += 1
    assert checked >= 4


def test_twosat_table1_in_construction_order_and_the_papers_row_order() -> None:
    """Table 1 ran on shuffled clause order with alphabetical rows (Backbone first); the paper's
    generators are used as built, rows ImplicationCycle, EquivalenceCore, Backbone, MonoBridge."""
    from logicforge.reports.studies import table1
    from logicforge.suites.suite import load_suite

    suite = load_suite("twosat-table1")
    orders = {b.family: b.params["order"] for b in suite.problems}
    assert orders == {
        "2sat/implication-cycle": "ordered",
        "2sat/equivalence-core": "definitions-early",
        "2sat/backbone": "construction",
        "2sat/mono-bridge": "grouped",
    }
    recs = []
    for fam in orders:  # records in the suite's block order, sizes descending within
        for n in (50, 10):
            recs.append({"model": "m", "meta": {"family": fam, "target_clauses": n,
                         "problem_id": f"{fam}-{n}", "label": "SAT"},
                         "verdict": {"correct": True, "witness_valid": True}})  # fmt: skip
    rows = table1(recs, ["family", "target_clauses"])
    assert [(r["family"], r["target_clauses"]) for r in rows] == [
        (f, n) for f in orders for n in (10, 50)
    ]


def test_zebralogic_table2_from_one_command(tmp_path) -> None:
    """Table 2 needed three commands; `suite zebra-table2 --model M` runs M at its samples and
    wraps it in the three self-verification rows, once each, into one table with X-Large."""
    import csv

    from logicforge.suites import run_suite
    from logicforge.suites.suite import load_suite

    s = load_suite("zebra-table2", models=["noisy:p=0.7"])
    assert s.models == [
        "noisy:p=0.7",
        "selfverify:1:oracle:noisy:p=0.7",
        "selfverify:1:none:noisy:p=0.7",
        "selfverify:2:none:noisy:p=0.7",
    ]
    assert s.samples_for("noisy:p=0.7") == 128 and s.samples_for(s.models[1]) == 1
    assert load_suite("zebra-table2", models=["oracle"]).models[1] == "selfverify:1:oracle:oracle"
    out = tmp_path / "t2"
    small = s.with_blocks(count=1, grid={"n_houses": [3, 6], "n_attributes": [3, 5]})
    run_suite(small.model_copy(update={"samples": 4}), out, progress=False)
    with (out / "report" / "zebralogic_table2.csv").open() as f:
        rows = list(csv.DictReader(f))
    names = [r[next(iter(r))] for r in rows]
    assert (
        names[0].startswith("noisy")
        and "BoN-Oracle N=4" in names
        and "Majority-Voting N=4" in names
    )
    assert {"Self-Verify (Oracle)", "Self-Verify", "Self-Verify (x2)"} <= set(names)
    assert any(k.startswith("X-Large") for k in rows[0])
    recs = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    per = {m: {r["sample"] for r in recs if r["model"] == m} for m in {r["model"] for r in recs}}
    assert sorted(len(v) for v in per.values()) == [1, 1, 1, 4]


def test_satbench_fig3_accuracy_against_model_size(tmp_path) -> None:
    """SATBench's Fig. 3 (scaling trend) was absent: sizes come from the models' names, a line
    per family, one panel per bucket; a model whose name gives no size is named, not drawn."""
    from logicforge.reports.satbench_scaling import model_size, scaling_figure, scaling_rows

    assert model_size("Qwen3-1.7B") == (1.7, "Qwen3")
    assert model_size("Mixtral-8x7B-Instruct")[0] == 56.0
    assert model_size("smollm2-135m-instruct")[0] == 0.135
    assert model_size("gpt-4o") is None and model_size("noisy:p=0.7") is None
    t3 = [
        {"model": m, "Overall Easy": e, "Overall Medium": md, "Overall Hard": h, "Avg.": (e + md + h) / 3}
        for m, e, md, h in [("Qwen3-14B", 80.0, 60.0, 52.0), ("Qwen3-1.7B", 65.3, 48.1, 47.9),
                            ("Llama-3.1-8B", 44.1, 37.4, 33.2), ("gpt-4o", 69.9, 55.2, 48.8)]
    ]  # fmt: skip
    rows, unsized = scaling_rows(t3)
    assert [(r["family"], r["params_b"]) for r in rows] == [
        ("Llama-3.1", 8.0),
        ("Qwen3", 1.7),
        ("Qwen3", 14.0),
    ]
    assert unsized == ["gpt-4o"] and rows[1]["Hard"] == 47.9
    cap = scaling_figure(rows, unsized, {}, tmp_path / "f.png")
    assert (tmp_path / "f.png").stat().st_size > 5000 and "left out" in cap and "gpt-4o" in cap


def test_logicedit_tables_6_and_8_count_the_records_and_edits_available(tmp_path) -> None:
    """LogicEdit's Table 6 (records with a valid formal representation) and Table 8 (edited
    records per setting) were absent; they follow from the problems the suite made."""
    import csv

    from logicforge.suites import load_suite, run_suite

    suite = load_suite("logicedit-individual", models=["noisy:p=0.7"]).with_blocks(count=3)
    html = run_suite(suite, tmp_path, progress=False)
    problems = [json.loads(x) for x in (tmp_path / "problems.jsonl").read_text().splitlines()]
    with (html.parent / "edits_available.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["dataset"] for r in rows] == sorted({p["family"] for p in problems})
    for r in rows:
        mine = [p for p in problems if p["family"] == r["dataset"]]
        lv = [(p["metadata"]["edit_level"], p["metadata"]["edit_mode"]) for p in mine]
        assert int(r["records"]) == sum(k == 0 for k, _ in lv)
        assert int(r["Ind-original"]) == sum(k > 0 and m == "preserve" for k, m in lv)
        assert int(r["Ind-altered"]) == sum(k > 0 and m == "alter" for k, m in lv)
        assert int(r["Ind-original"]) + int(r["Ind-altered"]) > 0


def test_satbench_asks_for_the_label_last_and_scores_it(tmp_path) -> None:
    """SATBench's evaluation asks for the label at the end; the reproduction's trace rendering
    does, and a reply in that order — reasoning, justification, then the label — is read whole:
    the decision from the last line, the assignment or conflict checked by the solver."""
    import logicforge as lf
    from logicforge.logic.sat import minimal_unsat_core

    sat = lf.generate(
        "satbench", {"n_clauses": 8, "dims": [2, 2], "target_label": "SAT"}, count=1, seed=2
    )
    uns = lf.generate(
        "satbench", {"n_clauses": 8, "dims": [2, 2], "target_label": "UNSAT"}, count=1, seed=2
    )
    it_s, it_u = lf.render(sat + uns, "formula-trace-last")
    assert it_s.messages[-1].content.rstrip().endswith("alone on its last line.")
    name = {v: k for k, v in it_s.mapping.items()}
    good = {name[abs(x)]: x > 0 for x in sat[0].oracle["model"]}
    core = [
        i + 1 for i in minimal_unsat_core(uns[0].problem["clauses"], uns[0].problem["num_vars"])
    ]

    def score(it, text):
        rec = {"record_id": "r", "item_id": it.item_id, "model": "m", "sample": 0, "text": text}
        return lf.score([rec], [it])[0].verdict

    v = score(
        it_s, "Checking each condition, all hold.\n" + json.dumps({"assignment": good}) + "\n[SAT]"
    )
    assert v.correct and v.witness_valid is True
    v = score(it_u, "Conditions clash.\n" + json.dumps({"conflict": core}) + "\n[UNSAT]")
    assert v.correct and v.details["cited_unsat"] is True
    v = score(
        it_u, "Maybe [SAT] at first, but no.\n" + json.dumps({"conflict": core}) + "\n[UNSAT]"
    )
    assert v.correct  # the last label decides
    v = score(it_s, "It looks fine, all can hold.\n[SAT]")
    assert v.correct and v.witness_valid is not True  # no assignment: no valid trace
