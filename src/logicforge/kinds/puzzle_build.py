"""Building a solution puzzle: :func:`minimal_clues` drops clues in a random order while the
solution stays unique (one incremental solver, each clue behind a selector literal), and
:func:`certify_unique` proves the result with a second solver from scratch — code ``python -O``
keeps."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..errors import certify
from ..logic.cnf import CNF
from ..rng import shuffled


def minimal_clues(
    base: Sequence[Sequence[int]],
    n_vars: int,
    clues: Sequence[Sequence[Sequence[int]]],
    solution: Sequence[int],
    rng: np.random.Generator,
    keep_at_least: int = 0,
    warm: bool = False,
    solver: str = "minisat22",
) -> list[int]:
    """The indices of a subset of ``clues`` (each a list of clauses) under which the rules
    ``base`` still have ``solution`` (literals over the primary variables) as their only model:
    clues are dropped one at a time in a random order while uniqueness holds, stopping at
    ``keep_at_least`` clues. One solver holds the rules, every clue behind its own selector and
    the clause that excludes ``solution``; uniqueness under a clue set is then one solve with
    the selectors assumed (UNSAT ⇔ unique).

    ``warm=True`` says ``base`` is a constant of the process (an ``lru_cache``'d rule tuple)
    and every clue is over its variables 1 … ``n_vars``: the rules then stay loaded in a
    :class:`~logicforge.logic.sat.WarmSolver` from puzzle to puzzle instead of being added
    again for each (the answers, and so the clues kept, are the same, whatever ``solver``)."""
    from ..logic.sat import add_clauses, new_solver, warm_solver

    if warm:
        with warm_solver(solver, base, n_vars) as w:
            # a one-literal clue is switched on by assuming its literal; a clue given as a tuple
            # (an lru_cache'd clause set, say) keeps its selector from puzzle to puzzle
            sel = [
                c[0][0] if len(c) == 1 and len(c[0]) == 1 and 0 < abs(c[0][0]) <= n_vars
                else w.switch(c) if isinstance(c, tuple)
                else w.guard(c)
                for c in clues
            ]  # fmt: skip
            block = w.guard([[-x for x in solution]])
            return _drop_clues(lambda a: w.solve([block, *a]), sel, rng, keep_at_least)
    sel = [n_vars + 1 + i for i in range(len(clues))]
    guarded: list[list[int]] = [[-s, *c] for s, clue in zip(sel, clues, strict=True) for c in clue]
    guarded.append([-x for x in solution])
    with new_solver(solver, base) as s:
        add_clauses(s, guarded)
        return _drop_clues(lambda a: bool(s.solve(assumptions=a)), sel, rng, keep_at_least)


def _drop_clues(
    solve: Callable[[list[int]], bool], sel: list[int], rng: np.random.Generator, keep: int
) -> list[int]:
    """The greedy removal of :func:`minimal_clues` over the clue selectors ``sel``: in a random
    order, drop a clue if the solution stays unique without it, until ``keep`` are left.

    Clues are tried in runs that grow while every run can go at once and shrink when one
    cannot: since a clue set holding a unique one is unique too, dropping a run at once is
    allowed exactly when dropping its clues one by one would be, so the clues kept are those of
    the one-by-one greedy, with a handful of solves where it needs one per clue."""
    certify(not solve(sel), "the full clue set must fix the solution")
    order = shuffled(rng, len(sel))
    kept = set(range(len(sel)))
    pos, run = 0, 1
    while pos < len(order) and len(kept) > keep:
        k = min(run, len(order) - pos, len(kept) - keep)
        batch = set(order[pos : pos + k])
        if not solve([sel[j] for j in sorted(kept - batch)]):  # still unique without the run
            kept -= batch
            pos, run = pos + k, 2 * k
        elif k == 1:
            pos, run = pos + 1, 1  # this clue stays
        else:
            run = k // 2  # try a shorter run from the same clue
    return sorted(kept)


def certify_unique(
    cnf: CNF,
    primary: Sequence[int],
    solution: Sequence[int],
    solver: str = "glucose4",
    base: Sequence[Sequence[int]] | None = None,
) -> None:
    """Prove from scratch, with another solver than the construction's, that ``cnf`` has
    ``solution`` as a model and no model differing from it on the ``primary`` variables.

    With ``base`` (a process constant that ``cnf.clauses`` begins with, as for
    :func:`minimal_clues`'s ``warm``) the rules stay loaded in that solver from puzzle to
    puzzle, and only the rest of ``cnf`` is added (its one-literal clauses assumed, the others
    behind a selector) for this proof: that the puzzle has a model, and none that differs from
    ``solution`` on ``primary`` — so the solution is its one model there."""
    from ..logic.sat import new_solver, warm_solver

    true = {x for x in solution if x > 0}
    flip = [-v if v in true else v for v in primary]
    if base is not None and cnf.clauses[: len(base)] == base:
        with warm_solver(solver, base, cnf.num_vars) as w:
            rest = cnf.clauses[len(base) :]
            unit = [len(c) == 1 and 0 < abs(c[0]) <= cnf.num_vars for c in rest]
            on = [c[0] for c, u in zip(rest, unit, strict=True) if u]
            if not all(unit):
                on.append(w.guard([c for c, u in zip(rest, unit, strict=True) if not u]))
            certify(w.solve(on), "the puzzle must have a solution")
            certify(
                not w.solve([*on, w.guard([flip])]), "the puzzle must have exactly one solution"
            )
        return
    with new_solver(solver, cnf.clauses) as s:
        certify(bool(s.solve(assumptions=list(solution))), "the solution must satisfy the puzzle")
        s.add_clause(flip)
        certify(not s.solve(), "the puzzle must have exactly one solution")
