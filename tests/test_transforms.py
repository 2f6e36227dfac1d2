from __future__ import annotations

import asyncio

import pytest

import logicforge as lf
from logicforge import CNF
from logicforge.cli import main
from logicforge.kinds import parse_answer, verify
from logicforge.models.baselines import OracleBaseline
from logicforge.transforms import apply_transform

from .test_families_common import SMALL

SPECS = [
    "shuffle",
    "shuffle:mode=reverse",
    "rename",
    "filler:ratio=0.5",
    "filler:ratio=1.0,layout=grouped",
    "duplicate",
    "duplicate:layout=interleaved",
]


@pytest.mark.parametrize("family", sorted(f for f in SMALL if lf.FAMILIES.get(f).kind == "cnf"))
@pytest.mark.parametrize("spec", SPECS)
def test_transforms_preserve_label_and_round_trip(family: str, spec: str) -> None:
    problems = lf.generate(family, SMALL[family], count=3, seed=11)
    out = lf.transform(problems, spec)
    oracle = OracleBaseline()
    for p, q in zip(problems, out, strict=True):
        assert (
            q.label == p.label == lf.solve(CNF.from_json(q.problem)).label
        )  # both oracles checked inside too
        assert q.metadata["transforms"][-1]["name"] == spec.split(":")[0]
        assert q.problem_id != p.problem_id
        for scheme in ["logic", "letter", "team", "social", "room", "door"]:
            it = lf.render([q], scheme)[0]
            assert it.transforms == [spec.split(":")[0]]
            v = verify(
                it,
                parse_answer(
                    asyncio.run(oracle.generate(lf.Prompt.of(it), lf.Sampling(), 0)).text, it
                ),
            )
            assert v.correct and v.witness_valid in (True, None)


def test_transform_sizes_and_reproducibility() -> None:
    p = lf.generate("2sat/implication-cycle", {"n_clauses": 50}, count=1, seed=0)[0]
    d = apply_transform(p, "duplicate", {"layout": "interleaved"})
    assert d.metadata["n_clauses"] == 100 and d.metadata["n_vars"] == 2 * p.metadata["n_vars"]
    f = apply_transform(p, "filler", {"ratio": 0.5})
    assert f.metadata["n_clauses"] == 75
    assert apply_transform(p, "shuffle").problem == apply_transform(p, "shuffle").problem
    assert apply_transform(p, "shuffle").problem != p.problem
    chained = apply_transform(apply_transform(p, "rename"), "shuffle")
    assert [t["name"] for t in chained.metadata["transforms"]] == ["rename", "shuffle"]


def test_bad_transform_options() -> None:
    with pytest.raises(lf.UnknownNameError, match="shuffle"):
        lf.transform([], "scramble")
    p = lf.generate("2sat/backbone", {"n_clauses": 6}, count=1, seed=0)
    with pytest.raises(lf.ConfigError, match="'layout'"):
        lf.transform(p, "duplicate:layout=diagonal")
    with pytest.raises(lf.ConfigError, match="'ratio'"):
        lf.transform(p, "filler:ratio=-1")


def test_cli_generate_with_transforms(tmp_path) -> None:
    assert (
        main(
            [
                "generate",
                "--family",
                "2sat/mono-bridge",
                "--set",
                "n_clauses=10",
                "--count",
                "2",
                "--transform",
                "filler:ratio=1.0",
                "--transform",
                "shuffle",
                "--renderer",
                "team",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    items = lf.api.load_items(tmp_path / "items.jsonl")
    assert all(
        it.transforms == ["filler", "shuffle"] and it.metadata["n_clauses"] == 20 for it in items
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"answer": "SAT", "assignment": {"Alice": "Red", "Bob": "Blue"}}', {1: True, 2: False}),
        ("SAT\nAlice: Red\nBob: Blue", {1: True, 2: False}),
        ('{"answer": "SAT", "assignment": {"Alice": "red", "Bob": "BLUE"}}', {1: True, 2: False}),
    ],
)
def test_team_value_words(text: str, expected: dict[int, bool]) -> None:
    p = lf.generate("2sat/mono-bridge", {"n_clauses": 3, "var_density": 0.0}, count=1, seed=0)[0]
    it = lf.render([p], "team")[0]
    assert list(it.mapping)[:2] == ["Alice", "Bob"]
    a = parse_answer(text, it)
    assert a.label == "SAT" and {k: a.assignment[k] for k in expected} == expected


def test_scheme_value_phrases_parse() -> None:
    p = lf.generate("2sat/mono-bridge", {"n_clauses": 3, "var_density": 0.0}, count=1, seed=0)[0]
    it = lf.render([p], "letter")[0]
    a = parse_answer(
        '{"answer": "SAT", "assignment": {"Alice": "has the letter", "Bob": "doesn\'t have the letter"}}',
        it,
    )
    assert a.assignment and a.assignment[1] is True and a.assignment[2] is False
    it = lf.render([p], "room")[0]
    a = parse_answer('{"answer": "SAT", "assignment": {"room 1": "lit", "room 2": "dark"}}', it)
    assert a.assignment and a.assignment[1] is True and a.assignment[2] is False


def test_unknown_transform_option_is_named() -> None:
    with pytest.raises(lf.ConfigError, match="'colour'"):
        lf.transform([], "shuffle:colour=red")


def test_interleaved_duplication_is_a_random_merge_keeping_each_copys_order() -> None:
    """§5.4 interleaves the copy randomly, keeping each copy's internal order (it used to
    alternate strictly, clause by clause)."""
    p = lf.generate("2sat/backbone", {"n_clauses": 50, "order": "construction"}, 1, 0)[0]
    q = lf.transform([p], "duplicate:layout=interleaved")[0]
    n = p.problem["num_vars"]
    cl = [tuple(c) for c in q.problem["clauses"]]
    first = [c for c in cl if abs(c[0]) <= n]
    assert first == [tuple(c) for c in p.problem["clauses"]]  # the original, in its order
    side = [abs(c[0]) > n for c in cl]
    assert len(cl) == 100 and sum(side) == 50
    assert side != [i % 2 == 1 for i in range(100)]  # not strict alternation
    assert q.label == p.label
