"""What a checker can tell a model about its wrong answer, without giving the answer away.

:func:`feedback` is what the ``repair`` strategy (:mod:`logicforge.strategies.repair`) says after
a wrong answer. An answer format may define ``feedback(item, answer, verdict) -> facts``: short
sentences drawn from the solver (the clauses an assignment leaves false, a model of a set claimed
contradictory, the clauses a core does not need, the first invalid proof step, the clues a grid
breaks); a format without one, or a wrong answer it has nothing precise about, gets the plain
"wrong, try again". No fact names the gold label of a multiple-choice item or the solution.

This module also holds the facts of every ``cnf`` answer format (:func:`cnf_facts`).

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=1, seed=0))[0]
    >>> from logicforge.kinds import parse_answer, verify
    >>> a = parse_answer('{"answer": "SAT", "assignment": {"x1": true}}', it)
    >>> print(feedback(it, a, verify(it, a)).splitlines()[1])
    - x2, x3, x4 have no value
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..schema import Answer, Item, Verdict
from .base import answer_format

RETRY = (
    "Your answer is wrong. Try again, and end with your final answer in exactly the requested "
    "JSON format."
)
HEAD = "Your answer is wrong. A checker found:"
TAIL = "Correct your answer, and end with it in exactly the requested JSON format."
MAX_FACTS = 5


def solved(verdict: Verdict) -> bool:
    """The answer is wholly right: the right label with a witness that checks out (where one is
    asked for) and full credit (where the format gives partial credit)."""
    return (
        verdict.correct
        and verdict.witness_valid is not False
        and verdict.score in (None, 1.0)
        and not verdict.excluded
    )


def facts(item: Item, answer: Answer, verdict: Verdict) -> list[str]:
    """The precise facts about an answer that is not wholly right ([] when there are none)."""
    if solved(verdict):
        return []
    if verdict.parse_failure:
        why = answer.parse_error or verdict.reason or "nothing could be read"
        return [f"your reply has no answer in the requested format ({why})"]
    own = answer_format(item).feedback
    return list(own(item, answer, verdict))[:MAX_FACTS] if own is not None else []


def feedback(item: Item, answer: Answer, verdict: Verdict, also: Sequence[str] = ()) -> str:
    """The message after a wrong answer: the checker's facts (``also`` first: facts about the
    reply itself, e.g. that it was cut off), or :data:`RETRY` without any."""
    return message([*also, *facts(item, answer, verdict)])


def message(found: Sequence[str]) -> str:
    """The message that tells ``found`` (:data:`RETRY` when there is nothing to tell)."""
    if not found:
        return RETRY
    return "\n".join([HEAD, *(f"- {f}" for f in found), TAIL])


# -- the cnf kind's formats ---------------------------------------------------------------------


def _names(item: Item) -> dict[int, str]:
    return {v: k for k, v in item.mapping.items()}


def _clause(item: Item, i: int) -> str:
    names = _names(item)
    c = item.problem["clauses"][i]
    lits = " ∨ ".join(("¬" if x < 0 else "") + names.get(abs(x), f"x{abs(x)}") for x in c)
    return f"clause {i + 1} ({lits})"


def _values(item: Item, values: dict[int, bool], among: set[int]) -> str:
    names = _names(item)
    shown = [f"{names[v]} = {str(values[v]).lower()}" for v in sorted(among) if v in names]
    return ", ".join(shown[:12]) + (" …" if len(shown) > 12 else "")


def _false_clauses(item: Item, values: dict[int, bool]) -> list[str]:
    from ..logic.cnf import CNF

    bad = CNF.from_json(item.problem).falsified(values)
    out = [f"{_clause(item, i)} is false under your assignment" for i in bad[:MAX_FACTS]]
    if len(bad) > MAX_FACTS:
        out[-1] += f" (and {len(bad) - MAX_FACTS + 1} more clauses are false)"
    return out


def _model_of(item: Item, idx: list[int]) -> str | None:
    """A model of the clauses ``idx`` (0-based), over their variables, or None when there is none."""
    from ..logic.cnf import CNF
    from ..logic.sat import solve

    sub = [tuple(item.problem["clauses"][i]) for i in idx]
    sol = solve(CNF(sub, int(item.problem.get("num_vars") or 0)))
    if sol.assignment is None:
        return None
    return _values(item, sol.assignment, {abs(x) for c in sub for x in c})


def _cited(item: Item, answer: Answer) -> tuple[str, list[int], list[int]] | None:
    """The cited set's key, its clauses (0-based) and the numbers that name no clause."""
    cert = answer.certificate or {}
    for key in ("conflict", "mus", "mcs"):
        if isinstance(cert.get(key), list):
            m = len(item.problem["clauses"])
            bad = sorted({i for i in cert[key] if not 1 <= i <= m})
            return key, sorted({i - 1 for i in cert[key] if 1 <= i <= m}), bad
    return None


def cnf_facts(item: Item, answer: Answer, verdict: Verdict) -> list[str]:
    """Facts about a wrong answer to a CNF item, in the item's own variable names."""
    d = verdict.details
    if answer.label == "SAT" or "satisfied" in (answer.certificate or {}):
        values = answer.assignment or {}
        if answer.unknown_names:
            return [f"these names are not variables of the formula: {answer.unknown_names[:5]}"]
        if not values:
            return ["no assignment was given"]
        out = []
        if "optimum" in d:  # MaxSAT
            claim, s, o = d.get("claimed"), d["satisfied"], d["optimum"]
            if claim != s:
                out.append(
                    f"your assignment satisfies {s} clauses, not {claim}"
                    if claim is not None
                    else "you did not say how many clauses your assignment satisfies"
                )
            if s < o:
                out.append(f"an assignment satisfying more than {s} clauses exists")
            return out + _false_clauses(item, values)[: MAX_FACTS - len(out)]
        used = {abs(x) for c in item.problem["clauses"] for x in c}
        missing = sorted(used - values.keys())
        if missing:
            names = _names(item)
            return [", ".join(names.get(v, f"x{v}") for v in missing[:12]) + " have no value"]
        return _false_clauses(item, values)
    if "proof_first_error" in d and verdict.reason:
        return [verdict.reason.removeprefix("proof invalid: ")]
    cited = _cited(item, answer)
    if cited is None:
        return ["all the clauses can hold at once"] if item.gold.get("label") == "SAT" else []
    key, idx, bad = cited
    if bad:
        return [f"the formula has no clause {', '.join(map(str, bad[:5]))}"]
    if key == "mcs":
        rest = [j for j in range(len(item.problem["clauses"])) if j not in set(idx)]
        if d.get("valid") is False:  # the checker found the clauses left unsatisfiable
            from ..logic.optimum import mus

            core = mus([item.problem["clauses"][j] for j in rest], int(item.problem["num_vars"]))
            nums = ", ".join(str(rest[j] + 1) for j in core)
            return [f"without your clauses, clauses {nums} still cannot all hold together"]
        return _needless(item, idx, d, "can be kept: the rest still holds with it")
    model = _model_of(item, idx) if idx else None
    if idx and model is not None:
        return [f"the clauses you cited can all hold together, e.g. {model}"]
    if not idx:
        return ["you cited no clause"]
    return _needless(item, idx, d, "is not needed: the others already cannot hold together")


def _needless(item: Item, idx: list[int], d: dict[str, Any], what: str) -> list[str]:
    """Members of a set that is valid but not minimal: those outside the minimal set the
    checker found inside it (``details["inside"]``, clause numbers)."""
    inside = d.get("inside")
    if d.get("minimal") or not isinstance(inside, list):
        return []
    spare = [i for i in idx if i + 1 not in set(inside)]
    return [f"{_clause(item, i)} {what}" for i in spare[:MAX_FACTS]]
