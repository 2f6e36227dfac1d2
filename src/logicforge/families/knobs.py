"""Knobs: the parameters a family exposes and the values its emitted problems realise.

A family lists its knobs in ``knobs``. For each one the generation loop measures the realised
value **from the emitted problem** (the clauses, the graph, the clue list — not the construction's
own bookkeeping) and records it as ``metadata["<param>_actual"]``, so a sweep can be labelled by
what the model was shown. ``tolerance(params)`` is the largest distance from the requested value
the construction allows at those parameters (rounding to whole clauses or variables, documented
clamps); ``realised`` says in words what is measured and its range where it is narrower than the
request's. ``tests/test_knobs.py`` holds every knob of every family to its tolerance at each of
its ``levels``.

Example:
    >>> from logicforge.families.base import generate_problems
    >>> p = next(generate_problems("2sat/mono-bridge", {"n_clauses": 40, "positive_ratio": 0.25}, 1, seed=0))
    >>> p.metadata["positive_ratio_actual"]
    0.25641
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Measure = Callable[[Mapping[str, Any], Mapping[str, Any]], float | None]


@dataclass(frozen=True)
class Knob:
    """One exposed parameter: how to measure it on an emitted problem and how close it must be.

    ``measure(problem, metadata)`` returns the realised value (``None`` where the problem does not
    define it, e.g. a ratio over zero clauses); ``tolerance(params)`` the allowed
    ``|realised − requested|``; ``levels`` the requested values the knob test tries; ``at`` the
    other parameters it holds them at (the paper's sizes where there are some). A ``stochastic``
    knob (a probability) is held to its tolerance on the mean of ``MEAN_OF`` items.
    """

    param: str
    measure: Measure
    tolerance: Callable[[Any], float]
    realised: str
    levels: tuple[Any, ...] = (0.0, 0.5, 1.0)
    at: Mapping[str, Any] = field(default_factory=dict)
    stochastic: bool = False  # a probability: the tolerance holds for a mean of MEAN_OF items
    # a knob of an optional parameter: recorded only on problems whose metadata holds this key
    # (so problems made without the parameter keep their bytes)
    only_when: str | None = None


MEAN_OF = 40
TOL = 1e-6  # realised values are recorded to six decimals


def exact(_: Any) -> float:
    """The tolerance of a knob the construction meets exactly."""
    return 0.0


def clause_count(
    realised: str,
    tolerance: Callable[[Any], float] = exact,
    levels: tuple[Any, ...] = (20, 50, 75),
) -> Knob:
    """The ``n_clauses`` knob of a CNF family: the clauses emitted."""
    return Knob("n_clauses", lambda prob, _: len(prob["clauses"]), tolerance, realised, levels)


def realise(knobs: Sequence[Knob], problem: Mapping[str, Any], meta: dict[str, Any]) -> None:
    """Record ``<param>_actual`` for every knob, measured on ``problem`` (six decimals)."""
    for k in knobs:
        if k.only_when is not None and k.only_when not in meta:
            continue
        v = k.measure(problem, meta)
        meta[f"{k.param}_actual"] = None if v is None else round(float(v), 6)


def per_problem(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Memoise a measure's shared work for the problem being measured (several knobs of one
    family read the same structure: compute it once per emitted problem, not once per knob)."""
    last: list[Any] = [None, None, None]

    def wrapped(problem: Mapping[str, Any], *rest: Any) -> Any:
        if last[0] is problem and last[1] is problem.get("clauses"):
            return last[2]
        out = fn(problem, *rest)
        last[:] = [problem, problem.get("clauses"), out]
        return out

    return wrapped


def ratio(num: float, den: float) -> float | None:
    """``num / den``, or ``None`` (undefined, never 0) when ``den`` is 0."""
    return num / den if den else None


# ---- measures shared by the CNF families -------------------------------------------------------


def clauses_of(problem: Mapping[str, Any]) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in c) for c in problem["clauses"]]


def occurring(clauses: Iterable[Sequence[int]]) -> set[int]:
    """The variables that occur in ``clauses``."""
    return {abs(x) for c in clauses for x in c}


def component_roots(clauses: Iterable[Sequence[int]], n: int) -> list[int]:
    """For variables 0..n, the root of each one's connected component (variables joined when
    they share a clause; a variable in no clause is its own component). Union-find."""
    up = list(range(n + 1))

    def root(v: int) -> int:
        while up[v] != v:
            up[v] = up[up[v]]
            v = up[v]
        return v

    for c in clauses:
        a = root(abs(c[0]))
        for x in c[1:]:
            b = root(abs(x))
            if a != b:
                up[b] = a
    return [root(v) for v in range(n + 1)]


def implication_distance(clauses: Sequence[Sequence[int]], start: int, goal: int) -> int | None:
    """Fewest implications from literal ``start`` to literal ``goal`` in the 2-CNF's implication
    graph (a clause (a ∨ b) gives ¬a → b and ¬b → a; a unit (a) gives ¬a → a); ``None`` if none."""
    succ: dict[int, list[int]] = {}
    for c in clauses:
        a, b = (c[0], c[0]) if len(c) == 1 else (c[0], c[1])
        succ.setdefault(-a, []).append(b)
        succ.setdefault(-b, []).append(a)
    dist = {start: 0}
    todo = deque([start])
    while todo:
        u = todo.popleft()
        for w in succ.get(u, ()):
            if w not in dist:
                dist[w] = dist[u] + 1
                if w == goal:
                    return dist[w]
                todo.append(w)
    return dist.get(goal) if start == goal else None
