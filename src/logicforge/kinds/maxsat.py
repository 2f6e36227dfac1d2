"""The ``maxsat`` certificate format of the ``cnf`` kind: an assignment and how many clauses it
satisfies, right when the count is true and optimal (RC2). The rule of its partial credit is in
:mod:`logicforge.kinds.certificates`.

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 6.0}, count=1, seed=0), "formula-maxsat")[0]
    >>> o, values = optimum(it)
    >>> o <= len(it.problem["clauses"])
    True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..logic import optimum as opt
from ..parse.assignment import parse_assignment
from ..schema import Answer, Item, Verdict
from .base import FINAL, AnswerFormat

if TYPE_CHECKING:
    import numpy as np

COUNT_KEYS = ("satisfied", "satisfied_clauses", "count")


def clauses_of(item: Item) -> list[list[int]]:
    return [list(c) for c in item.problem["clauses"]]


def n_vars_of(item: Item) -> int:
    return int(item.problem.get("num_vars") or 0)


def scored(correct: bool, score: float, **kw: Any) -> Verdict:
    """A certificate verdict: ``witness_valid`` is ``correct``, ``score`` the partial credit."""
    return Verdict(correct=correct, witness_valid=correct, score=score, **kw)


def random_values(item: Item, rng: np.random.Generator) -> dict[int, bool]:
    """A uniformly random value for every named variable."""
    n = len(item.mapping)
    vals = rng.random(n) < 0.5
    return {v: bool(vals[v - 1]) for v in range(1, n + 1)}


@lru_cache(maxsize=4096)
def _optimum(
    clauses: tuple[tuple[int, ...], ...], n: int
) -> tuple[int, tuple[tuple[int, bool], ...]]:
    o, values = opt.maxsat(clauses, n)
    return o, tuple(sorted(values.items()))


def optimum(item: Item) -> tuple[int, dict[int, bool]]:
    """The item's MaxSAT optimum and an assignment reaching it (RC2; cached per formula)."""
    o, values = _optimum(tuple(tuple(c) for c in item.problem["clauses"]), n_vars_of(item))
    return o, dict(values)


def _count(objs: list[dict[str, Any]]) -> int | None:
    for obj in reversed(objs):
        for k in COUNT_KEYS:
            v = obj.get(k)
            if isinstance(v, int) and not isinstance(v, bool):
                return v
    return None


def _max_parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    tw = [w for w, v in item.value_words.items() if v]
    fw = [w for w, v in item.value_words.items() if not v]
    values, unknown, conflict = parse_assignment(body, item.mapping, objs, tw, fw)
    if conflict:
        return Answer(parse_error=conflict)
    if not values:
        return Answer(parse_error="no assignment found")
    claim = _count(objs)
    m = len(item.problem["clauses"])
    reached = claim if claim is not None else opt.satisfied(clauses_of(item), values)
    return Answer(
        label="SAT" if reached == m else "UNSAT",
        assignment=values,
        unknown_names=unknown,
        certificate={"satisfied": claim},
    )


def _max_check(item: Item, answer: Answer) -> Verdict:
    clauses = clauses_of(item)
    o, _ = optimum(item)
    values = answer.assignment or {}
    s = opt.satisfied(clauses, values)
    claim = (answer.certificate or {}).get("satisfied")
    details = {"optimum": o, "satisfied": s, "claimed": claim}
    if answer.unknown_names:
        why = f"unknown names {answer.unknown_names[:5]}"
        return scored(False, 0.0, reason=why, error_type="incomplete witness", details=details)
    if claim != s:
        why = (
            "no count given"
            if claim is None
            else f"claims {claim} satisfied, the assignment satisfies {s}"
        )
        return scored(False, 0.0, reason=why, error_type="false count", details=details)
    if s == o:
        return scored(True, 1.0, details=details)
    r = opt.expected_random(clauses)
    part = 0.5 * min(1.0, max(0.0, (s - r) / (o - r))) if o > r else 0.0
    why = f"not optimal: satisfies {s} of {len(clauses)}, the optimum is {o}"
    return scored(False, part, reason=why, error_type="not optimal", details=details)


def _max_text(a: Answer, item: Item) -> str:
    names = {v: k for k, v in item.mapping.items()}
    obj: dict[str, Any] = {
        "assignment": {names[v]: b for v, b in sorted((a.assignment or {}).items()) if v in names}
    }
    claim = (a.certificate or {}).get("satisfied")
    if claim is not None:
        obj["satisfied"] = claim
    return FINAL + json.dumps(obj)


def _max_answer(item: Item, values: dict[int, bool], claim: int) -> Answer:
    named = set(item.mapping.values())
    m = len(item.problem["clauses"])
    kept = {v: b for v, b in values.items() if v in named}
    return Answer(
        label="SAT" if claim == m else "UNSAT", assignment=kept, certificate={"satisfied": claim}
    )


def _max_oracle(item: Item) -> Answer:
    o, values = optimum(item)
    return _max_answer(item, values, o)


def _max_random(item: Item, rng: np.random.Generator) -> Answer:
    values = random_values(item, rng)
    return _max_answer(item, values, opt.satisfied(clauses_of(item), values))


def _max_constant(item: Item, label: str) -> Answer:
    values = {v: True for v in item.mapping.values()}
    m = len(item.problem["clauses"])
    claim = m if label == "SAT" else opt.satisfied(clauses_of(item), values)
    return _max_answer(item, values, claim)


def _max_wrong(item: Item) -> Answer:
    """The optimal assignment with a count one too high (a false claim earns nothing)."""
    o, values = optimum(item)
    return _max_answer(item, values, o + 1)


def maxsat_format(
    reward: Callable[[Item, Answer, Verdict, bool], float],
    feedback: Callable[[Item, Answer, Verdict], list[str]],
) -> AnswerFormat:
    """The format, with the certificate formats' reward rule and the cnf kind's checker facts."""
    return AnswerFormat(
        "maxsat",
        "certificate",
        _max_parse,
        _max_text,
        _max_check,
        _max_oracle,
        _max_random,
        _max_wrong,
        _max_constant,
        reward=reward,
        feedback=feedback,
    )
