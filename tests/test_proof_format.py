"""The ``decision+proof`` answer format: UNSAT with a checked refutation, through render → parse
→ verify → reward, on oracle, wrong, partial and model-written replies."""

from __future__ import annotations

import logicforge as lf
from logicforge.kinds import answer_format, parse_answer, verify
from logicforge.metrics.reward import reward


def _items() -> tuple[lf.Item, lf.Item]:
    unsat = lf.generate(
        "ksat/random", {"n_vars": 6, "alpha": 8.0, "target_label": "UNSAT"}, count=1, seed=1
    )
    sat = lf.generate(
        "ksat/random", {"n_vars": 6, "alpha": 2.0, "target_label": "SAT"}, count=1, seed=1
    )
    return lf.render(unsat, "formula-proof")[0], lf.render(sat, "formula-proof")[0]


def _oracle_text(it: lf.Item) -> str:
    f = answer_format(it)
    return f.to_text(f.oracle(it), it)


def test_the_prompt_numbers_the_clauses_and_asks_for_a_proof() -> None:
    u, _ = _items()
    text = u.messages[0].content
    assert "C1: (" in text and f"C{len(u.problem['clauses'])}: (" in text
    assert "resolve(Ci, Cj) on v" in text and "rup" in text and u.answer_format == "decision+proof"


def test_oracle_proofs_score_one_and_wrong_answers_zero() -> None:
    u, s = _items()
    for it in (u, s):
        v = verify(it, parse_answer(_oracle_text(it), it))
        assert v.correct and v.witness_valid
        assert (
            reward(it, _oracle_text(it)) == 1.0
            and reward(it, _oracle_text(it), partial=True) == 1.0
        )
    assert reward(s, _oracle_text(u)) == 0.0  # a "proof" of UNSAT for a satisfiable formula
    assert reward(u, '{"answer": "SAT", "assignment": {"x1": true}}') == 0.0


def test_partial_credit_follows_the_documented_rule() -> None:
    """Partial credit is half the fraction of steps on a valid derivation of the empty clause:
    a wrong step the derivation does not need costs its share; a wrong step it needs, like a
    proof that never reaches the empty clause or one of tautologies, earns nothing."""
    u, _ = _items()
    lines = _oracle_text(u).splitlines()
    steps = [i for i, x in enumerate(lines) if " = rup: " in x]
    assert len(steps) >= 4
    # a wrong step put in before the third: the oracle's refutation is still there, unharmed
    extra = list(lines)
    extra.insert(steps[2], "J1 = resolve(C1, C9999) on x1: (x1)")
    text = "\n".join(extra)
    v = verify(u, parse_answer(text, u))
    assert v.correct and not v.witness_valid and v.details["proof_first_error"] == 3
    n = v.details["proof_steps"]
    used = v.details["proof_progress_steps"]
    assert reward(u, text) == 0.0
    assert 0 < used <= n - 1 and reward(u, text, partial=True) == 0.5 * used / n
    # the third step replaced by a wrong one: the empty clause no longer follows — 0
    bad = list(lines)
    bad[steps[2]] = bad[steps[2]].split(" = ")[0] + " = resolve(C1, C9999) on x1: (x1)"
    text = "\n".join(bad)
    v = verify(u, parse_answer(text, u))
    assert v.correct and not v.witness_valid and v.details["proof_first_error"] == 3
    assert reward(u, text, partial=True) == 0.0
    # tautologies only (they earned 0.5 on any UNSAT item): nothing
    taut = 'L1 = rup: (x1 ∨ ¬x1)\nL2 = rup: (x2 ∨ ¬x2)\nFinal answer:\n{"answer": "UNSAT"}'
    v = verify(u, parse_answer(taut, u))
    assert v.details["proof_valid_steps"] == 2 and reward(u, taut, partial=True) == 0.0
    # UNSAT with no proof at all: right label, no credit for the certificate
    v = verify(u, parse_answer('{"answer": "UNSAT"}', u))
    assert v.correct and v.witness_valid is False and v.error_type == "no proof"
    assert reward(u, '{"answer": "UNSAT"}', partial=True) == 0.0


def test_model_written_proofs_are_read() -> None:
    clauses = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    p = lf.LabelledProblem(
        problem_id="hand",
        family="hand",
        kind="cnf",
        params={},
        seed=0,
        spawn_key=[0, 0],
        problem={"clauses": [list(c) for c in clauses], "num_vars": 2},
        label="UNSAT",
    )
    it = lf.render([p], "formula-proof")[0]
    reply = """Let me think. Every combination of x1 and x2 fails, so:
```
**C5 = resolve(C1, C2) on x1: (x2)**
C6 = resolve(C3, C4) on x1: (~x2)
C7 = resolve(C5, C6) on x2: ⊥
```
**Final answer:** {"answer": "UNSAT"}"""
    v = verify(it, parse_answer(reply, it))
    assert v.correct and v.witness_valid and v.details["proof_steps"] == 3
    unreadable = 'C5 = resolve(C1) on x1: (x2)\n{"answer": "UNSAT"}'
    v = verify(it, parse_answer(unreadable, it))
    assert v.correct and not v.witness_valid and v.error_type == "unreadable proof"
