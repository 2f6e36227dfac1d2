"""The ``formula`` renderer: clauses listed as text, after the ADR paper's Listing 1.

The paper's prompt asks for SATISFIABLE/UNSATISFIABLE, branch and conflict counts, and values
when satisfiable; we keep its opening and the formula listing and ask for the decision and
witness as JSON so they can be read back exactly.

Example:
    >>> from logicforge.logic.cnf import CNF
    >>> print(clause_text((1, -2, 3), ["x1", "x2", "x3"]))
    (x1 ∨ ¬x2 ∨ x3)
"""

from __future__ import annotations

from ..logic.cnf import CNF
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem
from .base import answer_instructions, build_item

NOTATIONS = {"unicode": (" ∨ ", "¬"), "ascii": (" OR ", "NOT ")}


def clause_text(clause: tuple[int, ...], names: list[str], notation: str = "unicode") -> str:
    sep, neg = NOTATIONS[notation]
    return "(" + sep.join((neg if lit < 0 else "") + names[abs(lit) - 1] for lit in clause) + ")"


class FormulaRenderer:
    """``formula`` writes ``(x1 ∨ ¬x2 ∨ x3)``; ``formula-ascii`` writes ``(x1 OR NOT x2 OR x3)``,
    which costs small models' tokenisers about a fifth fewer tokens."""

    kind = "cnf"

    def __init__(self, name: str = "formula", notation: str = "unicode") -> None:
        self.name = name
        self.notation = notation

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = [f"x{v}" for v in range(1, cnf.num_vars + 1)]
        k = max((len(c) for c in cnf.clauses), default=0)
        body = "\n".join(clause_text(c, names, self.notation) for c in cnf.clauses)
        prompt = (
            "You are a SAT logic solver.\n"
            f"Please use a step-by-step method to decide whether the following {k}-CNF formula over "
            f"the variables {names[0]} … {names[-1]} is satisfiable.\n"
            f"The formula is the conjunction (AND) of these {cnf.num_clauses} clauses, one per line:\n{body}\n\n"
            + answer_instructions(names)
        )
        return build_item(problem, self.name, cnf, prompt, names)


RENDERERS.register("formula", FormulaRenderer())
RENDERERS.register("formula-ascii", FormulaRenderer("formula-ascii", "ascii"))
