"""End to end with the embedded model: a satbench suite writes stories (SmolLM2 as writer and
checker — mostly template fallbacks is the honest outcome for a 135M model), runs them next to
the raw formulas, and reports trace accuracy and the validation statistics."""

from __future__ import annotations

import csv
import json

import pytest

from logicforge.suites import load_suite, run_suite

pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
pytestmark = pytest.mark.embedded  # loads the model: `make test` runs these on their own

SUITE = """
name: satbench-story-e2e
seed: 5
problems:
  - family: satbench
    params: {dims: [2, 2]}
    grid: {n_clauses: [4], target_label: [SAT, UNSAT]}
    count: 1
renderers: [formula-trace, story]
story: {writer: embedded, attempts: 1, max_tokens: 64, on_failure: template}
models: [embedded, oracle]
sampling: {max_tokens: 160}
table: [bucket, label, rendering]
"""


def test_satbench_stories_with_the_embedded_model(tmp_path) -> None:
    y = tmp_path / "s.yaml"
    y.write_text(SUITE)
    out = tmp_path / "run"
    html = run_suite(load_suite(y), out, progress=False)
    stories = [json.loads(x) for x in (out / "stories-story.jsonl").read_text().splitlines()]
    assert len(stories) == 2
    for it in stories:
        st = it["metadata"]["story"]
        assert st["writer"] == "smollm2-135m-instruct" and st["formula_equivalent"]
        assert st["n_conditions"] == 4 == st["first_try"] + st["fallbacks"]
        assert all(c["source"] in ("llm", "template") for c in st["conditions"])
    recs = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    assert len(recs) == 8 and all(r["verdict"] is not None for r in recs)
    rep = html.parent
    val = list(csv.DictReader((rep / "story_validation.csv").open()))
    assert val[0]["rendering"] == "story" and val[0]["conditions"] == "8"
    trace = list(csv.DictReader((rep / "trace_accuracy.csv").open()))
    oracle_story = [r for r in trace if r["model"] == "oracle" and r["rendering"] == "story"]
    assert {r["label"] for r in oracle_story} == {"SAT", "UNSAT"}
    assert all(float(r["trace_accuracy"]) == 1.0 for r in oracle_story)
    assert (rep / "formula_vs_story.csv").exists()
    text = html.read_text()
    assert "story_validation" in text and "trace_accuracy" in text


def test_twosat_llm_verbaliser_suite_with_the_embedded_writer(tmp_path) -> None:
    suite = load_suite("twosat-llm-verbaliser", models=["oracle"], renderers=["logic", "story-spy"])
    suite = suite.model_copy(
        update={
            "problems": [
                suite.problems[0].model_copy(update={"count": 1, "grid": {"n_clauses": [5]}})
            ],
            "story": suite.story.model_copy(update={"attempts": 1, "max_tokens": 48}),
        }
    )
    html = run_suite(suite, tmp_path, progress=False)
    (it,) = [json.loads(x) for x in (tmp_path / "stories-story-spy.jsonl").read_text().splitlines()]
    st = it["metadata"]["story"]
    assert st["writer"] == "smollm2-135m-instruct" and st["n_conditions"] >= 5
    assert st["first_try"] + st["fallbacks"] == st["n_conditions"]
    val = list(csv.DictReader((html.parent / "story_validation.csv").open()))
    assert val[0]["rendering"] == "story-spy"
    recs = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert {r["meta"]["rendering"] for r in recs} == {"logic", "story-spy"}
    assert all(r["verdict"]["correct"] for r in recs)  # the oracle, through both renderings
