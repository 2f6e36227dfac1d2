"""Deterministic verification of one parsed answer against the problem (the oracle's check)."""

from __future__ import annotations

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
    if answer.decision is None:
        return Verdict(
            correct=False, parse_failure=True, reason=answer.parse_error or "no decision"
        )
    correct = answer.decision == gold
    if answer.decision != "SAT":
        return Verdict(
            correct=correct, reason="" if correct else f"said {answer.decision}, gold {gold}"
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
    return Verdict(correct=correct, witness_valid=valid, reason=reason)
