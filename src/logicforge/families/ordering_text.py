"""The words of the deduction puzzles: the scenes, the English template of every constraint,
the story and the options, the meaning of a clue over an arrangement (:func:`holds`), and the
symbolic-edits paper's chain-of-thought wrapper (shared by the deduction, arrangement and FOL
renderers).

Example:
    >>> sentence("books", ["green", "blue", "red"], 3, "green < red")
    'The green book is to the left of the red book.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import CertificationError
from ..schema import Item, Message

ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"]
SCENES = {
    "books": ("On a shelf, there are {n} books: {list}.", "book",
              ["green", "blue", "white", "purple", "yellow", "red", "black"], "left", "right"),
    "birds": ("On a branch, there are {n} birds: {list}.", "bird",
              ["owl", "robin", "crow", "falcon", "hawk", "quail", "cardinal"], "left", "right"),
    "vehicles": ("In an antique car show, there are {n} vehicles: {list}.", "",
                 ["sedan", "bus", "truck", "tractor", "minivan", "limousine", "convertible"],
                 "older", "newer"),
}  # fmt: skip


def noun(scene: str, word: str) -> str:
    """How a story names object ``word`` of ``scene`` ("the green book", "the owl")."""
    kind = SCENES[scene][1]
    return f"the {word} {kind}".strip() if kind and scene == "books" else f"the {word}"


def sentence(scene: str, objects: list[str], n: int, clue: str) -> str:
    """The English template of one constraint (exact, so edits back-translate exactly)."""
    lo, hi = SCENES[scene][3], SCENES[scene][4]
    m = re.fullmatch(r"(\w+) (==|!=|<|>) (\w+)", clue)
    if m is None:
        raise CertificationError(
            f"certification failed: not a constraint of the form <a> <op> <b>: {clue!r}"
        )
    a, op, b = m.groups()
    who = noun(scene, a).capitalize()
    if b.isdigit():
        k = int(b)
        first, last = ("leftmost", "rightmost") if lo == "left" else ("oldest", "newest")
        if k == 1 or k == n:
            where = f"the {first if k == 1 else last}"
        elif lo == "left":
            where = (
                f"the {ORDINALS[k - 1]} from the left"
                if k <= (n + 1) // 2
                else f"the {ORDINALS[n - k]} from the right"
            )
        else:
            where = (
                f"the {ORDINALS[k - 1]}-oldest"
                if k <= (n + 1) // 2
                else f"the {ORDINALS[n - k]}-newest"
            )
        return f"{who} is {'not ' if op == '!=' else ''}{where}."
    other = noun(scene, b)
    rel = (
        {"<": f"to the {lo} of", ">": f"to the {hi} of"}[op]
        if lo == "left"
        else {"<": f"{lo} than", ">": f"{hi} than"}[op]
    )
    return f"{who} is {rel} {other}."


def story(d: dict[str, Any]) -> str:
    scene, n = d["scene"], d["n_objects"]
    names = [
        noun(scene, o.replace("_", " ")).replace("the ", "an " if o[0] in "aeiou" else "a ", 1)
        for o in d["objects"]
    ]
    head = SCENES[scene][0].format(
        n=["three", "four", "five", "six", "seven"][n - 3],
        list=", ".join(names[:-1]) + f", and {names[-1]}",
    )
    return (
        f"The following paragraphs each describe a set of {n} objects arranged in a fixed order. "
        "The statements are logically consistent within each paragraph.\n\n"
        + head
        + " "
        + " ".join(d["sentences"])
    )


def options(d: dict[str, Any]) -> list[str]:
    q, n, scene = d["question_position"], d["n_objects"], d["scene"]
    return [
        f"{chr(65 + i)}) " + sentence(scene, d["objects"], n, f"{o} == {q}")
        for i, o in enumerate(d["objects"])
    ]


# the symbolic-edits paper's CoT prompts (Appendix D), shared by the deduction and fol renderers
COT_SYSTEM = (
    "You are a reasoning assistant that reasons step by step, and puts your final answer "
    "within \\boxed{}."
)
COT_USER = (
    "Solve the given logical deductive reasoning problem using only the information provided "
    "in the question. Do not use or rely on any external knowledge."
)


def cot_item(item: Item) -> Item:
    """The paper's system prompt first, its instruction before the problem."""
    user = item.messages[-1].content
    return item.model_copy(
        update={
            "messages": [
                Message(role="system", content=COT_SYSTEM),
                Message(role="user", content=f"{COT_USER}\n\n{user}"),
            ]
        }
    )


OPS = {"<": lambda x, y: x < y, ">": lambda x, y: x > y, "==": lambda x, y: x == y,
       "!=": lambda x, y: x != y}  # fmt: skip


def holds(clues: list[list[str]], pos: tuple[int, ...], index: Mapping[str, int]) -> bool:
    """Every clue (``[a, op, b]``, b an object or a position) holds where object i stands at
    ``pos[i]``.

    >>> holds([["a", "<", "b"]], (1, 2), {"a": 0, "b": 1})
    True
    """
    return all(
        OPS[op](pos[index[a]], int(b) if b.isdigit() else pos[index[b]]) for a, op, b in clues
    )


def program_sections(program: str) -> dict[str, list[str]]:
    """A Logic-LM-style constraint program's sections (``Domain``, ``Variables``,
    ``Constraints``, ``Query``), each line without its ``::: sentence``.

    Example:
        >>> program_sections("Variables:\\na [IN] [1, 2]\\nConstraints:\\na == 1 ::: A is first.")
        {'Variables': ['a [IN] [1, 2]'], 'Constraints': ['a == 1']}
    """
    out: dict[str, list[str]] = {}
    section = ""
    for line in program.splitlines():
        head = line.strip().rstrip(":")
        if line.strip().endswith(":") and head in ("Domain", "Variables", "Constraints", "Query"):
            section = head
            out[section] = []
        elif section and line.strip():
            out[section].append(line.split(":::")[0].strip())
    return out


def formal_question(d: Mapping[str, Any]) -> str | None:
    """An ordering question as its constraint program states it — positions, constraints, the
    options as formulas — or None when the question carries no program."""
    prog = d.get("program")
    if not prog:
        return None
    sec = program_sections(str(prog))
    if not sec.get("Variables") or not sec.get("Query"):
        return None
    n = d.get("n_objects") or len(sec["Variables"])
    lines = [f"Positions 1 (leftmost) to {n} (rightmost); every object at a different position."]
    lines += ["Variables:", *sec["Variables"], "Constraints:"]
    lines += [c for c in sec.get("Constraints", []) if not c.startswith("AllDifferent")]
    lines += ["Options:", *sec["Query"]]
    return "\n".join(lines)
