"""Deterministic verification of one parsed answer against the problem (the oracle's check)."""

from __future__ import annotations

from typing import Any

from ..logic.cnf import CNF
from ..schema import Answer, Item, Verdict


def verify(item: Item, answer: Answer) -> Verdict:
    """Score ``answer`` for ``item``.

    ``correct``: the decision equals the gold label. ``witness_valid`` (only when the model says
    SAT): the assignment gives a value to every variable the formula uses and satisfies every clause.

    Example:
        >>> from logicforge.schema import Message
        >>> it = Item(item_id="i", problem_id="p", family="f", kind="cnf", params={}, seed=0,
        ...           rendering="formula", messages=[Message(role="user", content="?")],
        ...           gold={"label": "SAT"}, mapping={"x1": 1}, problem={"clauses": [[1]], "num_vars": 1})
        >>> verify(it, Answer(decision="SAT", assignment={1: False})).witness_valid
        False
    """
    gold = item.gold.get("label")
    if gold == "UNKNOWN":
        return Verdict(
            correct=False,
            excluded=True,
            reason="gold label unknown (the solver timed out): excluded from scoring",
        )
    if answer.decision is None:
        return Verdict(
            correct=False, parse_failure=True, reason=answer.parse_error or "no decision"
        )
    if item.kind != "cnf":
        from ..kinds import get_kind

        return get_kind(item.kind).verify(item, answer)
    correct = answer.decision == gold
    if answer.decision != "SAT":
        cited = (answer.certificate or {}).get("conflict")
        if cited is not None:
            return _cited_core(item, correct, gold, cited)
        return Verdict(
            correct=correct,
            reason="" if correct else f"said {answer.decision}, gold {gold}",
            error_type=None if correct else "spurious contradiction",
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
    return Verdict(correct=correct, witness_valid=valid, reason=reason, error_type=etype)


def _cited_core(item: Item, correct: bool, gold: Any, cited: list[int]) -> Verdict:
    """UNSAT with cited conditions: do they exist, are they unsatisfiable together, minimal?"""
    from ..logic.sat import solve

    clauses = item.problem["clauses"]
    n = item.problem.get("num_vars")
    bad = sorted({i for i in cited if not 1 <= i <= len(clauses)})
    idx = sorted({i - 1 for i in cited if 1 <= i <= len(clauses)})
    unsat = bool(idx) and solve(CNF([clauses[i] for i in idx], n)).label == "UNSAT"
    minimal = (
        unsat
        and len(idx) <= 64
        and all(solve(CNF([clauses[j] for j in idx if j != i], n)).label == "SAT" for i in idx)
    )
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
            details=details,
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
        details=details,
    )
