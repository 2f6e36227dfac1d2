"""Operator edits of symbolic problems (the symbolic-edits paper, §3), for CSP-backed problems
(``ordering``): ``<`` ↔ ``>`` and ``==`` ↔ ``!=`` on one constraint at a time, each edit re-solved
by the CSP oracle and back-translated exactly through the family's clue templates.

* :func:`cumulative` — label-preserving chain: scan the constraints in order, edit each once, keep
  the edit only if the re-solved answer is unchanged, never revisit; level k carries k edits.
* :func:`individual` — one edit per constraint on the original problem; ``mode="preserve"`` keeps
  those that leave the answer unchanged, ``mode="alter"`` those that change it to another option
  (the new gold is stored; edits making the question inconsistent or ambiguous are dropped).

Every edited problem records ``edit_level``, ``edit_mode``, ``edit_positions``, ``edit_ops`` and
the source's ``problem_id`` as ``chain_id`` in its metadata, and the original answer as
``original_label``.

Example:
    >>> import logicforge as lf
    >>> p = lf.generate("ordering", {"n_objects": 5}, count=1, seed=3)[0]
    >>> chain = cumulative(p)
    >>> all(q.label == p.label for q in chain), chain[0].metadata["edit_level"]
    (True, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ConfigError
from ..families._edits import SWAP, edit_variant
from ..logic.csp import parse_program, solve_csp
from ..schema import LabelledProblem


def _edit(clue: str) -> tuple[str, str]:
    a, op, b = clue.split(" ")
    return f"{a} {SWAP[op]} {b}", f"{op}→{SWAP[op]}"


def _rebuild(p: LabelledProblem, clues: list[str]) -> tuple[dict[str, Any], str]:
    from ..families.ordering import program
    from ..families.ordering_text import sentence

    d = p.problem
    n = d["n_objects"]
    sents = [sentence(d["scene"], d["objects"], n, c) for c in clues]
    prog = program(d["objects"], clues, sents, d["question_position"], n)
    answer = solve_csp(parse_program(prog))
    new = {**d, "clues": clues, "sentences": sents, "program": prog}
    new.pop("arrangement", None)  # the hidden arrangement no longer applies to an edited puzzle
    return new, answer


def expand(
    p: LabelledProblem,
    which: str,
    chain: Callable[[LabelledProblem], list[LabelledProblem]],
    single: Callable[[LabelledProblem, str], list[LabelledProblem]],
) -> list[LabelledProblem]:
    """``p``'s edited versions for a suite: ``cumulative`` (the chain, level 0 first),
    ``individual`` (level 0, then every preserving and altering single edit) or ``all``."""
    out = chain(p) if which != "individual" else chain(p)[:1]
    if which != "cumulative":
        out += single(p, "preserve") + single(p, "alter")
    return out


def _check(p: LabelledProblem) -> None:
    if p.family != "ordering":
        raise ConfigError("family", p.family, "operator edits are defined for ordering problems")


def cumulative(p: LabelledProblem) -> list[LabelledProblem]:
    """Levels 0 … K of the label-preserving cumulative chain (level 0 is the original)."""
    _check(p)
    clues = list(p.problem["clues"])
    out = [edit_variant(p, p.problem, p.label, 0, "cumulative", [], [])]
    positions: list[int] = []
    ops: list[str] = []
    for i in range(len(clues)):
        edited, op = _edit(clues[i])
        trial = [*clues[:i], edited, *clues[i + 1 :]]
        problem, answer = _rebuild(p, trial)
        if answer != p.label:
            continue  # the edit would change the answer: not kept, never revisited
        clues = trial
        positions.append(i)
        ops.append(op)
        out.append(
            edit_variant(
                p, problem, answer, len(positions), "cumulative", list(positions), list(ops)
            )
        )
    return out


def individual(p: LabelledProblem, mode: str = "preserve") -> list[LabelledProblem]:
    """One-edit variants of the original; ``mode`` is ``preserve`` or ``alter``."""
    _check(p)
    if mode not in ("preserve", "alter"):
        raise ConfigError("mode", mode, "choose preserve or alter")
    out = []
    clues = list(p.problem["clues"])
    for i in range(len(clues)):
        edited, op = _edit(clues[i])
        problem, answer = _rebuild(p, [*clues[:i], edited, *clues[i + 1 :]])
        keep = answer == p.label if mode == "preserve" else (answer != p.label and len(answer) == 1)
        if keep:
            out.append(edit_variant(p, problem, answer, 1, mode, [i], [op]))
    return out
