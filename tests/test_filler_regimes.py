"""§5.2: the fillers suite's regimes for all four generators on the 3-level grid, and the
filler_regimes table recomputed from the records of a scripted model that is right on some
items and wrong on others."""

from __future__ import annotations

import csv
import json
from collections import defaultdict

import pytest
from scipy.stats import ttest_rel

from logicforge.suites import load_suite, run_suite


@pytest.fixture(scope="module")
def fillers_run(tmp_path_factory):
    suite = load_suite("twosat-fillers", models=["noisy:p=0.7"])
    small = suite.with_blocks(count=3)
    out = tmp_path_factory.mktemp("fillers")
    rep = run_suite(small, out, progress=False).parent
    recs = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    with (rep / "filler_regimes.csv").open() as f:
        return recs, list(csv.DictReader(f))


def test_the_papers_regimes_for_every_generator(fillers_run) -> None:
    _, rows = fillers_run
    want = {
        "2sat/implication-cycle": ["(75, 0)", "(75, r=25)", "(100, 0)"],
        "2sat/backbone": ["(75, 0)", "(75, r=25)", "(100, 0)"],
        "2sat/mono-bridge": ["(75, 0)", "(75, r=25)", "(100, 0)"],
        "2sat/equivalence-core": ["(20, 0)", "(20, r=30)", "(50, 0)"],
    }
    for fam, settings in want.items():
        for d in ("0.2", "0.5", "0.8"):
            got = [r["setting"] for r in rows if r["family"] == fam and r["difficulty"] == d]
            assert got == settings, (fam, d, got)
    first = [r for r in rows if r["vs"] == ""]
    assert all(r["t"] == "" and r["p"] == "" for r in first)  # nothing before: empty, not 0
    assert {r["paired_by"] for r in rows if r["vs"]} == {"formula", "formula index"}


def test_cells_follow_from_the_records(fillers_run) -> None:
    recs, rows = fillers_run
    sat: dict[tuple, list[bool]] = defaultdict(list)
    for r in recs:
        m = r["meta"]
        fillers = sum(t.get("fillers", 0) for t in m.get("transforms", []))
        key = (m["family"], m["difficulty"], m["target_clauses"], fillers, m["formula_index"])
        sat[key].append(bool(r["verdict"]["correct"]))
    per = {k: sum(v) / len(v) for k, v in sat.items()}
    for row in rows:
        fam, d = row["family"], float(row["difficulty"])
        c, f = int(row["core_clauses"]), int(row["fillers"])
        mine = [per[(fam, d, c, f, i)] for i in range(3)]
        assert float(row["Sat."]) == pytest.approx(100 * sum(mine) / 3, abs=0.051)
        if row["vs"] and row["p"]:
            pc, pf = row["vs"].strip("()").split(", ")
            prev = [per[(fam, d, int(pc), int(pf.removeprefix("r=")), i)] for i in range(3)]
            res = ttest_rel(mine, prev)
            assert float(row["p"]) == pytest.approx(float(res.pvalue), abs=1e-6)


def test_block_variants_must_name_suite_variants() -> None:
    from logicforge.errors import ConfigError

    with pytest.raises(ConfigError, match="problems.variants"):
        load_suite(
            "twosat-fillers",
            problems=[{"family": "2sat/backbone", "variants": ["no-such-variant"]}],
        )


def test_block_variants_and_tags_shape_the_problems() -> None:
    from logicforge.suites.suite import expand_problems

    suite = load_suite("twosat-fillers")
    blocks = [b.model_copy(update={"count": 1}) for b in suite.problems[:2]]  # IC at 0.2: 75, 100
    probs = expand_problems(suite.model_copy(update={"problems": blocks}))
    seen = {(p.metadata["target_clauses"], p.metadata["variant"]) for p in probs}
    assert seen == {(75, "core-only"), (75, "fillers-25"), (100, "core-only")}
    assert {p.metadata["difficulty"] for p in probs} == {0.2}
    filled = next(p for p in probs if p.metadata["variant"] == "fillers-25")
    assert filled.metadata["transforms"][-1]["fillers"] == 25
