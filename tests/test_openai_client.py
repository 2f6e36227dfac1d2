from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.models.openai_compat import OpenAICompatModel

from .fakeserver import FakeServer, reply_for


def _model(srv: FakeServer, **kw) -> OpenAICompatModel:
    opts = {"timeout": 0.5, "max_retries": 5, "backoff": 0.01, "max_backoff": 0.05} | kw
    return OpenAICompatModel(srv.base_url, "fake-model", **opts)


def test_faults_are_retried_and_exhausted_items_recorded(small_items, tmp_path) -> None:
    items = small_items[:12]
    with FakeServer(stall_s=1.5) as srv:
        p = lambda it: it.messages[-1].content  # noqa: E731
        srv.scripts[p(items[0])] = ["429", "500", "stall", "malformed"]  # recovers on attempt 5
        srv.scripts[p(items[1])] = ["429", "429"]
        srv.scripts[p(items[2])] = ["503"]
        srv.sticky.add(p(items[2]))  # never recovers
        srv.scripts[p(items[3])] = ["stall"]
        srv.sticky.add(p(items[3]))
        srv.scripts[p(items[4])] = ["malformed"]
        srv.sticky.add(p(items[4]))
        c = lf.run(items, _model(srv), tmp_path / "r.jsonl", concurrency=6)
    recs = {
        r["item_id"]: r for r in map(json.loads, (tmp_path / "r.jsonl").read_text().splitlines())
    }
    assert c["done"] == 12 and c["errors"] == 3 and len(recs) == 12
    assert recs[items[0].item_id]["error"] is None and recs[items[0].item_id]["attempts"] == 5
    assert recs[items[0].item_id]["text"] == reply_for(p(items[0]))
    assert recs[items[1].item_id]["attempts"] == 3
    assert recs[items[2].item_id]["error"] == "gave up after 6 attempts: HTTP 503"
    assert "timed out" in recs[items[3].item_id]["error"]
    assert "malformed" in recs[items[4].item_id]["error"]
    for it in items[5:]:
        r = recs[it.item_id]
        assert (
            r["error"] is None and r["verdict"] is not None and r["usage"]["completion_tokens"] == 5
        )


def test_retry_after_is_honoured(small_items, tmp_path) -> None:
    import time

    with FakeServer() as srv:
        srv.default_script = ["429"]
        t0 = time.monotonic()
        lf.run(
            small_items[:2],
            _model(srv, backoff=0.0, max_backoff=0.0),
            tmp_path / "r.jsonl",
            concurrency=2,
        )
        assert time.monotonic() - t0 >= 0.05  # waited at least the Retry-After of 0.05 s
        assert srv.requests == 4


def test_401_stops_the_run_with_a_clear_message(small_items, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LF_TEST_KEY", "sk-test-secret-123")
    with FakeServer() as srv:
        srv.default_script = ["401"]
        with pytest.raises(lf.ModelError, match=r"HTTP 401.*LF_TEST_KEY"):
            lf.run(
                small_items[:3],
                _model(srv, api_key_env="LF_TEST_KEY"),
                tmp_path / "r.jsonl",
                concurrency=1,
            )
        assert srv.requests == 1  # no retry storm
        assert srv.auth_headers[0] == "Bearer sk-test-secret-123"
    assert "sk-test-secret" not in (tmp_path / "r.jsonl").read_text()


def test_key_never_written(small_items, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LF_TEST_KEY", "sk-test-secret-456")
    with FakeServer() as srv:
        lf.run(
            small_items,
            _model(srv, api_key_env="LF_TEST_KEY"),
            tmp_path / "r.jsonl",
            cache_path=tmp_path / "c.sqlite",
        )
    for f in tmp_path.iterdir():
        data = f.read_bytes()
        assert (
            b"sk-test-secret" not in data and b"Authorization" not in data and b"Bearer" not in data
        )


def test_cache_avoids_repeat_calls(small_items, tmp_path) -> None:
    with FakeServer() as srv:
        lf.run(small_items, _model(srv), tmp_path / "a.jsonl", cache_path=tmp_path / "c.sqlite")
        first = srv.requests
        c = lf.run(small_items, _model(srv), tmp_path / "b.jsonl", cache_path=tmp_path / "c.sqlite")
        assert srv.requests == first and c["cached"] == len(small_items)
        c = lf.run(
            small_items,
            _model(srv),
            tmp_path / "d.jsonl",
            samples=2,
            cache_path=tmp_path / "c.sqlite",
        )
        assert srv.requests == first + len(small_items)  # only sample index 1 is new


def test_connection_refused_is_an_error_record(small_items, tmp_path) -> None:
    m = OpenAICompatModel(
        "http://127.0.0.1:9/v1", "x", max_retries=1, backoff=0.01, timeout=1, dead_after=0
    )  # dead_after=0 never stops the model: each item is an error record
    c = lf.run(small_items[:2], m, tmp_path / "r.jsonl")
    assert c["errors"] == 2
    assert (
        "connection error"
        in json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])["error"]
    )


def test_model_spec_parsing() -> None:
    m = lf.load_model("openai-compatible:http://127.0.0.1:8000/v1:my-model;timeout=5;max_retries=2")
    assert (m.name, m.url, m.timeout, m.max_retries) == (
        "my-model",
        "http://127.0.0.1:8000/v1/chat/completions",
        5.0,
        2,
    )
    with pytest.raises(lf.ConfigError, match="unknown option"):
        lf.load_model("openai:http://h/v1:m;colour=red")
    with pytest.raises(lf.UnknownNameError, match="known models"):
        lf.load_model("nosuch")


def test_reasoning_tokens_are_recorded(small_items, tmp_path) -> None:
    from logicforge.models.openai_wire import _parse_body

    body = json.dumps(
        {
            "choices": [{"message": {"content": "SAT"}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": 10,
                "completion_tokens": 50,
                "completion_tokens_details": {"reasoning_tokens": 42},
            },
        }
    ).encode()
    rs = _parse_body(body)
    assert not isinstance(rs, str) and len(rs) == 1
    assert rs[0].reasoning_tokens == 42 and rs[0].completion_tokens == 50


def test_self_verification_sends_the_review_turns(small_items, tmp_path) -> None:
    with FakeServer() as srv:
        m = lf.load_model(
            f"selfverify:2:oracle:openai-compatible:{srv.base_url}:fake;max_retries=0"
        )
        assert m.name == "fake+selfverify2-oracle"
        c = lf.run(small_items[:2], m, tmp_path / "r.jsonl", concurrency=1)
        seen = [b["messages"] for b in srv.bodies]
    assert c["done"] == 2 and len(seen) == 6  # three turns per item
    last = seen[2]
    assert [x["role"] for x in last] == ["user", "assistant", "user", "assistant", "user"]
    assert (
        last[2]["content"].startswith("Your previous answer is")
        and "Review your answer" in last[4]["content"]
    )
    rec = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert rec["usage"]["completion_tokens"] == 15  # 3 turns × 5 tokens


def test_self_verification_spec_errors() -> None:
    with pytest.raises(lf.ConfigError, match="selfverify"):
        lf.load_model("selfverify:oracle")
    with pytest.raises(lf.ConfigError, match="'feedback'"):
        lf.load_model("selfverify:1:maybe:always-sat")


def test_common_model_spec_guesses_work_or_say_what_to_write(monkeypatch, tmp_path) -> None:
    """`--model openai:gpt-4o` was told to use openai-compatible:, and a bare URL got
    "unknown model 'http'"."""
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    m = lf.load_model("openai:gpt-4o;timeout=5")
    assert (m.url, m.name, m.timeout) == ("https://api.openai.com/v1/chat/completions", "gpt-4o", 5)
    assert lf.load_model("openai:http://127.0.0.1:8000/v1:x").url.startswith("http://127.0.0.1")
    for spec in ("http://127.0.0.1:8000/v1", "https://example.org/v1;timeout=3"):
        with pytest.raises(lf.ConfigError, match="openai-compatible:http.*<model name>.*curl"):
            lf.load_model(spec)
    items = lf.render(lf.generate("ksat/random", {"n_vars": 4}, count=2, seed=0))
    with FakeServer() as srv:  # OPENAI_BASE_URL, as OpenAI's SDK reads it
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        c = lf.run(items, "openai:m", tmp_path / "r.jsonl")
    assert c["errors"] == 0 and srv.requests == 2
