"""Knobs mean what they say: every exposed parameter of every registered family, at each of its
levels, realises the requested value within its stated tolerance, measured on the emitted problem."""

from __future__ import annotations

import dataclasses
import statistics

import pytest

import logicforge as lf
from logicforge.families.base import generate_problems, make_params
from logicforge.families.knobs import MEAN_OF, implication_distance
from logicforge.registry import FAMILIES

# parameters that are settings, not difficulty knobs (documented where they are defined)
SETTINGS = {
    "solver_timeout",
    "max_attempts",
    "n_clauses",
    "alpha_choices",
    "z3_runs",
    "batch",
    "max_clauses",
}


def _cases() -> list[tuple[str, str, object]]:
    out = []
    for name in sorted(FAMILIES.names()):
        for k in FAMILIES.get(name).knobs:  # type: ignore[attr-defined]
            out += [(name, k.param, lv) for lv in k.levels]
    return out


@pytest.mark.parametrize(("family", "param", "level"), _cases())
def test_knob_realises_the_requested_value(family: str, param: str, level: object) -> None:
    fam = FAMILIES.get(family)
    knob = next(k for k in fam.knobs if k.param == param)  # type: ignore[attr-defined]
    request = {**knob.at, param: level}
    n = MEAN_OF if knob.stochastic else 6
    problems = list(generate_problems(family, request, n, seed=11))
    tol = knob.tolerance(make_params(fam, request))  # type: ignore[arg-type]
    got = [p.metadata[f"{param}_actual"] for p in problems]
    for p, v in zip(problems, got, strict=True):  # the record is the measure of the problem
        m = knob.measure(p.problem, p.metadata)
        assert v == (None if m is None else round(float(m), 6))
    values = [v for v in got if v is not None]
    assert values, f"{family}.{param}={level}: no realised value on any item"
    want = float(level)  # type: ignore[arg-type]
    if knob.stochastic:
        assert abs(statistics.mean(values) - want) <= tol, (statistics.mean(values), tol)
    else:
        worst = max(abs(v - want) for v in values)
        assert worst <= tol, f"{family}.{param}={level}: realised {values}, tolerance {tol}"


def test_every_numeric_parameter_is_a_declared_knob() -> None:
    for name in FAMILIES.names():
        fam = FAMILIES.get(name)
        declared = {k.param for k in fam.knobs}  # type: ignore[attr-defined]
        assert declared, f"{name} declares no knobs"
        for f in dataclasses.fields(fam.Params):  # type: ignore[attr-defined]
            numeric = str(f.type).split("|")[0].strip() in {"int", "float"}
            if numeric and f.name not in SETTINGS:
                assert f.name in declared, f"{name}.{f.name} is numeric but not a declared knob"
        for k in fam.knobs:  # type: ignore[attr-defined]
            assert k.realised, f"{name}.{k.param} does not say what it measures"


def test_imbalance_measure_agrees_with_the_construction() -> None:
    """Independent of the BFS measure: the construction's own k and L give the same ratio."""
    for lv in (0.0, 0.3, 0.5, 1.0):
        for p in lf.generate("2sat/implication-cycle", {"n_clauses": 40, "imbalance": lv}, 5, 2):
            k, L = p.metadata["twist"], p.metadata["cycle_length"]
            assert p.metadata["imbalance_actual"] == round((k - 1) / (L - 1), 6)


def test_implication_distance() -> None:
    cl = [(-1, 2), (-2, 3), (-3, -1)]  # 1 → 2 → 3 → ¬1
    assert implication_distance(cl, 1, -1) == 3
    assert implication_distance(cl, -1, 1) is None
    assert implication_distance([(-1,)], 1, -1) == 1  # the unit ¬1 is 1 → ¬1


def test_backbone_fraction_counts_the_solver_forced_variables() -> None:
    """The realised β reads the backbone off the solver (not the construction's list)."""
    for p in lf.generate("2sat/backbone", {"n_clauses": 40, "backbone_fraction": 0.5}, 4, 1):
        b = p.metadata["backbone_size"]
        f = p.metadata["mono_vars"]
        assert b == len(p.metadata["backbone"])
        assert p.metadata["backbone_fraction_actual"] == round(b / (b + f), 6)


def test_a_missing_ratio_is_none_not_zero() -> None:
    p = lf.generate("2sat/implication-cycle", {"n_clauses": 20, "filler_ratio": 0.0}, 1, 0)[0]
    assert p.metadata["extra_vars_actual"] is None  # no fillers: undefined, never 0
