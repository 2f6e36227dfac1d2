"""Majority voting over several answers to one item: the one implementation shared by the
report's majority table and the ``bestofn:…:majority`` strategy.

Each answer votes with its format's ``vote_units`` (its label; a grid's cells). An answer's
support is the summed popularity of its units; the answer with the most support wins, ties going
to the earliest. For labels this is the plain majority vote; for grids it picks the sampled grid
whose cells agree most with the others. Answers without a label do not vote and cannot win.

Example:
    >>> from logicforge.kinds import get_kind
    >>> from logicforge.schema import Answer
    >>> fmt = get_kind("cnf").format("")
    >>> votes = [Answer(label="UNSAT"), Answer(label="SAT"), Answer(label="SAT"), None]
    >>> support(fmt, votes), winner(fmt, votes)
    ([1.0, 2.0, 2.0, -1.0], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from ..schema import Answer
from .base import AnswerFormat


def support(fmt: AnswerFormat, answers: Sequence[Answer | None]) -> list[float]:
    """Each answer's support (-1 for an answer without a label)."""
    units = [fmt.vote_units(a) if a is not None and a.label is not None else None for a in answers]
    freq: Counter[Hashable] = Counter(u for us in units if us is not None for u in us)
    return [-1.0 if us is None else float(sum(freq[u] for u in us)) for us in units]


def winner(fmt: AnswerFormat, answers: Sequence[Answer | None]) -> int | None:
    """The index of the majority answer, or None when no answer has a label."""
    s = support(fmt, answers)
    best = max(s, default=-1.0)
    return None if best < 0 else s.index(best)
