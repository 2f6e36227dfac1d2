"""Operator edits on generated deduction puzzles: cumulative chains keep the answer at every
level (re-checked here by brute force over arrangements), altering edits really change it, and
the stability metrics match hand-computed tables."""

from __future__ import annotations

import itertools
import json

import pytest

import logicforge as lf
from logicforge.metrics.edits import acc_norm, accuracy_by_condition, flip_table, retention
from logicforge.transforms.edits import cumulative, individual


def brute_answer(d: dict) -> str:
    """The answer by enumerating every arrangement — independent of the CSP oracle."""
    objs, n, q = d["objects"], d["n_objects"], d["question_position"]
    ops = {
        "<": lambda a, b: a < b,
        ">": lambda a, b: a > b,
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
    }
    at_q = set()
    for perm in itertools.permutations(range(1, n + 1)):
        pos = dict(zip(objs, perm, strict=True))
        ok = True
        for c in d["clues"]:
            a, op, b = c.split(" ")
            if not ops[op](pos[a], int(b) if b.isdigit() else pos[b]):
                ok = False
                break
        if ok:
            at_q.add(next(o for o in objs if pos[o] == q))
    if not at_q:
        return "inconsistent"
    return chr(65 + objs.index(at_q.pop())) if len(at_q) == 1 else "ambiguous"


@pytest.fixture(scope="module")
def puzzles() -> list[lf.LabelledProblem]:
    return lf.generate("ordering", {"n_objects": 5}, count=12, seed=21) + lf.generate(
        "ordering", {"n_objects": 4, "scene": "vehicles"}, count=8, seed=22
    )


def test_generated_answers_match_brute_force(puzzles) -> None:
    for p in puzzles:
        assert brute_answer(p.problem) == p.label
        q = p.problem["question_position"]
        assert not any(c.endswith(f"== {q}") for c in p.problem["clues"])  # never stated outright


def test_cumulative_chains_keep_the_label_at_every_level(puzzles) -> None:
    longest = 0
    for p in puzzles:
        chain = cumulative(p)
        longest = max(longest, len(chain) - 1)
        for level, q in enumerate(chain):
            assert q.metadata["edit_level"] == level and len(q.metadata["edit_positions"]) == level
            assert q.label == p.label == brute_answer(q.problem)
            assert q.metadata["chain_id"] == p.problem_id
            # back-translation is exact: every sentence is the template of its constraint
            from logicforge.families.ordering_text import sentence

            d = q.problem
            assert d["sentences"] == [
                sentence(d["scene"], d["objects"], d["n_objects"], c) for c in d["clues"]
            ]
        positions = chain[-1].metadata["edit_positions"]
        assert positions == sorted(positions)  # scanned in order, never revisited
    assert longest >= 1


def test_individual_edits_preserve_or_really_alter(puzzles) -> None:
    n_alter = 0
    for p in puzzles:
        for q in individual(p, "preserve"):
            assert q.label == p.label == brute_answer(q.problem)
        for q in individual(p, "alter"):
            n_alter += 1
            assert q.label != p.label and q.label == brute_answer(q.problem) and len(q.label) == 1
            assert q.metadata["original_label"] == p.label and q.metadata["condition"] == "altered"
    assert n_alter >= 5
    with pytest.raises(lf.ConfigError, match="mode"):
        individual(puzzles[0], "shuffle")


def _rec(model: str, chain: str, level: int, ok: bool, **meta) -> dict:
    return {"model": model, "meta": {"chain_id": chain, "edit_level": level, **meta},
            "verdict": {"correct": ok}}  # fmt: skip


def test_metrics_match_hand_computed_tables() -> None:
    rs = [
        _rec("m", "a", 0, True), _rec("m", "a", 1, False), _rec("m", "a", 2, False),
        _rec("m", "b", 0, True), _rec("m", "b", 1, True),
        _rec("m", "c", 0, False), _rec("m", "c", 1, True),
        _rec("m", "d", 0, False),
    ]  # fmt: skip
    assert acc_norm(rs, 0)["m"] == 0.5
    assert acc_norm(rs, 1)["m"] == pytest.approx(2 / 4)  # a:0 b:1 c:1 d→level 0: 0
    assert acc_norm(rs, 2)["m"] == pytest.approx(1 / 4)  # a:0, b→1, c→0, d→0
    t = flip_table(rs, 1)[0]
    assert (t["n"], t["I→C"], t["C→I"], t["C→C"], t["I→I"]) == (3, 1, 1, 1, 0)
    assert t["flip_rate"] == pytest.approx(2 / 3) and t["practical"]
    # the paper's test: P[X ≥ 2] for X ~ B(3, 0.1) = 3·0.1²·0.9 + 0.1³; McNemar (1 vs 1) as an extra
    assert t["p"] == pytest.approx(0.028) and t["p_mcnemar"] == 1.0
    alt = [
        {"model": "m", "meta": {"condition": "altered", "original_label": "A"},
         "answer": {"certificate": {"choice": c}}, "verdict": {"correct": c == "B"}}
        for c in "AABBBBBBBB"
    ]  # fmt: skip
    r = retention(alt)[0]
    assert r["n"] == 10 and r["retention"] == 0.2
    assert r["p_above_threshold"] == pytest.approx(1 - 0.9**10 - 10 * 0.1 * 0.9**9, abs=1e-9)
    c = {x["condition"]: x for x in accuracy_by_condition(alt)}
    assert c["altered"]["accuracy"] == 0.8


def test_edited_puzzles_run_end_to_end(puzzles, tmp_path) -> None:
    chain = [q for p in puzzles[:6] for q in cumulative(p)]
    items = lf.render(chain, "deduction")
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    lf.run(items, "random", tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    norm = acc_norm(recs, 1)
    assert norm["oracle"] == 1.0 and 0.0 <= norm["random"] <= 1.0
    assert {r["model"] for r in flip_table(recs, 1)} == {"oracle", "random"}


def test_logicedit_suite_runs_and_reports_the_papers_tables(tmp_path) -> None:
    from logicforge.suites import load_suite, run_suite

    suite = load_suite("logicedit-deduction")
    small = suite.with_blocks(count=4)
    html = run_suite(small, tmp_path, progress=False)
    rep = html.parent
    for name in ("edits_acc_norm", "edits_flips", "edits_table11"):
        assert (rep / f"{name}.md").exists(), name
    assert "Acc_norm(0)" in (rep / "edits_acc_norm.md").read_text()


def test_table11_layout_follows_from_the_records(tmp_path) -> None:
    """Table 11: a row per edit level, a column per model in %, Count = chains with that level;
    run on a scripted model that is right on some items and wrong on others."""
    import csv

    from logicforge.suites import load_suite, run_suite

    suite = load_suite("logicedit-deduction", models=["oracle", "noisy:p=0.7"])
    small = suite.with_blocks(count=6)
    html = run_suite(small, tmp_path, progress=False)
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    with (html.parent / "edits_table11.csv").open() as f:
        rows = list(csv.DictReader(f))
    models = sorted({r["model"] for r in recs})
    assert list(rows[0]) == ["Edits", *models, "Count", "significant", "flip test"]
    levels: dict[str, set[int]] = {}
    for r in recs:
        levels.setdefault(r["meta"]["chain_id"], set()).add(r["meta"]["edit_level"])
    top = max(max(v) for v in levels.values())
    assert [int(r["Edits"]) for r in rows] == list(range(top + 1))
    for r in rows:
        k = int(r["Edits"])
        assert int(r["Count"]) == sum(k in v for v in levels.values())
        for m in models:
            per_chain = []
            for c, lv in levels.items():
                use = k if k in lv else 0
                ok = [
                    bool(x["verdict"]["correct"])
                    for x in recs
                    if x["model"] == m
                    and x["meta"]["chain_id"] == c
                    and x["meta"]["edit_level"] == use
                ]
                per_chain.append(sum(ok) / len(ok))
            assert float(r[m]) == round(100 * sum(per_chain) / len(per_chain), 2)
    noisy = next(m for m in models if m != "oracle")
    assert 0 < float(rows[0][noisy]) < 100 and float(rows[0]["oracle"]) == 100.0
    # Fig. 3: every model has a panel's numbers; each step accounts for every chain at level k
    with (html.parent / "edit_transitions.csv").open() as f:
        tr = list(csv.DictReader(f))
    assert {r["model"] for r in tr} == set(models)
    for r in tr:
        k = int(r["step"].split("→")[0])
        cats = ("C→C", "I→C", "C→I", "I→I", "no further edit")
        assert sum(int(r[c]) for c in cats) == sum(k in v for v in levels.values())
        if r["model"] == "oracle":
            assert int(r["C→I"]) == int(r["I→C"]) == int(r["I→I"]) == 0
    assert (html.parent / "edit_transitions.png").exists()


def test_logicedit_individual_suite_reports_tables_4_and_5(tmp_path) -> None:
    from logicforge.suites import load_suite, run_suite

    suite = load_suite("logicedit-individual")
    small = suite.with_blocks(count=3)
    rep = run_suite(small, tmp_path, progress=False).parent
    for name in ("edits_accuracy_by_condition", "edits_retention"):
        assert (rep / f"{name}.md").exists(), name


@pytest.mark.parametrize("name", ["logicedit-deduction", "logicedit-strategies"])
def test_generated_deduction_suites_reach_edit_level_three(name: str) -> None:
    """The redundancy knob gives the chains room: at least 60 % of each suite's chains reach
    edit level 3 (without it, 3-object puzzles admit no edit and 7-object ones rarely three)."""
    from logicforge.suites import load_suite
    from logicforge.suites.suite import expand_problems

    top: dict[str, int] = {}
    for p in expand_problems(load_suite(name)):
        if p.metadata.get("edit_mode") == "cumulative":
            c = p.metadata["chain_id"]
            top[c] = max(top.get(c, 0), p.metadata["edit_level"])
    assert len(top) >= 20
    assert sum(v >= 3 for v in top.values()) >= 0.6 * len(top), sorted(top.values())


def test_the_flip_test_reproduces_logicedit_table_10() -> None:
    """Table 10 (Gemini 2.5 Flash): flip rate and p-value from the flip count and the records at
    each level (Table 11's counts); the one-sided binomial test against 10 % gives every p."""
    from logicforge.metrics.edits import flip_test

    rows = [  # (dataset, level, flips, n, flip rate %, p)
        ("FOLIO", 1, 8, 68, 11.8, 0.3698),
        ("FOLIO", 2, 5, 26, 19.2, 0.1118),
        ("Deduction", 1, 1, 124, 0.8, 1.0000),
        ("Deduction", 2, 0, 107, 0.0, 1.0000),
        ("Deduction", 3, 0, 83, 0.0, 1.0000),
        ("AR-LSAT", 1, 11, 98, 11.2, 0.3905),
        ("AR-LSAT", 2, 9, 56, 16.1, 0.1030),
        ("AR-LSAT", 3, 6, 26, 23.1, 0.0399),
    ]
    for name, level, flips, n, rate, p in rows:
        assert round(100 * flips / n, 1) == rate, (name, level)
        assert round(flip_test(flips, n), 4) == p, (name, level)


def test_bonferroni_counts_only_the_models_under_evaluation() -> None:
    rs = [
        _rec(m, q, lvl, ok)
        for m in ("m1", "m2", "oracle", "random")
        for q, lvl, ok in (("a", 0, True), ("a", 1, False), ("b", 0, True), ("b", 1, True))
    ]
    rows = {r["model"]: r for r in flip_table(rs, 1)}
    assert rows["m1"]["p_bonferroni"] == pytest.approx(min(1.0, 2 * rows["m1"]["p"]))


def test_retention_reads_the_answers_label() -> None:
    """Records store the chosen option as ``answer.label`` (older records: certificate.choice)."""
    new = [
        {"model": "m", "meta": {"condition": "altered", "original_label": "A"},
         "answer": {"label": c}, "verdict": {"correct": c == "B"}}
        for c in "AAABBBBBBB"
    ]  # fmt: skip
    assert retention(new)[0]["retention"] == 0.3


def test_acc_c_counts_edited_questions_once_beside_their_base() -> None:
    """Hand-computed: q1 base right, two preserving edits wrong; q2 base wrong, one edit right;
    q3 base right, two edits right. An unedited original and a cumulative level are not single
    edits and must not count."""

    def r(q: str, level: int, ok: bool, mode: str = "preserve", cond: str = "preserved") -> dict:
        meta = {"chain_id": q, "edit_level": level, "edit_mode": mode, "condition": cond}
        return {"model": "m", "meta": meta, "verdict": {"correct": ok}}

    rs = [
        r("q1", 0, True, "cumulative"), r("q1", 1, False), r("q1", 1, False),
        r("q2", 0, False, "cumulative"), r("q2", 1, True),
        r("q3", 0, True, "cumulative"), r("q3", 1, True), r("q3", 1, True),
        r("q3", 2, False, "cumulative"),  # a cumulative level: not a single edit
    ]  # fmt: skip
    row = accuracy_by_condition(rs)[0]
    assert (row["condition"], row["questions"], row["n"]) == ("preserved", 3, 5)
    assert row["accuracy"] == pytest.approx(2 / 3) and row["base_accuracy"] == pytest.approx(2 / 3)
    assert row["difference"] == pytest.approx(0.0) and row["p"] == 1.0  # one up, one down


def test_qualitative_coding_takes_level_0_and_the_maximum_level(tmp_path) -> None:
    """`judge --task qualitative` codes what the paper codes (Table 12): level 0 and the
    dataset's maximum edit level; the other records pass through uncoded (`--levels all`
    codes everything). The judge here is a baseline, so every coding is a recorded error."""
    from logicforge.cli import main
    from logicforge.metrics.qualitative import paper_levels

    ps = lf.generate("ordering", {"n_objects": 7, "redundancy": 4}, count=3, seed=2)
    chain = [q for p in ps for q in cumulative(p)]
    items = lf.render(chain, "deduction")
    lf.run(items, "noisy:p=0.7", tmp_path / "r.jsonl")
    from logicforge.runner.store import write_jsonl

    write_jsonl(tmp_path / "items.jsonl", items)
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    top = max(r["meta"]["edit_level"] for r in recs)
    assert top >= 3
    want = {r["record_id"] for r in paper_levels(recs)}
    assert {r["meta"]["edit_level"] for r in recs if r["record_id"] in want} == {0, top}
    for levels, expect in (("ends", want), ("all", {r["record_id"] for r in recs})):
        out = tmp_path / f"q-{levels}.jsonl"
        args = ["judge", str(tmp_path / "r.jsonl"), "--items", str(tmp_path / "items.jsonl")]
        args += ["--judge", "random", "--out", str(out), "--task", "qualitative"]
        # every judgement failed: exit 3 even with --allow-errors (nothing was coded)
        assert main([*args, "--levels", levels, "--allow-errors"]) == 3
        got = [json.loads(x) for x in out.read_text().splitlines()]
        assert len(got) == len(recs)  # nothing lost
        coded = {r["record_id"] for r in got if (r.get("extra") or {}).get("qualitative")}
        assert coded == expect


def test_qualitative_table_from_a_judge_over_http(tmp_path) -> None:
    """Tables 3 / 12 end to end: an HTTP judge codes level 0 and the top level (its codes vary
    with the reasoning, one reply in five is not JSON), and `report` writes `qualitative.md`
    whose percentages follow from the coded records."""
    import hashlib

    from logicforge.cli import main
    from logicforge.runner.store import write_jsonl

    from .fakeserver import FakeServer

    def judge(body: dict) -> tuple[int, object]:
        text = body["messages"][-1]["content"]
        h = int(hashlib.sha1(text.encode()).hexdigest(), 16)
        if h % 5 == 0:
            content = "I would rather not grade this."
        else:
            codes = {k: (h >> i) & 1 for i, k in enumerate(("PF", "IV", "AC", "AL"))}
            why = {k: "It skips a step." for k, v in codes.items() if not v}
            content = json.dumps({**codes, "justifications": why})
        return 200, {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]}

    ps = lf.generate("ordering", {"n_objects": 7, "redundancy": 4}, count=3, seed=2)
    items = lf.render([q for p in ps for q in cumulative(p)], "deduction")
    lf.run(items, "noisy:p=0.7", tmp_path / "r.jsonl")
    write_jsonl(tmp_path / "items.jsonl", items)
    out = tmp_path / "coded.jsonl"
    with FakeServer(routes={"/v1/chat/completions": judge}) as srv:
        args = ["judge", str(tmp_path / "r.jsonl"), "--items", str(tmp_path / "items.jsonl")]
        args += ["--judge", f"openai-compatible:{srv.base_url}:j;max_retries=0", "--out", str(out)]
        main([*args, "--task", "qualitative", "--allow-errors"])
    assert main(["report", "--records", str(out), "--out", str(tmp_path / "rep")]) == 0
    got = [json.loads(x) for x in out.read_text().splitlines()]
    coded = [r for r in got if ((r.get("extra") or {}).get("qualitative") or {}).get("scores")]
    assert 0 < len(coded) < len({r["record_id"] for r in got})
    lines = (tmp_path / "rep" / "qualitative.md").read_text().splitlines()
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    assert head[:7] == ["model", "edit_level", "coded", "PF", "IV", "AC", "AL"]
    rows = [
        dict(zip(head, [c.strip() for c in x.strip("|").split("|")], strict=True))
        for x in lines[2:]
    ]
    top = max(r["meta"]["edit_level"] for r in got)
    assert {int(r["edit_level"]) for r in rows} == {0, top}
    for row in rows:
        mine = [
            r["extra"]["qualitative"]["scores"]
            for r in coded
            if r["meta"]["edit_level"] == int(row["edit_level"])
        ]
        assert int(row["coded"]) == len(mine)
        for k in ("PF", "IV", "AC", "AL"):
            assert float(row[k]) == pytest.approx(sum(s[k] for s in mine) / len(mine), abs=0.006)


def test_table11_significance_is_an_accuracy_change_not_a_flip_rate() -> None:
    """A model whose accuracy stays flat (66.67 → 63.33 on 30 chains) while 11 answers flip was
    marked significant by the flip test; Table 11's bold is an accuracy change. A model whose
    accuracy falls (66.67 → 20.00) is significant on both."""
    from logicforge.metrics.edits import table11

    def chain(model, c, before, after):
        return [
            {"model": model, "meta": {"chain_id": c, "edit_level": k}, "verdict": {"correct": ok}}
            for k, ok in ((0, before), (1, after))
        ]

    recs = []
    # flat: 15 C→C, 5 C→I... 20 correct at 0; 14 C→C + 6 C→I, 5 I→C + 5 I→I → 19 correct at 1
    flat = [(True, True)] * 14 + [(True, False)] * 6 + [(False, True)] * 5 + [(False, False)] * 5
    falls = [(True, True)] * 6 + [(True, False)] * 14 + [(False, False)] * 10
    for i, (a, b) in enumerate(flat):
        recs += chain("flat", f"c{i}", a, b)
    for i, (a, b) in enumerate(falls):
        recs += chain("falls", f"c{i}", a, b)
    row = table11(recs)[1]
    assert float(row["flat"]) == 63.33 and float(row["falls"]) == 20.0
    assert row["significant"] == "falls"
    assert row["flip test"] == "falls, flat"
