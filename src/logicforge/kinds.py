"""Problem kinds other than CNF: how to parse an answer, verify it, and answer as the oracle.

Each reduction module registers its kind here; ``parse_answer`` and ``verify`` dispatch on
``Item.kind`` ("cnf" is handled directly by the core parser and verifier).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import UnknownNameError
from .schema import Answer, Item, Verdict


@dataclass(frozen=True)
class KindSpec:
    name: str
    parse: Callable[[str, list[dict[str, Any]], Item], Answer]  # (body, JSON objects, item)
    verify: Callable[[Item, Answer], Verdict]
    oracle_text: Callable[[Item], str]  # the oracle baseline's reply, in the kind's answer format


KINDS: dict[str, KindSpec] = {}


def register_kind(spec: KindSpec) -> KindSpec:
    KINDS[spec.name] = spec
    return spec


def get_kind(name: str) -> KindSpec:
    if name not in KINDS:
        from . import families, reductions  # noqa: F401  (register the other kinds)
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownNameError("problem kind", name, ["cnf", *KINDS]) from None


def yes_no_verdict(item: Item, answer: Answer, what: str, check: Callable[[Any], str]) -> Verdict:
    """The verdict of a YES/NO kind: the decision against the gold label and, for YES, the
    certificate stored under ``what`` in ``answer.certificate``, checked by ``check`` ('' = valid)."""
    gold = item.gold.get("label")
    correct = answer.decision == gold
    if answer.decision != "SAT":
        return Verdict(correct=correct, reason="" if correct else f"said NO, gold {gold}")
    cert = (answer.certificate or {}).get(what)
    why = f"no {what} given" if cert is None else check(cert)
    reason = (
        ""
        if correct and not why
        else (f"{what} invalid: {why}" if correct else f"said YES, gold {gold}")
    )
    return Verdict(correct=correct, witness_valid=not why, reason=reason)


def yes_no_head(body: str, objs: list[dict[str, Any]]) -> tuple[Answer | None, str]:
    """The shared start of every YES/NO parser: the final Answer for NO or no verdict, or None
    (and the rule) when the reply says YES and its certificate still has to be read."""
    from .parse.decision import parse_decision

    decision, rule = parse_decision(body, objs, vocab="yes-no")
    if decision is None:
        return Answer(parse_error=rule), rule
    if decision != "SAT":
        return Answer(decision="UNSAT", rule=rule), rule
    return None, rule
