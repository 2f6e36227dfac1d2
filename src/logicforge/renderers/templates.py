"""The six template verbalisers of the 2-SAT robustness paper (Appendix G.1).

Each scheme has a context preamble, a true and a false phrase per entity, an entity naming rule
(letters, person names, numbered rooms / doors), one sentence per clause by polarity, and a final
question. Two-literal clauses use the paper's exact patterns:

=======  ==============================================================
logic    Either {A} is true or {B} is false (or both).
letter   Either {A} has the letter or {B} doesn't have the letter (or both).
team     Either {A} is on the Red team or {B} is on the Blue team.
social   {A} attends or {B} doesn't attend (or both).
room     room {i} is lit or room {j} is dark (or both).
door     door {i} is open or door {j} is closed (or both).
=======  ==============================================================

The paper defines only two-literal sentences. For other widths (k-SAT items rendered with a
scheme) we write a unit clause as its phrase ("A is true.") and k ≥ 3 literals as the same pattern
with the phrases listed ("Either A is true, B is false or C is true (or several)."); this choice
is ours. Assembled prompt: preamble, the sentences, a blank line, the question, then the answer
instructions (decision, and a JSON assignment over the entity names when SAT).

Example:
    >>> SCHEMES["team"].clause([1, -2], ["Alice", "Bob"])
    'Either Alice is on the Red team or Bob is on the Blue team.'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..logic.cnf import CNF
from ..registry import RENDERERS
from ..schema import Item, LabelledProblem
from .base import answer_instructions, build_item

PEOPLE = [
    "Alice",
    "Bob",
    "Carol",
    "David",
    "Emma",
    "Frank",
    "Grace",
    "Henry",
    "Irene",
    "Jack",
    "Karen",
    "Leo",
    "Maria",
    "Nathan",
    "Olivia",
    "Peter",
    "Quinn",
    "Rachel",
    "Samuel",
    "Tina",
    "Umar",
    "Victor",
    "Wendy",
    "Xavier",
    "Yvonne",
    "Zach",
    "Amelia",
    "Ben",
    "Chloe",
    "Daniel",
    "Elena",
    "Felix",
    "Hannah",
    "Isaac",
    "Julia",
    "Kevin",
    "Laura",
    "Marcus",
    "Nina",
    "Oscar",
    "Paula",
    "Ryan",
    "Sophie",
    "Thomas",
    "Ursula",
    "Vera",
    "William",
    "Yusuf",
    "Zoe",
    "Aaron",
    "Bianca",
    "Caleb",
    "Diana",
    "Ethan",
    "Fiona",
    "George",
    "Helen",
    "Ivan",
    "Jasmine",
    "Kyle",
    "Lucy",
    "Martin",
    "Nora",
    "Owen",
]


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


def person_names(n: int) -> list[str]:
    """Distinct first names; past the list, a surname initial tells namesakes apart."""
    k = len(PEOPLE)
    return [
        PEOPLE[i] if i < k else f"{PEOPLE[i % k]} {letter_names(i // k)[-1]}." for i in range(n)
    ]


@dataclass(frozen=True)
class Scheme:
    name: str
    true_phrase: str  # "{e} is true"
    false_phrase: str
    either: bool  # sentences start with "Either"
    or_both: bool  # sentences end with "(or both)"
    preamble: str
    question: str
    naming: str  # "letters" | "people" | "numbered:<noun>"
    true_word: str  # value words the parser accepts in assignments
    false_word: str

    def names(self, n: int) -> list[str]:
        if self.naming == "letters":
            return letter_names(n)
        if self.naming == "people":
            return person_names(n)
        noun = self.naming.split(":", 1)[1]
        return [f"{noun} {i}" for i in range(1, n + 1)]

    def literal(self, lit: int, names: list[str]) -> str:
        return (self.true_phrase if lit > 0 else self.false_phrase).format(e=names[abs(lit) - 1])

    def clause(self, clause: list[int] | tuple[int, ...], names: list[str]) -> str:
        parts = [self.literal(x, names) for x in clause]
        if len(parts) == 1:
            return parts[0] + "."
        body = " or ".join(parts) if len(parts) == 2 else ", ".join(parts[:-1]) + " or " + parts[-1]
        if self.either:
            body = "Either " + body
        if self.or_both:
            body += " (or both)" if len(parts) == 2 else " (or several)"
        return body + "."


SCHEMES: dict[str, Scheme] = {
    s.name: s
    for s in [
        Scheme(
            "logic",
            "{e} is true",
            "{e} is false",
            True,
            True,
            "Consider these logical relationships:",
            "Can you assign truth values to all statements without creating a contradiction?",
            "letters",
            "true",
            "false",
        ),
        Scheme(
            "letter",
            "{e} has the letter",
            "{e} doesn't have the letter",
            True,
            True,
            "Consider these rules about who has the letter:",
            "Is there a consistent way for people to hold or not hold the letter?",
            "people",
            "has the letter",
            "doesn't have the letter",
        ),
        Scheme(
            "team",
            "{e} is on the Red team",
            "{e} is on the Blue team",
            True,
            False,
            "We have team assignment rules:",
            "Is there a valid team assignment that satisfies all constraints?",
            "people",
            "Red",
            "Blue",
        ),
        Scheme(
            "social",
            "{e} attends",
            "{e} doesn't attend",
            False,
            True,
            "You're planning a party with these attendance conditions:",
            "Can you create a guest list that respects everyone's conditions?",
            "people",
            "attends",
            "doesn't attend",
        ),
        Scheme(
            "room",
            "{e} is lit",
            "{e} is dark",
            False,
            True,
            "A building has lighting rules:",
            "Can all the lighting rules be satisfied simultaneously?",
            "numbered:room",
            "lit",
            "dark",
        ),
        Scheme(
            "door",
            "{e} is open",
            "{e} is closed",
            False,
            True,
            "A facility has door coupling rules:",
            "Is there a configuration of doors that satisfies all the rules?",
            "numbered:door",
            "open",
            "closed",
        ),
    ]
}


def value_words(s: Scheme) -> dict[str, bool]:
    """Words that may stand for true / false in an answer for this scheme."""
    words = {s.true_word.lower(): True, s.false_word.lower(): False}
    words |= {
        s.true_phrase.format(e="").strip().lower(): True,
        s.false_phrase.format(e="").strip().lower(): False,
    }
    return words


class TemplateRenderer:
    """A scheme's prompt (``<scheme>-proof``: the sentences numbered ``C1 … Cm``, one per line,
    and UNSAT answered with a refutation whose literals are the entity names — ``Alice`` for
    the true phrase, ``¬Alice`` for the false one — checked step by step)."""

    kind = "cnf"

    def __init__(self, scheme: str, proof: bool = False) -> None:
        self.scheme = SCHEMES[scheme]
        self.proof = proof
        self.name = f"{scheme}-proof" if proof else scheme

    def render(self, problem: LabelledProblem) -> Item:
        cnf = CNF.from_json(problem.problem)
        names = self.scheme.names(cnf.num_vars)
        s = self.scheme
        true, false = s.true_phrase.format(e="").strip(), s.false_phrase.format(e="").strip()
        if not self.proof:
            sentences = " ".join(s.clause(c, names) for c in cnf.clauses)
            prompt = f"{s.preamble} {sentences}\n\n{s.question}\n\n" + answer_instructions(
                names, true, false
            )
            item = build_item(problem, self.name, cnf, prompt, names)
            return item.model_copy(update={"value_words": value_words(s)})
        from ..kinds.proof import proof_instructions

        lines = "\n".join(f"C{i}: {s.clause(c, names)}" for i, c in enumerate(cnf.clauses, 1))
        legend = (
            f"; in a clause write {names[0]} for “{names[0]} {true}” and ¬{names[0]} for "
            f"“{names[0]} {false}”, e.g. ({names[0]} ∨ ¬{names[-1]})"
        )
        prompt = (
            f"{s.preamble}\n{lines}\n\n{s.question}\n(In the JSON answer, true = {true}, "
            f"false = {false}.)\n\n" + proof_instructions(names, legend=legend)
        )
        item = build_item(problem, self.name, cnf, prompt, names, "decision+proof")
        return item.model_copy(update={"value_words": value_words(s), "answer_schema": None})


for _s in SCHEMES:
    RENDERERS.register(_s, TemplateRenderer(_s))
    RENDERERS.register(f"{_s}-proof", TemplateRenderer(_s, proof=True))
