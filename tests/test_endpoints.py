"""Several endpoints for one model (rotation, failover), rate limits, and backend quirks set in
the model spec — all against real HTTP servers on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time

import logicforge as lf

from .fakeserver import FakeServer, reply_for


def _items(n: int) -> list[lf.Item]:
    return lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=n, seed=6))


def _recs(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_requests_rotate_and_fail_over_when_one_endpoint_dies(tmp_path) -> None:
    items = _items(60)
    a = FakeServer(delay=0.02).__enter__()
    killer: threading.Thread | None = None
    try:
        with FakeServer(delay=0.02) as b:
            spec = f"openai-compatible:{a.base_url}|{b.base_url}:m;max_retries=3;backoff=0.01"

            def kill_a_once_it_served() -> None:  # endpoint a goes away mid-run, however slow
                deadline = time.monotonic() + 30  # the machine is: never before a has served
                while a.requests < 3 and time.monotonic() < deadline:
                    time.sleep(0.01)
                a.__exit__(None, None, None)

            killer = threading.Thread(target=kill_a_once_it_served)
            killer.start()
            c = lf.run(items, spec, tmp_path / "r.jsonl", concurrency=4)
            killer.join()
            served_b = b.requests
    finally:
        if killer is not None:
            killer.join()
    served_a = a.requests
    recs = _recs(tmp_path / "r.jsonl")
    assert c["errors"] == 0 and len(recs) == len(items)
    assert all(
        r["text"] == reply_for(it.messages[-1].content) for r, it in zip(recs, items, strict=True)
    )
    assert 0 < served_a < len(items) and served_b > 0 and served_a + served_b >= len(items)


def test_requests_per_minute_are_capped(tmp_path) -> None:
    items = _items(30)
    with FakeServer() as srv:
        t0 = time.monotonic()
        lf.run(
            items,
            f"openai-compatible:{srv.base_url}:m;rpm=600",
            tmp_path / "r.jsonl",
            concurrency=16,
        )
        elapsed = time.monotonic() - t0
    assert elapsed >= 1.5  # 600/min = 10/s, a bucket of 10: the last 20 wait ≥ 2 s in all


def test_spec_quirks_reach_the_request_body(tmp_path) -> None:
    items = _items(3)
    with FakeServer() as srv:
        spec = (
            f"openai-compatible:{srv.base_url}:m;max_tokens_param=max_completion_tokens;"
            "reasoning_effort=low"
        )
        lf.run(items, spec, tmp_path / "a.jsonl", sampling=lf.Sampling(max_tokens=77))
        body = srv.bodies[-1]
        assert body["max_completion_tokens"] == 77 and "max_tokens" not in body
        assert body["reasoning_effort"] == "low" and "messages" in body
        lf.run(
            items, f"openai-compatible:{srv.base_url}:m;endpoint=completions", tmp_path / "b.jsonl"
        )
        body = srv.bodies[-1]
        assert "prompt" in body and "messages" not in body
    recs = _recs(tmp_path / "b.jsonl")
    assert all(r["error"] is None and r["answer"]["label"] in ("SAT", "UNSAT") for r in recs)


def test_samples_through_the_api_n_share_requests(tmp_path) -> None:
    items = _items(5)
    with FakeServer() as srv:
        spec = f"openai-compatible:{srv.base_url}:m;n=2"
        lf.run(items, spec, tmp_path / "r.jsonl", samples=4, sampling=lf.Sampling(temperature=0.7))
        assert srv.requests == len(items) * 2 and {b["n"] for b in srv.bodies} == {2}
        from logicforge.rng import child_seed

        # one seed per block of samples, each from its spawn key (seed 0's children 0 and 2)
        assert {b["seed"] for b in srv.bodies} == {child_seed(0, 0), child_seed(0, 2)}
    recs = _recs(tmp_path / "r.jsonl")
    assert len(recs) == 20 and all(r["error"] is None for r in recs)
    by_id = {it.item_id: it.messages[-1].content for it in items}
    for r in recs:
        prompt = by_id[r["item_id"]]
        k = r["sample"] % 2
        assert r["text"] == reply_for(prompt if k == 0 else f"{prompt}#{k}")


def test_a_model_can_carry_its_own_concurrency(tmp_path) -> None:
    m = lf.load_model("openai-compatible:http://127.0.0.1:9/v1:m;concurrency=3")
    assert m.concurrency == 3


def test_an_ollama_name_tag_model_spec_round_trips(tmp_path) -> None:
    """``…/v1:llama3.1:8b``: the URL ends at its path; the model is ``llama3.1:8b``."""
    items = _items(2)
    with FakeServer() as srv:
        spec = f"openai-compatible:{srv.base_url}:llama3.1:8b"
        lf.run(items, spec, tmp_path / "r.jsonl")
        assert srv.bodies[-1]["model"] == "llama3.1:8b"
    recs = _recs(tmp_path / "r.jsonl")
    assert {r["model"] for r in recs} == {"llama3.1:8b"} and all(r["error"] is None for r in recs)
    m = lf.load_model(spec)
    assert m.name == "llama3.1:8b"
