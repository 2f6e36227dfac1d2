"""The embedded default model, for real: one item through llama.cpp on the CPU."""

from __future__ import annotations

import json

import pytest

import logicforge as lf

pytest.importorskip("llama_cpp", reason="installed by `make test` via the [embedded] extra")


def test_embedded_model_answers_one_item(tmp_path) -> None:
    p = lf.generate("ksat/random", {"n_vars": 5, "alpha": 2.0}, count=1, seed=0)
    items = lf.render(p, "formula-ascii")
    c = lf.run(
        items,
        "embedded",
        tmp_path / "r.jsonl",
        sampling=lf.Sampling(max_tokens=80, structured=True),
    )
    assert c["done"] == 1 and c["errors"] == 0
    r = json.loads((tmp_path / "r.jsonl").read_text())
    assert r["model"] == "smollm2-135m-instruct"
    assert r["usage"]["prompt_tokens"] > 50 and r["usage"]["completion_tokens"] > 0
    assert r["latency_s"] > 0 and r["finish_reason"] in ("stop", "length")
    assert r["verdict"] is not None  # scored, whatever the tiny model said
