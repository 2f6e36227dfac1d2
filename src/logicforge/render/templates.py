"""Template verbalisers of the 2-SAT robustness paper (Appendix G.1).

Each scheme has a preamble, true/false phrases, an entity naming rule and a final question; one
sentence per clause. The paper defines sentences for two-literal clauses; for other widths we use
"<l1>." (unit) and "At least one of these holds: <l1>, <l2>, …, or <lk>." — documented here so
the choice stays visible. ``logic`` is registered now; the table holds all six schemes.

Example:
    >>> SCHEMES["logic"].clause([-1, 2], ["A", "B"])
    'Either A is false or B is true (or both).'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..logic.cnf import CNF
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem
from .base import answer_instructions, build_item


def letter_names(n: int) -> list[str]:
    """A, B, …, Z, AA, AB, … (spreadsheet-style)."""
    out = []
    for i in range(n):
        s, j = "", i
        while True:
            s = chr(ord("A") + j % 26) + s
            j = j // 26 - 1
            if j < 0:
                break
        out.append(s)
    return out


@dataclass(frozen=True)
class Scheme:
    name: str
    true_phrase: str  # "{e} is true"
    false_phrase: str
    preamble: str
    question: str
    naming: str  # "letters" | "numbered:<noun>"

    def names(self, n: int) -> list[str]:
        if self.naming == "letters":
            return letter_names(n)
        noun = self.naming.split(":", 1)[1]
        return [f"{noun} {i}" for i in range(1, n + 1)]

    def literal(self, lit: int, names: list[str]) -> str:
        e = names[abs(lit) - 1]
        return (self.true_phrase if lit > 0 else self.false_phrase).format(e=e)

    def clause(self, clause: list[int] | tuple[int, ...], names: list[str]) -> str:
        parts = [self.literal(x, names) for x in clause]
        if len(parts) == 1:
            return parts[0][0].upper() + parts[0][1:] + "."
        if len(parts) == 2:
            return f"Either {parts[0]} or {parts[1]} (or both)."
        return "At least one of these holds: " + ", ".join(parts[:-1]) + f", or {parts[-1]}."


SCHEMES: dict[str, Scheme] = {
    "logic": Scheme(
        "logic",
        "{e} is true",
        "{e} is false",
        "Consider these logical relationships:",
        "Can you assign truth values to all statements without creating a contradiction?",
        "letters",
    ),
    "room": Scheme(
        "room",
        "{e} is lit",
        "{e} is dark",
        "A building has lighting rules:",
        "Can all the lighting rules be satisfied simultaneously?",
        "numbered:room",
    ),
    "door": Scheme(
        "door",
        "{e} is open",
        "{e} is closed",
        "A facility has door coupling rules:",
        "Is there a configuration of doors that satisfies all the rules?",
        "numbered:door",
    ),
}

_VALUES = {"logic": ("true", "false"), "room": ("lit", "dark"), "door": ("open", "closed")}


class TemplateRenderer:
    def __init__(self, scheme: str) -> None:
        self.scheme = SCHEMES[scheme]
        self.name = scheme

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = self.scheme.names(cnf.num_vars)
        sentences = " ".join(self.scheme.clause(c, names) for c in cnf.clauses)
        tv, fv = _VALUES[self.name]
        prompt = (
            f"{self.scheme.preamble} {sentences}\n\n{self.scheme.question}\n\n"
            + answer_instructions(names, tv, fv)
        )
        return build_item(problem, self.name, cnf, prompt, names)


for _s in SCHEMES:
    RENDERERS.register(_s, TemplateRenderer(_s))
