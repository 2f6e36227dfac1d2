"""Operator edits of Logic-LM's LogicalDeduction programs (the symbolic-edits paper on its
external deduction data), with the text brought along by back-translation.

A loaded question (:func:`load_logicaldeduction` with programs)
carries its constraint program; each constraint line ``a op b ::: sentence`` glosses one sentence
of the question's context. An edit swaps ``<`` ↔ ``>`` or ``==`` ↔ ``!=`` in one line and the CSP
oracle re-solves the program — cumulative label-preserving chains and individual preserving /
altering edits, recorded like every other family's edits. Only questions whose program reproduces
the dataset's answer are edited (262 of 300 with Logic-LM's GPT-4 programs); the others keep
level 0 only.

An edited question's context is stale until :mod:`logicforge.llm.backtranslate` rewrites
the edited sentences (found in the context by their gloss) and verifies each one by translating
it back into a constraint that must hold on exactly the same assignments as the edited one. The
``deduction`` renderer refuses an edited loaded question whose context was not verified.

Example:
    >>> edit_line("blue_book > yellow_book ::: The blue book is to the right of the yellow book.")
    ('blue_book < yellow_book ::: The blue book is to the right of the yellow book.', '>→<')
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import CertificationError, DataFileError, LogicforgeError
from ..logic.csp import CSPParseError, parse_constraint, parse_program, solve_csp
from ..registry import DATASETS
from ..schema import LabelledProblem
from ._edits import SWAP, cumulative_program_edits, individual_program_edits
from .base import Dataset
from .ordering import KIND, NAME


def constraint_lines(program: str) -> list[int]:
    """Indices (into ``program.splitlines()``) of the editable comparison constraints."""
    out, section = [], None
    for i, line in enumerate(program.splitlines()):
        s = line.strip()
        if s in ("Domain:", "Variables:", "Constraints:", "Query:"):
            section = s
            continue
        if section == "Constraints:" and s and edit_line(s) is not None:
            out.append(i)
    return out


def edit_line(line: str) -> tuple[str, str] | None:
    """The line with its comparison swapped (gloss kept, stale), or None if not editable."""
    expr, sep, gloss = line.partition(":::")
    try:
        c = parse_constraint(expr, set(_names(expr)))
    except CSPParseError:
        return None
    if c.op not in SWAP:
        return None
    new = f"{c.args[0].text()} {SWAP[c.op]} {c.args[1].text()}"
    return (f"{new} {sep}{gloss}" if sep else new), f"{c.op}→{SWAP[c.op]}"


def _names(expr: str) -> list[str]:
    import re

    return re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr)


def _solve(program: str) -> str:
    return solve_csp(parse_program(program))


def _editable(p: LabelledProblem) -> bool:
    return "program" in p.problem and p.metadata.get("program_answer") == p.label


def _edit(lines: list[str], i: int) -> Iterator[tuple[list[str], str]]:
    """The one edit of a comparison line (its operator swapped)."""
    e = edit_line(lines[i])
    if e is None:
        raise CertificationError("certification failed: every editable constraint has an edit")
    yield [*lines[:i], e[0], *lines[i + 1 :]], e[1]


def _single_answer(lines: list[str]) -> str | None:
    got = _solve("\n".join(lines))
    return got if len(got) == 1 else None


def ld_cumulative(p: LabelledProblem) -> list[LabelledProblem]:
    """Levels 0 … K of the label-preserving chain over the program's comparison lines."""
    positions = constraint_lines(p.problem["program"]) if _editable(p) else []
    return cumulative_program_edits(
        p, positions, _edit, lambda lines: _solve("\n".join(lines)) == p.label
    )


def ld_individual(p: LabelledProblem, mode: str = "preserve") -> list[LabelledProblem]:
    """One-edit variants; ``alter`` keeps edits that make another single option true."""
    if not _editable(p):
        return []
    positions = constraint_lines(p.problem["program"])
    return individual_program_edits(p, positions, _edit, _single_answer, mode)


def same_constraint(a: str, b: str, program: str) -> bool | None:
    """True when constraints ``a`` and ``b`` hold on exactly the same assignments of the
    program's domains (None when either does not parse over its variables)."""
    csp = parse_program(program)
    try:
        ca = parse_constraint(a, set(csp.domains))
        cb = parse_constraint(b, set(csp.domains))
    except CSPParseError:
        return None
    vs = sorted(ca.vars() | cb.vars())
    for vals in itertools.product(*(csp.domains[v] for v in vs)):
        env = dict(zip(vs, vals, strict=True))
        if ca.holds(env) != cb.holds(env):
            return False
    return True


def load_logicaldeduction(
    questions: str | Path, programs: str | Path | None = None
) -> list[LabelledProblem]:
    """BIG-bench LogicalDeduction questions (Logic-LM's ``logicaldeduction_dev.json``) as
    ``deduction`` problems with the dataset's answer as label; with ``programs`` (Logic-LM's
    ``…_programs_gpt-4.json``) each problem also carries its constraint program and the CSP
    oracle's answer to it (``program_answer``) in the metadata."""
    try:
        rows = json.loads(Path(questions).read_text(encoding="utf-8"))
        progs = (
            {
                x["id"]: x["raw_logic_programs"][0]
                for x in json.loads(Path(programs).read_text(encoding="utf-8"))
            }
            if programs
            else {}
        )
    except (OSError, ValueError, KeyError) as e:
        raise DataFileError(f"cannot read LogicalDeduction files: {e}") from None
    out = []
    for i, r in enumerate(rows):
        prog = progs.get(r["id"])
        meta: dict[str, Any] = {"n_objects": len(r["options"]), "source": "logicaldeduction"}
        if prog is not None:
            try:
                meta["program_answer"] = solve_csp(parse_program(prog))
            except LogicforgeError as e:
                meta["program_answer"] = f"unparsed: {e}"
        out.append(
            LabelledProblem(
                problem_id=str(r["id"]),
                family=NAME,
                kind=KIND,
                params={"source": Path(questions).name},
                seed=0,
                spawn_key=[0, i],
                problem={
                    "context": r["context"],
                    "question": r["question"],
                    "options": r["options"],
                    "n_objects": len(r["options"]),
                    **({"program": prog} if prog else {}),
                },
                label=r["answer"].strip("()"),
                oracle={"source": "dataset answer"},
                metadata=meta,
            )
        )
    return out


def _load_ld(path: Path) -> list[LabelledProblem]:
    programs = path.with_name(path.stem + "_programs_gpt-4.json")
    return load_logicaldeduction(path, programs if programs.exists() else None)


DATASETS.register(
    "ordering",
    Dataset(
        _load_ld,
        ld_cumulative,
        ld_individual,
        "LogicalDeduction questions (Logic-LM's logicaldeduction_dev.json; its GPT-4 programs beside)",
    ),
)
