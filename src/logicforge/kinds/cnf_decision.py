"""The ``cnf`` kind's decision formats: the parser, the checker, the reply an exact reader
writes, the oracle and the baselines of ``decision+assignment``, ``decision+stats`` and
``decision+conflict`` (:mod:`.cnf` registers them with the ``decision+proof`` and certificate
formats, which build on these).

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 2.0}, count=1, seed=0))[0]
    >>> a = oracle(it)
    >>> check(it, parse(to_text(a, it), [], it)).correct
    True
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..logic.cnf import CNF
from ..logic.sat import minimal_unsat_core, solve, solve_within
from ..parse.answer import cited_conditions, reported_counts
from ..parse.assignment import parse_assignment
from ..parse.decision import parse_decision
from ..schema import Answer, Item, Verdict
from .base import AnswerFormat
from .feedback import cnf_facts

if TYPE_CHECKING:
    import numpy as np

LABELS = ("SAT", "UNSAT")


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    """Decision, and for SAT the assignment (in the item's names and value words)."""
    decision, rule = parse_decision(body, objs)
    if decision is None:
        return Answer(parse_error=rule)
    stats = reported_counts(body, objs)
    if decision != "SAT":
        cited = cited_conditions(objs)
        return Answer(
            label="UNSAT",
            rule=rule,
            stats=stats,
            certificate={"conflict": cited} if cited is not None else None,
        )
    tw = [w for w, v in item.value_words.items() if v]
    fw = [w for w, v in item.value_words.items() if not v]
    values, unknown, conflict = parse_assignment(body, item.mapping, objs, tw, fw)
    if conflict:
        return Answer(
            label="SAT", rule=rule, assignment=None, unknown_names=unknown, parse_error=conflict
        )
    return Answer(label="SAT", rule=rule, assignment=values, unknown_names=unknown, stats=stats)


def check(item: Item, answer: Answer) -> Verdict:
    """``correct``: the label equals the gold label. ``witness_valid`` (only when the answer says
    SAT): the assignment gives a value to every variable the formula uses and satisfies every
    clause; for UNSAT with cited conditions, they exist and cannot hold together."""
    gold = item.gold.get("label")
    correct = answer.label == gold
    if answer.label != "SAT":
        cited = (answer.certificate or {}).get("conflict")
        if cited is not None:
            return _cited_core(item, correct, gold, cited)
        return Verdict(
            correct=correct,
            reason="" if correct else f"said {answer.label}, gold {gold}",
            error_type=None if correct else "spurious contradiction",
            details={} if correct else {"satbench_error": "condition omission"},
        )
    cnf = CNF(item.problem["clauses"], item.problem.get("num_vars"))
    a = answer.assignment or {}
    used = {abs(x) for c in cnf.clauses for x in c}
    missing = sorted(used - a.keys())
    if answer.assignment is None:
        why = answer.parse_error or "no assignment given"
        valid = False
    elif missing:
        why, valid = f"{len(missing)} variable(s) unassigned", False
    elif answer.unknown_names:
        why, valid = f"unknown names {answer.unknown_names[:5]}", False
    else:
        bad = cnf.falsified(a)
        why = f"{len(bad)} clause(s) falsified (first: #{bad[0]})" if bad else ""
        valid = not bad
    reason = "" if correct else f"said SAT, gold {gold}"
    if correct and not valid:
        reason = f"witness invalid: {why}"
    etype = None
    if "given both values" in (answer.parse_error or ""):
        etype = "context inconsistency"  # a variable assigned both values
    elif not correct:
        etype = "satisfiability bias"  # claimed SAT for an unsatisfiable formula
    elif not valid:
        etype = "condition omission" if "falsified" in why else "incomplete witness"
    # SATBench §5.3's classes: SAT with an invalid assignment is satisfiability bias, conflicting
    # values context inconsistency (the rule classes above stay as error_type)
    paper = (
        None
        if correct and valid
        else "context inconsistency"
        if etype == "context inconsistency"
        else "satisfiability bias"
    )
    return Verdict(
        correct=correct,
        witness_valid=valid,
        reason=reason,
        error_type=etype,
        details={"satbench_error": paper} if paper else {},
    )


MAX_MINIMAL = 2000  # cited cores checked for minimality (one incremental solve per clause)


def _minimal(clauses: list[Any], idx: list[int]) -> bool:
    """Every clause of the unsatisfiable core ``idx`` is needed: the core without it is
    satisfiable (one solver, each clause behind a selector, one solve per clause).

    >>> _minimal([[1], [-1], [2]], [0, 1]), _minimal([[1], [-1], [-1, 2]], [0, 1, 2])
    (True, False)
    """
    from ..logic.sat import new_solver

    top = max((abs(x) for i in idx for x in clauses[i]), default=0)
    sel = {i: top + 1 + k for k, i in enumerate(idx)}
    with new_solver("minisat22", [[-sel[i], *clauses[i]] for i in idx]) as s:
        return all(s.solve(assumptions=[sel[j] for j in idx if j != i]) for i in idx)


def _cited_core(item: Item, correct: bool, gold: Any, cited: list[int]) -> Verdict:
    """UNSAT with cited conditions: do they exist, are they unsatisfiable together, minimal?"""
    clauses = item.problem["clauses"]
    n = item.problem.get("num_vars")
    bad = sorted({i for i in cited if not 1 <= i <= len(clauses)})
    idx = sorted({i - 1 for i in cited if 1 <= i <= len(clauses)})
    unsat = bool(idx) and solve(CNF([clauses[i] for i in idx], n)).label == "UNSAT"
    minimal = unsat and len(idx) <= MAX_MINIMAL and _minimal(clauses, idx)
    details = {
        "cited": len(idx),
        "cited_unsat": unsat,
        "cited_minimal": minimal,
        "nonexistent": bad,
    }
    if not correct:
        return Verdict(
            correct=False,
            reason=f"said UNSAT, gold {gold}",
            error_type="spurious contradiction",
            details=details | {"satbench_error": "condition omission"},
        )
    why = (
        f"cites conditions that do not exist: {bad[:5]}"
        if bad
        else "the cited conditions can hold together"
        if not unsat
        else ""
    )
    return Verdict(
        correct=True,
        witness_valid=not bad and unsat,
        reason=why and f"trace invalid: {why}",
        error_type="condition hallucination" if bad else None if unsat else "invalid core",
        details=details | ({} if unsat and not bad else {"satbench_error": "condition omission"}),
    )


def to_text(a: Answer, item: Item) -> str:
    """The reply an exact reader writes: ``Final answer:`` and one JSON object (UNSAT with a
    conflict is written ``[UNSAT]`` then the object, as the trace renderers ask)."""
    obj: dict[str, Any] = {"answer": a.label, **(a.stats or {})}
    conflict = (a.certificate or {}).get("conflict")
    if a.label == "UNSAT" and conflict is not None:
        return "[UNSAT]\n" + json.dumps(obj | {"conflict": conflict})
    if a.label == "SAT" and a.assignment is not None:
        names = {v: k for k, v in item.mapping.items()}
        obj["assignment"] = {names[v]: a.assignment[v] for v in sorted(a.assignment) if v in names}
    return "Final answer:\n" + json.dumps(obj)


def _cnf(item: Item) -> CNF:
    return CNF(item.problem["clauses"], item.problem.get("num_vars"))


def oracle(item: Item, *, stats: bool = False, conflict: bool = False) -> Answer:
    sol = solve(_cnf(item), stats=stats)
    if sol.label == "UNKNOWN":
        return Answer(parse_error="the solver timed out")
    if sol.label == "UNSAT" and conflict:  # cite a minimal core
        core = minimal_unsat_core(
            [list(c) for c in item.problem["clauses"]], item.problem.get("num_vars") or 0
        )
        return Answer(label="UNSAT", certificate={"conflict": [i + 1 for i in core]})
    counts = (
        {"branches": sol.stats["decisions"], "conflicts": sol.stats["conflicts"]} if stats else None
    )
    named = set(item.mapping.values())
    values = (
        {v: b for v, b in (sol.assignment or {}).items() if v in named}
        if sol.label == "SAT"
        else None
    )
    return Answer(label=sol.label, assignment=values, stats=counts)


def random(item: Item, rng: np.random.Generator) -> Answer:
    """A fair coin; for SAT a uniformly random assignment of every named variable."""
    if rng.random() < 0.5:
        n = len(item.mapping)
        vals = rng.random(n) < 0.5
        return Answer(label="SAT", assignment={v: bool(vals[v - 1]) for v in range(1, n + 1)})
    return Answer(label="UNSAT")


def constant(item: Item, label: str) -> Answer:
    """The always-SAT (all variables true) and always-UNSAT answers."""
    if label == "SAT":
        return Answer(label="SAT", assignment={v: True for v in item.mapping.values()})
    return Answer(label="UNSAT")


def wrong(item: Item) -> Answer:
    """The opposite label (SAT with an all-true assignment on an UNSAT formula)."""
    return constant(item, "UNSAT" if item.gold.get("label") == "SAT" else "SAT")


def budgeted(item: Item, conflicts: int) -> Answer | None:
    """The decision (and assignment) MiniSat reaches within ``conflicts`` conflicts, else None."""
    sol = solve_within(_cnf(item), conflicts)
    if sol.label == "UNKNOWN":
        return None
    named = set(item.mapping.values())
    values = {v: b for v, b in (sol.assignment or {}).items() if v in named}
    return Answer(label=sol.label, assignment=values if sol.label == "SAT" else None)


def decision_format(name: str, **oracle_kw: bool) -> AnswerFormat:
    return AnswerFormat(
        name,
        "binary",
        parse,
        to_text,
        check,
        lambda it: oracle(it, **oracle_kw),
        random,
        wrong,
        constant,
        budgeted=budgeted,
        feedback=cnf_facts,
        justified=bool(oracle_kw.get("conflict")),
        reward=conflict_reward if oracle_kw.get("conflict") else None,
        certifies=("SAT", "UNSAT") if oracle_kw.get("conflict") else ("SAT",),
        forgeries=cite_everything if oracle_kw.get("conflict") else None,
    )


def cite_everything(item: Item) -> list[tuple[str, Answer]]:
    """The core any policy can cite on any UNSAT item: every condition."""
    m = len(item.problem.get("clauses") or ())
    return [
        (
            "every condition cited",
            Answer(label="UNSAT", certificate={"conflict": list(range(1, m + 1))}),
        )
    ]


def conflict_reward(item: Item, a: Answer, v: Verdict, partial: bool) -> float:
    """The certified reward of ``decision+conflict``: SAT with an assignment that checks; UNSAT
    with cited conditions that form a *minimal* unsatisfiable core (citing every condition is
    a true core for any UNSAT formula, so it earns nothing); with ``partial``, an unsatisfiable
    but not minimal core earns half the fraction of the conditions it leaves out — citing every
    condition, which any policy can, earns 0."""
    if v.parse_failure or not v.correct or not v.witness_valid:
        return 0.0
    if a.label == "SAT" or v.details.get("cited_minimal"):
        return 1.0
    if not partial:
        return 0.0
    m = len(item.problem.get("clauses") or ())
    cited = int(v.details.get("cited") or 0)
    return 0.5 * (m - cited) / m if m else 0.0
