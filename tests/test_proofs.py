"""The refutation-proof checker: every proof the reference prover reads off a solver's search on
1,000 small UNSAT formulas is accepted, every single-step mutation of it rejected; RUP lemmas;
the text format as models write it; fuzzed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from pysat.solvers import Minisat22

import logicforge as lf
from logicforge.logic.proofs import (
    ProofError,
    Step,
    check_proof,
    parse_proof,
    proof_text,
)
from logicforge.logic.provers import refute, refute_rup

from .fuzzing import texts


def _unsat_formulas(count: int, seed: int = 0) -> list[tuple[list[tuple[int, ...]], int]]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.integers(3, 7))
        m = int(rng.integers(4 * n, 7 * n))
        cl = []
        for _ in range(m):
            vs = rng.choice(np.arange(1, n + 1), size=min(3, n), replace=False)
            cl.append(tuple(int(v) * (1 if rng.random() < 0.5 else -1) for v in vs))
        with Minisat22(bootstrap_with=cl) as s:
            if not s.solve():
                out.append((cl, n))
    return out


def _mutations(steps: list[Step], k: int, n: int) -> list[tuple[str, list[Step]]]:
    s = steps[k]
    out = []
    others = [v for v in range(1, n + 1) if v != s.pivot]
    if others:
        out.append(("wrong pivot", dataclasses.replace(s, pivot=others[k % len(others)])))
    lit = next((v for v in range(1, n + 1) if v not in s.clause and -v not in s.clause), None)
    if lit is not None:
        out.append(
            ("wrong resolvent (a literal added)", dataclasses.replace(s, clause=s.clause | {lit}))
        )
    if s.clause:
        dropped = s.clause - {min(s.clause, key=abs)}
        out.append(("wrong resolvent (a literal dropped)", dataclasses.replace(s, clause=dropped)))
        out.append(("premature empty clause", dataclasses.replace(s, clause=frozenset())))
    out.append(("missing premise", dataclasses.replace(s, premises=(s.premises[0], "C9999"))))
    later = steps[k + 1].name if k + 1 < len(steps) else None
    if later:
        out.append(
            ("premise from a later step", dataclasses.replace(s, premises=(later, s.premises[1])))
        )
    return [(what, steps[:k] + [m] + steps[k + 1 :]) for what, m in out]


def test_solver_proofs_are_accepted_and_every_single_step_mutation_rejected() -> None:
    formulas = _unsat_formulas(1000)
    mutants = 0
    for cl, n in formulas:
        steps = refute(cl, n)
        assert steps is not None
        res = check_proof(cl, steps)
        assert res.valid and res.valid_steps == res.steps == len(steps), res.reason
        for k in range(len(steps)):
            for what, bad in _mutations(steps, k, n):
                r = check_proof(cl, bad)
                assert not r.valid and r.first_error == k + 1, (what, k, r)
                assert r.valid_steps == k and r.step_fraction == k / len(steps)
                mutants += 1
    assert mutants > 10_000


def test_the_text_format_round_trips_and_reads_model_layouts() -> None:
    cl, n = _unsat_formulas(1, seed=3)[0]
    names = [f"x{i}" for i in range(1, n + 1)]
    steps = refute(cl, n)
    assert steps
    text = proof_text(steps, names)
    back = parse_proof(text, {x: i for i, x in enumerate(names, 1)})
    assert back == steps and check_proof(cl, back).valid
    # as a model writes it: prose, bold, a code fence, other negation and separator marks
    clauses = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    reply = """Let me refute it step by step.
```
**C5 = resolve(C1, C2) on x1: (x2)**
C6 := res(C3, C4) on x1: (~x2)
Step 3: C7 = resolve(C5, C6) on x2: ⊥
```
So the formula is UNSAT."""
    steps = parse_proof(reply, {"x1": 1, "x2": 2})
    assert [s.name for s in steps] == ["C5", "C6", "C7"] and check_proof(clauses, steps).valid
    with pytest.raises(ProofError, match="not a variable"):
        parse_proof("C5 = resolve(C1, C2) on y9: (x2)", {"x1": 1, "x2": 2})
    with pytest.raises(ProofError, match="no proof step"):
        parse_proof("The formula is unsatisfiable because it is.", {"x1": 1})


def test_rup_lemmas_and_the_rules_about_the_empty_clause() -> None:
    clauses = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    names = {"x1": 1, "x2": 2}
    good = parse_proof("L1 = rup: (x2)\nL2 = rup: ()", names)
    assert check_proof(clauses, good).valid
    r = check_proof(clauses[:3], parse_proof("L1 = rup: (x2)\nL2 = rup: ()", names))
    assert not r.valid and r.first_error == 2 and "RUP" in r.reason  # x1 ∧ x2 satisfies C1–C3
    r = check_proof(clauses, parse_proof("L1 = rup: (x1 v x2)", names))
    assert not r.valid and "last step" in r.reason and r.valid_steps == 1
    r = check_proof(clauses, parse_proof("L1 = rup: ()\nL2 = rup: (x1)", names))
    assert not r.valid and r.first_error == 1 and "empty clause must be the last" in r.reason
    r = check_proof(clauses, parse_proof("C2 = rup: (x2)\nL = rup: ()", names))
    assert not r.valid and "already defined" in r.reason
    assert refute([(1,), (-1, 2)], 2) is None  # satisfiable: no refutation


def test_two_sat_contradiction_paths_are_proofs() -> None:
    """A 2-SAT contradiction (x1 → x2 → ¬x1 and ¬x1 → x3 → x1) as resolution steps."""
    clauses = [(-1, 2), (-2, -1), (1, 3), (-3, 1)]
    text = """C5 = resolve(C1, C2) on x2: (¬x1)
C6 = resolve(C3, C4) on x3: (x1)
C7 = resolve(C6, C5) on x1: ()"""
    assert check_proof(clauses, parse_proof(text, {"x1": 1, "x2": 2, "x3": 3})).valid


@settings(max_examples=400, deadline=None)
@given(texts)
def test_the_proof_parser_and_checker_never_crash(text: str) -> None:
    names = {"x1": 1, "x2": 2, "x3": 3}
    try:
        steps = parse_proof(text, names)
    except ProofError:
        return
    r = check_proof([(1, 2), (-1, 2), (1, -2), (-1, -2)], steps)
    assert 0 <= r.valid_steps <= r.steps


def test_rup_refutations_from_dpll_with_propagation_check_on_larger_formulas() -> None:
    import logicforge as lf

    ps = lf.generate(
        "ksat/random", {"n_vars": 20, "alpha": 5.0, "target_label": "UNSAT"}, count=20, seed=2
    )
    for p in ps:
        clauses = [tuple(c) for c in p.problem["clauses"]]
        steps = refute_rup(clauses, p.problem["num_vars"])
        assert steps is not None and not steps[-1].clause
        r = check_proof(clauses, steps)
        assert r.valid, r.reason
        k = len(steps) // 2  # an empty clause before the end is refused at its step
        early = steps[:k] + [dataclasses.replace(steps[k], clause=frozenset())] + steps[k + 1 :]
        assert check_proof(clauses, early).first_error == k + 1 or len(steps) == 1
    assert refute_rup([(1, 2), (-1,)], 2) is None


def test_names_with_commas_and_brackets_and_case_are_read_exactly() -> None:
    names = {"x(0, 0)": 1, "x(0, 1)": 2}
    text = "C5 = resolve(C1, C2) on x(0, 0): (x(0, 1))\nC6 = resolve(C3, C4) on x(0, 0): (¬x(0, 1))\nC7 = resolve(C5, C6) on x(0, 1): ()"
    clauses = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    assert check_proof(clauses, parse_proof(text, names)).valid
    with pytest.raises(ProofError, match="not a variable"):
        parse_proof("L1 = rup: (X1)", {"x1": 1})  # names are case-sensitive


def test_the_2sat_scc_certificate_is_a_valid_proof_and_agrees_with_the_solver() -> None:
    """On 1,000+ unsatisfiable 2-CNFs (random, and the implication-cycle generator's), the two
    implication paths of the SCC certificate, resolved, pass the trusted checker; the 2-SAT
    label agrees with MiniSat's; dropping the final step or a middle premise is rejected."""
    import numpy as np

    import logicforge as lf
    from logicforge.logic.cnf import CNF
    from logicforge.logic.proofs import check_proof
    from logicforge.logic.sat import solve
    from logicforge.logic.twosat import solve_2sat, two_path_proof

    formulas = [
        CNF.from_json(p.problem)
        for p in lf.generate(
            "2sat/implication-cycle", {}, count=40, seed=5, grid={"n_clauses": [5, 20, 60]}
        )
    ]
    rng = np.random.default_rng(7)
    while len(formulas) < 1100:
        nv, m = int(rng.integers(2, 8)), int(rng.integers(3, 24))
        cl = []
        for _ in range(m):
            vs = rng.choice(np.arange(1, nv + 1), size=int(rng.integers(1, 3)), replace=False)
            cl.append(tuple(int(v) if rng.random() < 0.5 else -int(v) for v in vs))
        f = CNF(cl, nv)
        if solve_2sat(f).label == "UNSAT":
            formulas.append(f)
    for f in formulas:
        r = solve_2sat(f)
        assert r.label == solve(f).label == "UNSAT"
        steps = two_path_proof(f, r.witness_var, *r.certificate)
        assert check_proof(f.clauses, steps).valid
        assert not check_proof(f.clauses, steps[:-1]).valid
        if len(steps) > 2:
            k = len(steps) // 2
            broken = [*steps[:k], steps[k].__class__(steps[k].name, "resolve", steps[k].clause,
                      ("C999999", steps[k].premises[1]), steps[k].pivot), *steps[k + 1 :]]  # fmt: skip
            assert not check_proof(f.clauses, broken).valid


def test_drup_refutations_check_and_stay_short_at_scale() -> None:
    """The proof oracle's refutation (Glucose's DRUP lemmas) passes the trusted checker on
    random 3-SAT up to N = 68 (level 10), where DPLL's took up to a minute per formula."""
    from logicforge.logic.provers import refute_drup

    ps = lf.generate("ksat/random", level=10, count=6, seed=110)
    ps += lf.generate("ksat/random", {"n_vars": 30, "alpha": 6.0}, count=3, seed=1)
    unsat = [p for p in ps if p.label == "UNSAT"]
    assert len(unsat) >= 3
    for p in unsat:
        clauses = [tuple(c) for c in p.problem["clauses"]]
        steps = refute_drup(clauses)
        assert steps and steps[-1].clause == frozenset()
        assert check_proof(clauses, steps).valid and len(steps) < 5_000
    sat = next(p for p in ps if p.label == "SAT")
    assert refute_drup([tuple(c) for c in sat.problem["clauses"]]) is None
