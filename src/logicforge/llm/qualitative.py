"""Qualitative coding of reasoning by an LLM judge (the symbolic-edits paper, §5 "Qualitative
study" and Appendix H): four binary codes with a justification for every 0 (PF, IV, AC, AL;
:data:`CODES`). :func:`code_records` asks the judge (schema-validated, retried, errors recorded
on the record as ``extra.qualitative.error``); the tables over the coded records are pure and
live in :mod:`logicforge.metrics.qualitative`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..models.base import Model
from ..schema import Item, Record
from .judge import Judge, judge_records

CODES = {
    "PF": "Premise Fidelity: does the reasoning use only the information provided in the "
    "original question?",
    "IV": "Inference Validity: do the reasoning steps logically follow from the given premises "
    "and from prior reasoning steps?",
    "AC": "Answer Completion: does the reasoning include the necessary intermediate steps "
    "needed to support the conclusion?",
    "AL": "Answer Alignment: is the final answer supported by the reasoning?",
}
INSTRUCTIONS = (
    "You evaluate the reasoning of a model on a logical reasoning question. Score each criterion "
    "1 (yes) or 0 (no):\n"
    + "\n".join(f"- {k}: {v}" for k, v in CODES.items())
    + "\nFor every criterion scored 0, give a one-sentence justification."
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **{k: {"type": "integer", "enum": [0, 1]} for k in CODES},
        "justifications": {
            "type": "object",
            "properties": {k: {"type": "string"} for k in CODES},
        },
    },
    "required": list(CODES),
}
# negatively connoted words (the paper's Table 14 highlights, and their close kin)


async def code_record(rec: Record, item: Item, judge: Model) -> Record:
    """Code one record's reasoning; the result (or the judge error) goes to ``extra``."""
    if rec.text is None:
        return rec
    question = "\n\n".join(m.content for m in item.messages if m.role == "user")
    j = Judge(judge, SCHEMA, INSTRUCTIONS, retries=2, max_tokens=400)
    res = await j.ask(
        f"=== Question ===\n{question}\n\n=== Reasoning ===\n{rec.text[-8000:]}",
        key=f"{rec.record_id}:qualitative",
    )
    q: dict[str, Any] = {"judge": res.judge, "prompt": res.prompt, "error": res.error}
    if res.verdict is not None:
        q["scores"] = {k: int(res.verdict[k]) for k in CODES}
        js = res.verdict.get("justifications") or {}
        q["justifications"] = {k: str(js[k]) for k in CODES if k in js and q["scores"][k] == 0}
    return rec.model_copy(update={"extra": rec.extra | {"qualitative": q}})


def code_records(
    records: Sequence[Record],
    items: Sequence[Item],
    judge: str | Model,
    *,
    concurrency: int = 4,
    on_done: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Code every record whose item is known (order kept); ``on_done`` receives each coded
    record as soon as it is ready."""
    return judge_records(records, items, judge, code_record, concurrency, on_done)
