"""One difficulty level per family: every registered family maps level 0..10 to parameters,
and the measure its ``levels`` names grows (non-decreasing means over the levels, strictly from
0 to 10); explicit parameters win; mixtures across families are weighted and reproducible."""

from __future__ import annotations

import pytest

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.registry import FAMILIES

STEPS = (0, 2, 4, 6, 8, 10)


@pytest.mark.parametrize("family", FAMILIES.names())
def test_the_named_measure_grows_with_the_level(family: str) -> None:
    lv = FAMILIES.get(family).levels
    assert lv.measure and lv.doc
    means = []
    for level in STEPS:
        ps = lf.generate(family, level=level, count=12, seed=3)
        assert {p.metadata["level"] for p in ps} == {level}
        vals = [lv.of(p) for p in ps]
        assert all(v is not None for v in vals), (family, level)
        means.append(sum(vals) / len(vals))
    assert all(a <= b for a, b in zip(means, means[1:], strict=False)), (family, lv.measure, means)
    assert means[-1] > means[0], (family, means)


@pytest.mark.parametrize("family", FAMILIES.names())
def test_every_level_generates(family: str) -> None:
    """All eleven levels, not only the measured steps: a level whose parameters are refused
    (a singular Lights Out board) cannot hide between them."""
    for level in range(11):
        assert len(lf.generate(family, level=level, count=1, seed=level)) == 1, (family, level)


def test_explicit_parameters_override_the_level() -> None:
    ps = lf.generate("zebra", {"n_houses": 3}, level=10, count=1, seed=0)
    assert ps[0].params["n_houses"] == 3 and ps[0].params["n_attributes"] == 6
    a = lf.generate("ksat/random", level=4, count=3, seed=2)
    b = lf.generate("ksat/random", {"n_vars": 32, "alpha": 4.26}, count=3, seed=2)
    assert [p.problem for p in a] == [p.problem for p in b]  # level 4 is n_vars = 32 at 4.26
    for bad in (-1, 2.5, True, "3", 10**6):
        with pytest.raises(ConfigError, match="level"):
            lf.generate("zebra", level=bad, count=1)


def test_mixtures_are_weighted_and_reproducible() -> None:
    w = {"ksat/random": 0.5, "zebra": 0.3, "ordering": 0.2}
    a = lf.generate_mixture(w, count=11, seed=5, level=2)
    b = lf.generate_mixture(w, count=11, seed=5, level=2)
    assert [p.model_dump_json() for p in a] == [p.model_dump_json() for p in b]
    counts = {f: sum(p.family == f for p in a) for f in w}
    assert counts == {"ksat/random": 6, "zebra": 3, "ordering": 2} and len(a) == 11
    assert [p.family for p in a] != sorted(p.family for p in a)  # interleaved, not grouped
    with pytest.raises(ConfigError, match="weights"):
        lf.generate_mixture({"zebra": -1}, count=2)


@pytest.mark.parametrize(
    ("family", "renderer"),
    [("ksat/random", "formula"), ("zebra", "zebra"), ("coloring/planted", "coloring"),
     ("2sat/backbone", "logic"), ("ordering", "deduction")],
)  # fmt: skip
def test_the_budgeted_reference_solver(family: str, renderer: str, tmp_path) -> None:
    """``budget:N``: with room to finish it is the oracle (every answer verified right); with
    one conflict it mostly guesses, and its accuracy falls; formats with no budgeted solver get an error."""
    items = lf.render(lf.generate(family, level=8, count=8, seed=1), renderer)
    acc = {}
    for n in (1, 10**6):
        out = tmp_path / f"{family.replace('/', '-')}-{n}.jsonl"
        lf.run(items, f"budget:{n}", out)
        recs = [r for r in map(__import__("json").loads, out.read_text().splitlines())]
        assert all(r["error"] is None and r["verdict"] is not None for r in recs)
        acc[n] = sum(r["verdict"]["correct"] for r in recs) / len(recs)
    assert acc[10**6] == 1.0 and acc[1] < 1.0, acc


def test_budget_refuses_formats_without_a_budgeted_solver(tmp_path, shared_data) -> None:
    ps = lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=2, seed=0)
    items = lf.render(lf.reduce(ps, "vc"), "vc")
    lf.run(items, "budget:100", tmp_path / "r.jsonl")
    recs = [__import__("json").loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert all("no budgeted solver for yes-no+cover answers" in r["error"] for r in recs)
    from logicforge.families.logicaldeduction import load_logicaldeduction

    ld = lf.render(
        load_logicaldeduction(shared_data / "logiclm" / "logicaldeduction_dev.json")[:2],
        "deduction",
    )
    lf.run(ld, "budget:100", tmp_path / "ld.jsonl")
    recs = [__import__("json").loads(x) for x in (tmp_path / "ld.jsonl").read_text().splitlines()]
    assert all("generated ordering puzzles" in r["error"] for r in recs)
