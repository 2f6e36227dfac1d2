"""AR-LSAT (the symbolic-edits paper's third dataset): Logic-LM's Z3-dialect programs read and
solved without running them, cross-checked by enumerating models; operator edits re-solved;
back-translation verified by z3; the suite's tables; bounds on hostile programs."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.families.arlsat import (
    arlsat_cumulative,
    arlsat_individual,
    edit_formula,
    load_arlsat,
)
from logicforge.llm.backtranslate import BackTranslateConfig, backtranslate
from logicforge.logic.lsat import (
    MAX_PROGRAM_CHARS,
    LsatProgramError,
    _Builder,
    equivalent_lsat,
    parse_lsat,
    solve_lsat,
)
from logicforge.models.base import Response

from .test_backtranslate import Rewriter  # the writer + checker double, shared

z3 = pytest.importorskip("z3")


@pytest.fixture(scope="module")
def questions(shared_data):
    d = shared_data / "logiclm"
    return load_arlsat(d / "arlsat_dev.json", d / "arlsat_dev_programs_gpt-4.json")


def test_the_gpt4_programs_measured(questions) -> None:
    """Of Logic-LM's 230 GPT-4 programs, 120 execute and 81 make some option hold — 35.2 %, in
    line with the 32.6 % executable rate Logic-LM reports (it drops the range constraints GPT-4
    writes among the declarations; this reader keeps them). 60 reach the gold answer by
    Logic-LM's reading (the first option that holds), 54 make exactly the gold option hold."""
    m = [p.metadata for p in questions]
    assert len(questions) == 231
    assert sum("program_error" in x for x in m) == 110
    assert sum("program_answers" in x for x in m) == 120
    assert sum(x.get("program_answers") == [] for x in m) == 39
    assert sum(x.get("program_answer") == x["dataset_label"] for x in m) == 60
    assert sum(x["formal_valid"] is True for x in m if "formal_valid" in x) == 54
    assert all(p.label == p.metadata["dataset_label"] for p in questions)  # no Table 7 id here


def _models(prog, limit: int = 300):
    """Every model of the constraints, by blocking each found interpretation of the functions
    (an independent decision procedure: no entailment check at all)."""
    b = _Builder(prog)
    s = z3.Solver(ctx=b.ctx)
    s.add(*b.ranges, *[b.formula(t) for t, _ in prog.constraints])
    apps = []
    for name, (args, _) in prog.functions.items():
        if any(a in ("int", "bool") and a != "bool" for a in args):
            return None
        doms = [
            b.members(a) if a != "bool" else [z3.BoolVal(v, b.ctx) for v in (False, True)]
            for a in args
        ]
        apps += [b.funcs[name](*t) for t in itertools.product(*doms)]
    out = []
    while s.check() == z3.sat and len(out) < limit:
        mdl = s.model()
        out.append(mdl)
        s.add(z3.Or([a != mdl.eval(a, model_completion=True) for a in apps]))
    return b, out if len(out) < limit else None


def test_options_agree_with_model_enumeration(questions) -> None:
    """On every valid program with few models, each is_valid / is_sat / is_unsat option holds
    exactly when it is true in all / some / no enumerated model."""
    checked = 0
    for p in questions:
        if not p.metadata.get("formal_valid"):
            continue
        prog = parse_lsat(p.problem["program"])
        got = _models(prog)
        if got is None or got[1] is None:
            continue
        b, models = got
        res = solve_lsat(prog)
        for text, letter in prog.options:
            m = re.match(r"(is_valid|is_sat|is_unsat)\((.*)\)$", text)
            if not m:
                continue
            f = b.formula(m.group(2))
            truth = [z3.is_true(mdl.eval(f, model_completion=True)) for mdl in models]
            want = {"is_valid": all(truth), "is_sat": any(truth), "is_unsat": not any(truth)}
            assert res.holds[letter] == want[m.group(1)], (p.problem_id, letter)
            checked += 1
    assert checked >= 60


def test_edits_change_one_connective_at_a_word_boundary() -> None:
    assert edit_formula("Order(x) == Or(a, b)", "or→and") == "Order(x) == And(a, b)"
    assert edit_formula("And(Not(Or(a, b)), c)", "not→removed") == "And(Or(a, b), c)"
    assert edit_formula("Xor(a, b)", "xor→or") == "Or(a, b)"
    assert edit_formula("Implies(a, b)", "and→or") is None
    assert edit_formula("Not(a", "not→removed") is None


def test_cumulative_chains_keep_the_answer_and_individual_edits_are_sorted(questions) -> None:
    valid = [p for p in questions if p.metadata.get("formal_valid")][:6]
    levels = 0
    for p in valid:
        chain = arlsat_cumulative(p)
        for q in chain[1:]:
            assert solve_lsat(parse_lsat(q.problem["program"])).answers == [p.label]
            assert q.metadata["edit_ops"][-1] in (
                "or→and",
                "xor→or",
                "or→xor",
                "not→removed",
                "and→or",
            )
            levels += 1
        for q in arlsat_individual(p, "preserve"):
            assert solve_lsat(parse_lsat(q.problem["program"])).answers == [p.label]
        for q in arlsat_individual(p, "alter"):
            assert q.label != p.label
            assert solve_lsat(parse_lsat(q.problem["program"])).answers == [q.label]
    assert levels >= 10
    invalid = next(p for p in questions if "program_error" in p.metadata)
    assert len(arlsat_cumulative(invalid)) == 1 and arlsat_individual(invalid) == []


def _chains(questions, n: int = 4) -> list:
    out = []
    for p in [q for q in questions if q.metadata.get("formal_valid")][:n]:
        out += arlsat_cumulative(p)
    return out


def test_backtranslation_keeps_faithful_rewrites_and_drops_the_rest(questions) -> None:
    chains = _chains(questions)
    edited = [p for p in chains if p.metadata["edit_level"]]
    kept, st = backtranslate(chains, Rewriter(["faithful"]), cfg=BackTranslateConfig(attempts=1))
    ok = [p for p in kept if p.metadata.get("edit_level")]
    assert ok and len(ok) + st.dropped == len(edited)
    assert st.dropped == sum(1 for p in edited if not _located(p, chains))
    for p in ok:
        assert p.metadata["nl_verified"] and "⟨" in p.problem["context"]
        item = lf.render([p], "lsat")[0]
        assert "⟨" in item.messages[-1].content
    kept, st = backtranslate(
        chains, Rewriter(["stale", "garbage"]), cfg=BackTranslateConfig(attempts=2)
    )
    stale_ok = [p for p in kept if p.metadata.get("edit_level")]
    assert len(stale_ok) + st.dropped == len(edited) and st.dropped > len(stale_ok)
    for p in stale_ok:  # the old sentence is kept only where the edit changed no meaning
        root = next(q for q in chains if q.problem_id == p.metadata["chain_id"])
        prog = parse_lsat(root.problem["program"])
        for i in p.metadata["edit_positions"]:
            old = root.problem["program"].splitlines()[i].partition(":::")[0]
            new = p.problem["program"].splitlines()[i].partition(":::")[0]
            assert old != new and equivalent_lsat(prog, old, new) is True


def _located(p, chains) -> bool:
    root = next(q for q in chains if q.problem_id == p.metadata["chain_id"])
    lines = root.problem["program"].splitlines()
    glosses = [lines[i].partition(":::")[2].strip() for i in p.metadata["edit_positions"]]
    return all(
        g and (g in root.problem["context"] or g.rstrip(".") in root.problem["context"])
        for g in glosses
    )


def test_stale_text_never_reaches_a_prompt_and_rewards_hold(questions) -> None:
    chains = _chains(questions, 2)
    edited = next(p for p in chains if p.metadata["edit_level"])
    with pytest.raises(lf.ConfigError, match="back-translated"):
        lf.render([edited], "lsat")
    formal = lf.render([edited], "lsat-z3")[0]
    i = edited.metadata["edit_positions"][0]
    line = edited.problem["program"].splitlines()[i].partition(":::")[0].strip()
    assert line in formal.messages[-1].content  # the edited formula itself, no stale gloss
    assert edited.problem["program"].splitlines()[i].partition(":::")[2].strip() not in (
        formal.messages[-1].content
    )
    it = lf.render([chains[0]], "lsat")[0]
    gold = it.gold["label"]
    wrong = next(x for x in "ABCDE" if x != gold)
    assert lf.reward(it, f"so the answer is \\boxed{{{gold}}}") == 1.0
    assert lf.reward(it, f"\\boxed{{{wrong}}}") == 0.0
    assert lf.reward(it, f"either \\boxed{{{gold}}} or \\boxed{{{wrong}}}") == 0.0
    assert lf.reward(it, "\\boxed{" + "ABCDE" + "}") == 0.0
    assert lf.reward(it, "I cannot tell.") == 0.0


def test_back_translation_equivalence_is_decided_under_the_declarations() -> None:
    prog = parse_lsat(
        "# Declarations\np = EnumSort([A, B])\nslot = EnumSort([1, 2, 3])\n"
        "at = Function([p] -> [slot])\n# Constraints\n# Options\nis_sat(at(A) == 1) ::: (A)"
    )
    assert equivalent_lsat(prog, "at(A) != 1", "Or(at(A) == 2, at(A) == 3)") is True
    assert equivalent_lsat(prog, "at(A) != 1", "at(A) == 2") is False
    assert equivalent_lsat(prog, "at(C) == 1", "at(A) == 1") is None  # undeclared name


@pytest.mark.parametrize(
    "program, match",
    [
        ("x" * (MAX_PROGRAM_CHARS + 1), "limit"),
        ("# Declarations\n# Constraints\n", "Options"),
        (
            "# Declarations\ns = EnumSort([a])\n# Constraints\n"
            + "Not(" * 200
            + "True"
            + ")" * 200
            + "\n# Options\nis_sat(True) ::: (A)",
            "deeper|formula",
        ),
        (
            "# Declarations\ns = EnumSort(["
            + ", ".join(f"v{i}" for i in range(80))
            + "])\n# Constraints\n"
            "ForAll([a:s, b:s, c:s], a == a)\n# Options\nis_sat(True) ::: (A)",
            "terms",
        ),
        (
            "# Declarations\n# Constraints\n__import__('os').system('true')\n# Options\nis_sat(True) ::: (A)",
            "unsupported syntax|unknown function",
        ),
        (
            "# Declarations\n# Constraints\nTrue\n# Options\nis_sat(True) ::: (A)\nevil(True) ::: (B)",
            "unknown option",
        ),
    ],
)
def test_hostile_programs_are_refused_with_a_reason(program, match) -> None:
    with pytest.raises(LsatProgramError, match=match):
        solve_lsat(parse_lsat(program))


def test_logicedit_arlsat_suite_reports_its_tables(shared_data, tmp_path, monkeypatch) -> None:
    from logicforge.suites import load_suite, run_suite

    monkeypatch.setenv("LOGICFORGE_DATA", str(shared_data))
    suite = load_suite("logicedit-arlsat", writer="random")  # every edited sentence dropped
    assert suite.renderers == ["lsat", "lsat-z3"]
    html = run_suite(suite.with_blocks(count=20), tmp_path, progress=False)
    rep = html.parent
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert all(r["verdict"]["correct"] for r in recs if r["model"] == "oracle")
    assert not [r for r in recs if r["meta"]["rendering"] == "lsat" and r["meta"].get("edit_level")]
    assert [r for r in recs if r["meta"]["rendering"] == "lsat-z3" and r["meta"].get("edit_level")]
    avail = (rep / "edits_available.md").read_text()
    row = next(x for x in avail.splitlines() if x.startswith("| arlsat"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "z3 (Logic-LM dialect)" and 0 < int(cells[2]) < 20 and int(cells[3]) > 0
    assert "Acc_norm(1)" in (rep / "edits_acc_norm.md").read_text()
    st = json.loads((tmp_path / "backtranslation-lsat.json").read_text())
    assert st["problems_kept"] == 0 and st["problems_dropped"] > 0


class Translator:
    """Writer double for the translation step: a reply without a program, then a program whose
    options do not reach the gold, then (``good``) the right program in a code fence."""

    name, cache_id = "translator", None

    def __init__(self, good: str | None) -> None:
        self.good, self.calls = good, 0

    async def generate(self, q, sampling, sample) -> Response:
        self.calls += 1
        assert "Example program:" in q.messages[0].content and sampling.temperature == 0.7
        if sample == 0:
            return Response(text="I think the answer is B.")
        if sample == 1 or self.good is None:  # inconsistent constraints: not the gold alone
            bad = self.good or "# Declarations\n# Constraints\n# Options\nis_sat(True) ::: (A)"
            return Response(text=bad.replace("# Constraints", "# Constraints\nFalse ::: never", 1))
        return Response(text=f"```python\n{self.good}\n```")

    async def aclose(self) -> None:
        pass


def test_the_translation_step_keeps_only_valid_programs(questions) -> None:
    from logicforge.llm.formalise_lsat import FormaliseConfig, formalise

    p = next(q for q in questions if q.metadata.get("formal_valid"))
    bare = p.model_copy(update={"problem": {k: v for k, v in p.problem.items() if k != "program"},
                                "metadata": {"dataset_label": p.label, "formal_valid": False}})  # fmt: skip
    done = next(q for q in questions if q.metadata.get("formal_valid") and q is not p)
    got, st = formalise([bare, done], Translator(p.problem["program"]), FormaliseConfig(attempts=3))
    assert st.asked == 1 and st.valid == 1 and st.samples == 3
    assert got[1] is done  # a valid program is never re-asked
    assert got[0].metadata["formal_valid"] and got[0].metadata["program_source"] == "translator"
    assert solve_lsat(parse_lsat(got[0].problem["program"])).answers == [p.label]
    assert len(arlsat_cumulative(got[0])) > 1  # the new program is edited like any other
    got, st = formalise([bare], Translator(None), FormaliseConfig(attempts=2))
    assert st.valid == 0 and not got[0].metadata.get("formal_valid") and st.failures


def test_formalise_needs_arlsat_and_a_writer() -> None:
    from logicforge.suites import load_suite

    s = load_suite("logicedit-arlsat")
    ok = s.model_copy(update={"problems": [s.problems[0].model_copy(update={"formalise": True})]})
    ok.validate_names()  # AR-LSAT with a writer: accepted
    with pytest.raises(lf.ConfigError, match="formalise"):
        ok.model_copy(update={"story": None}).validate_names()
    f = load_suite("logicedit-folio")
    with pytest.raises(lf.ConfigError, match="formalise"):
        f.model_copy(
            update={"problems": [f.problems[0].model_copy(update={"formalise": True})]}
        ).validate_names()


def test_dry_run_counts_the_translation_requests(
    shared_data, tmp_path, monkeypatch, capsys
) -> None:
    from logicforge.cli import main

    monkeypatch.setenv("LOGICFORGE_DATA", str(shared_data))
    orig = (Path(lf.__path__[0]) / "suites" / "logicedit-arlsat.yaml").read_text(encoding="utf-8")
    text = orig.replace("    count: 231\n", "    count: 40\n    formalise: true\n")
    (tmp_path / "s.yaml").write_text(text.replace("name: logicedit-arlsat", "name: s"))
    assert main(["suite", str(tmp_path / "s.yaml"), "--dry-run", "--writer", "random",
                 "--out", str(tmp_path / "o")]) == 0  # fmt: skip
    out = capsys.readouterr().out
    row = next(x for x in out.splitlines() if "random (translation)" in x)
    cells = [c.strip() for c in row.strip("|").split("|")]
    bare = [q for q in load_arlsat(shared_data / "logiclm" / "arlsat_dev.json",
                                   shared_data / "logiclm" / "arlsat_dev_programs_gpt-4.json")[:40]
            if q.metadata.get("formal_valid") is False]  # fmt: skip
    assert bare and cells[1:5] == [str(len(bare)), "8", str(len(bare)), str(8 * len(bare))]
    assert not (tmp_path / "o").exists()  # nothing sent, nothing written
    # without formalise, no translation row
    (tmp_path / "t.yaml").write_text(orig.replace("name: logicedit-arlsat", "name: t"))
    assert main(["suite", str(tmp_path / "t.yaml"), "--dry-run", "--count", "3",
                 "--out", str(tmp_path / "p")]) == 0  # fmt: skip
    assert "(translation)" not in capsys.readouterr().out
