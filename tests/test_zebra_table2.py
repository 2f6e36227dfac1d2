"""ZebraLogic Table 2 in the paper's layout: each model's accuracy, then BoN-Oracle and
majority voting at N, then its strategy models (self-verification with and without the oracle,
two rounds), per size group — recomputed from the records of scripted models."""

from __future__ import annotations

import csv
import json
from collections import defaultdict

import pytest

from logicforge.metrics.ttc import majority_table, pass_at_k
from logicforge.reports.zebra_tables import method_name
from logicforge.suites import load_suite, run_suite

COLS = ["Model & Methods", "Overall", "Small", "Medium", "Large", "X-Large", "n"]


def _read(path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


def test_bon_and_majority_rows_follow_from_the_samples(tmp_path) -> None:
    suite = load_suite("zebra-bon", models=["noisy:p=0.7", "random"])
    small = suite.with_blocks(count=3, grid={"n_houses": [3, 4], "n_attributes": [3]}).model_copy(
        update={"samples": 32}
    )
    rep = run_suite(small, tmp_path, progress=False).parent
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    rows = _read(rep / "zebralogic_table2.csv")
    assert list(rows[0]) == COLS
    names = [r["Model & Methods"] for r in rows]
    assert names == [
        "noisy:p=0.7", "BoN-Oracle N=32", "Majority-Voting N=32",
        "random", "BoN-Oracle N=32", "Majority-Voting N=32",
    ]  # fmt: skip
    for start, model in ((0, "noisy:p=0.7"), (3, "random")):
        items: dict[str, list[dict]] = defaultdict(list)
        for r in recs:
            if r["model"] == model:
                items[r["item_id"]].append(r)
        group = {i: rs[0]["meta"]["size_group"] for i, rs in items.items()}
        assert set(group.values()) == {"Small", "Medium"}
        for g in ("Small", "Medium"):
            mine = [rs for i, rs in items.items() if group[i] == g]
            base = sum(sum(r["verdict"]["correct"] for r in rs) / len(rs) for rs in mine)
            assert float(rows[start][g]) == pytest.approx(100 * base / len(mine), abs=0.051)
            bon = sum(
                pass_at_k(len(rs), sum(r["verdict"]["correct"] for r in rs), 32) for rs in mine
            )
            assert float(rows[start + 1][g]) == pytest.approx(100 * bon / len(mine), abs=0.051)
        assert rows[start]["Large"] == "" and rows[start]["X-Large"] == ""  # no such puzzles
        maj = next(m for m in majority_table(recs) if m["model"] == model)["majority_accuracy"]
        assert float(rows[start + 2]["Overall"]) == pytest.approx(100 * maj, abs=0.051)
    # the oracle verifier never loses to a single sample, and the scripted model is neither
    for start in (0, 3):
        assert float(rows[start + 1]["Overall"]) >= float(rows[start]["Overall"])
    assert 0 < float(rows[0]["Overall"]) < 100


def test_self_verification_rows_in_the_papers_order(tmp_path) -> None:
    suite = load_suite("zebra-selfverify")
    rep = run_suite(
        suite.with_blocks(count=2, grid={"n_houses": [3], "n_attributes": [3]}),
        tmp_path,
        progress=False,
    ).parent
    names = [r["Model & Methods"] for r in _read(rep / "zebralogic_table2.csv")]
    assert names == ["random", "Self-Verify (Oracle)", "Self-Verify", "Self-Verify (x2)"]


@pytest.mark.parametrize(
    ("extra", "row"),
    [
        ({"bon_n": 32, "bon_method": "oracle", "bon_scorer": "oracle"}, "BoN-Oracle N=32"),
        ({"bon_n": 128, "bon_method": "majority"}, "Majority-Voting N=128"),
        ({"bon_n": 32, "bon_method": "rm", "bon_scorer": "model(judge)"}, "BoN-RM N=32"),
        ({"bon_n": 16, "bon_method": "rm", "bon_scorer": "reward(rm)"}, "BoN-RM N=16"),
        ({"bon_n": 32, "bon_scorer": "majority"}, "Majority-Voting N=32"),  # older records
        ({"sv_rounds": 1, "sv_feedback": "oracle"}, "Self-Verify (Oracle)"),
        ({"sv_rounds": 2, "sv_feedback": "none"}, "Self-Verify (x2)"),
        ({"sv_rounds": 2, "sv_feedback": "oracle"}, "Self-Verify (Oracle, x2)"),
        ({}, "symbcot"),  # another strategy: its name
    ],
)
def test_method_names_come_from_what_the_records_ran(extra: dict, row: str) -> None:
    assert method_name("m+symbcot" if not extra else "m+whatever", "m", extra) == row
