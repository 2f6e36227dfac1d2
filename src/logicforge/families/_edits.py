"""The shared shape of an operator-edited problem (the symbolic-edits paper, §3), used by every
family that can be edited (ordering, FOLIO, LogicalDeduction) and by :mod:`logicforge.transforms.edits`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..errors import ConfigError
from ..schema import LabelledProblem

SWAP = {"<": ">", ">": "<", "==": "!=", "!=": "=="}


def edit_variant(
    p: LabelledProblem,
    problem: dict[str, Any],
    label: str,
    level: int,
    mode: str,
    positions: list[int],
    ops: list[str],
    tag: str | None = None,
) -> LabelledProblem:
    """An edited copy of ``p`` with the edit record every family's edits share (level, mode,
    positions, operators, chain id, original label, condition); ``tag`` further distinguishes
    individual edits at one position (e.g. the operator, where several apply)."""
    meta = {
        **p.metadata,
        "edit_level": level,
        "edit_mode": mode,
        "edit_positions": positions,
        "edit_ops": ops,
        "chain_id": p.problem_id,
        "original_label": p.label,
        "condition": "preserved" if label == p.label else "altered",
    }
    suffix = f"-edit-{mode}-{level}"
    if mode != "cumulative" and positions:
        suffix += f"-{positions[-1]}" + (f"-{tag}" if tag else "")
    return p.model_copy(
        update={
            "problem_id": p.problem_id + (suffix if level else ""),
            "problem": problem,
            "label": label,
            "metadata": meta,
            "oracle": {**p.oracle, "edited": bool(level)},
        }
    )


def require_verified_words(problem: LabelledProblem, renderer: str, words: str) -> None:
    """Refuse to render ``problem`` in words when it was edited and its ``words`` (its context,
    its sentences) were not back-translated and verified: a stale sentence never reaches a
    prompt. Formal renderings need no such check."""
    if problem.metadata.get("edit_level") and not problem.metadata.get("nl_verified"):
        raise ConfigError(
            "renderer", renderer,
            f"{problem.problem_id} is edited but its {words} not back-translated; run "
            "`logicforge backtranslate` (or give the suite a `story:` writer) first",
        )  # fmt: skip


# a program's lines and a position → the edited lines with the edit's operator name, per edit
Candidates = Callable[[list[str], int], Iterable[tuple[list[str], str]]]


def _with_program(p: LabelledProblem, lines: list[str]) -> dict[str, Any]:
    return {**p.problem, "program": "\n".join(lines)}


def cumulative_program_edits(
    p: LabelledProblem,
    positions: Sequence[int],
    candidates: Candidates,
    preserves: Callable[[list[str]], bool],
) -> list[LabelledProblem]:
    """Levels 0 … K of the label-preserving chain over a program's lines: at each position in
    turn the first candidate edit after which the program still gives ``p``'s label is kept, and
    the chain goes on from the edited program."""
    out = [edit_variant(p, p.problem, p.label, 0, "cumulative", [], [])]
    lines = str(p.problem.get("program", "")).splitlines()
    pos: list[int] = []
    ops: list[str] = []
    for i in positions:
        for trial, op in candidates(lines, i):
            if preserves(trial):
                lines, pos, ops = trial, [*pos, i], [*ops, op]
                problem = _with_program(p, lines)
                out.append(edit_variant(p, problem, p.label, len(pos), "cumulative", pos, ops))
                break
    return out


def individual_program_edits(
    p: LabelledProblem,
    positions: Sequence[int],
    candidates: Candidates,
    answer: Callable[[list[str]], str | None],
    mode: str,
    tag_ops: bool = False,
) -> list[LabelledProblem]:
    """One-edit variants of a program: each candidate edit whose program gives exactly one
    option (``answer``; None otherwise) that is ``p``'s label (``preserve``) or another one
    (``alter``); ``tag_ops`` names the operator in the id, where one position has several."""
    lines = str(p.problem.get("program", "")).splitlines()
    out = []
    for i in positions:
        for trial, op in candidates(lines, i):
            got = answer(trial)
            if got is not None and (got == p.label) == (mode == "preserve"):
                tag = op if tag_ops else None
                out.append(edit_variant(p, _with_program(p, trial), got, 1, mode, [i], [op], tag))
    return out
