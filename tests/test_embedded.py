"""The embedded default model, for real: one item through llama.cpp on the CPU."""

from __future__ import annotations

import json

import pytest

import logicforge as lf

pytest.importorskip("xllamacpp", reason="installed by `make test` via the [embedded] extra")
pytestmark = pytest.mark.embedded  # loads the model: `make test` runs these on their own


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


def test_served_and_in_process_embedded_agree_under_greedy_decoding(tmp_path) -> None:
    """`logicforge serve` puts the embedded model behind a real OpenAI-compatible server on
    127.0.0.1; a suite's items run through the HTTP client and in-process give the same text."""
    import subprocess
    import sys
    import time

    ps = lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=2, seed=3)
    zs = lf.generate("zebra", {"n_houses": 2, "n_attributes": 2}, count=1, seed=3)
    items = lf.render(ps, "formula-ascii") + lf.render(zs, "zebra")
    sampling = lf.Sampling(temperature=0.0, max_tokens=48, structured=True)
    port_file = tmp_path / "port.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "logicforge", "serve", "--model", "embedded", "--port", "0",
         "--port-file", str(port_file)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not port_file.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.1)
        port = json.loads(port_file.read_text())["port"]
        spec = f"openai-compatible:http://127.0.0.1:{port}/v1:smollm2;timeout=300"
        lf.run(items, spec, tmp_path / "served.jsonl", sampling=sampling, concurrency=2)
    finally:
        proc.terminate()
        proc.wait(30)
    lf.run(items, "embedded", tmp_path / "local.jsonl", sampling=sampling)
    served = [json.loads(x) for x in (tmp_path / "served.jsonl").read_text().splitlines()]
    local = [json.loads(x) for x in (tmp_path / "local.jsonl").read_text().splitlines()]
    assert len(served) == len(local) == len(items)
    for a, b in zip(served, local, strict=True):
        assert a["error"] is None and b["error"] is None
        assert a["text"] == b["text"]
        assert a["answer"] == b["answer"] and a["verdict"] == b["verdict"]


def test_the_two_backends_give_the_same_answers(tmp_path) -> None:
    """The same GGUF through xllamacpp (the default: prebuilt wheels, no compiler) and the optional
    llama-cpp-python, greedy and JSON-constrained: the parsed answers agree item for item; the raw
    texts differ in the whitespace the two grammar engines allow inside the JSON, so they are not
    compared. Runs where llama-cpp-python is installed (``pip install 'logicforge[llama-cpp]'``)."""
    pytest.importorskip("llama_cpp", reason="the optional backend: logicforge[llama-cpp]")
    from logicforge.kinds import parse_answer

    items = lf.render(lf.generate("ordering", {"n_objects": 4}, count=3, seed=1), "deduction")
    items += lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 3.0}, count=3, seed=1))
    sampling = lf.Sampling(temperature=0.0, max_tokens=48, structured=True)
    labels = {}
    for backend in ("xllamacpp", "llama-cpp"):
        out = tmp_path / f"{backend}.jsonl"
        c = lf.run(items, f"embedded;backend={backend}", out, sampling=sampling, concurrency=1)
        assert c["errors"] == 0
        recs = {r["item_id"]: r for r in map(json.loads, out.read_text().splitlines())}
        labels[backend] = [parse_answer(recs[it.item_id]["text"], it).label for it in items]
        assert all(x is not None for x in labels[backend])
    assert labels["xllamacpp"] == labels["llama-cpp"]
    m = lf.load_model("embedded;backend=llama-cpp")
    assert m.cache_id.startswith("llama-cpp:")


def test_the_default_backend_is_the_prebuilt_one() -> None:
    assert lf.load_model("embedded").cache_id.startswith("xllamacpp:")
    assert lf.load_model("embedded;backend=xllamacpp").cache_id.startswith("xllamacpp:")
    with pytest.raises(lf.ConfigError, match="backend"):
        lf.load_model("embedded;backend=vllm")


def test_repair_runs_on_the_embedded_model(tmp_path) -> None:
    """The repair strategy end to end on the real embedded model: a wrong first answer is
    followed by the checker's facts, turns and tokens add up, and the report's repair tables
    are written."""
    ps = lf.generate("ksat/random", {"n_vars": 5, "alpha": 5.0}, count=2, seed=1)
    items = lf.render(ps, "formula-ascii")
    recs = tmp_path / "r.jsonl"
    c = lf.run(
        items,
        "repair:1:solver:embedded",
        recs,
        sampling=lf.Sampling(max_tokens=60, structured=True),
    )
    assert c["done"] == 2 and c["errors"] == 0
    for r in (json.loads(x) for x in recs.read_text().splitlines()):
        ex = r["extra"]
        assert ex["repair_mode"] == "solver" and 1 <= ex["turns"] <= 2
        assert len(ex["repair_solved"]) == ex["turns"] and ex["repair_tokens"][-1] > 0
        if not ex["repair_solved"][0]:
            assert ex["turns"] == 2  # a wrong first answer is always followed up
    lf.report(recs, tmp_path / "rep")
    assert (tmp_path / "rep" / "repair_vs_retry.csv").exists()


def test_local_models_can_be_switched_off(tmp_path, monkeypatch, small_items) -> None:
    """LOGICFORGE_LOCAL_MODELS=off refuses the load with a message naming the switch; a run
    stops at its first request with that message (like a missing binding); unset, it loads."""
    from logicforge.errors import ModelError

    monkeypatch.setenv("LOGICFORGE_LOCAL_MODELS", "off")
    m = lf.load_model("embedded")
    with pytest.raises(ModelError, match="LOGICFORGE_LOCAL_MODELS=off"):
        m._load()
    with pytest.raises(ModelError, match="switched off"):
        lf.run(small_items[:2], "embedded", tmp_path / "r.jsonl", progress=False)
    path = tmp_path / "r.jsonl"
    assert not path.exists() or not path.read_text().strip()
    monkeypatch.delenv("LOGICFORGE_LOCAL_MODELS")
    assert m._load() is not None
