"""Replies cut off mid-search, written the way real models write a DPLL-style search (numbered
branches, "this branch is unsatisfiable", "backtrack") and stopped by the token limit before any
final verdict: no decision. Before, the last intermediate "unsatisfiable" was read as the
formula's UNSAT."""

from __future__ import annotations

import pytest

from logicforge.parse.decision import parse_decision

CUT = [
    "Let's try DPLL.\n\n**Branch 1: x1 = True**\n- Clause 4 (¬x1 ∨ x3) forces x3 = True.\n"
    "- Clause 9 (¬x3 ∨ ¬x1) is violated. So this branch is unsatisfiable.\n\n"
    "Backtrack.\n\n**Branch 2: x1 = False**\n- Clause 2 (x1 ∨ x5) forces x5 = True.\n- Clause",
    "Step 1: Assume x2 = T. Then (¬x2 ∨ x7) gives x7 = T, and (¬x7 ∨ ¬x2) is false → conflict, "
    "this assignment branch is UNSAT.\nStep 2: Assume x2 = F. Then (x2 ∨ x4) gives x4 = T.\n"
    "Step 3: With x4 = T, clause 11 (¬x4 ∨ x9) gives x9 = T. Clause 14 (¬x9 ∨ x3",
    "Case 1: x5 = 1.\n  C3 forces x6 = 0; C8 forces x6 = 1. Contradiction. Case 1 is unsatisfiable.\n"
    "Case 2: x5 = 0.\n  C1 forces x2 = 1; C6 forces x8 = 1; C10",
    "I'll do a systematic search.\n1. x1=T, x2=T: C5 violated ⇒ unsatisfiable branch, backtrack\n"
    "2. x1=T, x2=F: C7 violated ⇒ this branch is UNSATISFIABLE, backtrack\n3. x1=F, x2=T: C2 ok, "
    "C3 ok, C4 requires x3=F, then C9",
    "Unit propagation: none. Pick x3.\n\nx3 = true:\n  (¬x3 ∨ x1) → x1 = true\n  (¬x1 ∨ ¬x3) → "
    "false. Conflict! So x3 = true leads to UNSAT in this branch.\n\nx3 = false:\n  (x3 ∨ x6) → "
    "x6 = true\n  (¬x6 ∨ x2) → x2 = true\n  (¬x2 ∨ x",
    "Trying x4 = True first.\n- C1: satisfied\n- C2: needs x7 = False\n- C3: needs x7 = True → "
    "conflict.\nThis partial assignment is unsatisfiable; backtrack and try x4 = False.\n- C1: "
    "needs x2 = True\n- C5: needs",
    "Sub-problem A (x1 = 0): after propagation the clauses (x2) and (¬x2) remain, so sub-problem "
    "A is unsatisfiable.\nSub-problem B (x1 = 1): propagating, (¬x1 ∨ x3) gives x3 = 1, (¬x3 ∨ x4) "
    "gives x4 = 1, (¬x4 ∨",
    "Decision level 1: x6 = T\nDecision level 2: x2 = F\nConflict on clause 13 — this path is "
    "UNSAT. Learn clause (¬x6 ∨ x2), backtrack to level 1.\nDecision level 1: x6 = T, x2 = T "
    "(implied)\nDecision level 2: x9 = F\nClause 17",
    "Let me test the option x10 = true: it falsifies (¬x10 ∨ ¬x3) when x3 = true, and x3 is "
    "forced by (x3 ∨ ¬x1) with x1 = true. So that option is unsatisfiable as well.\nNow option "
    "x10 = false: (x10 ∨ x12) forces x12 = true. Then (¬x12",
    "### Exploring\n\n- Branch x8=1 → (¬x8∨x11), (¬x11∨¬x8) clash → **UNSAT for this branch**\n"
    "- Branch x8=0 → (x8∨x5) gives x5=1 → (¬x5∨x13) gives x13=1 → (¬x13∨x1",
    "Scenario 1 (x2 true, x9 true): clause 6 fails — scenario is unsatisfiable.\nScenario 2 (x2 "
    "true, x9 false): clause 6 holds, clause 12 needs x4 false, clause 15 needs x4 true — "
    "unsatisfiable scenario too.\nScenario 3 (x2 false, x9 true): clause 3",
    "Attempt 1: set x1=T,x2=T,x3=F. Check C1..C20: C7 = (¬x1 ∨ x3) false. Attempt is UNSAT.\n"
    "Attempt 2: set x1=T,x2=F,x3=T. C1 ok, C2 ok, C3 ok, C4 = (x2 ∨ ¬x3) false. UNSAT for this "
    "choice.\nAttempt 3: set x1=F,x2=T,x3=T. C1",
    "Subcase x4=F: the remaining 2-clauses form the cycle x5→x6→¬x5, and with ¬x5→x5 via C9 the "
    "subcase is unsatisfiable.\nSubcase x4=T: C2 satisfied, C8 requires x6=F, C11",
]

DONE = [  # the same searches finished: the verdict on the formula is read as before
    CUT[0] + " ... Both branches fail.\n\nTherefore, the formula is UNSATISFIABLE.",
    CUT[2] + "... contradiction too. Every case is unsatisfiable.",
    CUT[3] + " ... all four branches fail.\n\n**UNSAT**",
    CUT[5] + " ... conflict.\nFinal answer: UNSATISFIABLE",
]


@pytest.mark.parametrize("text", CUT, ids=[f"cut-{i}" for i in range(len(CUT))])
def test_a_reply_cut_off_mid_search_has_no_decision(text: str) -> None:
    assert len(CUT) >= 12
    decision, why = parse_decision(text)
    assert decision is None, (why, text[-80:])


@pytest.mark.parametrize("text", DONE, ids=[f"done-{i}" for i in range(len(DONE))])
def test_the_finished_search_still_gives_its_verdict(text: str) -> None:
    assert parse_decision(text)[0] == "UNSAT"


def test_a_branch_found_satisfying_is_no_verdict_either() -> None:
    text = "Branch 3: x1=F, x2=F — every clause holds, this branch is satisfiable so far; continue"
    assert parse_decision(text)[0] is None
