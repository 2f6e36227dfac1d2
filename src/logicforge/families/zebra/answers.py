"""The zebra grid answer: parsing (the last complete JSON object with a ``solution``; code
fences and trailing commas are fine; house keys "House 1" / "house 1" / "1"; attribute names and
values compared case- and whitespace-insensitively; a list value counts as its first element;
nothing usable is no answer, 0 cells), scoring by cells, and the oracle, random, wrong and
budgeted answers, the chance level and the reward of :mod:`.render`'s ``grid`` format."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable
from typing import Any

import numpy as np

from ...kinds.base import FINAL
from ...parse.jsonish import is_strict
from ...rng import shuffled
from ...schema import Answer, Item, Verdict
from .clues import Clue
from .feedback import norm


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
