"""ZebraLogic prompts (the paper's one-shot layout, Appendix D.1), answer parsing and grid / cell
scoring for problem kind ``zebra``.

Parsing: the last complete JSON object with a ``solution`` (code fences and trailing commas are
fine); house keys "House 1" / "house 1" / "1"; attribute names and values compared case- and
whitespace-insensitively; a list value counts as its first element. Nothing usable → no answer
(a parse failure, scored as 0 cells).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable
from typing import Any

import numpy as np

from ...kinds.base import FINAL, AnswerFormat, Kind, choice_format, register_kind
from ...kinds.items import build_kind_item
from ...parse.decision import hedged
from ...parse.jsonish import is_strict
from ...registry import RENDERERS
from ...rng import shuffled
from ...schema import Answer, Item, LabelledProblem, Verdict
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


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    """The grid of the last JSON object with a ``solution`` (``null``: the clues admit none)."""
    for obj in reversed(objs):
        if "solution" in obj and obj["solution"] is None:  # "the clues admit no solution"
            return Answer(label="UNSAT", rule="json")
        sol = obj.get("solution")
        if not isinstance(sol, dict):
            continue
        grid = _grid_of(sol)
        if grid:
            return Answer(label="SAT", rule="json", certificate={"grid": grid})
    if not is_strict():  # the grid itself, without its "solution" key: {"House 1": {…}, …}
        for obj in reversed(objs):
            if obj and all(_HOUSE.fullmatch(str(k).strip()) for k in obj):
                grid = _grid_of(obj)
                if grid:
                    return Answer(label="SAT", rule="json-flat", certificate={"grid": grid})
    table = _table_solution(body, item.problem)
    if table:
        return Answer(label="SAT", rule="table", certificate={"grid": table})
    return Answer(parse_error="no answer: no JSON object with a solution")


_HOUSE = re.compile(r"(?i)house\s*#?\s*\d+")


_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_RULE = re.compile(r"^[\s|:\-]+$")


def _table_solution(body: str, d: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The grid of the last Markdown table that names the houses and the puzzle's attributes:
    one row per house (``| House | Name | Drink |`` then ``| 1 | Alice | tea |``) or one column
    per house (``| Attribute | House 1 | House 2 |`` then ``| Name | Alice | Bob |``); bold
    markers are dropped. Empty when there is none."""
    attrs = {norm(a): a for a in d.get("attributes", [])}
    tables: list[list[list[str]]] = []
    run: list[list[str]] = []
    for line in [*body.splitlines(), ""]:
        m = _ROW.match(line)
        if m and not _RULE.match(line):
            run.append([norm(c.replace("*", "")) for c in m.group(1).split("|")])
        elif not m:
            if run:
                tables.append(run)
            run = []
    for t in reversed(tables):
        head, rows = t[0], t[1:]
        if attrs and set(head[1:]) & set(attrs):  # houses down the side
            sol = {r[0]: dict(zip(head[1:], r[1:], strict=False)) for r in rows if r}
        elif all(re.search(r"\d", h) for h in head[1:]) and rows:  # houses across the top
            sol = {h: {r[0]: r[i] for r in rows if len(r) > i} for i, h in enumerate(head) if i}
        else:
            continue
        grid = _grid_of(sol)
        if grid:
            return grid
    return {}


def _grid_of(sol: dict[Any, Any]) -> dict[str, dict[str, str]]:
    """House number → normalised attribute → normalised value."""
    grid: dict[str, dict[str, str]] = {}
    for hk, row in sol.items():
        m = re.search(r"(\d+)", str(hk))
        if not m or not isinstance(row, dict):
            continue
        grid[m.group(1)] = {norm(k): norm(v) for k, v in row.items()}
    return grid


def score_grid(d: dict[str, Any], grid: dict[str, dict[str, str]]) -> tuple[int, int]:
    """(cells right, cells in total); a missing cell is wrong."""
    right = 0
    attrs = d["solution"]["header"][1:]
    for row in d["solution"]["rows"]:
        got = grid.get(str(row[0]), {})
        right += sum(got.get(a.lower()) == norm(v) for a, v in zip(attrs, row[1:], strict=True))
    return right, len(d["solution"]["rows"]) * len(attrs)


def verify(item: Item, answer: Answer) -> Verdict:
    """A grid is right when every cell is; ``score`` is the fraction of cells right."""
    if item.gold.get("label") == "UNSAT":  # a paired twin whose clues admit no solution
        ok = answer.label == "UNSAT"
        return Verdict(
            correct=ok, reason="" if ok else "the clues admit no solution; a grid was given"
        )
    if answer.label == "UNSAT":
        return Verdict(correct=False, score=0.0, reason="said no solution, but the puzzle has one")
    grid = (answer.certificate or {}).get("grid") or {}
    right, total = score_grid(item.problem, grid)
    ok = right == total
    return Verdict(
        correct=ok,
        witness_valid=ok,
        score=right / total,
        details={"cells_right": right, "cells_total": total},
        reason="" if ok else f"{total - right} of {total} cells wrong",
    )


def _houses(d: dict[str, Any], order: list[list[int]]) -> dict[str, dict[str, str]]:
    """The grid whose attribute ``a`` has value ``order[a][h]`` in house ``h + 1``."""
    return {
        f"House {h + 1}": {a: d["values"][i][order[i][h]] for i, a in enumerate(d["attributes"])}
        for h in range(d["n_houses"])
    }


def grid_text(a: Answer, item: Item) -> str:
    if a.label == "UNSAT":
        return FINAL + json.dumps(
            {"reasoning": "The clues contradict each other.", "solution": None}
        )
    d = item.problem  # write the puzzle's own spelling back (the parser compares normalised)
    attr = {norm(x): x for x in d["attributes"]}
    val = {norm(v): v for vals in d["values"] for v in vals}
    grid = (a.certificate or {}).get("grid") or {}
    sol = {
        f"House {h}": {attr.get(k, k): val.get(v, v) for k, v in row.items()}
        for h, row in sorted(grid.items(), key=lambda kv: int(kv[0]))
    }
    return FINAL + json.dumps({"reasoning": "Read from the grid.", "solution": sol})


def grid_oracle(item: Item) -> Answer:
    """The certified unique solution (or, for a contradictory twin, that there is none)."""
    d = item.problem
    if item.gold.get("label") == "UNSAT":
        return Answer(label="UNSAT")
    attrs = d["solution"]["header"][1:]
    sol = {
        f"House {row[0]}": dict(zip(attrs, row[1:], strict=True)) for row in d["solution"]["rows"]
    }
    return Answer(label="SAT", certificate={"grid": _grid_of(sol)})


def grid_random(item: Item, rng: np.random.Generator) -> Answer:
    """Each attribute's values in a uniformly random house order."""
    d = item.problem
    order = [shuffled(rng, len(vals)) for vals in d["values"]]
    return Answer(label="SAT", certificate={"grid": _grid_of(_houses(d, order))})


def grid_wrong(item: Item) -> Answer:
    """A grid with every cell wrong (the solution moved one house to the right), or the plain
    value order for a contradictory twin."""
    d = item.problem
    n = d["n_houses"]
    if item.gold.get("label") == "UNSAT" or "solution" not in d:
        return Answer(
            label="SAT",
            certificate={"grid": _grid_of(_houses(d, [list(range(n))] * len(d["values"])))},
        )
    rows = d["solution"]["rows"]
    order = [
        [vals.index(rows[(h - 1) % n][i + 1]) for h in range(n)]
        for i, vals in enumerate(d["values"])
    ]
    return Answer(label="SAT", certificate={"grid": _grid_of(_houses(d, order))})


def grid_constants(item: Item) -> list[tuple[str, Answer]]:
    """What a policy that ignores the clues answers: every attribute's values in the order the
    prompt lists them, the same reversed, and "no solution"."""
    d = item.problem
    n = d["n_houses"]
    out = [
        (name, Answer(label="SAT", certificate={"grid": _grid_of(_houses(d, [order] * len(d["values"])))}))
        for name, order in (("values as listed", list(range(n))), ("values reversed", list(range(n))[::-1]))
    ]  # fmt: skip
    return [*out, ("no solution", Answer(label="UNSAT"))]


def grid_chance(item: Item) -> float:
    """One in (n!)^m: each attribute's values in a uniformly random house order."""
    d = item.problem
    return float(math.factorial(int(d["n_houses"]))) ** -len(d["values"])


def grid_reward(item: Item, answer: Answer, v: Verdict, partial: bool) -> float:
    """1 for the right grid (or the right "no solution"); with ``partial`` the cell fraction of
    a complete grid whose every attribute is a permutation of its values; else 0."""
    if v.correct:
        return 1.0
    if not partial or v.score is None:
        return 0.0
    d = item.problem
    grid = (answer.certificate or {}).get("grid") or {}
    houses = [str(h) for h in range(1, d["n_houses"] + 1)]
    if sorted(grid, key=str) != sorted(houses):
        return 0.0
    for a, vals in zip(d["attributes"], d["values"], strict=True):
        got = [grid[h].get(norm(a)) for h in houses]
        if sorted(map(str, got)) != sorted(norm(x) for x in vals):
            return 0.0
    return float(v.score)


def grid_budgeted(item: Item, conflicts: int) -> Answer | None:
    """The grid MiniSat finds on the puzzle's SAT encoding within ``conflicts`` conflicts, or
    None (a contradictory twin proved UNSAT answers "no solution")."""
    from ...logic.cnf import CNF
    from ...logic.sat import solve_within
    from .encoding import clue_clauses, structure_clauses, var

    d = item.problem
    n, m = d["n_houses"], d["n_attributes"]
    clauses = [list(c) for c in structure_clauses(n, m)]
    for c in d["clues"]:
        clauses += clue_clauses(n, Clue.from_json(c))
    sol = solve_within(CNF([tuple(c) for c in clauses], m * n * n), conflicts)
    if sol.label == "UNKNOWN":
        return None
    if sol.label == "UNSAT":
        return Answer(label="UNSAT")
    true = {x for x in sol.model or () if x > 0}
    order = [
        [next(v for v in range(n) if var(n, a, v, h) in true) for h in range(n)] for a in range(m)
    ]
    return Answer(label="SAT", certificate={"grid": _grid_of(_houses(d, order))})


def grid_units(a: Answer) -> list[Hashable]:
    """A grid votes with its cells; "no solution" votes as one unit."""
    if a.label != "SAT":
        return [a.label]
    grid = (a.certificate or {}).get("grid") or {}
    return [(h, k, str(v)) for h, row in grid.items() for k, v in row.items()]


class ZebraMCRenderer:
    """``zebra-mc``: the same puzzle, one multiple-choice question about one cell ("Which
    favorite drink does the person in House 2 have?" with the attribute's values as options A, B,
    …). The cell is drawn from the problem's own seed stream, so it is reproducible."""

    name = "zebra-mc"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        import numpy as np

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
        group_columns=("size_group", "size", "log10_search_space"),
        exports={"zebra-json": lambda problem: problem},
        canonical=zebra_key,
    )
)
RENDERERS.register("zebra", ZebraRenderer())
RENDERERS.register("zebra-pairs", ZebraRenderer("zebra-pairs"))
RENDERERS.register("zebra-mc", ZebraMCRenderer())
