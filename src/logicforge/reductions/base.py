"""Shared machinery: turning a labelled CNF problem into a labelled problem of another kind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ConfigError
from ..logic.cnf import CNF
from ..schema import LabelledProblem

REDUCERS: dict[str, Callable[[CNF], dict[str, Any]]] = {}


def reduce_problem(p: LabelledProblem, kind: str) -> LabelledProblem:
    """The reduced problem (kind ``vc`` or ``packing``); label carried over from the source and
    re-derived by the kind's own oracle in tests. Provenance is kept in the metadata.

    Example:
        >>> import logicforge as lf
        >>> p = lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=1, seed=0)[0]
        >>> reduce_problem(p, "vc").kind
        'vc'
    """
    from . import packing, vertex_cover  # noqa: F401  (register the reducers)

    if p.kind != "cnf":
        raise ConfigError("kind", p.kind, "reductions start from a CNF problem")
    if kind not in REDUCERS:
        raise ConfigError("representation", kind, f"known: {', '.join(sorted(REDUCERS))}")
    cnf = CNF.from_json(p.problem)
    data = REDUCERS[kind](cnf)
    meta = p.metadata | {"representation": kind, "source_problem_id": p.problem_id}
    return p.model_copy(
        update={
            "problem_id": f"{p.problem_id}>{kind}",
            "kind": kind,
            "problem": data,
            "metadata": meta,
        }
    )


def oracle_reply(
    item: Any, key: str, witness: Callable[[dict[str, Any], dict[int, bool]], Any]
) -> str:
    """The oracle's YES/NO reply for a reduced item: NO when the source formula is UNSAT, else YES
    with ``witness(problem, model)`` under ``key``."""
    import json

    from ..logic.sat import solve

    sol = solve(CNF.from_json(item.problem["cnf"]))
    if sol.label != "SAT":
        return '{"answer": "NO"}'
    return json.dumps({"answer": "YES", key: witness(item.problem, sol.assignment or {})})


def mapped_back(item: Any, why: str, to_assignment: Callable[[], dict[int, bool]]) -> str:
    """Pass a certificate check through, asserting that a valid certificate maps back to a model
    of the source formula (the reduction's correctness, checked on every scored answer)."""
    if not why:
        assert CNF.from_json(item.problem["cnf"]).evaluate(to_assignment()), (
            "a valid certificate must map to a model"
        )
    return why
