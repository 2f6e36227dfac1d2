"""Reading and checking an answer for any Item, through its kind's answer format.

Both functions never raise: a parser or verifier bug becomes a recorded parse failure or
verifier error on the record, never an aborted run.
"""

from __future__ import annotations

from ..parse.answer import MAX_CHARS, prepare
from ..parse.jsonish import strict_json
from ..schema import Answer, Item, Verdict
from .base import answer_format

VERIFIER_ERROR = "verifier error"


def parse_answer(text: str | None, item: Item, strict: bool | None = None) -> Answer:
    """Read the answer in ``text`` for ``item`` (its label and, where the format asks, a witness).
    Near-JSON (a Python dict, ``"Solution"``, a grid without its key) is read where it is
    unambiguous; ``strict=True`` reads strict JSON only (None: as
    :func:`~logicforge.parse.jsonish.strict_json` or ``LOGICFORGE_STRICT_JSON`` say).

    Example:
        >>> from logicforge.schema import Item, Message
        >>> it = Item(item_id="i", problem_id="p", family="f", kind="cnf", params={}, seed=0,
        ...           rendering="formula", messages=[Message(role="user", content="?")],
        ...           gold={"label": "SAT"}, mapping={"x1": 1}, problem={})
        >>> parse_answer('{"answer": "SAT", "assignment": {"x1": true}}', it).assignment
        {1: True}
    """
    if strict is not None:
        with strict_json(strict):
            return parse_answer(text, item)
    try:
        if text is None:
            return Answer(parse_error="no response text")
        if len(text) > MAX_CHARS:
            text = text[-MAX_CHARS:]
        body, objs = prepare(text, item)
        dup = getattr(objs, "conflicts", None)
        if dup:  # two values for one key: which one the model meant cannot be known
            return Answer(
                parse_error=f"ambiguous: a JSON object gives {dup[0]!r} twice with different values"
            )
        return answer_format(item).parse(body, objs, item)
    except Exception as e:  # a parser bug must never take a run down; record it
        return Answer(parse_error=f"parser error: {type(e).__name__}: {e}")


def verify(item: Item, answer: Answer) -> Verdict:
    """Score ``answer`` for ``item``: ``correct`` (the label equals the gold label and, for grids,
    every cell is right), ``witness_valid`` where a witness is expected, partial ``score`` where
    the format defines one. An item whose gold label is unknown (solver time-out) is excluded.

    Example:
        >>> from logicforge.schema import Item, Message
        >>> it = Item(item_id="i", problem_id="p", family="f", kind="cnf", params={}, seed=0,
        ...           rendering="formula", messages=[Message(role="user", content="?")],
        ...           gold={"label": "SAT"}, mapping={"x1": 1}, problem={"clauses": [[1]], "num_vars": 1})
        >>> verify(it, Answer(label="SAT", assignment={1: False})).witness_valid
        False
    """
    if item.gold.get("label") == "UNKNOWN":
        return Verdict(
            correct=False,
            excluded=True,
            reason="gold label unknown (the solver timed out): excluded from scoring",
        )
    if answer.label is None:
        return Verdict(correct=False, parse_failure=True, reason=answer.parse_error or "no answer")
    try:
        return answer_format(item).check(item, answer)
    except Exception as e:  # a verifier bug is recorded on the record, never fatal
        return Verdict(
            correct=False,
            reason=f"{VERIFIER_ERROR}: {type(e).__name__}: {e}",
            error_type=VERIFIER_ERROR,
        )
