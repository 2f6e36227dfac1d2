"""The transform interface and the machinery shared by every transform: seeding, provenance and
the label check (every label-preserving transform is re-verified by a solver)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from ..errors import ConfigError, certify
from ..logic.cnf import CNF
from ..logic.sat import solve
from ..registry import TRANSFORMS
from ..schema import LabelledProblem


class Transform(Protocol):
    """A CNF transform: ``apply(cnf, rng)``; the label is re-derived by the solver and checked
    against ``effect``. A transform of another kind's problem data implements
    :class:`ProblemTransform` instead and certifies its own result."""

    name: str
    kind: str  # the problem kind it applies to
    effect: str  # "preserves" | "flips" | "recompute"

    def apply(self, cnf: CNF, rng: np.random.Generator) -> tuple[CNF, dict[str, Any]]:
        """Return the transformed formula and facts worth recording (sizes, permutation …)."""
        ...


class ProblemTransform(Protocol):
    name: str
    kind: str
    effect: str

    def apply_problem(
        self, problem: dict[str, Any], rng: np.random.Generator
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Return the transformed problem data (certified by the transform) and its facts."""
        ...


def parse_transform_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"filler:ratio=0.5,layout=interleaved"`` → ("filler", {"ratio": 0.5, "layout": "interleaved"})."""
    import yaml

    name, _, rest = spec.partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        if "=" not in part:
            raise ConfigError("transform", spec, f"option {part!r} is not key=value")
        k, v = part.split("=", 1)
        params[k.strip()] = yaml.safe_load(v)
    return name, params


def make_transform(name: str, params: Mapping[str, Any]) -> Transform:
    """Instantiate a registered transform, naming any unknown option."""
    import dataclasses

    factory: Any = TRANSFORMS.get(name)
    known = {f.name for f in dataclasses.fields(factory)}
    for k in params:
        if k not in known:
            raise ConfigError(
                k,
                params[k],
                f"not an option of transform {name}; known: {', '.join(sorted(known)) or 'none'}",
            )
    t: Transform = factory(**dict(params))
    return t


def _tag(name: str, params: Mapping[str, Any]) -> int:
    h = hashlib.blake2b(json.dumps([name, dict(params)], sort_keys=True).encode(), digest_size=4)
    return int.from_bytes(h.digest(), "big")


# A transform that moves the source's clauses reports, under this key of its facts, the new
# position of each source clause; the metadata that indexes clauses is then recomputed.
MOVED = "_moved"
CLAUSE_INDEX_KEYS = ("core_clauses", "bridge_index", "trigger_index")


def _reindexed(meta: dict[str, Any], moved: list[int]) -> dict[str, Any]:
    """``meta`` with every clause index of :data:`CLAUSE_INDEX_KEYS` moved where its clause went."""
    out = dict(meta)
    for k in CLAUSE_INDEX_KEYS:
        v = out.get(k)
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(moved):
            out[k] = moved[v]
        elif isinstance(v, list) and all(isinstance(i, int) and 0 <= i < len(moved) for i in v):
            out[k] = sorted(moved[i] for i in v)
    return out


def apply_transform(
    problem: LabelledProblem, name: str, params: Mapping[str, Any] | None = None
) -> LabelledProblem:
    """Apply a registered transform to one labelled problem.

    The random stream is ``SeedSequence(problem.seed, spawn_key=(*problem.spawn_key, tag))`` with
    ``tag`` derived from the transform's name and parameters, so a transform is reproducible
    per problem and independent of the others. The label is recomputed by the solver and, for a
    label-preserving transform, asserted unchanged.

    Example:
        >>> import logicforge as lf
        >>> p = lf.generate("2sat/mono-bridge", {"n_clauses": 8}, count=1, seed=0)[0]
        >>> q = apply_transform(p, "shuffle")
        >>> q.label == p.label, q.metadata["transforms"][-1]["name"]
        (True, 'shuffle')
    """
    t = make_transform(name, params or {})
    if problem.kind != t.kind:
        raise ConfigError("transform", name, f"applies to {t.kind} problems, not {problem.kind!r}")
    tag = _tag(name, params or {})
    rng = np.random.Generator(
        np.random.PCG64(np.random.SeedSequence(problem.seed, spawn_key=(*problem.spawn_key, tag)))
    )
    apply_problem = getattr(t, "apply_problem", None)
    if apply_problem is not None:  # problem data of another kind, certified by the transform
        data, facts = apply_problem(problem.problem, rng)
        chain = [
            *problem.metadata.get("transforms", []),
            {"name": name, "params": dict(params or {}), "effect": t.effect, **facts},
        ]
        suffix = name if not params else f"{name}-{tag:08x}"
        return problem.model_copy(
            update={
                "problem_id": f"{problem.problem_id}+{suffix}",
                "problem": data,
                "metadata": problem.metadata | {"transforms": chain},
            }
        )
    cnf = CNF.from_json(problem.problem)
    out, facts = t.apply(cnf, rng)
    moved = facts.pop(MOVED, None)
    sol = solve(out, stats=True)
    if t.effect == "preserves":
        certify(
            sol.label == problem.label,
            f"transform {name} changed the label {problem.label} → {sol.label}",
        )
    elif t.effect == "flips":
        certify(sol.label != problem.label, f"transform {name} should flip the label but did not")
    if max((len(c) for c in out.clauses), default=0) <= 2:
        from ..logic.twosat import solve_2sat

        certify(
            solve_2sat(out, certificate=False).label == sol.label,
            "2-SAT oracle disagrees with CDCL",
        )
    chain = [
        *problem.metadata.get("transforms", []),
        {"name": name, "params": dict(params or {}), "effect": t.effect, **facts},
    ]
    meta = dict(problem.metadata) if moved is None else _reindexed(problem.metadata, moved)
    if out.num_vars != cnf.num_vars:  # counts of the source no longer describe the result
        for k in (
            "model_count",
            "backbone_size",
            "backbone",
            "backbone_values",
            "expected_model_count",
        ):
            meta.pop(k, None)
    meta |= {"n_vars": out.num_vars, "n_clauses": out.num_clauses, "transforms": chain}
    suffix = name if not params else f"{name}-{tag:08x}"
    return problem.model_copy(
        update={
            "problem_id": f"{problem.problem_id}+{suffix}",
            "problem": out.to_json(),
            "label": sol.label,
            "oracle": {**sol.to_json(), "source_label": problem.label},
            "metadata": meta,
        }
    )


def check_spec(spec: str, field: str = "transform") -> tuple[str, dict[str, Any]]:
    """Parse and validate a transform spec before any work starts: a registered transform with
    known options, or ``reduce:to=<kind>`` (a change of representation, e.g. cnf → vc). A bad
    spec is a :class:`~logicforge.errors.ConfigError` naming ``field`` and the spec.

    Example:
        >>> check_spec("reduce:to=vc")
        ('reduce', {'to': 'vc'})
    """
    name, opts = parse_transform_spec(spec)
    if name == "reduce":
        from ..registry import REDUCTIONS

        targets = sorted({r.split("->")[1] for r in REDUCTIONS.names()})
        if set(opts) != {"to"} or opts.get("to") not in targets:
            raise ConfigError(field, spec, f"reduce needs to=<kind>, one of {', '.join(targets)}")
    else:
        make_transform(name, opts)
    return name, opts


def apply_spec(problem: LabelledProblem, name: str, opts: Mapping[str, Any]) -> LabelledProblem:
    """Apply one parsed spec (:func:`check_spec`): ``reduce`` changes the representation
    (:func:`logicforge.reductions.reduce_problem`), anything else is :func:`apply_transform`.

    Example:
        >>> import logicforge as lf
        >>> p = lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=1, seed=0)[0]
        >>> apply_spec(p, *check_spec("reduce:to=vc")).kind
        'vc'
    """
    if name == "reduce":
        from ..reductions import reduce_problem

        return reduce_problem(problem, str(opts.get("to")))
    return apply_transform(problem, name, opts)
