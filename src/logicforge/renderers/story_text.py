"""SATBench-style template text: the exact sentence of a clause over variable statements and
deterministic statements for array variables — the story renderers' fallback, and the
``satbench-story`` renderer's text for a problem with no stored story.

Example:
    >>> sat_fallback([1, -2], ["Alice sings", "Bob dances"])
    'Either Alice sings, or it is not the case that Bob dances (or both).'
"""

from __future__ import annotations

import itertools

from ..schema import LabelledProblem
from .templates import PEOPLE


def negated(statement: str) -> str:
    return f"it is not the case that {statement}"


def sat_fallback(clause: list[int], statements: list[str]) -> str:
    """The exact template sentence for a clause over variable statements."""
    lits = [statements[abs(x) - 1] if x > 0 else negated(statements[abs(x) - 1]) for x in clause]
    if len(lits) == 1:
        return lits[0][0].upper() + lits[0][1:] + "."
    if len(lits) == 2:
        return f"Either {lits[0]}, or {lits[1]} (or both)."
    return "At least one of these holds: " + ", ".join(lits[:-1]) + f", or {lits[-1]}."


def template_statements(problem: LabelledProblem, n: int) -> list[str]:
    """Deterministic statements for the array variables x(i[, j[, k]]): people × tasks × days."""
    dims = list(problem.metadata.get("dims") or [n])
    people = [
        PEOPLE[i % len(PEOPLE)] + ("" if i < len(PEOPLE) else f" {i // len(PEOPLE) + 1}")
        for i in range(dims[0])
    ]
    out = []
    for idx in itertools.product(*(range(d) for d in dims)):
        s = people[idx[0]]
        if len(idx) == 1:
            s += " is selected"
        else:
            s += f" takes on task {idx[1] + 1}"
            if len(idx) == 3:
                s += f" on day {idx[2] + 1}"
        out.append(s)
    return out[:n] + [f"switch {i + 1} is on" for i in range(len(out), n)]


TEMPLATE_SCENE = (
    "A small team is planning its week. Each person may take on any number of tasks, "
    "independently of the others, and every choice below is a simple yes or no."
)
