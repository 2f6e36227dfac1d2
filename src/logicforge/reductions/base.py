"""Shared machinery: turning a labelled CNF problem into a labelled problem of another kind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ConfigError, certify
from ..kinds import Kind, register_kind, yes_no_format
from ..logic.cnf import CNF
from ..registry import REDUCTIONS
from ..schema import Answer, LabelledProblem


def reduction(
    kind: str, build: Callable[[CNF], dict[str, Any]]
) -> Callable[[LabelledProblem], LabelledProblem]:
    """The reduction of a labelled CNF problem to ``kind`` with ``build(cnf)`` as its problem
    data; the label is carried over from the source (and re-derived by the kind's own oracle in
    the tests). Provenance is kept in the metadata."""

    def reduce(p: LabelledProblem) -> LabelledProblem:
        data = build(CNF.from_json(p.problem))
        meta = p.metadata | {"representation": kind, "source_problem_id": p.problem_id}
        return p.model_copy(
            update={
                "problem_id": f"{p.problem_id}>{kind}",
                "kind": kind,
                "problem": data,
                "metadata": meta,
            }
        )

    return reduce


def register_reduced_kind(
    kind: str,
    build: Callable[[CNF], dict[str, Any]],
    what: str,
    parse: Any,
    verify: Any,
    oracle: Callable[[Any], Answer],
    empty: Callable[[Any], Any],
) -> None:
    """Register a YES/NO kind reduced from CNF: its reduction ``cnf-><kind>`` and its one answer
    format ``yes-no+<what>`` (a certificate under ``what``; ``empty`` one of the right shape)."""
    REDUCTIONS.register(f"cnf->{kind}", reduction(kind, build))
    fmt = yes_no_format(f"yes-no+{what}", what, parse, verify, oracle, empty)
    register_kind(Kind(kind, ("SAT", "UNSAT"), (fmt,), group_columns=("alpha", "n_vars")))


def reduce_problem(p: LabelledProblem, kind: str) -> LabelledProblem:
    """The same instance as a problem of ``kind`` (``cnf → vc``, ``cnf → packing``,
    ``coloring → cnf`` …, every registered reduction).

    Example:
        >>> import logicforge as lf
        >>> p = lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=1, seed=0)[0]
        >>> reduce_problem(p, "vc").kind
        'vc'
    """
    fn = REDUCTIONS.find(f"{p.kind}->{kind}")
    if fn is None or not callable(fn):
        known = [n for n in REDUCTIONS.names() if n.startswith(f"{p.kind}->")]
        raise ConfigError(
            "representation",
            kind,
            f"no reduction from {p.kind}; known: {', '.join(known) or 'none'}",
        )
    return fn(p)


def oracle_answer(
    item: Any, key: str, witness: Callable[[dict[str, Any], dict[int, bool]], Any]
) -> Answer:
    """The oracle's answer for a reduced item: NO when the source formula is UNSAT, else YES
    with ``witness(problem, model)`` under ``key``."""
    from ..logic.sat import solve

    sol = solve(CNF.from_json(item.problem["cnf"]))
    if sol.label != "SAT":
        return Answer(label="UNSAT")
    return Answer(label="SAT", certificate={key: witness(item.problem, sol.assignment or {})})


def mapped_back(item: Any, why: str, to_assignment: Callable[[], dict[int, bool]]) -> str:
    """Pass a certificate check through, asserting that a valid certificate maps back to a model
    of the source formula (the reduction's correctness, checked on every scored answer)."""
    if not why:
        certify(
            CNF.from_json(item.problem["cnf"]).evaluate(to_assignment()),
            "a valid certificate must map to a model of the source formula",
        )
    return why
