"""Operator edits of Logic-LM's LogicalDeduction programs: labels re-checked by brute force over
every arrangement, and the edited context sentences back-translated (scripted writer / faithful
reader as test doubles) before any prompt shows them."""

from __future__ import annotations

import itertools
import json

import pytest

import logicforge as lf
from logicforge.families.logicaldeduction import (
    ld_cumulative,
    ld_individual,
    load_logicaldeduction,
    same_constraint,
)
from logicforge.llm.backtranslate import backtranslate
from logicforge.logic.csp import parse_program

from .test_backtranslate import Rewriter


@pytest.fixture(scope="module")
def questions(shared_data):
    d = shared_data / "logiclm"
    return load_logicaldeduction(
        d / "logicaldeduction_dev.json", d / "logicaldeduction_dev_programs_gpt-4.json"
    )


def brute(program: str) -> str:
    """The option true in every arrangement satisfying the program — by enumerating them all
    (independent of the CSP oracle's backtracking)."""
    csp = parse_program(program)
    names = list(csp.domains)
    sols = [
        dict(zip(names, vals, strict=True))
        for vals in itertools.product(*(csp.domains[n] for n in names))
        if all(c.holds(dict(zip(names, vals, strict=True))) for c in csp.constraints)
    ]
    if not sols:
        return "inconsistent"
    always = [k for k, c in csp.options.items() if all(c.holds(s) for s in sols)]
    return always[0] if len(always) == 1 else "ambiguous"


def test_chains_keep_and_altering_edits_change_the_label(questions) -> None:
    editable = [p for p in questions if p.metadata.get("program_answer") == p.label]
    assert len(editable) == 262
    levels = alters = 0
    for p in [q for q in editable if q.problem["n_objects"] <= 5][:25]:
        chain = ld_cumulative(p)
        for q in chain[1:]:
            assert q.label == p.label == brute(q.problem["program"])
            levels += 1
        for q in ld_individual(p, "alter"):
            assert q.label != p.label and q.label == brute(q.problem["program"])
            alters += 1
    assert levels >= 20 and alters >= 10


def test_edited_questions_are_backtranslated_before_rendering(questions) -> None:
    ps = []
    for p in questions[:6]:
        ps += ld_cumulative(p) + ld_individual(p, "alter")
    edited = [q for q in ps if q.metadata.get("edit_level")]
    assert edited
    with pytest.raises(lf.ConfigError, match="back-translated"):
        lf.render(edited[:1], "deduction")
    kept, st = backtranslate(ps, Rewriter(["faithful"]))
    # GPT-4's glosses fix a few of the dataset's typos ("motorcyle"): such sentences cannot be
    # located in the context, so their questions are dropped and counted, never shown stale
    assert st.dropped == st.unlocated and st.kept == len(edited) - st.unlocated > 0
    for q in kept:
        if not q.metadata.get("edit_level"):
            continue
        lines = q.problem["program"].splitlines()
        for i in q.metadata["edit_positions"]:
            expr, _, gloss = lines[i].partition(":::")
            assert gloss.strip() == f"In other words, ⟨{expr.strip()}⟩."
            assert gloss.strip() in q.problem["context"]
        assert "In other words" in lf.render([q], "deduction")[0].messages[-1].content
    _, st2 = backtranslate(ps, Rewriter(["stale"]), cfg=None)
    assert st2.dropped == len(edited) and st2.unmatched == st2.sentences  # < vs > never agree


def test_constraint_equivalence_by_enumeration(questions) -> None:
    prog = questions[0].problem["program"]
    assert same_constraint("blue_book > yellow_book", "yellow_book < blue_book", prog)
    assert not same_constraint("blue_book > yellow_book", "blue_book < yellow_book", prog)
    assert same_constraint("blue_book == 4", "4 == blue_book", prog)
    assert same_constraint("nonsense ==", "blue_book == 4", prog) is None


def test_logicaldeduction_suite(shared_data, tmp_path, monkeypatch) -> None:
    from logicforge.suites import load_suite, run_suite

    monkeypatch.setenv("LOGICFORGE_DATA", str(shared_data))
    suite = load_suite("logicedit-logicaldeduction", writer="oracle")
    run_suite(suite.with_blocks(count=3), tmp_path, progress=False)
    st = json.loads((tmp_path / "backtranslation-deduction.json").read_text())
    assert (
        st["problems_kept"] == 0 and st["problems_dropped"] > 0
    )  # a baseline writer never matches
    items = [json.loads(x) for x in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert len(items) == 3  # the unedited questions
