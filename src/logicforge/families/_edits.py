"""The shared shape of an operator-edited problem (the symbolic-edits paper, §3), used by every
family that can be edited (ordering, FOLIO, LogicalDeduction) and by :mod:`logicforge.transforms.edits`."""

from __future__ import annotations

from typing import Any

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
