"""ZebraLogic prompts (the paper's one-shot layout, Appendix D.1), answer parsing and grid / cell
scoring for problem kind ``zebra``.

Parsing: the last complete JSON object with a ``solution`` (code fences and trailing commas are
fine); house keys "House 1" / "house 1" / "1"; attribute names and values compared case- and
whitespace-insensitively; a list value counts as its first element. Nothing usable → no answer
(a parse failure, scored as 0 cells).
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from ...kinds.base import AnswerFormat, Kind, choice_format, register_kind
from ...kinds.items import build_kind_item
from ...parse.decision import hedged
from ...registry import RENDERERS
from ...schema import Answer, Item, LabelledProblem
from .answers import (
    grid_budgeted,
    grid_chance,
    grid_constants,
    grid_oracle,
    grid_random,
    grid_reward,
    grid_text,
    grid_units,
    grid_wrong,
    parse,
    verify,
)
from .clues import Clue
from .feedback import grid_facts, norm
from .pool import BY_NAME

KIND = "zebra"

EXAMPLE = """# Example Puzzle

There are 3 houses, numbered 1 to 3 from left to right, as seen from across the street. Each house is occupied by a different person. Each house has a unique attribute for each of the following characteristics:
 - Each person has a unique name: `Peter`, `Eric`, `Arnold`.
 - Each person has a unique favorite drink: `tea`, `water`, `milk`

## Clues for the Example Puzzle

1. Peter is in the second house.
2. Arnold is directly left of the one who only drinks water.
3. The one who only drinks water is directly left of the person who likes milk.

## Answer to the Example Puzzle

{
    "reasoning": "Given Clue 1, we know Peter is in House 2. According to Clue 2, Arnold is directly left of the one who only drinks water. The person in House 3 cannot be on the left of anyone, so Arnold must be in House 1. Thus, Peter drinks water, and Eric lives in House 3. Then, according to Clue 3, Eric drinks milk. Therefore, Arnold drinks tea.",
    "solution": {
        "House 1": {
            "Name": "Arnold",
            "Drink": "tea"
        },
        "House 2": {
            "Name": "Peter",
            "Drink": "water"
        },
        "House 3": {
            "Name": "Eric",
            "Drink": "milk"
        }
    }
}"""


def puzzle_text(d: dict[str, Any]) -> str:
    """The puzzle as ZebraLogic writes it: an imported puzzle's own text, verbatim, or the
    generated puzzle's attributes and clues."""
    if d.get("text"):
        return str(d["text"])
    n = d["n_houses"]
    lines = [
        f"There are {n} houses, numbered 1 to {n} from left to right, as seen from across the street. Each house is "
        "occupied by a different person. Each house has a unique attribute for each of the following characteristics:"
    ]
    for name, vals in zip(d["attributes"], d["values"], strict=True):
        lines.append(f" - {BY_NAME[name].intro}: " + ", ".join(f"`{v}`" for v in vals))

    def phrase(a: int, v: int) -> str:
        return BY_NAME[d["attributes"][a]].who(d["values"][a][v])

    lines += ["", "## Clues:"]
    lines += [f"{i}. {Clue.from_json(c).text(phrase)}" for i, c in enumerate(d["clues"], start=1)]
    return "\n".join(lines)


def answer_template(d: dict[str, Any]) -> str:
    sol = {f"House {h}": {a: "___" for a in d["attributes"]} for h in range(1, d["n_houses"] + 1)}
    return json.dumps({"reasoning": "___", "solution": sol}, indent=4)


class ZebraRenderer:
    """The paper's one-shot prompt; ``zebra-pairs`` adds the option to answer that the clues admit
    no solution (``{"solution": null}``), for paired items whose twin is contradictory."""

    kind = KIND

    def __init__(self, name: str = "zebra") -> None:
        self.name = name

    def render(self, problem: LabelledProblem) -> Item:
        d = problem.problem
        prompt = (
            f"{EXAMPLE}\n\n# Puzzle to Solve\n\n{puzzle_text(d)}\n\n\n# Instruction\n\n"
            "Now please solve the above puzzle. Present your reasoning and solution in the following json format:\n\n"
            f"{answer_template(d)}"
        )
        if self.name == "zebra-pairs":
            prompt += (
                "\n\nIf the clues contradict each other so that no arrangement satisfies all of them, answer "
                '{"reasoning": "___", "solution": null} instead.'
            )
        gold = {"label": problem.label, "solution": d.get("solution")}
        return build_kind_item(problem, self.name, prompt, _schema(d), gold=gold)


_STATED = {  # a clue type as the relation it states over house numbers x, y (h: a house)
    "FoundAt": "{x} = {h}", "NotAt": "{x} ≠ {h}", "SameHouse": "{x} = {y}",
    "DirectLeft": "{x} + 1 = {y}", "DirectRight": "{x} = {y} + 1", "LeftOf": "{x} < {y}",
    "RightOf": "{x} > {y}", "SideBySide": "|{x} − {y}| = 1", "OneBetween": "|{x} − {y}| = 2",
    "TwoBetween": "|{x} − {y}| = 3",
}  # fmt: skip


class ZebraFormalRenderer:
    """``zebra-formal``: the puzzle as equations over house numbers — one variable per value,
    ``Attribute[value]`` ∈ 1..N, the values of an attribute in different houses, each clue the
    relation it states — with the same JSON answer as ``zebra``."""

    name = "zebra-formal"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        d = problem.problem
        n, attrs, vals = d["n_houses"], d["attributes"], d["values"]

        def x(item: Any) -> str:
            return f"{attrs[item[0]]}[{vals[item[0]][item[1]]}]"

        lines = [f"Variables: X[v] ∈ {{1, …, {n}}}, the house of value v of attribute X."]
        lines += [f"{a}: " + ", ".join(vs) + " (all in different houses)"
                  for a, vs in zip(attrs, vals, strict=True)]  # fmt: skip
        lines.append("Constraints:")
        for c in d["clues"]:
            y = x(c["b"]) if "b" in c else ""
            h = c.get("house", -1) + 1
            lines.append(_STATED[c["type"]].format(x=x(c["a"]), y=y, h=h))
        prompt = (
            "Find the house of every value.\n\n" + "\n".join(lines) + "\n\n"
            "Present your reasoning and solution in the following json format:\n\n"
            + answer_template(d)
        )
        gold = {"label": problem.label, "solution": d.get("solution")}
        return build_kind_item(problem, self.name, prompt, _schema(d), gold=gold)


def _schema(d: dict[str, Any]) -> dict[str, Any]:
    house = {
        "type": "object",
        "properties": {a: {"type": "string"} for a in d["attributes"]},
        "required": list(d["attributes"]),
    }
    houses = {f"House {h}": house for h in range(1, d["n_houses"] + 1)}
    return {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "solution": {"type": "object", "properties": houses, "required": list(houses)},
        },
        "required": ["solution"],
    }


class ZebraMCRenderer:
    """``zebra-mc``: the same puzzle, one multiple-choice question about one cell ("Which
    favorite drink does the person in House 2 have?" with the attribute's values as options A, B,
    …). The cell is drawn from the problem's own seed stream, so it is reproducible."""

    name = "zebra-mc"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:

        d = problem.problem
        rng = np.random.Generator(
            np.random.PCG64(
                np.random.SeedSequence(problem.seed, spawn_key=(*problem.spawn_key, 0x3C))
            )
        )
        h = int(rng.integers(d["n_houses"]))
        a = int(rng.integers(d["n_attributes"]))
        attr = d["attributes"][a]
        options = list(d["values"][a])
        answer = d["solution"]["rows"][h][a + 1]
        question = (
            f"In the unique solution of this puzzle, what is the {attr} of the person in "
            f"House {h + 1}?"
        )
        cell: dict[str, Any] = {"house": h + 1, "attribute": attr}
        if d.get("mc"):  # an imported multiple-choice row: its own question and choices
            question, options, answer = (
                d["mc"]["question"],
                list(d["mc"]["choices"]),
                d["mc"]["answer"],
            )
            cell = {"house": None, "attribute": None}
        letters = [chr(ord("A") + i) for i in range(len(options))]
        opts = "\n".join(f"{x}) {o}" for x, o in zip(letters, options, strict=True))
        prompt = (
            f"{puzzle_text(d)}\n\n# Question\n\n{question}\n{opts}\n\nReply with your reasoning if you like, then end with one final JSON object: "
            '{"answer": "<letter>"}'
        )
        schema = {
            "type": "object",
            "properties": {"answer": {"type": "string", "enum": letters}},
            "required": ["answer"],
        }
        gold = {
            "label": letters[options.index(answer)],
            "cell": {
                **cell,
                "value": answer,
                "letter": letters[options.index(answer)],
                "options": options,
            },
        }
        return build_kind_item(
            problem, self.name, prompt, schema, gold=gold, answer_format="choice"
        )


def _letters(item: Item) -> list[str]:
    return [chr(ord("A") + i) for i in range(len(item.gold["cell"]["options"]))]


def parse_mc(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    """A letter (or the option's text) for ``zebra-mc`` items."""
    cell = item.gold["cell"]
    letters = _letters(item)
    for obj in reversed(objs):
        v = obj.get("answer")
        if isinstance(v, str):
            t = v.strip().strip("()").strip()
            if t.upper() in letters and len(t) == 1:
                return Answer(label=t.upper(), rule="json")
            for x, o in zip(letters, cell["options"], strict=True):
                if norm(t) == norm(o):
                    return Answer(label=x, rule="json")
    m = [
        x
        for x in re.finditer(
            r"(?i:answer|option)\s*(?i:is)?\s*[:=]?\s*\(?([A-J])\)?(?![A-Za-z])", body
        )
        if not hedged(body, x.start(1), x.end(1))
    ]
    if m:
        return Answer(label=m[-1].group(1).upper(), rule="phrase")
    return Answer(parse_error="no answer: no option letter found")


SYMMETRIC = {"SameHouse", "SideBySide", "OneBetween", "TwoBetween"}


def zebra_key(d: dict[str, Any]) -> str:
    """The puzzle up to renaming attributes and relabelling values within an attribute (and
    clue order): a graph of attribute and value nodes, house nodes labelled by position, and a
    node per clue joined to its people (through role nodes for the ordered types) or house."""
    from ...logic.canon import graph_key

    n, m = d["n_houses"], d["n_attributes"]
    labels = ["A"] * m + ["V"] * (n * m) + [f"H{h}" for h in range(n)]
    edges = [(a, m + a * n + v) for a in range(m) for v in range(n)]

    def value(pair: Any) -> int:
        return m + int(pair[0]) * n + int(pair[1])

    for c in d["clues"]:
        labels.append(f"T:{c['type']}")
        k = len(labels) - 1
        if "house" in c:
            edges += [(k, value(c["a"])), (k, m + n * m + int(c["house"]))]
            continue
        for role, pair in (("a", c["a"]), ("b", c["b"])):
            labels.append("r" if c["type"] in SYMMETRIC else f"r{role}")
            edges += [(k, len(labels) - 1), (len(labels) - 1, value(pair))]
    return "zebra:" + graph_key(labels, edges)


GRID = AnswerFormat(
    "grid",
    "grid",
    parse,
    grid_text,
    verify,
    grid_oracle,
    grid_random,
    grid_wrong,
    vote_units=grid_units,
    budgeted=grid_budgeted,
    reward=grid_reward,
    feedback=grid_facts,
    certifies=("SAT",),  # a contradictory twin's "no solution" carries no certificate
    constants=grid_constants,
    chance=grid_chance,
)
register_kind(
    Kind(
        KIND,
        ("SAT", "UNSAT"),
        (GRID, choice_format(parse_mc, _letters)),
        words_renderer="zebra",
        formal_renderer="zebra-formal",
        group_columns=("size_group", "size", "log10_search_space"),
        exports={"zebra-json": lambda problem: problem},
        canonical=zebra_key,
    )
)
RENDERERS.register("zebra", ZebraRenderer())
RENDERERS.register("zebra-formal", ZebraFormalRenderer())
RENDERERS.register("zebra-pairs", ZebraRenderer("zebra-pairs"))
RENDERERS.register("zebra-mc", ZebraMCRenderer())
