"""``deduction-order``: an ordering puzzle asked for its whole arrangement — every object's
position — instead of one option of several (beyond the paper; for training).

A multiple-choice question lets a constant letter earn 1/n of the reward; an arrangement is its
own certificate: a reply earns reward only when every clue holds in it, and a constant policy
(the objects in the order the story lists them, or reversed) earns 1/n! at most. Only puzzles
whose clues fix the arrangement can be asked this way (``ordering`` with ``determine:
arrangement``, as BIG-bench's puzzles are); the renderer proves it again — exactly one of the n!
arrangements keeps every clue — and refuses any other puzzle with the reason.

The answer format ``arrangement`` (metric set ``grid``: accuracy and the fraction of objects in
the right place) reads ``{"solution": {"red": 1, …}}``, ``{"order": ["red", …]}`` (left to
right, first to last), a ``red: 1`` line per object, or a Markdown table of the two.

Example:
    >>> import logicforge as lf
    >>> ps = lf.generate("ordering", {"n_objects": 3}, count=1, seed=0)
    >>> it = lf.render(ps, "deduction-order")[0]
    >>> import json
    >>> from logicforge.kinds import parse_answer, verify
    >>> reply = json.dumps({"order": ps[0].problem["arrangement"]})
    >>> verify(it, parse_answer(reply, it)).correct, lf.reward(it, reply)
    (True, 1.0)
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..kinds import AnswerFormat
from ..kinds.puzzle import norm, parse_solution
from ..rng import shuffled
from ..schema import Answer, Item, LabelledProblem, Verdict
from .ordering_text import SCENES, cot_item, holds, story

FORMAT = "arrangement"
RENDERER = "deduction-order"
ENDS = {"left": ("leftmost", "rightmost"), "older": ("oldest", "newest")}


def _view(d: dict[str, Any]) -> dict[str, Any]:
    """The problem as the shared solution parser reads it: objects as cells, positions 1 … n."""
    n = int(d["n_objects"])
    return {
        "cells": list(d["objects"]),
        "domain": [str(i) for i in range(1, n + 1)],
        "solution": {o: str(i) for i, o in enumerate(d["arrangement"], start=1)},
    }


def _clues(d: dict[str, Any]) -> list[list[str]]:
    return [c.split(" ") for c in d["clues"]]


def arrangements(d: dict[str, Any]) -> list[tuple[int, ...]]:
    """Every assignment of positions (object i at ``pos[i]``) that keeps every clue."""
    index = {o: i for i, o in enumerate(d["objects"])}
    clues = _clues(d)
    n = len(d["objects"])
    return [p for p in itertools.permutations(range(1, n + 1)) if holds(clues, p, index)]


def _from_order(v: Any, d: dict[str, Any]) -> dict[str, str] | None:
    """A list of every object, first to last, as object → position."""
    if not isinstance(v, list) or len(v) != len(d["objects"]):
        return None
    names = {norm(o): o for o in d["objects"]}
    got = [names.get(norm(x)) for x in v]
    if None in got or len(set(got)) != len(got):
        return None
    return {str(o): str(i) for i, o in enumerate(got, start=1)}


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    d = item.problem
    for obj in reversed(objs):
        for key in ("order", "arrangement", "solution", "answer"):
            got = _from_order(obj.get(key), d) if key in obj else None
            if got:
                return Answer(label="SAT", certificate={"solution": got})
    sol = parse_solution(body, _view(d), objs)
    if not sol:
        return Answer(
            parse_error="no arrangement found (a JSON solution or order, or name: position lines)"
        )
    names = {norm(o): o for o in d["objects"]}
    return Answer(
        label="SAT", certificate={"solution": {names.get(k, k): v for k, v in sol.items()}}
    )


def check(item: Item, a: Answer) -> Verdict:
    """Right when every object has a distinct position 1 … n and every clue holds there."""
    d = item.problem
    sol = {str(k): norm(v) for k, v in ((a.certificate or {}).get("solution") or {}).items()}
    objects = list(d["objects"])
    gold = _view(d)["solution"]
    right = sum(sol.get(o) == gold[o] for o in objects)
    n = len(objects)
    why = ""
    missing = [o for o in objects if o not in sol]
    if missing:
        why = f"{len(missing)} objects without a position"
    elif sorted(sol[o] for o in objects) != [str(i) for i in range(1, n + 1)]:
        why = f"the positions must be 1 … {n}, each once"
    else:
        pos = tuple(int(sol[o]) for o in objects)
        index = {o: i for i, o in enumerate(objects)}
        broken = [" ".join(c) for c in _clues(d) if not holds([c], pos, index)]
        why = f"{len(broken)} clue(s) broken (first: {broken[0]})" if broken else ""
    ok = not why
    return Verdict(
        correct=ok,
        witness_valid=ok,
        score=right / n,
        details={"cells_right": right, "cells_total": n},
        reason=why,
    )


def to_text(a: Answer, item: Item) -> str:
    sol = (a.certificate or {}).get("solution") or {}
    return "Final answer:\n" + json.dumps(
        {
            "solution": {
                o: int(sol[o]) if str(sol.get(o, "")).isdigit() else sol.get(o, "?")
                for o in item.problem["objects"]
            }
        }  # fmt: skip
    )


def oracle(item: Item) -> Answer:
    return Answer(label="SAT", certificate={"solution": _view(item.problem)["solution"]})


def random(item: Item, rng: np.random.Generator) -> Answer:
    """A uniformly random arrangement (chance 1/n!)."""
    objects = list(item.problem["objects"])
    perm = shuffled(rng, len(objects))
    return Answer(
        label="SAT", certificate={"solution": {objects[p]: str(i + 1) for i, p in enumerate(perm)}}
    )


def wrong(item: Item) -> Answer:
    """The arrangement shifted one place (every object in a wrong position)."""
    order = list(item.problem["arrangement"])
    order = order[1:] + order[:1]
    return Answer(
        label="SAT", certificate={"solution": {o: str(i) for i, o in enumerate(order, start=1)}}
    )


def constants(item: Item) -> list[tuple[str, Answer]]:
    """What a policy that ignores the clues answers: the story's order, and reversed."""
    objects = list(item.problem["objects"])
    out = []
    for name, order in (("listed order", objects), ("reversed order", objects[::-1])):
        sol = {o: str(i) for i, o in enumerate(order, start=1)}
        out.append((name, Answer(label="SAT", certificate={"solution": sol})))
    return out


def reward(item: Item, a: Answer, v: Verdict, partial: bool) -> float:
    """1 for an arrangement that keeps every clue; with ``partial`` the fraction of objects in
    place, for a complete arrangement (each position once) only."""
    if v.correct:
        return 1.0
    sol = (a.certificate or {}).get("solution") or {}
    n = len(item.problem["objects"])
    whole = sorted(str(x) for x in sol.values()) == sorted(str(i) for i in range(1, n + 1))
    return float(v.score or 0.0) if partial and whole and len(sol) == n else 0.0


def units(a: Answer) -> list[Any]:
    sol = (a.certificate or {}).get("solution") or {}
    return [(o, p) for o, p in sorted(sol.items())] or [a.label]


ARRANGEMENT = AnswerFormat(
    FORMAT, "grid", parse, to_text, check, oracle, random, wrong,
    vote_units=units, reward=reward, item_labels=lambda it: ("SAT",),
    constants=constants, chance=lambda it: 1 / math.factorial(len(it.problem["objects"])),
)  # fmt: skip


class ArrangementRenderer:
    """``deduction-order``: the puzzle's story, then every object's position asked for."""

    name = RENDERER
    kind = "deduction"

    def render(self, problem: LabelledProblem) -> Item:
        from ..kinds.items import build_kind_item

        d = problem.problem
        if "clues" not in d or "arrangement" not in d:
            raise ConfigError(
                "renderer", RENDERER, f"{problem.problem_id} has no clues to solve: only generated "
                "ordering puzzles can be asked for their arrangement",
            )  # fmt: skip
        found = arrangements(d)
        if len(found) != 1:
            raise ConfigError(
                "renderer", RENDERER, f"the clues of {problem.problem_id} allow {len(found)} "
                "arrangements; generate with determine: arrangement (the default)",
            )  # fmt: skip
        want = tuple(d["arrangement"].index(o) + 1 for o in d["objects"])
        certify(found[0] == want, "the one arrangement the clues allow is the puzzle's")
        n = int(d["n_objects"])
        first, last = ENDS[SCENES[d["scene"]][3]]
        ex = ", ".join(f'"{o}": {i}' for i, o in enumerate(d["objects"][:2], start=1))
        prompt = (
            f"{story(d)}\n\nQuestion: What is the position of every object, from 1 (the "
            f"{first}) to {n} (the {last})?\n\nThink step by step, then end with one JSON "
            f'object on its own line giving every object its position: {{"solution": {{{ex}, '
            "...}}."
        )
        props = {o: {"type": "integer", "minimum": 1, "maximum": n} for o in d["objects"]}
        schema = {
            "type": "object",
            "properties": {
                "solution": {"type": "object", "properties": props, "required": list(props)}
            },
            "required": ["solution"],
        }
        item = build_kind_item(
            problem, RENDERER, prompt, schema, answer_format=FORMAT,
            gold={"label": "SAT", "option": problem.label},
        )  # fmt: skip
        return cot_item(item)
