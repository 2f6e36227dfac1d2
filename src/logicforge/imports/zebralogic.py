"""ZebraLogic puzzles as published (HF ``grid_mode`` / ``mc_mode`` rows, ZeroEval result files):
the puzzle text parsed into logicforge's clue relations, and the unique solution **proved** by
logicforge's own SAT encoding (a puzzle with none or several is rejected, never trusted).

The text: "There are N houses …", one `` - <intro>: `v1`, `v2`, … `` line per attribute, then
``## Clues:`` and numbered sentences in ZebraLogic's templates ("… is not in the second house",
"… is directly left of …", "There are two houses between … and …", "A is B" for the same
house, …). A sentence names people by phrases around an attribute's value ("the person who
loves fantasy books", "the British person" for ``brit``, "the Swedish person" for ``swede``
(:data:`ALIASES`), "the person whose birthday is in February" for ``feb``); the values are
found in the sentence — exact words first, then words that begin with the value, share its
singular or are its adjective — and a value that two attributes share (``Alice`` as a name and as
a child's name) is given to the attribute whose intro shares a word with the phrase ("the
person's child is named Alice"), or to the first attribute (the names) when the phrase is the
value alone.

A multiple-choice row (``question``, ``choices``) becomes a ``zebra-mc`` item with its own
question and choices; the right choice is read off the proved grid (:func:`mc_answer`), and a
shipped ``answer`` that differs is noted.

The answer keys (``Name``, ``BookGenre``, …) come from the row's ``solution.header`` when it
has one, else from the JSON template of a stored prompt, else from ZebraLogic's intro lines
(:data:`KEYS`). A shipped solution is compared with the proved one, cell by cell, and a
mismatch is noted per puzzle.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..families.base import Dataset
from ..families.zebra.clues import ORDINALS
from ..families.zebra.generate import size_group
from ..registry import DATASETS
from ..schema import ImportLog, LabelledProblem
from .base import strict_loader
from .files import iter_rows, slug
from .zebralogic_text import (
    KEYS,
    PuzzleError,
    _mentions,
    parse_puzzle,
    solve_unique,
)

# a house named in a multiple-choice option: "house 3" / "house #3" / "the third house"
_HOUSE_NO = re.compile(r"\bhouse\s*(?:#|number\s*)?(\d+)\b", re.I)
_HOUSE_ORD = re.compile(r"\b(" + "|".join(ORDINALS) + r") house\b", re.I)


def mc_answer(
    question: str,
    choices: list[str],
    values: list[list[str]],
    intros: list[str],
    grid: list[list[str]],
) -> str:
    """The choice a multiple-choice question's answer is, read off the proved grid
    (``grid[h][a]``): the question names a house ("House 3", "the third house") or a person (a
    value), and the choices are one attribute's values or house numbers.

    Example:
        >>> mc_answer("What is the name of the person in House 2?", ["Eric", "Arnold"],
        ...           [["Eric", "Arnold"], ["tea", "milk"]], ["names", "drinks"],
        ...           [["Eric", "milk"], ["Arnold", "tea"]])
        'Arnold'
    """
    norm = lambda x: re.sub(r"\s+", " ", str(x)).strip().lower()  # noqa: E731
    n = len(grid)
    house: int | None = None
    for m in _HOUSE_NO.finditer(question):
        if 1 <= int(m.group(1)) <= n:
            house = int(m.group(1)) - 1
    for m in _HOUSE_ORD.finditer(question):
        if ORDINALS.index(m.group(1).lower()) < n:
            house = ORDINALS.index(m.group(1).lower())
    masked = _HOUSE_ORD.sub(
        lambda m: " " * len(m.group(0)), _HOUSE_NO.sub(lambda m: " " * len(m.group(0)), question)
    )
    who = _mentions(masked, values, intros)
    attrs = [
        a for a, vals in enumerate(values) if {norm(c) for c in choices} <= {norm(v) for v in vals}
    ]
    houses = all(re.fullmatch(r"(?:house\s*)?\d+", norm(c)) for c in choices)
    if houses and len(who) == 1:  # "Which house does X live in?"
        a, v, _ = who[0]
        h = next(h for h in range(n) if norm(grid[h][a]) == norm(values[a][v]))
        got = [c for c in choices if int(re.sub(r"\D", "", c)) == h + 1]
    elif len(attrs) == 1 and (house is not None or who):
        target = attrs[0]
        if house is None:
            known = [(a, v) for a, v, _ in who if a != target]
            if len(known) != 1:
                raise PuzzleError(f"the question {question!r} names {len(known)} people")
            a, v = known[0]
            house = next(h for h in range(n) if norm(grid[h][a]) == norm(values[a][v]))
        got = [c for c in choices if norm(c) == norm(grid[house][target])]
    else:
        raise PuzzleError(f"cannot read the question {question!r} against its choices")
    if len(got) != 1:
        raise PuzzleError(f"the proved solution matches {len(got)} of the choices {choices}")
    return got[0]


def _keys(row: dict[str, Any], intros: list[str]) -> tuple[list[str], str]:
    """The answer keys and where they came from (the shipped header, a stored prompt, the
    intros)."""
    sol = row.get("solution")
    if isinstance(sol, dict) and isinstance(sol.get("header"), list):
        keys = [str(k) for k in sol["header"] if str(k).lower() != "house"]
        if len(keys) == len(intros):
            return keys, "solution header"
    prompt = _stored_prompt(row)
    if prompt and '"House 1": {' in prompt:
        block = prompt.split('"House 1": {')[-1].split("}")[0]
        keys = re.findall(r'"([^"]+)":\s*"___"', block)
        if len(keys) == len(intros):
            return keys, "prompt template"
    keys = [KEYS.get(i, "") for i in intros]
    if all(keys) and len(set(keys)) == len(keys):
        return keys, "intro lines"
    return [k or f"Attribute {i + 1}" for i, k in enumerate(keys)], "unknown intro lines"


def _stored_prompt(row: dict[str, Any]) -> str | None:
    hist = row.get("chat_history")
    if isinstance(hist, list) and hist and isinstance(hist[0], str):
        return hist[0]
    return None


def zebralogic_problem(row: dict[str, Any], source: str, licence: str | None) -> LabelledProblem:
    """One grid-mode row as a certified-unique ``zebra`` problem (raises :class:`PuzzleError`)."""
    text = row.get("puzzle")
    if not isinstance(text, str):
        raise PuzzleError("the row has no 'puzzle' text")
    n, intros, values, clues = parse_puzzle(text)
    m = len(values)
    pos, found = solve_unique(n, m, clues)
    if pos is None:
        raise PuzzleError("the clues as read admit no solution")
    if found > 1:
        raise PuzzleError("the clues as read admit more than one solution")
    keys, keys_from = _keys(row, intros)
    grid = [
        [values[a][next(v for v in range(n) if pos[a][v] == h)] for a in range(m)] for h in range(n)
    ]
    hist: dict[str, int] = {}
    for c in clues:
        hist[c.type] = hist.get(c.type, 0) + 1
    rid = str(
        row.get("id") or row.get("session_id") or hashlib.sha256(text.encode()).hexdigest()[:12]
    )
    mc = None
    if isinstance(row.get("question"), str) and isinstance(row.get("choices"), list):
        choices = [str(c) for c in row["choices"]]
        answer = mc_answer(row["question"], choices, values, intros, grid)
        mc = {"question": row["question"], "choices": choices, "answer": answer}
    problem = {
        "n_houses": n,
        "n_attributes": m,
        "attributes": keys,
        "values": values,
        "clues": [c.to_json() for c in clues],
        "solution": {
            "header": ["House", *keys],
            "rows": [[str(h + 1), *grid[h]] for h in range(n)],
        },
        "text": text.rstrip("\n"),
        **({"mc": mc} if mc else {}),
    }
    meta: dict[str, Any] = {
        "id": rid,
        "source": source,
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "n_houses": n,
        "n_attributes": m,
        "size": f"{n}*{m}",
        "size_group": size_group(n, m),
        "log10_search_space": round(m * math.log10(math.factorial(n)), 4),
        "n_clues": len(clues),
        "clue_types": hist,
        "answer_keys_from": keys_from,
        **({"renderer": "zebra-mc"} if mc else {}),
        **({"licence": licence} if licence else {}),
    }
    return LabelledProblem(
        problem_id=f"zebralogic-{slug(rid)}",
        family="zebralogic",
        kind="zebra",
        params={"id": rid},
        seed=int(meta["sha256"][:8], 16),  # per-puzzle streams (renaming, the zebra-mc cell)
        spawn_key=[],
        problem=problem,
        label="SAT",
        oracle={"solver": "glucose4", "unique": True},
        metadata=meta,
    )


def shipped_mismatch(row: dict[str, Any], p: LabelledProblem) -> int | None:
    """Cells where the row's own solution differs from the proved one (None: no solution)."""
    sol = row.get("solution")
    if not isinstance(sol, dict) or not isinstance(sol.get("rows"), list):
        return None
    norm = lambda x: re.sub(r"\s+", " ", str(x)).strip().lower()  # noqa: E731
    mine = {r[0]: [norm(v) for v in r[1:]] for r in p.problem["solution"]["rows"]}
    bad = 0
    for r in sol["rows"]:
        got = mine.get(norm(r[0]), [])
        bad += sum(a != norm(b) for a, b in zip(got, r[1:], strict=False)) + abs(
            len(got) - len(r) + 1
        )
    return bad + max(0, len(mine) - len(sol["rows"])) * p.problem["n_attributes"]


def read_zebralogic(
    paths: Sequence[str | Path], log: ImportLog, licence: str | None = None
) -> list[LabelledProblem]:
    """Every grid-mode puzzle row of the files (JSON, JSONL, Parquet) whose text parses and
    whose solution is unique; the others are noted with the clue that failed."""
    out: list[LabelledProblem] = []
    seen: set[str] = set()
    for where, row in iter_rows(paths, (".json", ".jsonl", ".parquet"), log):
        where = f"{where.rsplit('#', 1)[0]}#{row['id']}" if row.get("id") else where
        try:
            p = zebralogic_problem(row, where, licence)
        except PuzzleError as e:
            log.reject(where, str(e))
            continue
        if p.problem_id in seen:
            log.warn(where, f"the id {row.get('id')!r} appears again; kept the first")
            continue
        seen.add(p.problem_id)
        if p.metadata["answer_keys_from"] == "unknown intro lines":
            log.warn(where, "answer keys not known for some attributes: named 'Attribute i'")
        shipped = row.get("answer")
        mc = p.problem.get("mc")
        if mc and isinstance(shipped, str) and shipped.strip().lower() != mc["answer"].lower():
            log.disagreements.append(
                {
                    "source": where,
                    "declared": shipped,
                    "found": mc["answer"],
                    "found_by": "glucose4",
                }
            )
        bad = shipped_mismatch(row, p)
        if bad:
            log.disagreements.append(
                {
                    "source": where,
                    "declared": "the shipped solution",
                    "found": f"a unique solution that differs in {bad} cells",
                    "found_by": "glucose4",
                }
            )
        out.append(p)
        log.imported += 1
    return out


DATASETS.register(
    "zebralogic",
    Dataset(
        strict_loader("zebralogic", read_zebralogic),
        what="ZebraLogic grid- and mc-mode rows (HF JSON / JSONL / Parquet, ZeroEval results)",
        read=read_zebralogic,
    ),
)
