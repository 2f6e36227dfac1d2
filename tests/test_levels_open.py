"""Levels past 10: every family generates at levels 0, 5, 10, 15 and 20 — its label and
uniqueness re-checked by a method of the test's own, with a SAT solver the generators do not use
(MapleChrono) — or refuses a level above its documented ceiling, naming the highest; the level
maps, their growth and ceilings are one table in ``docs/levels.md``."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from pysat.solvers import Solver

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.families.base import make_params
from logicforge.families.levels import MAX_LEVEL, ceiling_of, levels_table
from logicforge.kinds import answer_format, verify
from logicforge.registry import FAMILIES, KINDS

DOC = Path(__file__).resolve().parents[1] / "docs" / "levels.md"
CHECKED = (0, 5, 10, 15, 20)


class _Spy(dict):
    """A model that notes which variables a decoder reads: the puzzle's own variables."""

    def __init__(self, model: dict[int, bool]) -> None:
        super().__init__(model)
        self.read: set[int] = set()

    def get(self, k: Any, default: Any = None) -> Any:
        self.read.add(k)
        return super().get(k, default)

    def __getitem__(self, k: Any) -> Any:
        self.read.add(k)
        return super().__getitem__(k)


def _rules_of(family: str) -> tuple[Any, Any] | None:
    """A solution puzzle's ``check`` and ``encode`` (its module's, or its line-sum grid's)."""
    mod = importlib.import_module(type(FAMILIES.get(family)).__module__)
    grid = getattr(mod, "GRID", None)
    check = getattr(mod, "check", None) or getattr(grid, "check", None)
    encode = getattr(mod, "encode", None) or getattr(grid, "encode", None)
    return (check, encode) if check and encode else None


def _unique_by_maplechrono(encode: Any, data: dict[str, Any]) -> None:
    """The puzzle's CNF has a model, it decodes to the certified solution, and with that
    solution's own variables blocked no model is left."""
    cnf, decode = encode(data)
    with Solver(name="maplechrono", bootstrap_with=[list(c) for c in cnf.clauses]) as s:
        assert s.solve()
        model = {abs(v): v > 0 for v in s.get_model()}
        spy = _Spy(model)
        assert {k: str(v) for k, v in decode(spy).items()} == {
            k: str(v) for k, v in data["solution"].items()
        }
        s.add_clause([-v if model.get(v) else v for v in sorted(spy.read)])
        assert not s.solve(), "a second solution"


def _gf2_unique(rows: list[list[int]], rhs: list[int], x: list[int]) -> None:
    """A parity system (rows of 0/1 coefficients) of full column rank — one solution — that the
    certified ``x`` solves; by Gaussian elimination of the test's own (CDCL solvers prove XOR
    systems unique only in exponential time, so the SAT check is not used here)."""
    n = len(x)
    assert all(
        sum(a * b for a, b in zip(r, x, strict=True)) % 2 == c
        for r, c in zip(rows, rhs, strict=True)
    )
    ms = [int("".join(map(str, r)), 2) for r in rows]
    rank = 0
    for bit in range(n - 1, -1, -1):
        pivot = next((i for i in range(rank, len(ms)) if ms[i] >> bit & 1), None)
        if pivot is None:
            continue
        ms[rank], ms[pivot] = ms[pivot], ms[rank]
        for i in range(len(ms)):
            if i != rank and ms[i] >> bit & 1:
                ms[i] ^= ms[rank]
        rank += 1
    assert rank == n, "the parity system has several solutions"


def _parity_system(family: str, d: dict[str, Any]) -> None:
    sol = (
        [int(d["solution"][c]) for c in sorted(d["solution"], key=lambda c: int(c[1:]))]
        if family == "xorsat"
        else []
    )
    if family == "xorsat":
        n = len(d["solution"])
        rows = [[1 if v + 1 in eq else 0 for v in range(n)] for eq in d["equations"]]
        _gf2_unique(rows, list(d["rhs"]), sol)
        return
    r, c = d["rows"], d["cols"]
    cell = lambda i, j: i * c + j  # noqa: E731
    rows = [[0] * (r * c) for _ in range(r * c)]
    for i in range(r):
        for j in range(c):
            for a, b in ((i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= a < r and 0 <= b < c:
                    rows[cell(i, j)][cell(a, b)] = 1
    x = [int(d["solution"][f"r{i + 1}c{j + 1}"]) for i in range(r) for j in range(c)]
    _gf2_unique(rows, [int(v) for row in d["lights"] for v in row], x)


def _cnf_label(problem: dict[str, Any]) -> str:
    clauses = problem["clauses"]
    with Solver(name="maplechrono", bootstrap_with=[list(c) for c in clauses]) as s:
        return "SAT" if s.solve() else "UNSAT"


def _recheck(family: str, p: Any) -> None:
    kind = KINDS.get(p.kind)
    item = lf.render([p], kind.default_renderer or kind.words_renderer)[0]
    fmt = answer_format(item)
    assert verify(item, fmt.oracle(item)).correct, (family, p.metadata.get("level"))
    if p.kind == "cnf":
        assert _cnf_label(p.problem) == p.label
        return
    if family in ("xorsat", "lightsout"):
        _parity_system(family, p.problem)
        return
    rules = _rules_of(family)
    if rules is not None:
        check, encode = rules
        assert check(p.problem, p.problem["solution"]) == ""
        _unique_by_maplechrono(encode, p.problem)


@pytest.mark.parametrize("family", FAMILIES.names())
def test_every_family_past_level_10_or_its_documented_ceiling(family: str) -> None:
    highest, why = ceiling_of(FAMILIES.get(family))
    for level in CHECKED:
        if level > highest:
            with pytest.raises(ConfigError, match=f"highest level is {highest}"):
                lf.generate(family, level=level, count=1)
            assert why and why in DOC.read_text(encoding="utf-8")
            continue
        (p,) = lf.generate(family, level=level, count=1, seed=level)
        assert p.metadata["level"] == level
        _recheck(family, p)


@pytest.mark.parametrize("family", FAMILIES.names())
def test_the_measure_keeps_growing_past_10(family: str) -> None:
    """The parameters past 10 are valid up to the ceiling and the measure at level 10 + k
    is not below level 10's (on one problem each: a monotone map, not a noisy mean)."""
    lv = FAMILIES.get(family).levels
    top = min(ceiling_of(FAMILIES.get(family))[0], 20)
    for level in range(11, top + 1):
        make_params(FAMILIES.get(family), lv.at(level))  # valid parameters
    if top > 10:
        (a,) = lf.generate(family, level=10, count=1, seed=0)
        (b,) = lf.generate(family, level=top, count=1, seed=0)
        assert lv.of(b) >= lv.of(a), (family, lv.of(a), lv.of(b))


def test_a_level_is_bounded_and_a_ceiling_is_named() -> None:
    with pytest.raises(ConfigError, match=f"highest level is {MAX_LEVEL}"):
        lf.generate("ksat/random", level=MAX_LEVEL + 1, count=1)
    with pytest.raises(ConfigError, match="highest level is 11: LogicalDeduction"):
        lf.generate("ordering", level=12, count=1)


def test_the_levels_page_holds_the_table() -> None:
    families = {
        n: FAMILIES.get(n)
        for n in FAMILIES.names()
        if type(FAMILIES.get(n)).__module__.startswith("logicforge.")
    }
    assert levels_table(families) in DOC.read_text(encoding="utf-8")
