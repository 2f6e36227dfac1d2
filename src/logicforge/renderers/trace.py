"""``formula-trace``: numbered conditions, a reasoning trace, ``[SAT]`` / ``[UNSAT]`` and a
checkable justification (SATBench §4's trace evaluation, made deterministic).

For SAT the model gives an assignment (checked against every clause by the verifier); for UNSAT
it names the numbered conditions that cannot all hold together, and the verifier checks with the
solver that the cited subset really is unsatisfiable — and whether it is minimal — instead of
asking a judge. Wrong answers are classified where a rule can decide (see
:func:`logicforge.metrics.verdict.verify`).

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("satbench", {"n_clauses": 6}, count=1, seed=0), "formula-trace")[0]
    >>> "[UNSAT]" in it.messages[0].content
    True
"""

from __future__ import annotations

from ..logic.cnf import CNF
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem
from .base import build_item
from .formula import clause_text, display_names

# SATBench §6.2: a reminder of the failure patterns its error analysis found (§5.3)
ERROR_AWARE = (
    "Avoid the common mistakes: do not declare the conditions satisfiable before checking every "
    "one of them against your assignment (satisfiability bias); give each variable one value "
    "and keep it (context inconsistency); use every condition, none skipped (condition "
    "omission); and use only what the conditions say, no outside assumptions (spurious priors)."
)


def trace_instructions(
    names: list[str], legend: str = "", aware: bool = False, label_last: bool = False
) -> str:
    """The closing request of a trace prompt: reasoning, ``[SAT]``/``[UNSAT]``, then a JSON object
    with an assignment (SAT) or the numbers of conflicting conditions (UNSAT). ``label_last``:
    SATBench's order — the reasoning and its justification first, the label on the last line.

    Example:
        >>> trace_instructions(["a", "b"], label_last=True).splitlines()[-1]
        'End your answer with [SAT] or [UNSAT] alone on its last line.'
    """
    example = ", ".join(f'"{n}": true' for n in names[:2])
    if label_last:
        return (
            (ERROR_AWARE + "\n\n" if aware else "")
            + "Reason step by step. If the conditions can all hold, give a value for every "
            f'variable{legend} as one JSON object: {{"assignment": {{{example}, …}}}}. If they '
            "cannot, give the numbers of the conditions that cannot all hold together: "
            '{"conflict": [1, 4, 7]}.\n'
            "End your answer with [SAT] or [UNSAT] alone on its last line."
        )
    return (
        (ERROR_AWARE + "\n\n" if aware else "")
        + "Reason step by step. Then write [SAT] or [UNSAT] on its own line, followed by one JSON "
        "object:\n"
        f'- if SAT, a value for every variable{legend}: {{"answer": "SAT", "assignment": {{{example}, …}}}}\n'
        "- if UNSAT, the numbers of conditions that cannot all hold together: "
        '{"answer": "UNSAT", "conflict": [1, 4, 7]}'
    )


def closing(
    names: list[str], proof: bool, aware: bool = False, label_last: bool = False
) -> tuple[str, str]:
    """The closing request and the answer format: the trace's cited conflict, or (``proof``) a
    refutation citing condition i as Ci (:mod:`logicforge.kinds.proof`)."""
    if not proof:
        return trace_instructions(names, aware=aware, label_last=label_last), "decision+conflict"
    from ..kinds.proof import proof_instructions

    head = ERROR_AWARE + "\n\n" if aware else ""
    return head + proof_instructions(names, " (condition i is Ci)"), "decision+proof"


class TraceRenderer:
    """``formula-trace`` (``-aware``: with SATBench's error reminder; ``-proof``: UNSAT answered
    with a refutation over the conditions, checked step by step; ``-last``: the label on the
    last line, after the reasoning and its justification, as SATBench's evaluation asks)."""

    name = "formula-trace"
    kind = "cnf"

    def __init__(
        self,
        name: str = "formula-trace",
        aware: bool = False,
        proof: bool = False,
        label_last: bool = False,
    ) -> None:
        self.name, self.aware, self.proof, self.label_last = name, aware, proof, label_last

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = display_names(problem, cnf.num_vars)
        body = "\n".join(
            f"{i}. {clause_text(c, names)}" for i, c in enumerate(cnf.clauses, start=1)
        )
        prompt = (
            f"Decide whether all of the following {cnf.num_clauses} conditions over the variables "
            f"{names[0]} … {names[-1]} can hold at the same time.\n\n{body}\n\n"
        )
        ask, fmt = closing(names, self.proof, self.aware, self.label_last)
        item = build_item(problem, self.name, cnf, prompt + ask, names, fmt)
        return item.model_copy(update={"answer_schema": None}) if self.proof else item


RENDERERS.register("formula-trace", TraceRenderer())
RENDERERS.register("formula-trace-proof", TraceRenderer("formula-trace-proof", proof=True))
RENDERERS.register("formula-trace-aware", TraceRenderer("formula-trace-aware", aware=True))
RENDERERS.register("formula-trace-last", TraceRenderer("formula-trace-last", label_last=True))
RENDERERS.register(
    "formula-trace-last-aware", TraceRenderer("formula-trace-last-aware", True, label_last=True)
)


class StoredStoryRenderer:
    """``satbench-story``: a SATBench puzzle as a story — an imported puzzle's own scenario,
    variable mapping, numbered conditions (one per clause, in the clauses' order) and question;
    any other CNF problem gets SATBench's template story (deterministic statements, one exact
    sentence per clause) — with the trace instructions, so its items are scored by the same
    trace checks as ``formula-trace`` (``satbench-story-proof``: UNSAT with a checked
    refutation)."""

    kind = "cnf"

    def __init__(self, name: str = "satbench-story", proof: bool = False) -> None:
        self.name, self.proof = name, proof

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = display_names(problem, cnf.num_vars)
        story = problem.problem.get("story")
        if not isinstance(story, dict):
            from .story_text import TEMPLATE_SCENE, sat_fallback, template_statements

            stmts = template_statements(problem, cnf.num_vars)
            story = {
                "scenario": TEMPLATE_SCENE,
                "variable_mapping": "\n".join(
                    f"{n}: {s}." for n, s in zip(names, stmts, strict=True)
                ),
                "conditions": [sat_fallback(list(c), stmts) for c in cnf.clauses],
                "question": "Can all of these conditions hold at the same time?",
            }
        conds = "\n".join(f"{i}. {c}" for i, c in enumerate(story["conditions"], start=1))
        parts = [story.get("scenario", ""), story.get("variable_mapping", ""), conds]
        parts.append(story.get("question", ""))
        prompt = "\n\n".join(p.strip() for p in parts if p and p.strip())
        ask, fmt = closing(names, self.proof)
        item = build_item(problem, self.name, cnf, prompt + "\n\n" + ask, names, fmt)
        return item.model_copy(update={"answer_schema": None}) if self.proof else item


RENDERERS.register("satbench-story", StoredStoryRenderer())
RENDERERS.register("satbench-story-proof", StoredStoryRenderer("satbench-story-proof", True))
