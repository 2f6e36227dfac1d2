"""Solution puzzles: a kind per puzzle family (sudoku, futoshiki, binairo, lights-out, knights and
knaves …) whose answer is the puzzle's one solution, certified unique.

Every such problem's data holds ``cells`` (the answer's cell names, in order), ``domain`` (the
values a cell may take, as text), ``solution`` (cell → value) and, for a grid, ``rows`` and
``cols`` (cell ``r{i}c{j}``, 1-based). A family gives the kind its own rule check
(``check(data, solution) -> ''`` or why not) and SAT encoding (``encode(data) -> (CNF, decode)``);
the rest is shared here: the ``solution`` answer format (metric set ``grid``: accuracy and cell
accuracy), parsing of JSON objects, grids as lists or rows of text and Markdown tables, the
oracle / random / wrong answers, majority votes by cells, the ``budget:N`` solver, and the
training reward (1 only for a solution that satisfies every rule: a constant or shape-only
answer earns nothing).

Construction helpers (:mod:`.puzzle_build`, shared from here too): :func:`minimal_clues` and
:func:`certify_unique`.

Example:
    >>> d = {"cells": ["a", "b"], "domain": ["0", "1"], "solution": {"a": "1", "b": "0"}}
    >>> parse_solution('{"solution": {"a": 1, "b": 0}}', d)
    {'a': '1', 'b': '0'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..logic.cnf import CNF
from ..parse.jsonish import is_strict
from ..schema import Answer, Item, Verdict
from .base import FINAL, AnswerFormat, Kind, register_kind
from .puzzle_build import certify_unique, minimal_clues

__all__ = [  # the construction helpers are shared from here too
    "Check", "Encode", "PuzzleKind", "certify_unique", "minimal_clues", "parse_solution",
    "register_puzzle",
]  # fmt: skip

Check = Callable[[dict[str, Any], dict[str, str]], str]
Encode = Callable[[dict[str, Any]], tuple[CNF, Callable[[dict[int, bool]], dict[str, str]]]]


def grid_cells(rows: int, cols: int) -> list[str]:
    """``r1c1 … r{rows}c{cols}`` in reading order.

    Example:
        >>> grid_cells(1, 2)
        ['r1c1', 'r1c2']
    """
    return [f"r{i}c{j}" for i in range(1, rows + 1) for j in range(1, cols + 1)]


def cell_index(k: str) -> tuple[int, int]:
    """A grid cell's name as 0-based (row, column).

    Example:
        >>> cell_index("r2c10")
        (1, 9)
    """
    return int(k[1 : k.index("c")]) - 1, int(k[k.index("c") + 1 :]) - 1


def formal_cell(k: str, name: str = "x") -> str:
    """A grid cell's name as the formal renderers write the variable: ``name[row][column]``.

    Example:
        >>> formal_cell("r2c10", "b")
        'b[2][10]'
    """
    c = k.index("c")
    return f"{name}[{k[1:c]}][{k[c + 1 :]}]"


def givens_grid(d: dict[str, Any]) -> str:
    """The square grid ``d`` row by row, each given digit in its cell and '.' elsewhere.

    Example:
        >>> print(givens_grid({"rows": 2, "givens": {"r1c2": 1}}))
        . 1
        . .
    """
    n = d["rows"]
    return "\n".join(
        " ".join(str(d["givens"].get(f"r{i}c{j}", ".")) for j in range(1, n + 1))
        for i in range(1, n + 1)
    )


def check_givens(d: dict[str, Any], sol: dict[str, str]) -> str:
    """'' when ``sol`` keeps every given cell of ``d["givens"]``, else which one it changed."""
    for k, v in d["givens"].items():
        if sol.get(k) != str(v):
            return f"{k} must stay {v}"
    return ""


def binary_decode(
    rows: int, cols: int, var: Callable[[int, int], int]
) -> Callable[[dict[int, bool]], dict[str, str]]:
    """The decoder of a 0/1 grid whose cell (i, j) is the variable ``var(i, j)`` (0-based)."""

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {
            f"r{i + 1}c{j + 1}": "1" if model.get(var(i, j)) else "0"
            for i in range(rows)
            for j in range(cols)
        }

    return decode


def binary_grid_cnf(
    d: dict[str, Any], rules: tuple[list[list[int]], int], var: Callable[[int, int], int]
) -> tuple[CNF, Callable[[dict[int, bool]], dict[str, str]]]:
    """A 0/1 grid's CNF and decoder: the family's ``rules`` (clauses over that many variables),
    then one unit clause per given cell of ``d["givens"]``; cell (i, j) is ``var(i, j)``."""
    cl, top = rules
    for k, v in d["givens"].items():
        x = var(*cell_index(k))
        cl.append([x if str(v) == "1" else -x])
    return CNF(cl, top), binary_decode(d["rows"], d["cols"], var)


def digit_decode(
    n: int, var: Callable[[int, int, int, int], int]
) -> Callable[[dict[int, bool]], dict[str, str]]:
    """The decoder of an n × n grid of digits 1 … n whose "cell (i, j) holds v + 1" is the
    variable ``var(n, i, j, v)`` (0-based); a cell with no true value decodes as "0"."""

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {
            f"r{i + 1}c{j + 1}": str(
                next((v + 1 for v in range(n) if model.get(var(n, i, j, v))), 0)
            )
            for i in range(n)
            for j in range(n)
        }

    return decode


def norm(v: Any) -> str:
    """A value as the parser compares it: text, trimmed, lower case (``True`` is ``1``)."""
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v).strip().strip("'\"`*").strip().lower()


def _from_rows(rows: Sequence[Any], d: dict[str, Any]) -> dict[str, str] | None:
    """A grid given as rows (lists of values, or strings of one-character values / separated
    values) as cell → value; None when its shape is not the puzzle's."""
    r, c = d.get("rows"), d.get("cols")
    if not isinstance(r, int) or not isinstance(c, int) or len(rows) != r:
        return None
    out: dict[str, str] = {}
    for i, row in enumerate(rows, start=1):
        vals = (
            _tokens(row, c)
            if isinstance(row, str)
            else list(row)
            if isinstance(row, list)
            else None
        )
        if vals is None or len(vals) != c:
            return None
        for j, v in enumerate(vals, start=1):
            out[f"r{i}c{j}"] = norm(v)
    return out


def _tokens(line: str, c: int) -> list[str] | None:
    parts = [p for p in re.split(r"[\s,|;]+", line.strip()) if p]
    if len(parts) == c:
        return parts
    compact = re.sub(r"[\s|,]", "", line)
    return list(compact) if len(compact) == c else None


def _cell_key(k: Any, d: dict[str, Any]) -> str:
    """``R1C2``, ``r1c2``, ``(1,2)``, ``1,2`` → ``r1c2`` for grids; other names trimmed, lower."""
    s = str(k).strip().lower()
    m = re.fullmatch(r"\(?\s*(?:r(?:ow)?\s*)?(\d+)\s*[, ]\s*(?:c(?:ol)?\s*)?(\d+)\s*\)?", s)
    if m and isinstance(d.get("rows"), int):
        return f"r{int(m.group(1))}c{int(m.group(2))}"
    m = re.fullmatch(r"r(\d+)\s*c(\d+)", s)
    return f"r{int(m.group(1))}c{int(m.group(2))}" if m else s


def _from_obj(sol: Any, d: dict[str, Any]) -> dict[str, str] | None:
    if isinstance(sol, list):
        return _from_rows(sol, d)
    if isinstance(sol, dict):
        names = {c.lower(): c for c in d["cells"]}
        out = {}
        for k, v in sol.items():
            key = _cell_key(k, d)
            out[names.get(key, key)] = norm(v)
        return out
    return None


def _grid_from_text(body: str, d: dict[str, Any]) -> dict[str, str] | None:
    """The last block of ``rows`` consecutive lines that read as ``cols`` domain values each (a
    plain grid, a Markdown table — its separator line skipped —, or rows in a code block)."""
    r, c = d.get("rows"), d.get("cols")
    if not isinstance(r, int) or not isinstance(c, int):
        return None
    dom = {norm(x) for x in d["domain"]}
    lines = [ln for ln in body.splitlines() if not re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", ln)]
    rows: list[list[str] | None] = []
    for ln in lines:
        toks = _tokens(ln.strip().strip("|"), c)
        rows.append(toks if toks and all(norm(t) in dom for t in toks) else None)
    best = None
    run: list[list[str]] = []
    for toks in rows + [None]:
        if toks is not None:
            run.append(toks)
            continue
        if len(run) >= r:
            best = run[-r:]
        run = []
    return None if best is None else _from_rows(best, d)


def _named_from_text(body: str, d: dict[str, Any]) -> dict[str, str] | None:
    """``name: value`` / ``name is a value`` lines (``**name**: value``, ``| name | value |``
    table rows) for every cell (the last mention wins)."""
    dom = sorted((norm(x) for x in d["domain"]), key=len, reverse=True)
    out: dict[str, str] = {}
    for cell in d["cells"]:
        pat = rf"\b{re.escape(cell)}\b\**\s*(?:[:=→|-]+|\bis\b(?:\s+an?)?)\s*\**\s*({'|'.join(map(re.escape, dom))})\b"
        hits = re.findall(pat, body, flags=re.I)
        if hits:
            out[cell] = norm(hits[-1])
    return out if len(out) == len(d["cells"]) else None


def parse_solution(
    body: str, d: dict[str, Any], objs: Sequence[dict[str, Any]] = ()
) -> dict[str, str] | None:
    """The solution a reply gives: the last JSON object with ``solution`` (or ``grid`` /
    ``answer`` holding a grid or a cell map), else a grid or ``cell: value`` lines in the text."""
    if not objs:
        from ..parse.jsonish import json_objects

        objs = json_objects(body)
    for obj in reversed(list(objs)):
        for key in ("solution", "grid", "answer"):
            got = _from_obj(obj.get(key), d) if key in obj else None
            if got:
                return got
    if not is_strict():  # the answer itself, without its key: a cell map or a list of rows
        for obj in reversed(list(objs)):
            if set(obj) >= set(d["cells"]):
                got = _from_obj(obj, d)
                if got:
                    return got
        got = _rows_array(body, d)
        if got:
            return got
    return _grid_from_text(body, d) or _named_from_text(body, d)


_ARRAY = re.compile(r"\[\s*\[")


def _rows_array(body: str, d: dict[str, Any]) -> dict[str, str] | None:
    """The last JSON array of the grid's rows in the text (``[[1, 2], [2, 1]]``), if any (at
    most the last 20 candidates are tried)."""
    r = d.get("rows")
    if not isinstance(r, int):
        return None
    decoder = json.JSONDecoder()
    for m in list(_ARRAY.finditer(body))[-20:][::-1]:
        try:
            rows, _ = decoder.raw_decode(body, m.start())
        except (ValueError, RecursionError):
            continue
        if isinstance(rows, list) and len(rows) == r and all(isinstance(x, list) for x in rows):
            got = _from_rows(rows, d)
            if got:
                return got
    return None


def score_cells(d: dict[str, Any], sol: dict[str, str]) -> int:
    """Cells equal to the certified solution."""
    gold = d["solution"]
    return sum(norm(sol.get(c, "")) == norm(gold[c]) for c in d["cells"])


@dataclass(frozen=True)
class PuzzleKind:
    """What a solution-puzzle family tells the shared format."""

    name: str
    check: Check
    encode: Encode
    default_renderer: str = ""
    # the prompt in formal notation; by convention ``<kind>-formal``
    formal_renderer: str = ""


def _format(pk: PuzzleKind) -> AnswerFormat:
    def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
        sol = parse_solution(body, item.problem, objs)
        if not sol:
            return Answer(
                parse_error="no solution found (a JSON solution, a grid or name: value lines)"
            )
        return Answer(label="SAT", certificate={"solution": sol})

    def to_text(a: Answer, item: Item) -> str:
        sol = (a.certificate or {}).get("solution") or {}
        d = item.problem
        if isinstance(d.get("rows"), int):
            grid = [[sol.get(f"r{i}c{j}", "?") for j in range(1, d["cols"] + 1)]
                    for i in range(1, d["rows"] + 1)]  # fmt: skip
            return FINAL + json.dumps({"solution": grid})
        return FINAL + json.dumps({"solution": {c: sol.get(c, "?") for c in d["cells"]}})

    def check(item: Item, a: Answer) -> Verdict:
        d = item.problem
        sol = (a.certificate or {}).get("solution") or {}
        right, total = score_cells(d, sol), len(d["cells"])
        missing = [c for c in d["cells"] if c not in sol]
        why = f"{len(missing)} cells without a value" if missing else pk.check(d, sol)
        ok = not why
        return Verdict(
            correct=ok,
            witness_valid=ok,
            score=right / total if total else None,
            details={"cells_right": right, "cells_total": total},
            reason="" if ok else why,
        )

    def oracle(item: Item) -> Answer:
        return Answer(label="SAT", certificate={"solution": dict(item.problem["solution"])})

    def random(item: Item, rng: np.random.Generator) -> Answer:
        d = item.problem
        dom = [norm(x) for x in d["domain"]]
        sol = {c: dom[int(rng.integers(len(dom)))] for c in d["cells"]}
        return Answer(label="SAT", certificate={"solution": sol})

    def wrong(item: Item) -> Answer:
        d = item.problem
        dom = [norm(x) for x in d["domain"]]
        sol = {c: dom[(dom.index(norm(v)) + 1) % len(dom)] for c, v in d["solution"].items()}
        return Answer(label="SAT", certificate={"solution": sol})

    def units(a: Answer) -> list[Hashable]:
        sol = (a.certificate or {}).get("solution") or {}
        return [(c, v) for c, v in sorted(sol.items())] or [a.label]

    def budgeted(item: Item, conflicts: int) -> Answer | None:
        from ..logic.sat import solve_within

        cnf, decode = pk.encode(item.problem)
        s = solve_within(cnf, conflicts)
        if s.label != "SAT":
            return None
        return Answer(label="SAT", certificate={"solution": decode(s.assignment or {})})

    def reward(item: Item, a: Answer, v: Verdict, partial: bool) -> float:
        """1 for a solution that keeps every rule; with ``partial``, the cell fraction of a
        complete answer in the puzzle's domain; never anything for a malformed one."""
        if v.correct:
            return 1.0
        sol = (a.certificate or {}).get("solution") or {}
        dom = {norm(x) for x in item.problem["domain"]}
        whole = set(sol) == set(item.problem["cells"]) and all(x in dom for x in sol.values())
        return float(v.score or 0.0) if partial and whole else 0.0

    def constants(item: Item) -> list[tuple[str, Answer]]:
        d = item.problem
        return [
            (f"every cell {v}", Answer(label="SAT", certificate={"solution": dict.fromkeys(d["cells"], norm(v))}))
            for v in d["domain"]
        ]  # fmt: skip

    def chance(item: Item) -> float:
        return float(len(item.problem["domain"])) ** -len(item.problem["cells"])

    return AnswerFormat(
        "solution", "grid", parse, to_text, check, oracle, random, wrong,
        vote_units=units, budgeted=budgeted, reward=reward, constants=constants, chance=chance,
    )  # fmt: skip


def register_puzzle(pk: PuzzleKind) -> Kind:
    """Register the kind of a solution-puzzle family (one ``solution`` answer format)."""
    words = pk.default_renderer or pk.name
    formal = pk.formal_renderer or f"{pk.name}-formal"
    return register_kind(
        Kind(
            pk.name,
            ("SAT",),
            (_format(pk),),
            default_renderer=pk.default_renderer,
            words_renderer=words,
            formal_renderer=formal,
        )  # fmt: skip
    )
