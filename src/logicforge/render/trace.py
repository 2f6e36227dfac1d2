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
from .formula import clause_text


class TraceRenderer:
    name = "formula-trace"
    kind = "cnf"

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = [f"x{v}" for v in range(1, cnf.num_vars + 1)]
        body = "\n".join(
            f"{i}. {clause_text(c, names)}" for i, c in enumerate(cnf.clauses, start=1)
        )
        example = ", ".join(f'"{n}": true' for n in names[:2])
        prompt = (
            f"Decide whether all of the following {cnf.num_clauses} conditions over the variables "
            f"{names[0]} … {names[-1]} can hold at the same time.\n\n{body}\n\n"
            "Reason step by step. Then write [SAT] or [UNSAT] on its own line, followed by one JSON "
            "object:\n"
            f'- if SAT, a value for every variable: {{"answer": "SAT", "assignment": {{{example}, …}}}}\n'
            "- if UNSAT, the numbers of conditions that cannot all hold together: "
            '{"answer": "UNSAT", "conflict": [1, 4, 7]}'
        )
        return build_item(problem, self.name, cnf, prompt, names)


RENDERERS.register("formula-trace", TraceRenderer())
