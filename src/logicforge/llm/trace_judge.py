"""A judge for free-text traces, with the solver keeping the last word (SATBench §3.4).

Two jobs, both optional layers over the deterministic verdict:

* **Assignment extraction.** A SAT answer whose assignment could not be read structurally (none,
  or variables missing) goes to the judge, which translates the reasoning into an assignment over
  the item's names. The *solver* then checks that assignment against every clause — the judge
  only reads, it never decides validity. The verdict's ``witness_valid`` and ``details`` record
  the outcome with ``assignment_source: judge``.
* **Error classes.** A wrong answer that no rule could classify (e.g. UNSAT claimed for a
  satisfiable formula without a checkable citation) gets one of SATBench's classes from the judge
  (satisfiability bias, context inconsistency, condition omission, spurious priors, other) as
  ``details.judge_error_type`` — next to the rule-decided ``error_type``, never replacing it.
* **SATBench's own reading.** SATBench's judge reads a variable the trace never settles as
  false; ``details.satbench_trace_valid`` records whether the judge-extracted assignment, so
  completed, satisfies every clause (the solver checks it) — beside logicforge's stricter
  ``judge_assignment_valid``, which calls an unsettled variable a gap. SATBench's Table 4 reports
  the former (``satbench_table4`` shows both where a judge ran).
* **Core second opinion.** For a right UNSAT answer the judge sees the conditions, the trace and
  a computed minimal unsatisfiable core, and says whether the reasoning identifies a real
  conflict (the paper's judge-against-core comparison). It is stored beside the deterministic
  cited-core check (``details.judge_core_valid``), never instead of it, so the two can be compared.

Judge failures (no JSON, wrong schema, backend errors — after retries) are recorded on the record
as ``extra.trace_judge.error``; the verdict is then left as it was.

The pure summary of what the judge did is :func:`logicforge.metrics.trace_judge.judged_summary`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import CertificationError
from ..llm.judge import Judge, judge_records
from ..logic.cnf import CNF
from ..logic.sat import minimal_unsat_core
from ..models.base import Model
from ..schema import Item, Record

EXTRACT = (
    "You read a solver's reasoning about a logic puzzle and report the final truth value it gives "
    "to each variable. Use only values the reasoning commits to; leave out variables it never "
    "settles. Do not solve the puzzle yourself."
)
CORE = (
    "You check a proof that some conditions cannot all hold together. You are given the "
    "conditions, the proof, and one minimal set of conditions that is known to be contradictory. "
    "Answer valid=true only if the proof derives a real contradiction from the conditions (it "
    "need not use exactly the given set), and false if it relies on a misreading, a skipped "
    "condition or a made-up fact."
)


def _conditions(item: Item) -> str:
    text = item.messages[-1].content
    for head in ("Conditions:\n", "Clues:\n"):
        if head in text:
            return text.split(head, 1)[1].split("\n\n", 1)[0]
    return text


async def _consult(
    rec: Record,
    judge: Model,
    task: str,
    schema: dict[str, Any],
    instructions: str,
    content: str,
    max_tokens: int = 256,
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """Ask the judge one task about ``rec``: (its verdict or None, the record's new ``extra``
    with the judge's prompt, replies and any error under ``trace_judge``)."""
    res = await Judge(judge, schema, instructions, retries=2, max_tokens=max_tokens).ask(
        content, key=f"{rec.record_id}:{task}"
    )
    return res.verdict, rec.extra | {"trace_judge": res.to_json() | {"task": task}}


def _updated(rec: Record, extra: dict[str, Any], **verdict: Any) -> Record:
    """``rec`` with a new ``extra`` and its verdict updated (``details`` are merged)."""
    if rec.verdict is None:
        raise CertificationError("certification failed: a judged record has a verdict")
    if "details" in verdict:
        verdict["details"] = rec.verdict.details | verdict["details"]
    return rec.model_copy(
        update={"extra": extra, "verdict": rec.verdict.model_copy(update=verdict)}
    )


@functools.lru_cache(maxsize=256)
def _mus(clauses: tuple[tuple[int, ...], ...], n_vars: int) -> list[int]:
    """1-based condition numbers of a minimal unsatisfiable core (one per formula, cached:
    every model's and sample's record of an item shares it)."""
    return [i + 1 for i in minimal_unsat_core([list(c) for c in clauses], n_vars)]


async def judge_record(rec: Record, item: Item, judge: Model) -> Record:
    """One record through the judge (when it needs one); returns the updated record."""
    a, v = rec.answer, rec.verdict
    if a is None or v is None or rec.text is None or "clauses" not in item.problem:
        return rec
    used = {abs(x) for c in item.problem["clauses"] for x in c}
    if a.label == "SAT" and (a.assignment is None or used - a.assignment.keys()):
        return await extract_assignment(rec, item, judge, used)
    if not v.correct and v.error_type in (None, "spurious contradiction"):
        return await classify_error(rec, item, judge)
    if a.label == "UNSAT" and v.correct:
        return await core_opinion(rec, item, judge)
    return rec


async def extract_assignment(rec: Record, item: Item, judge: Model, used: set[int]) -> Record:
    """The judge reads an assignment out of free text; the solver checks it."""
    if rec.verdict is None or rec.text is None:
        raise CertificationError("certification failed: a judged record has a verdict and a text")
    names = list(item.mapping)
    schema = {
        "type": "object",
        "properties": {
            "assignment": {
                "type": "object",
                "properties": {nm: {"type": "boolean"} for nm in names},
            }
        },
        "required": ["assignment"],
    }
    verdict, extra = await _consult(
        rec,
        judge,
        "extract",
        schema,
        EXTRACT,
        f"Variables: {', '.join(names)}\n\nReasoning:\n{rec.text[-6000:]}",
        max_tokens=64 + 16 * len(names),
    )
    if verdict is None:
        return rec.model_copy(update={"extra": extra})
    got = {item.mapping[k]: bool(x) for k, x in verdict["assignment"].items() if k in item.mapping}
    missing = sorted(used - got.keys())
    cnf = CNF(item.problem["clauses"], item.problem.get("num_vars"))
    bad = cnf.falsified(got) if not missing else []
    valid = not missing and not bad
    why = (
        f"judge-extracted assignment leaves {len(missing)} variable(s) unset"
        if missing
        else f"judge-extracted assignment falsifies {len(bad)} clause(s)"
        if bad
        else ""
    )
    completed = {v: got.get(v, False) for v in used}  # SATBench: unmentioned reads as false
    upd: dict[str, Any] = {
        "details": {
            "assignment_source": "judge",
            "judge_assignment_valid": valid,
            "satbench_trace_valid": not cnf.falsified(completed),
        }
    }
    if rec.verdict.correct:
        upd |= {"witness_valid": valid, "reason": f"witness invalid: {why}" if why else ""}
        if valid and rec.verdict.error_type in ("incomplete witness", "condition omission"):
            upd["error_type"] = None
    return _updated(rec, extra, **upd)


async def core_opinion(rec: Record, item: Item, judge: Model) -> Record:
    """The paper's judge-against-core opinion on a right UNSAT answer, beside the cited-core check."""
    if rec.text is None:
        raise CertificationError("certification failed: a judged record has a response text")
    clauses = item.problem["clauses"]
    core = _mus(tuple(tuple(c) for c in clauses), item.problem.get("num_vars") or 0)
    schema = {
        "type": "object",
        "properties": {"valid": {"type": "boolean"}, "explanation": {"type": "string"}},
        "required": ["valid"],
    }
    question = (
        f"Conditions:\n{_conditions(item)}\n\nA minimal contradictory set: conditions "
        f"{core}\n\nProof:\n{rec.text[-6000:]}"
    )
    verdict, extra = await _consult(rec, judge, "core", schema, CORE, question)
    if verdict is None:
        return rec.model_copy(update={"extra": extra})
    return _updated(rec, extra, details={"judge_core_valid": bool(verdict["valid"]), "mus": core})


CLASSES = (
    "satisfiability bias",
    "context inconsistency",
    "condition omission",
    "spurious priors",
    "other",
)
CLASSIFY = (
    "A model answered a logic puzzle wrongly. Classify the main cause of the error in its "
    "reasoning as one of: satisfiability bias (declares the conditions satisfiable without "
    "checking them all), context inconsistency (gives a variable conflicting values or "
    "contradicts its own earlier steps), condition omission (ignores or misreads a condition), "
    "spurious priors (relies on assumptions or outside knowledge the puzzle does not state), "
    "other. Quote the step that shows it."
)


async def classify_error(rec: Record, item: Item, judge: Model) -> Record:
    """SATBench §5.3 error classes for a wrong answer no rule could classify (judge-decided,
    stored as ``details.judge_error_type`` beside the rule's own ``error_type``)."""
    if rec.text is None:
        raise CertificationError("certification failed: a judged record has a response text")
    schema = {
        "type": "object",
        "properties": {
            "error_type": {"type": "string", "enum": list(CLASSES)},
            "evidence": {"type": "string"},
        },
        "required": ["error_type"],
    }
    question = (
        f"Correct answer: {item.gold.get('label')}\n\nConditions:\n{_conditions(item)}\n\n"
        f"Reasoning:\n{rec.text[-6000:]}"
    )
    verdict, extra = await _consult(rec, judge, "classify", schema, CLASSIFY, question)
    if verdict is None:
        return rec.model_copy(update={"extra": extra})
    return _updated(rec, extra, details={"judge_error_type": verdict["error_type"]})


def judge_traces(
    records: Sequence[Record],
    items: Sequence[Item],
    judge: str | Model,
    *,
    concurrency: int = 4,
    on_done: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Run :func:`judge_record` over records (in order; records without a need pass through);
    ``on_done`` receives each judged record as soon as it is ready."""
    return judge_records(records, items, judge, judge_record, concurrency, on_done)
