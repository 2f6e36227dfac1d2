"""ADR against witness validity (Spearman ρ per model over representation × N groups) and the
ADR-vs-N figure split by representation, from the records of a scripted model."""

from __future__ import annotations

import csv
import json
from collections import defaultdict

import pytest
from scipy.stats import spearmanr

from logicforge.reports.studies import _series_columns
from logicforge.suites import load_suite, run_suite


def test_adr_vs_witness_validity(tmp_path) -> None:
    suite = load_suite("adr-vc", models=["noisy:p=0.7"])
    small = suite.with_blocks(count=4)
    rep = run_suite(small, tmp_path, progress=False).parent
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert _series_columns(recs) == ("variant", "rendering")  # each representation its prompt
    pairs: dict[tuple, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    wit: dict[tuple, list[bool]] = defaultdict(list)
    for r in recs:
        m = r["meta"]
        g = (m["variant"], m["n_vars"])
        pairs[g][m["pair_id"]].append(bool(r["verdict"]["correct"]))
        if m["label"] == "SAT":
            wit[g].append(r["verdict"].get("witness_valid") is True)
    groups = sorted(pairs)
    adr = [sum(all(v) for v in pairs[g].values()) / len(pairs[g]) for g in groups]
    valid = [sum(wit[g]) / len(wit[g]) for g in groups]
    with (rep / "adr_vs_witness.csv").open() as f:
        (row,) = list(csv.DictReader(f))
    assert int(row["groups"]) == len(groups) == 8  # 2 representations × 4 N
    assert float(row["mean_adr"]) == pytest.approx(sum(adr) / 8, abs=1e-4)
    assert float(row["mean_witness_valid_on_sat"]) == pytest.approx(sum(valid) / 8, abs=1e-4)
    if len(set(adr)) > 1 and len(set(valid)) > 1:
        want = spearmanr(adr, valid).statistic
        assert float(row["spearman_rho"]) == pytest.approx(float(want), abs=1e-4)
    assert (rep / "adr_vs_n.png").exists()
