"""The certificate suites end to end at small counts: proofs-2sat, proofs-3sat, certificates and
feedback-repair, with their report tables checked against the records."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from logicforge.suites import load_suite, run_suite


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(f))


def _run(name: str, tmp: Path, count: int, models: list[str] | None = None) -> Path:
    suite = load_suite(name).with_blocks(count=count)
    if models:
        suite = suite.model_copy(update={"models": models})
    run_suite(suite, tmp / name, progress=False)
    return tmp / name


def test_proof_suites_report_validity_and_reference_sizes(tmp_path: Path) -> None:
    for name in ("proofs-3sat", "proofs-2sat"):
        out = _run(name, tmp_path, 3, ["oracle", "noisy", "random"])
        rows = _rows(out / "report" / "proof_stats.csv")
        recs = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
        for r in rows:
            mine = [
                x
                for x in recs
                if x["model"] == r["model"]
                and x["meta"]["label"] == "UNSAT"
                and str(x["meta"][r["size"]]) == r["value"]
                and x["meta"]["family"] == r["family"]
            ]
            assert int(r["n_unsat"]) == len(mine) > 0
            valid = sum(bool(x["verdict"]["witness_valid"]) for x in mine) / len(mine)
            assert (
                float(r["proof_valid"]) == round(valid, 6)
                or abs(float(r["proof_valid"]) - valid) < 1e-6
            )
            assert float(r["ref_drat_lemmas"]) > 0 and float(r["ref_core_clauses"]) > 0
            if r["model"] == "oracle":
                assert float(r["proof_valid"]) == 1.0
            if r["model"] == "random":  # a coin with no proof
                assert float(r["proof_valid"]) == 0.0 and r["mean_steps"] == ""
            if name == "proofs-2sat":
                assert float(r["ref_scc_steps"]) > 0
                if r["model"] == "oracle":  # the oracle's 2-SAT proof is the SCC certificate's
                    assert float(r["mean_steps"]) == float(r["ref_scc_steps"])


def test_certificates_suite_scores_the_oracle_one_and_the_guessers_below(tmp_path: Path) -> None:
    out = _run("certificates", tmp_path, 2)
    rows = _rows(out / "report" / "metrics_by_model_rendering.csv")
    by = {(r["model"], r["rendering"]): r for r in rows}
    for task in ("mus", "mcs", "maxsat", "search"):
        o = by[("oracle", f"formula-{task}")]
        assert float(o["accuracy"]) == 1.0 and float(o["certificate_score"]) == 1.0
        rnd = by[("random", f"formula-{task}")]
        assert float(rnd["certificate_score"]) < 1.0
        if task != "search":
            assert float(by[("always-unsat", f"formula-{task}")]["accuracy"]) == 0.0
    assert "mcc" not in rows[0]  # the certificate metric set has no binary metrics


def test_feedback_repair_suite_shows_feedback_beating_retries(tmp_path: Path) -> None:
    out = _run("feedback-repair", tmp_path, 2)
    rows = {r["model"]: r for r in _rows(out / "report" / "repair_vs_retry.csv")}
    listens, deaf = rows["learner:p=0.3"], rows["learner:p=0.3;listens=no"]
    assert float(listens["solver_accuracy"]) > float(listens["retry_accuracy"])
    assert float(listens["retry_accuracy"]) == float(listens["review_accuracy"])
    assert deaf["solver_accuracy"] == deaf["retry_accuracy"] == deaf["review_accuracy"]
    assert float(listens["solver_minus_retry"]) > 0 and float(deaf["solver_minus_retry"]) == 0
