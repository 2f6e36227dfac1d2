"""The ``decision+proof`` answer format of the ``cnf`` kind: UNSAT must be shown, not said.

SAT is answered as in ``decision+assignment`` (checked assignment). UNSAT comes with a
refutation over the numbered clauses ``C1 … Cm`` in the text format of
:mod:`logicforge.logic.proofs` — resolution steps and RUP lemmas ending in the empty clause —
checked step by step by the trusted checker.

* ``correct`` — the label equals the gold label (accuracy stays comparable with the other
  formats); ``witness_valid`` — for SAT the assignment satisfies the formula, for UNSAT the proof
  checks out (no proof given: False). ``details`` hold the proof's steps, valid steps, first
  invalid step and why, and its width.
* reward: 0 for a wrong label; SAT as the default rule; UNSAT 1 for a valid proof and 0 otherwise,
  or with ``partial=True`` 1 for a valid proof and otherwise half the fraction of its steps that
  lie on a valid derivation of the empty clause
  (:func:`~logicforge.logic.proofs.refutation_progress`): tautologies, repeats, unused lemmas
  and a proof that never reaches the empty clause earn nothing.
* oracle: for SAT the solver's assignment; for an unsatisfiable 2-CNF the SCC certificate's two
  implication paths resolved into units x and ¬x and then the empty clause
  (:func:`~logicforge.logic.twosat.two_path_proof`); otherwise the RUP lemmas of Glucose's DRUP
  proof (:func:`~logicforge.logic.provers.refute_drup`), up to 20,000 lemmas (beyond that the
  oracle answers UNSAT without a proof and its witness is invalid).

Example:
    >>> import logicforge as lf
    >>> from logicforge.kinds import answer_format, parse_answer, verify
    >>> unsat = {"n_vars": 5, "alpha": 8.0, "target_label": "UNSAT"}
    >>> it = lf.render(lf.generate("ksat/random", unsat, count=1), "formula-proof")[0]
    >>> a = answer_format(it).oracle(it)
    >>> verify(it, parse_answer(answer_format(it).to_text(a, it), it)).witness_valid
    True
"""

from __future__ import annotations

from typing import Any

from ..logic.cnf import CNF
from ..logic.proofs import (
    ProofError,
    Step,
    check_proof,
    parse_proof,
    proof_text,
    refutation_progress,
)
from ..logic.provers import refute_drup
from ..logic.sat import solve
from ..schema import Answer, Item, Verdict
from . import cnf_decision as decision

MAX_LEMMAS = 20_000


def _names(item: Item) -> list[str]:
    by_var = {v: k for k, v in item.mapping.items()}
    n = int(item.problem.get("num_vars") or 0)
    return [by_var.get(v, f"x{v}") for v in range(1, n + 1)]


def _ser(steps: list[Step]) -> list[list[Any]]:
    return [
        [s.name, s.rule, sorted(s.clause, key=lambda x: (abs(x), x)), list(s.premises), s.pivot]
        for s in steps
    ]


def _de(rows: list[list[Any]]) -> list[Step]:
    return [Step(r[0], r[1], frozenset(r[2]), tuple(r[3]), r[4]) for r in rows]


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    a = decision.parse(body, objs, item)
    if a.label != "UNSAT":
        return a
    text = next((o["proof"] for o in objs if isinstance(o.get("proof"), str)), body)
    names = dict(item.mapping)
    names.update({f"x{v}": v for v in item.mapping.values() if f"x{v}" not in names})
    try:
        steps = parse_proof(text, names)
    except ProofError as e:
        if "no proof step" in str(e):
            return a.model_copy(update={"certificate": None})
        return a.model_copy(update={"certificate": {"proof_error": str(e)}})
    return a.model_copy(update={"certificate": {"proof": _ser(steps)}})


def check(item: Item, answer: Answer) -> Verdict:
    if answer.label != "UNSAT":
        return decision.check(item, answer)
    gold = item.gold.get("label")
    correct = gold == "UNSAT"
    cert = answer.certificate or {}
    if "proof" not in cert:
        why = cert.get("proof_error") or "no proof given"
        return Verdict(
            correct=correct,
            witness_valid=False,
            reason=f"proof invalid: {why}" if correct else f"said UNSAT, gold {gold}",
            error_type=None if not correct else "no proof" if not cert else "unreadable proof",
            details={
                "proof_steps": 0,
                "proof_valid_steps": 0,
                "proof_first_error": None,
                "proof_progress_steps": 0,
            },
        )
    clauses = [tuple(c) for c in item.problem["clauses"]]
    steps = _de(cert["proof"])
    r = check_proof(clauses, steps)
    details = {
        "proof_steps": r.steps,
        "proof_valid_steps": r.valid_steps,
        "proof_first_error": r.first_error,
        "proof_width": r.width,
        "proof_progress_steps": r.steps if r.valid else refutation_progress(clauses, steps),
    }
    if not correct:  # a "proof" of a satisfiable formula cannot be valid; said all the same
        return Verdict(
            correct=False,
            witness_valid=False,
            reason=f"said UNSAT, gold {gold}" + (f"; {r.reason}" if r.reason else ""),
            error_type="spurious contradiction",
            details=details,
        )
    return Verdict(
        correct=True,
        witness_valid=r.valid,
        reason="" if r.valid else f"proof invalid: {r.reason}",
        error_type=None if r.valid else "invalid proof step",
        details=details,
    )


def to_text(a: Answer, item: Item) -> str:
    proof = (a.certificate or {}).get("proof")
    if a.label == "UNSAT" and proof:
        return (
            "Proof:\n"
            + proof_text(_de(proof), _names(item))
            + '\nFinal answer:\n{"answer": "UNSAT"}'
        )
    return decision.to_text(a, item)


def oracle(item: Item) -> Answer:
    sol = solve(CNF(item.problem["clauses"], item.problem.get("num_vars")))
    if sol.label != "UNSAT":
        return decision.oracle(item)
    clauses = [tuple(c) for c in item.problem["clauses"]]
    if all(len(c) <= 2 for c in clauses):  # 2-CNF: the SCC certificate's two paths, resolved
        from ..logic.twosat import solve_2sat, two_path_proof

        f = CNF(clauses, item.problem.get("num_vars"))
        r = solve_2sat(f)
        if r.certificate is not None and r.witness_var is not None:
            two = two_path_proof(f, r.witness_var, *r.certificate)
            return Answer(label="UNSAT", certificate={"proof": _ser(two)})
    try:
        steps = refute_drup([tuple(c) for c in item.problem["clauses"]], max_steps=MAX_LEMMAS)
    except ProofError:
        return Answer(label="UNSAT")
    return Answer(label="UNSAT", certificate={"proof": _ser(steps or [])})


def reward(item: Item, a: Answer, v: Verdict, partial: bool) -> float:
    if not v.correct:
        return 0.0
    if a.label != "UNSAT":
        return 1.0 if v.witness_valid else 0.0
    if not partial:
        return 1.0 if v.witness_valid else 0.0
    if v.witness_valid:
        return 1.0
    steps = int(v.details.get("proof_steps") or 0)
    useful = int(v.details.get("proof_progress_steps") or 0)
    return 0.5 * useful / steps if steps else 0.0


def forgeries(item: Item) -> list[tuple[str, Answer]]:
    """Refutations of the right shape that derive nothing: tautologies, the formula's own
    clauses restated, unjustified units resolved to the empty clause, and a valid proof padded
    with an unused lemma in front of a wrong last step."""
    clauses = [frozenset(c) for c in item.problem["clauses"]]
    v = abs(next(iter(clauses[0]))) if clauses and clauses[0] else 1
    taut = [Step(f"L{i}", "rup", frozenset({i, -i})) for i in range(1, 4)]
    restated = [Step(f"L{i}", "rup", c) for i, c in enumerate(clauses[:50], 1) if c]
    units = [
        Step("L1", "rup", frozenset({v})),
        Step("L2", "rup", frozenset({-v})),
        Step("L3", "resolve", frozenset(), ("L1", "L2"), v),
    ]
    out = [("tautology refutation", taut), ("clauses restated", restated)]
    out.append(("unjustified units", units))
    shifted = [Step(f"L{int(s.name[1:]) + 3}", s.rule, s.clause) for s in units[:2]]
    shifted.append(Step("L6", "resolve", frozenset(), ("L4", "L5"), v))
    out.append(("tautologies, then unjustified units", taut + shifted))
    return [
        (name, Answer(label="UNSAT", certificate={"proof": _ser(steps)}))
        for name, steps in out
        if steps and not check_proof([tuple(c) for c in clauses], steps).valid
    ]


def proof_instructions(names: list[str], numbering: str = "", legend: str = "") -> str:
    """The closing instruction of a proof prompt. ``numbering`` says how the prompt's numbered
    items are cited (e.g. ``" (condition i is Ci)"``); ``legend`` how a literal is written when the
    prompt's statements are sentences (e.g. ``Alice`` for "Alice is on the Red team")."""
    ex = ", ".join(f'"{n}": {"true" if i % 2 == 0 else "false"}' for i, n in enumerate(names[:3]))
    return (
        "If a satisfying assignment exists, end with one JSON object on its own line: "
        f'{{"answer": "SAT", "assignment": {{{ex}, ...}}}} giving every variable a value.\n'
        "If none exists, prove it: write a refutation, one step per line, each deriving a new "
        f"clause from the numbered clauses{numbering} and earlier steps, and ending in the empty "
        f"clause (){legend}:\n"
        "  C{k} = resolve(Ci, Cj) on v: (the resolvent)   — v occurs in Ci and negated in Cj\n"
        "  L{k} = rup: (clause)   — a clause unit propagation derives from all clauses so far\n"
        'then end with {"answer": "UNSAT"} on its own line.'
    )
