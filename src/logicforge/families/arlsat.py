"""AR-LSAT questions (kind ``lsat``) with Logic-LM's Z3-dialect programs, and their operator edits
(the symbolic-edits paper on its third dataset).

``load_arlsat(questions, programs)`` reads Logic-LM's ``arlsat_dev.json`` and, beside it, the
programs file (``…_programs_gpt-4.json``). A question's gold is the dataset's answer, with the
paper's Table 7 corrections applied where the file holds one of those ids. Each program is read
and solved by :mod:`logicforge.logic.lsat` (nothing run as code): the metadata records which
options hold (``program_answers``), Logic-LM's reading of it (``program_answer``, the first that
holds) or why it does not execute (``program_error``). A question is editable when its program
makes exactly the gold option hold.

Edits (§4.2): ``or→and``, ``xor→or``, ``or→xor``, ``not→removed`` and, for AR-LSAT, ``and→or`` —
one connective of one constraint line, re-solved; cumulative label-preserving chains (constraints
scanned in order, the first edit type that keeps the answer, never revisited) and individual
preserving / altering edits, recorded like every other family's edits. An edited question's
context is stale until :mod:`logicforge.llm.backtranslate` rewrites the edited sentences (found
by each line's ``:::`` gloss) and z3 proves the translated-back formula equivalent to the edited
one; the ``lsat`` renderer refuses an edited question whose text was not verified. ``lsat-z3``
shows the constraints as formulas and needs no back-translation.

Example:
    >>> edit_formula("Or(f(A) == 1, Not(g(B)))", "or→and")
    'And(f(A) == 1, Not(g(B)))'
    >>> edit_formula("Or(f(A) == 1, Not(g(B)))", "not→removed")
    'Or(f(A) == 1, g(B))'
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataFileError
from ..kinds import Kind, choice_format, register_kind
from ..logic.lsat import LsatProgramError, parse_lsat, solve_lsat
from ..registry import DATASETS, RENDERERS
from ..schema import Item, LabelledProblem
from ._edits import (
    Candidates,
    cumulative_program_edits,
    individual_program_edits,
    require_verified_words,
)
from .base import Dataset

KIND = "lsat"
LETTERS = ("A", "B", "C", "D", "E")
# (from, to) call names per edit; ``not→removed`` unwraps the first Not(…)
EDITS = {"or→and": ("Or", "And"), "xor→or": ("Xor", "Or"), "or→xor": ("Or", "Xor"),
         "and→or": ("And", "Or")}  # fmt: skip
EDIT_ORDER = ("or→and", "xor→or", "or→xor", "not→removed", "and→or")
# the symbolic-edits paper's Table 7: AR-LSAT answers it corrects (id → (given, corrected))
CORRECTIONS = {
    "ar_lsat_201612_3-G_1_3": ("B", "D"),
    "ar_lsat_201612_3-G_1_5": ("E", "B"),
    "ar_lsat_201612_3-G_2_6": ("C", "D"),
    "ar_lsat_201612_3-G_2_8": ("A", "B"),
    "ar_lsat_201612_3-G_3_12": ("C", "A"),
    "ar_lsat_201612_3-G_3_17": ("D", "E"),
}


def edit_formula(text: str, edit: str) -> str | None:
    """``text`` with its first call of the edited connective changed (``not→removed``: its first
    ``Not(…)`` replaced by what it wraps), or None when it has none. Only call names at a word
    boundary count: ``Order(`` is not ``Or(``."""
    if edit == "not→removed":
        m = re.search(r"(?<![\w.])Not\(", text)
        if not m:
            return None
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        if depth:
            return None
        return text[: m.start()] + text[m.end() : i - 1] + text[i:]
    old, new = EDITS[edit]
    m = re.search(rf"(?<![\w.]){old}\(", text)
    return None if m is None else text[: m.start()] + new + "(" + text[m.end() :]


def constraint_lines(program: str) -> list[int]:
    """Indices (into ``program.splitlines()``) of the lines of the ``# Constraints`` section."""
    out, section = [], ""
    for i, line in enumerate(program.splitlines()):
        s = line.strip()
        if s.startswith("# "):
            section = s
        elif section == "# Constraints" and s:
            out.append(i)
    return out


def program_answers(program: str) -> list[str] | str:
    """The options the program makes hold, or why it does not execute (each distinct program
    solved once per process: cumulative, preserving and altering edits try the same ones)."""
    got = _solved(program)
    return got if isinstance(got, str) else list(got)


@functools.lru_cache(maxsize=4096)
def _solved(program: str) -> tuple[str, ...] | str:
    try:
        return tuple(solve_lsat(parse_lsat(program)).answers)
    except LsatProgramError as e:
        return str(e)


def load_arlsat(questions: str | Path, programs: str | Path | None = None) -> list[LabelledProblem]:
    """AR-LSAT questions as ``lsat`` problems (module docstring); with ``programs`` each one
    carries its program and what the program answers."""
    try:
        rows = json.loads(Path(questions).read_text(encoding="utf-8"))
        progs = (
            {
                x["id"]: x["raw_logic_programs"][0]
                for x in json.loads(Path(programs).read_text("utf-8"))
            }
            if programs
            else {}
        )
        rows = [r for r in rows if {"id", "context", "question", "options", "answer"} <= set(r)]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise DataFileError(f"cannot read AR-LSAT files: {e}") from None
    out = []
    for i, r in enumerate(rows):
        given = str(r["answer"]).strip("()")
        label = CORRECTIONS[r["id"]][1] if r["id"] in CORRECTIONS else given
        meta: dict[str, Any] = {"source": "ar-lsat", "dataset_label": given, "formal_valid": False}
        if r["id"] in CORRECTIONS:
            meta["corrected_from"] = given
        prog = progs.get(r["id"])
        if prog is not None:
            got = program_answers(prog)
            if isinstance(got, str):
                meta["program_error"] = got
            else:
                meta["program_answers"] = got
                meta["program_answer"] = got[0] if got else None
            meta["formal_valid"] = got == [label]  # Table 6's "valid translation"
        out.append(
            LabelledProblem(
                problem_id=str(r["id"]),
                family="arlsat",
                kind=KIND,
                params={"source": Path(questions).name},
                seed=0,
                spawn_key=[0, i],
                problem={
                    "context": r["context"],
                    "question": r["question"],
                    "options": list(r["options"]),
                    "n_options": len(r["options"]),
                    **({"program": prog} if prog else {}),
                },
                label=label,
                oracle={"source": "dataset answer", "solver": "z3 (Logic-LM dialect)"},
                metadata=meta,
            )
        )
    return out


def _editable(p: LabelledProblem) -> bool:
    return p.metadata.get("formal_valid") is True  # set only where a program reaches the gold


def _trial(lines: list[str], i: int, edit: str) -> list[str] | None:
    formula, sep, gloss = lines[i].partition(":::")
    new = edit_formula(formula.strip(), edit)
    if new is None:
        return None
    return [*lines[:i], f"{new} {sep}{gloss}" if sep else new, *lines[i + 1 :]]


def _candidates(allow_and_to_or: bool = True) -> Candidates:
    def edits(lines: list[str], i: int) -> Iterator[tuple[list[str], str]]:
        for e in EDIT_ORDER:
            if e == "and→or" and not allow_and_to_or:
                continue
            trial = _trial(lines, i, e)
            if trial is not None:
                yield trial, e

    return edits


def _single_answer(lines: list[str]) -> str | None:
    got = program_answers("\n".join(lines))
    return got[0] if isinstance(got, list) and len(got) == 1 else None


def arlsat_cumulative(p: LabelledProblem, allow_and_to_or: bool = True) -> list[LabelledProblem]:
    """Levels 0 … K of the label-preserving chain over the program's constraint lines."""
    positions = constraint_lines(p.problem["program"]) if _editable(p) else []
    return cumulative_program_edits(
        p, positions, _candidates(allow_and_to_or),
        lambda lines: program_answers("\n".join(lines)) == [p.label],
    )  # fmt: skip


def arlsat_individual(p: LabelledProblem, mode: str = "preserve") -> list[LabelledProblem]:
    """One-edit variants; ``alter`` keeps edits that make exactly one other option hold."""
    if not _editable(p):
        return []
    positions = constraint_lines(p.problem["program"])
    return individual_program_edits(p, positions, _candidates(), _single_answer, mode, True)


ANSWER_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "enum": list(LETTERS)}},
                 "required": ["answer"]}  # fmt: skip


def _item(problem: LabelledProblem, rendering: str, text: str) -> Item:
    from ..kinds.items import build_kind_item
    from .ordering_text import cot_item

    d = problem.problem
    prompt = (
        f"{text}\n\nQuestion: {d['question']}\nOptions:\n"
        + "\n".join(d["options"])
        + "\n\nThink step by step, then give the letter of the correct option as "
        "\\boxed{<letter>} at the end of your answer."
    )
    return cot_item(build_kind_item(problem, rendering, prompt, ANSWER_SCHEMA))


class LsatRenderer:
    """``lsat``: the question as AR-LSAT words it (the paper's CoT prompt), answer in ``\\boxed{}``.
    An edited question renders only once its sentences were back-translated and verified."""

    name = "lsat"
    kind = KIND
    needs_backtranslation = True

    def render(self, problem: LabelledProblem) -> Item:
        require_verified_words(problem, self.name, "context was")
        return _item(problem, self.name, problem.problem["context"])


class LsatZ3Renderer:
    """``lsat-z3``: the program's declarations and constraints as formulas before the question
    and its options (no back-translation needed)."""

    name = "lsat-z3"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        from ..errors import ConfigError

        prog = problem.problem.get("program")
        if not prog:
            raise ConfigError("renderer", "lsat-z3", f"{problem.problem_id} has no program")
        keep, section = [], ""
        for line in prog.splitlines():
            s = line.strip()
            if s.startswith("# "):
                section = s
                if s == "# Options":
                    break
            if s:
                keep.append(s.partition(":::")[0].strip() if section == "# Constraints" else s)
        text = "The rules, in Z3 notation:\n" + "\n".join(keep)
        return _item(problem, self.name, text)


def _parse(body: str, objs: list[dict[str, Any]], item: Item) -> Any:
    from .ordering import parse

    return parse(body, objs, item)


def _letters(item: Item) -> list[str]:
    """The question's own option letters (AR-LSAT has five; a file may hold fewer)."""
    return list(LETTERS[: int(item.problem.get("n_options", len(LETTERS)))])


register_kind(Kind(KIND, LETTERS, (choice_format(_parse, _letters),)))
RENDERERS.register("lsat", LsatRenderer())
RENDERERS.register("lsat-z3", LsatZ3Renderer())


_LOADED: dict[tuple[Any, ...], list[LabelledProblem]] = {}


def _load(path: Path) -> list[LabelledProblem]:
    """The questions with the programs file beside them, read once per process and file state
    (solving the 230 programs takes seconds; a suite's dry run and its run both read them)."""
    programs = path.with_name(path.stem + "_programs_gpt-4.json")
    st = path.stat()
    pst = programs.stat() if programs.exists() else None
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size, pst and (pst.st_mtime_ns, pst.st_size))
    if key not in _LOADED:
        _LOADED.clear()  # one file at a time: the cache never grows
        _LOADED[key] = load_arlsat(path, programs if programs.exists() else None)
    return list(_LOADED[key])


DATASETS.register(
    "arlsat",
    Dataset(
        _load,
        arlsat_cumulative,
        arlsat_individual,
        "AR-LSAT questions (Logic-LM's arlsat_dev.json; its GPT-4 programs beside)",
        formalisable=True,
    ),
)
