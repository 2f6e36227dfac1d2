"""SATBench-style family: labels cross-checked by an independent solver (z3), every UNSAT item's recorded core is
unsatisfiable and minimal (removing any clause makes it satisfiable), buckets and balance."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import logicforge as lf
from logicforge.families.satbench import PATTERNS, bucket

from . import xsat


def _sat(clauses) -> bool:
    return xsat.solve([list(c) for c in clauses]) != "UNSAT"


@pytest.mark.parametrize("pattern", PATTERNS)
def test_labels_and_minimal_cores(pattern: str) -> None:
    ps = lf.generate(
        "satbench",
        {"pattern": pattern, "dims": [2, 3, 2]},
        count=6,
        seed=4,
        grid={"n_clauses": [8, 20, 40], "target_label": ["SAT", "UNSAT"]},
    )
    for p in ps:
        cl = p.problem["clauses"]
        assert _sat(cl) == (p.label == "SAT") and len(cl) == p.metadata["n_clauses"]
        assert p.metadata["pattern"] == pattern and len(p.problem["var_names"]) == 12
        if p.label == "UNSAT":
            core = [cl[i] for i in p.oracle["mus"]]
            assert not _sat(core)
            for i in range(len(core)):  # minimal: every clause of the core is needed
                assert _sat(core[:i] + core[i + 1 :])
        else:
            assert "mus" not in p.oracle


def test_buckets_and_the_balanced_suite_layout() -> None:
    assert [bucket(n) for n in (4, 19, 20, 30, 31, 50)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "hard",
    ]
    from logicforge.suites import load_suite
    from logicforge.suites.suite import expand_problems

    s = load_suite("satbench")
    small = s.with_blocks(count=1)
    ps = expand_problems(small)
    counts = Counter((p.metadata["n_clauses"], p.label) for p in ps)
    assert len({n for n, _ in counts}) == 15  # fifteen clause counts from 4 to 50
    assert all(counts[(n, "SAT")] == counts[(n, "UNSAT")] for n, _ in counts)  # balanced


def test_satbench_twins_through_the_pairing_transform() -> None:
    from logicforge.logic.cnf import CNF
    from logicforge.logic.sat import solve
    from logicforge.transforms.pair import make_pairs

    ps = lf.generate("satbench", {"n_clauses": 12, "target_label": "UNSAT"}, count=4, seed=0)
    pairs, skipped = make_pairs(ps)
    assert skipped == 0 and len(pairs) == 8
    for a, b in zip(pairs[::2], pairs[1::2], strict=True):
        assert a.metadata["pair_id"] == b.metadata["pair_id"]
        assert (
            (a.label, b.label)
            == ("UNSAT", "SAT")
            == (solve(CNF.from_json(a.problem)).label, solve(CNF.from_json(b.problem)).label)
        )


def test_error_classes_follow_the_papers_definitions() -> None:
    """SATBench §5.3: SAT with an invalid assignment is satisfiability bias (also on a SAT
    formula), conflicting values context inconsistency, a satisfiable formula called UNSAT
    condition omission; the finer rule classes stay in error_type."""
    from logicforge.kinds import parse_answer, verify

    sat = lf.render(
        lf.generate("satbench", {"n_clauses": 6, "target_label": "SAT"}, count=1, seed=0),
        "formula-trace",
    )[0]
    names = list(sat.mapping)
    wrong_values = {n: False for n in names}
    from logicforge.logic.cnf import CNF

    cnf = CNF(sat.problem["clauses"], sat.problem["num_vars"])
    if cnf.evaluate({sat.mapping[n]: False for n in names}):
        wrong_values = {n: True for n in names}
    bad = verify(sat, parse_answer(json.dumps({"answer": "SAT", "assignment": wrong_values}), sat))
    assert bad.correct and not bad.witness_valid
    assert (
        bad.error_type == "condition omission"
        and bad.details["satbench_error"] == "satisfiability bias"
    )
    both = verify(sat, parse_answer(f"[SAT]\n{names[0]} = true\n{names[0]} = false", sat))
    assert both.details["satbench_error"] == "context inconsistency"
    no = verify(sat, parse_answer('[UNSAT]\n{"answer": "UNSAT"}', sat))
    assert not no.correct and no.details["satbench_error"] == "condition omission"
