from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import logicforge as lf
from logicforge import CNF
from logicforge.metrics.adr import adr_from_pairs, adr_table
from logicforge.transforms.pair import find_twin, make_pairs, pair_problem

from . import xsat


def brute_sat(f: CNF) -> bool:
    for bits in itertools.product([False, True], repeat=f.num_vars):
        if f.evaluate(dict(enumerate(bits, 1))):
            return True
    return False


def _edit_applied(src: CNF, twin: CNF, edit: dict) -> bool:
    if edit["kind"] in ("flip", "replace"):
        i, j = edit["clauses"][0], edit["position"]
        expect = list(src.clauses)
        c = list(expect[i])
        assert c[j] == edit["old"]
        c[j] = edit["new"]
        expect[i] = tuple(c)
        return tuple(expect) == twin.clauses
    gone = set(edit["clauses"])
    return tuple(c for k, c in enumerate(src.clauses) if k not in gone) == twin.clauses


@pytest.mark.parametrize("k, alpha, n_list", [(3, 4.0, [5, 8, 10, 25]), (2, 1.5, [5, 8, 10, 25])])
def test_pairs_have_opposite_labels_under_two_oracles(
    k: int, alpha: float, n_list: list[int]
) -> None:
    for n in n_list:
        src = lf.generate(
            "ksat/random",
            {"n_vars": n, "k": k, "alpha": alpha, "target_label": "UNSAT"},
            count=15,
            seed=n,
        )
        pairs, skipped = make_pairs(src, max_deletions=15)  # multi-clause deletions opted in
        assert skipped == 0
        for s, t in zip(pairs[::2], pairs[1::2], strict=True):
            fs, ft = CNF.from_json(s.problem), CNF.from_json(t.problem)
            assert s.label == "UNSAT" and t.label == "SAT"
            assert xsat.solve([list(c) for c in fs.clauses]) == "UNSAT"
            assert xsat.solve([list(c) for c in ft.clauses]) != "UNSAT"
            if n <= 10:
                assert not brute_sat(fs) and brute_sat(ft)
            assert (
                fs.num_vars == ft.num_vars
                and s.metadata["pair_id"] == t.metadata["pair_id"] == s.problem_id
            )
            edit = t.metadata["edit"]
            assert _edit_applied(fs, ft, edit)
            assert (
                abs(t.metadata["alpha_twin"] - t.metadata["alpha_source"])
                <= edit["distance"] / n + 1e-9
            )
            if edit["kind"] != "delete-min":
                assert edit["distance"] == 1


def test_sat_to_unsat_by_single_flip() -> None:
    src = lf.generate(
        "ksat/random", {"n_vars": 15, "alpha": 4.26, "target_label": "SAT"}, count=10, seed=3
    )
    pairs, skipped = make_pairs(src)
    assert len(pairs) // 2 + skipped == 10 and len(pairs) >= 10
    for s, t in zip(pairs[::2], pairs[1::2], strict=True):
        assert (s.label, t.label) == ("SAT", "UNSAT")
        assert xsat.solve([list(c) for c in t.problem["clauses"]]) == "UNSAT"


def test_minimum_deletion_is_exact() -> None:
    # k disjoint contradictions {x}, {¬x}: no flip/replace/single deletion works; the minimum is k
    for k in (2, 3, 4):
        clauses = [c for v in range(1, k + 1) for c in ([v], [-v])]
        cnf = CNF(clauses, k)
        twin, edit = find_twin(cnf, "UNSAT", np.random.default_rng(0))
        assert edit.kind == "delete-min" and edit.distance == k
        assert xsat.solve([list(c) for c in twin.clauses]) != "UNSAT"
    # a formula needing exactly one deletion but no flip: three copies would need three
    clauses = [[1, 2], [1, -2], [-1, 2], [-1, -2]]
    twin, edit = find_twin(CNF(clauses), "UNSAT", np.random.default_rng(0))
    assert edit.distance == 1


def test_skipped_when_no_edit_within_budget() -> None:
    # SAT with no clauses to edit: nothing can make it UNSAT by editing a literal
    p = lf.generate("ksat/random", {"n_vars": 5, "n_clauses": 0}, count=1, seed=0)[0]
    assert pair_problem(p) is None
    pairs, skipped = make_pairs([p])
    assert (pairs, skipped) == ([], 1)


def test_pair_items_carry_pair_id() -> None:
    src = lf.generate(
        "ksat/random", {"n_vars": 8, "alpha": 4.0, "target_label": "UNSAT"}, count=2, seed=0
    )
    pairs, _ = make_pairs(src)
    items = lf.render(pairs)
    assert items[0].pair_id == items[1].pair_id == pairs[0].problem_id


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60))
def test_adr_bounds_property(pairs: list[tuple[bool, bool]]) -> None:
    r = adr_from_pairs(pairs, bootstrap=0)
    assert r["lower_bound"] - 1e-12 <= r["adr"] <= r["upper_bound"] + 1e-12 <= r["accuracy"] + 1e-12
    assert r["adr"] == pytest.approx(r["independence"] + r["covariance"])
    assert r["n11"] + r["n10"] + r["n01"] + r["n00"] == r["pairs"]


def test_adr_fixed_table_and_always_sat() -> None:
    r = adr_from_pairs(
        [(True, True)] * 6 + [(True, False)] * 2 + [(False, True)] * 1 + [(False, False)] * 1
    )
    assert r["adr"] == 0.6 and r["r_sat"] == 0.8 and r["r_unsat"] == 0.7
    assert r["independence"] == pytest.approx(0.56) and r["covariance"] == pytest.approx(0.04)
    assert r["adr_lo"] <= 0.6 <= r["adr_hi"]
    always_sat = adr_from_pairs([(True, False)] * 70)
    assert always_sat["adr"] == 0.0 and always_sat["accuracy"] == 0.5


def test_adr_table_from_records(tmp_path) -> None:
    src = lf.generate(
        "ksat/random", {"n_vars": 8, "alpha": 4.0, "target_label": "UNSAT"}, count=10, seed=1
    )
    pairs, _ = make_pairs(src)
    items = lf.render(pairs)
    for m in ("oracle", "always-sat"):
        lf.run(items, m, tmp_path / "r.jsonl")
    recs = lf.api.read_jsonl(tmp_path / "r.jsonl")
    rows = {r["model"]: r for r in adr_table(list(recs))}
    assert (
        rows["oracle"]["adr"] == 1.0
        and rows["oracle"]["strict_adr"] == 1.0
        and rows["oracle"]["pairs"] == 10
    )
    assert rows["always-sat"]["adr"] == 0.0 and rows["always-sat"]["accuracy"] == 0.5


def test_formula_stats_prompt_and_solver_comparison(tmp_path) -> None:
    from logicforge.kinds import parse_answer

    ps = lf.generate(
        "ksat/random", {"n_vars": 12}, count=4, seed=2, grid={"alpha": [3.0, 4.26, 6.0]}
    )
    items = lf.render(ps, "formula-stats")
    assert "number of branches" in items[0].messages[0].content
    assert parse_answer(
        "UNSATISFIABLE\nNumber of branches: 7\nNumber of conflicts: 2", items[0]
    ).stats == {"branches": 7, "conflicts": 2}
    assert parse_answer('{"answer": "UNSAT", "branches": 12, "conflicts": 3}', items[0]).stats == {
        "branches": 12,
        "conflicts": 3,
    }
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    lf.report(tmp_path / "r.jsonl", tmp_path / "rep", ps)
    table = (tmp_path / "rep" / "reported_vs_solver.csv").read_text().splitlines()
    assert table[1].startswith("oracle,12,1.0,")  # MiniSat's own counts correlate perfectly
    assert (tmp_path / "rep" / "branches_vs_alpha.png").exists()


def test_adr_is_kept_apart_per_representation_in_any_record_order() -> None:
    """A model right on every CNF item and wrong on every VC item: ADR 1.0 on CNF and 0.0 on VC,
    every pair counted (the two forms of one pair used to overwrite each other)."""
    import random

    from logicforge.metrics.adr import adr_table
    from logicforge.reports.studies import adr_tables
    from logicforge.transforms.pair import make_pairs

    src = lf.generate("ksat/random", {"n_vars": 5, "alpha": 4.26}, count=12, seed=2)
    pairs, _ = make_pairs(src)
    n_pairs = len(pairs) // 2
    assert n_pairs >= 4
    items = lf.render(pairs, "formula") + lf.render(lf.reduce(pairs, "vc"), "vc")
    recs = []
    for i, it in enumerate(items):
        right = it.kind == "cnf"
        recs.append(
            {
                "record_id": f"r{i}",
                "item_id": it.item_id,
                "model": "m",
                "sample": 0,
                "meta": {
                    **it.metadata,
                    "kind": it.kind,
                    "rendering": it.rendering,
                    "label": it.gold["label"],
                    "pair_id": it.pair_id or it.metadata.get("pair_id"),
                },
                "verdict": {"correct": right, "witness_valid": right},
            }
        )
    for seed in range(3):
        random.Random(seed).shuffle(recs)
        by = {r["rendering"]: r for r in adr_table(recs, ("model", "rendering"))}
        assert by["formula"]["adr"] == 1.0 and by["vc"]["adr"] == 0.0
        assert by["formula"]["pairs"] == by["vc"]["pairs"] == n_pairs
        overall = adr_table(recs, ("model",))[0]
        assert overall["pairs"] == 2 * n_pairs and overall["adr"] == 0.5
        names = [n for n, _ in adr_tables(recs)]
        assert "adr_by_model_rendering" in names


def test_pairs_are_single_edits_unless_opted_in_and_the_report_breaks_them_down(tmp_path) -> None:
    """Sources whose only twin deletes several clauses are skipped by default; with
    max_deletions they pair, tagged delete-min with their size, and the report counts them."""
    clauses = [c for v in range(1, 4) for c in ([v], [-v])]  # needs 3 deletions, nothing less
    from logicforge.schema import LabelledProblem

    p = LabelledProblem(
        problem_id="three-contradictions",
        family="ksat/random",
        kind="cnf",
        params={},
        seed=0,
        spawn_key=[0, 0],
        problem=CNF(clauses, 3).to_json(),
        label="UNSAT",
    )
    assert make_pairs([p]) == ([], 1)
    pairs, skipped = make_pairs([p], max_deletions=5)
    assert skipped == 0 and pairs[1].metadata["edit"]["kind"] == "delete-min"
    src = lf.generate(
        "ksat/random", {"n_vars": 6, "alpha": 5.0, "target_label": "UNSAT"}, count=4, seed=1
    )
    single, _ = make_pairs(src)
    assert all(t.metadata["edit"]["distance"] == 1 for t in single[1::2])
    items = lf.render(single + pairs, "formula")
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    lf.report(tmp_path / "r.jsonl", tmp_path / "rep")
    import csv

    rows = list(csv.DictReader((tmp_path / "rep" / "pair_edits.csv").open()))
    kinds = {(r["edit"], int(r["clauses_changed"])): int(r["pairs"]) for r in rows}
    assert kinds[("delete-min", 3)] == 1 and sum(kinds.values()) == len(single) // 2 + 1
