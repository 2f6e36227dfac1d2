"""§5.4: the repetition suite's tests as the paper states them — 50 clauses against every other
variant and the 100-distinct-clause arm against every duplicated one independently (Welch), each
setting against its shuffled version paired — recomputed from the records of a scripted model."""

from __future__ import annotations

import csv
import json
from collections import defaultdict

import pytest
from scipy.stats import ttest_ind, ttest_rel

from logicforge.suites import load_suite, run_suite


def test_distinct_arm_independent_and_paired_tests(tmp_path) -> None:
    suite = load_suite("twosat-repetition", models=["noisy:p=0.7"])
    small = suite.with_blocks(count=4)
    rep = run_suite(small, tmp_path, progress=False).parent
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    sat: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r in recs:
        m = r["meta"]
        sat[(m["variant"], m["source_problem_id"])].append(bool(r["verdict"]["correct"]))
    per: dict[str, dict[str, float]] = defaultdict(dict)
    for (v, src), ok in sat.items():
        per[v][src] = sum(ok) / len(ok)
    assert all(
        n == 100
        for n in {r["meta"]["n_clauses"] for r in recs if r["meta"]["variant"] == "distinct-100"}
    )
    with (rep / "variant_tests.csv").open() as f:
        rows = list(csv.DictReader(f))
    dup = [v for v in per if v.startswith("duplicated")]
    against = {r["variant"]: r for r in rows if r["vs"] == "distinct-100"}
    assert set(dup) <= set(against) and all(r["test"] == "independent" for r in against.values())
    for v in dup:
        want = ttest_ind(list(per[v].values()), list(per["distinct-100"].values()), equal_var=False)
        got = against[v]["p"]
        if got:
            assert float(got) == pytest.approx(float(want.pvalue), abs=1e-6)
    # §5.4 as stated: 50 clauses against every other variant independently ...
    vs_single: dict[str, dict] = {}
    for r in rows:  # the first row against 50 clauses (single-shuffled also has a paired one)
        if r["vs"] == "single":
            vs_single.setdefault(r["variant"], r)
    others = [v for v in per if v not in ("single", "distinct-100")]
    assert set(others) <= set(vs_single)
    for v in others:
        assert vs_single[v]["test"] == "independent" and vs_single[v]["formulas"] == "4 / 4"
        want = ttest_ind(list(per[v].values()), list(per["single"].values()), equal_var=False)
        if vs_single[v]["p"]:
            assert float(vs_single[v]["p"]) == pytest.approx(float(want.pvalue), abs=1e-6)
    # ... and shuffling within each setting paired, per formula
    settings = ["single", "duplicated-grouped", "duplicated-interleaved"]
    for v in settings:
        (row,) = [
            r
            for r in rows
            if r["variant"] == f"{v}-shuffled" and r["vs"] == v and r["test"] == "paired"
        ]
        assert int(row["formulas"]) == 4
        keys = sorted(per[v])
        want = ttest_rel([per[f"{v}-shuffled"][k] for k in keys], [per[v][k] for k in keys])
        if row["p"]:
            assert float(row["p"]) == pytest.approx(float(want.pvalue), abs=1e-6)


def test_symmetry_and_rename_suites() -> None:
    """§3.5: Φ is Ψ and a renamed copy (twice the clauses, the label kept), the 2sat/symmetry
    blocks add three-copy probes with the trigger moved; renaming keeps clauses and label."""
    from logicforge.suites.suite import expand_problems

    def small(name: str):
        s = load_suite(name)
        return expand_problems(s.with_blocks(count=2))

    probs = small("twosat-symmetry")
    by = {(p.metadata["source_problem_id"], p.metadata["variant"]): p for p in probs}
    for (src, v), p in by.items():
        if v.startswith("phi"):
            psi = by[(src, "psi")]
            assert len(p.problem["clauses"]) == 2 * len(psi.problem["clauses"])
            assert p.label == psi.label and p.problem["num_vars"] == 2 * psi.problem["num_vars"]
    probes = [p for p in probs if p.family == "2sat/symmetry"]
    assert {p.metadata["probe"] for p in probes} == {
        "3 copies, trigger first",
        "3 copies, trigger last",
    }
    assert all(p.metadata["variant"] == "psi" for p in probes)
    ren = small("twosat-rename")
    pairs: dict[str, dict[str, object]] = defaultdict(dict)
    for p in ren:
        pairs[p.metadata["source_problem_id"]][p.metadata["variant"]] = p
    assert len(pairs) == 8
    for d in pairs.values():
        a, b = d["original"], d["renamed"]
        assert a.label == b.label and len(a.problem["clauses"]) == len(b.problem["clauses"])
        assert a.problem["clauses"] != b.problem["clauses"]
