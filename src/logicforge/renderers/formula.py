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
from ..schema import Item, LabelledProblem, Message
from .base import answer_instructions, build_item

NOTATIONS = {"unicode": (" ∨ ", "¬"), "ascii": (" OR ", "NOT ")}


def display_names(problem: LabelledProblem, n: int) -> list[str]:
    """The variables' names in prompts: the problem's own (SATBench's array variables
    ``x(0, 1)``) where it gives one per variable, else ``x1 … xn``."""
    own = problem.problem.get("var_names")
    if isinstance(own, list) and len(own) == n and len(set(own)) == n:
        return [str(x) for x in own]
    return [f"x{v}" for v in range(1, n + 1)]


def clause_text(clause: tuple[int, ...], names: list[str], notation: str = "unicode") -> str:
    sep, neg = NOTATIONS[notation]
    return "(" + sep.join((neg if lit < 0 else "") + names[abs(lit) - 1] for lit in clause) + ")"


def numbered_clauses(cnf: CNF, names: list[str]) -> str:
    """The clauses one per line as ``C1: (x1 ∨ ¬x2)``, the numbering proofs and certificates cite."""
    return "\n".join(f"C{i}: {clause_text(c, names)}" for i, c in enumerate(cnf.clauses, 1))


class FormulaRenderer:
    """``formula`` writes ``(x1 ∨ ¬x2 ∨ x3)``; ``formula-ascii`` writes ``(x1 OR NOT x2 OR x3)``,
    which costs small models' tokenisers about a fifth fewer tokens."""

    kind = "cnf"

    def __init__(self, name: str = "formula", notation: str = "unicode") -> None:
        self.name = name
        self.notation = notation

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = display_names(problem, cnf.num_vars)
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


class FormulaStatsRenderer(FormulaRenderer):
    """``formula-stats``: the ADR paper's full Listing 1, which also asks for the number of
    branches (decision points) and conflicts (backtracking steps), read back as ``answer.stats``
    and compared with MiniSat's decisions and conflicts in the report."""

    def __init__(self) -> None:
        super().__init__("formula-stats", "unicode")

    def render(self, problem: LabelledProblem) -> Item:
        item = super().render(problem)
        names = list(item.mapping)
        ex = ", ".join(
            f'"{n}": {"true" if i % 2 == 0 else "false"}' for i, n in enumerate(names[:3])
        )
        body = item.messages[0].content.split("\n\nReply with", 1)[0]
        prompt = (
            body
            + "\n\nFinally, output only the following items, with no extra explanation, as one JSON object:\n"
            '* whether the formula is SATISFIABLE or UNSATISFIABLE ("answer": "SAT" or "UNSAT")\n'
            '* the number of branches, i.e. decision points ("branches")\n'
            '* the number of conflicts, i.e. backtracking steps ("conflicts")\n'
            '* if the formula is SATISFIABLE, the value of each variable ("assignment").\n'
            f'Example: {{"answer": "SAT", "branches": 12, "conflicts": 3, "assignment": {{{ex}, ...}}}}'
        )
        schema = (
            {
                **item.answer_schema,
                "properties": {
                    **(item.answer_schema or {}).get("properties", {}),
                    "branches": {"type": "integer"},
                    "conflicts": {"type": "integer"},
                },
            }
            if item.answer_schema
            else None
        )
        return item.model_copy(
            update={
                "messages": [Message(role="user", content=prompt)],
                "answer_schema": schema,
                "answer_format": "decision+stats",
            }
        )


class FormulaProofRenderer:
    """``formula-proof``: the clauses numbered ``C1 … Cm``; SAT is answered with an assignment,
    UNSAT with a refutation (resolution steps and RUP lemmas ending in the empty clause), checked
    step by step (answer format ``decision+proof``, :mod:`logicforge.kinds.proof`)."""

    name = "formula-proof"
    kind = "cnf"

    def render(self, problem: LabelledProblem) -> Item:
        from ..kinds.proof import proof_instructions

        cnf = CNF.from_json(problem.problem)
        names = display_names(problem, cnf.num_vars)
        body = numbered_clauses(cnf, names)
        prompt = (
            "You are a SAT logic solver.\n"
            f"Decide whether this CNF formula over {names[0]} … {names[-1]} is satisfiable. It is the "
            f"conjunction (AND) of these {cnf.num_clauses} numbered clauses:\n{body}\n\n"
            + proof_instructions(names)
        )
        item = build_item(problem, self.name, cnf, prompt, names, "decision+proof")
        return item.model_copy(update={"answer_schema": None})


class FormulaCertificateRenderer:
    """``formula-mus`` / ``formula-mcs`` / ``formula-maxsat`` / ``formula-search``: the clauses
    numbered ``C1 … Cm`` and a certificate asked for (a minimal unsatisfiable subset, a minimal
    correction set, an optimal assignment with its count, a satisfying assignment), checked by a
    solver (:mod:`logicforge.kinds.certificates`)."""

    kind = "cnf"

    def __init__(self, task: str) -> None:
        self.task = task
        self.name = f"formula-{task}"

    def render(self, problem: LabelledProblem) -> Item:
        from ..kinds.certificates import answer_schema, instructions

        cnf = CNF.from_json(problem.problem)
        names = display_names(problem, cnf.num_vars)
        body = numbered_clauses(cnf, names)
        ask = (
            "Find the best assignment for"
            if self.task == "maxsat"
            else "Decide whether there is an assignment satisfying"
        )
        prompt = (
            "You are a SAT logic solver.\n"
            f"{ask} this CNF formula over {names[0]} … {names[-1]}. It is the conjunction (AND) "
            f"of these {cnf.num_clauses} numbered clauses:\n{body}\n\n"
            + instructions(self.task, names)
        )
        item = build_item(problem, self.name, cnf, prompt, names, self.task)
        return item.model_copy(
            update={"answer_schema": answer_schema(self.task, names, cnf.num_clauses)}
        )


class Listing1Renderer:
    """``formula-listing1``: the ADR paper's Listing 1, word for word (the formula as the
    conjunction of its clauses). The reply is free text — a verdict line, the branch and conflict
    counts, and the values when satisfiable — read by the same parser as every other reply
    (answer format ``decision+stats``)."""

    name = "formula-listing1"
    kind = "cnf"

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = [f"x{v}" for v in range(1, cnf.num_vars + 1)]
        cnf_text = " ∧ ".join(clause_text(c, names) for c in cnf.clauses)
        prompt = (
            "You are a SAT logic solver.\n"
            "Please use a step-by-step method to solve the following 3-CNF formula.\n"
            "Finally, output only the following three items, with no extra explanation:\n"
            "* Whether the formula is SATISFIABLE or UNSATISFIABLE\n"
            "* Number of branches (i.e., decision points)\n"
            "* Number of conflicts (i.e., backtracking steps)\n"
            "If the formula is SATISFIABLE, please give me the value for each variable.\n"
            f"The formula is:\n{cnf_text} "
        )
        item = build_item(problem, self.name, cnf, prompt, names, "decision+stats")
        return item.model_copy(update={"answer_schema": None})


RENDERERS.register("formula", FormulaRenderer())
RENDERERS.register("formula-listing1", Listing1Renderer())
RENDERERS.register("formula-proof", FormulaProofRenderer())
RENDERERS.register("formula-stats", FormulaStatsRenderer())
RENDERERS.register("formula-ascii", FormulaRenderer("formula-ascii", "ascii"))
for _task in ("mus", "mcs", "maxsat", "search"):
    RENDERERS.register(f"formula-{_task}", FormulaCertificateRenderer(_task))
