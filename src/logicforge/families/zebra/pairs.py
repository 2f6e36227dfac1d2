"""Paired zebra items (beyond the paper): a certified unique puzzle and a twin in which one clue
is edited so that no grid satisfies the clues any more — verified by a fresh solver — so the
pair can be scored with ADR like the SAT/UNSAT pairs.

Edits, tried over the clues in a random order: a unary clue moves to another house (FoundAt) or
forbids the hidden house instead (NotAt → the house it now pins); a binary clue takes another
relation type or another second item. The first edit whose clue set has no model wins; puzzles
without one within the budget are skipped and counted by the pairing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...registry import TWINS
from ...rng import shuffled
from ...schema import LabelledProblem
from .clues import TYPES, Clue
from .encoding import clue_clauses, structure_clauses

BINARY = [t for t, ct in TYPES.items() if not ct.unary]


def _satisfiable(n: int, m: int, clues: list[Clue]) -> bool:
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=structure_clauses(n, m)) as s:
        for c in clues:
            for cl in clue_clauses(n, c):
                s.add_clause(cl)
        return bool(s.solve())


def _edits(c: Clue, n: int, m: int, rng: np.random.Generator) -> list[Clue]:
    if isinstance(c.second, int):
        other_types = ["FoundAt", "NotAt"]
        out = [
            Clue(t, c.a, h) for t in other_types for h in range(n) if (t, h) != (c.type, c.second)
        ]
    else:
        out = [Clue(t, c.a, c.second) for t in BINARY if t != c.type]
        out += [
            Clue(c.type, c.a, (a, v))
            for a in range(m)
            for v in range(n)
            if (a, v) not in (c.a, c.second)
        ]
    return [out[i] for i in shuffled(rng, len(out))]


def contradictory_twin(
    p: LabelledProblem, rng: np.random.Generator, max_candidates: int = 400
) -> tuple[LabelledProblem, LabelledProblem] | None:
    """(source, twin) with one clue edited so the clues admit no solution, or None."""
    d = p.problem
    n, m = d["n_houses"], d["n_attributes"]
    clues = [Clue.from_json(c) for c in d["clues"]]
    tried = 0
    for i in shuffled(rng, len(clues)):
        for new in _edits(clues[i], n, m, rng):
            if tried >= max_candidates:
                return None
            tried += 1
            edited = clues[:i] + [new] + clues[i + 1 :]
            if not _satisfiable(n, m, edited):
                info: dict[str, Any] = {
                    "pair_id": p.problem_id,
                    "edit": {
                        "kind": "edit-clue",
                        "clue": i,
                        "old": clues[i].to_json(),
                        "new": new.to_json(),
                        "distance": 1,
                    },
                }
                src = p.model_copy(update={"metadata": p.metadata | info | {"pair_role": "SAT"}})
                twin = p.model_copy(
                    update={
                        "problem_id": f"{p.problem_id}~twin",
                        "label": "UNSAT",
                        "problem": d | {"clues": [c.to_json() for c in edited], "solution": None},
                        "oracle": {"solver": "minisat22", "label": "UNSAT"},
                        "metadata": p.metadata | info | {"pair_role": "UNSAT"},
                    }
                )
                return src, twin
    return None


def _twin(
    p: LabelledProblem, rng: np.random.Generator, **_: Any
) -> tuple[LabelledProblem, LabelledProblem] | None:
    """One clue edited so that no grid satisfies the clues (solvable sources only)."""
    return contradictory_twin(p, rng) if p.label == "SAT" else None


TWINS.register("zebra", _twin)
