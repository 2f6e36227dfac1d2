"""Provider batch backends (openai-batch, anthropic-batch) against a real HTTP server on
127.0.0.1 that implements both documented APIs: a whole suite, a kill between submit and
collect, partial failures, expired batches, a lost create reply."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.runner.store import write_jsonl

from .fakebatch import FakeBatchServer
from .fakeserver import reply_for

KINDS = ["openai-batch", "anthropic-batch"]


def _spec(kind: str, srv: FakeBatchServer, state: Path, **opts: object) -> str:
    extra = "".join(f";{k}={v}" for k, v in opts.items())
    return f"{kind}:{srv.url}:tiny-model;state={state};poll=0.05;window=0.2{extra}"


def _items(n: int = 12) -> list[lf.Item]:
    ps = lf.generate("ksat/random", {"n_vars": 5, "alpha": 4.26}, count=n, seed=11)
    return lf.render(ps, "formula")


def _records(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


@pytest.mark.parametrize("kind", KINDS)
def test_a_run_goes_through_one_batch_and_is_scored(tmp_path, kind) -> None:
    items = _items()
    with FakeBatchServer() as srv:
        c = lf.run(
            items, _spec(kind, srv, tmp_path / "state"), tmp_path / "r.jsonl", concurrency=64
        )
        assert (srv.creates, len(srv.requests_seen)) == (1, len(items))
        assert srv.uploads == (1 if kind == "openai-batch" else 0)
    assert c["done"] == len(items) and c["errors"] == 0
    recs = _records(tmp_path / "r.jsonl")
    by_item = {it.item_id: it for it in items}
    for r in recs:
        it = by_item[r["item_id"]]
        assert r["text"] == reply_for("\n".join(m.content for m in it.messages))
        assert r["usage"]["prompt_tokens"] == 50 and r["usage"]["completion_tokens"] == 6
        assert r["extra"]["batch_id"].split("_")[0] in ("batch", "msgbatch")
    correct = [r["verdict"]["correct"] for r in recs]
    assert any(correct) and not all(correct)  # the scripted replies are right on some only
    # the state directory says what happened
    states = [json.loads(p.read_text()) for p in (tmp_path / "state").glob("*.json")]
    assert [s["status"] for s in states] == ["collected"] and len(states[0]["requests"]) == 12


@pytest.mark.parametrize("kind", KINDS)
def test_a_whole_suite_runs_on_the_batch_backend(tmp_path, kind) -> None:
    with FakeBatchServer() as srv:
        spec = _spec(kind, srv, tmp_path / "state")
        out = subprocess.run(
            [sys.executable, "-m", "logicforge", "suite", "twosat-order", "--model", spec,
             "--count", "1", "--out", str(tmp_path / "suite"), "--quiet", "--concurrency", "256"],
            capture_output=True, text=True, timeout=300, cwd=tmp_path,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-2000:]
        assert srv.creates >= 1
    recs = _records(tmp_path / "suite" / "records.jsonl")
    assert recs and all(r["error"] is None for r in recs)
    assert len(srv.requests_seen) == len({r["record_id"] for r in recs})
    assert (tmp_path / "suite" / "report" / "report.html").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_sigkill_between_submit_and_collect_does_not_resubmit(tmp_path, kind) -> None:
    items = _items(10)
    write_jsonl(tmp_path / "items.jsonl", items)
    state = tmp_path / "state"
    with FakeBatchServer() as srv:
        srv.hold.clear()  # the batch stays in progress: the run is polling when it is killed
        cmd = [sys.executable, "-m", "logicforge", "run", "--items", str(tmp_path / "items.jsonl"),
               "--model", _spec(kind, srv, state), "--records", str(tmp_path / "r.jsonl"),
               "--quiet", "--concurrency", "64"]  # fmt: skip
        proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path
        )
        try:
            deadline = time.monotonic() + 120
            while (
                not any(json.loads(p.read_text()).get("batch_id") for p in state.glob("*.json"))
                or srv.polls < 2
            ):
                assert proc.poll() is None and time.monotonic() < deadline, "no batch submitted"
                time.sleep(0.05)
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(30)
        assert srv.creates == 1
        assert not (tmp_path / "r.jsonl").exists() or not _records(tmp_path / "r.jsonl")
        srv.hold.set()
        out = subprocess.run(
            cmd, capture_output=True, text=True, timeout=120, cwd=tmp_path
        )  # the same command
        assert out.returncode == 0, out.stderr[-2000:]
        assert srv.creates == 1 and len(srv.requests_seen) == 10  # polled, not paid twice
    recs = _records(tmp_path / "r.jsonl")
    assert sorted(r["item_id"] for r in recs) == sorted(it.item_id for it in items)


@pytest.mark.parametrize("kind", KINDS)
def test_partial_failures_and_expired_requests_are_errors_then_retried(tmp_path, kind) -> None:
    items = _items(12)
    texts = {it.item_id: "\n".join(m.content for m in it.messages) for it in items}
    rejected = {iid for iid, t in texts.items() if reply_for(t + "x") == '{"answer": "SAT"}'}
    assert 0 < len(rejected) < len(items)
    with FakeBatchServer() as srv:
        srv.fail = lambda text: any(texts[i] == text for i in rejected)
        srv.expire_every = 5  # the batch expires with every fifth request unanswered
        spec = _spec(kind, srv, tmp_path / "state")
        c = lf.run(items, spec, tmp_path / "r.jsonl", concurrency=64)
        assert c["done"] == 12 and 0 < c["errors"] < 12
        recs = {r["item_id"]: r for r in _records(tmp_path / "r.jsonl")}
        errors = {i for i, r in recs.items() if r["error"] is not None}
        assert rejected <= errors
        assert any("rejected" in recs[i]["error"] for i in rejected)
        assert any(
            "expired" in recs[i]["error"] or "without" in recs[i]["error"]
            for i in errors - rejected
        )
        assert all(r["verdict"] is not None for i, r in recs.items() if i not in errors)
        # fixed on the provider's side: a rerun sends only the failed ones, in a new batch
        srv.fail, srv.expire_every = (lambda text: False), 0
        before = len(srv.requests_seen)
        c2 = lf.run(items, spec, tmp_path / "r.jsonl", concurrency=64)
        assert srv.creates == 2 and len(srv.requests_seen) - before == len(errors)
    assert c2["done"] == len(errors) and c2["errors"] == 0
    recs = {r["item_id"]: r for r in _records(tmp_path / "r.jsonl")}
    assert len(recs) == 12 and all(r["error"] is None for r in recs.values())


def test_a_lost_create_reply_is_recovered_from_the_batch_metadata(tmp_path) -> None:
    """Killed after OpenAI created the batch but before its id was written: the state file says
    ``creating``; the rerun finds the batch by the id in its metadata instead of paying again."""
    items = _items(6)
    state = tmp_path / "state"
    with FakeBatchServer() as srv:
        spec = _spec("openai-batch", srv, state)
        lf.run(items, spec, tmp_path / "first.jsonl", concurrency=64)
        assert srv.creates == 1
        (path,) = list(state.glob("*.json"))
        st = json.loads(path.read_text())
        st.update(status="creating")
        st.pop("batch_id")
        path.write_text(json.dumps(st))
        (state / f"{st['local_id']}.results.jsonl").unlink()
        srv.batches["batch_0"]["status"] = "in_progress"  # collected again from the server
        c = lf.run(items, spec, tmp_path / "second.jsonl", concurrency=64)
        assert srv.creates == 1 and c["errors"] == 0 and c["done"] == 6


def test_results_downloaded_before_a_kill_are_answered_from_disk(tmp_path) -> None:
    items = _items(5)
    with FakeBatchServer() as srv:
        spec = _spec("anthropic-batch", srv, tmp_path / "state")
        lf.run(items, spec, tmp_path / "a.jsonl", concurrency=64)
        polls, downloads = srv.polls, srv.downloads
        c = lf.run(items, spec, tmp_path / "b.jsonl", concurrency=64)  # records lost, say
        assert (srv.creates, srv.polls, srv.downloads) == (1, polls, downloads)
    assert c["done"] == 5 and c["errors"] == 0
    assert [r["text"] for r in _records(tmp_path / "a.jsonl")] == [
        r["text"] for r in _records(tmp_path / "b.jsonl")
    ]


def test_batch_specs_fail_before_work_starts(tmp_path) -> None:
    with pytest.raises(lf.ConfigError, match="poll"):
        lf.load_model(f"openai-batch:http://127.0.0.1:9/v1:m;poll=0;state={tmp_path}")
    with pytest.raises(lf.ConfigError, match="unknown option"):
        lf.load_model(f"anthropic-batch:http://127.0.0.1:9/v1:m;colour=red;state={tmp_path}")
    with pytest.raises(lf.ConfigError, match="model"):
        lf.load_model("openai-batch:127.0.0.1:9/v1")
    m = lf.load_model(f"anthropic-batch:http://127.0.0.1:9/v1:claude-x;state={tmp_path}")
    assert m.name == "claude-x" and m.cost_factor == 0.5


def test_greedy_samples_share_one_request_also_after_a_restart(tmp_path) -> None:
    items = _items(4)
    with FakeBatchServer() as srv:
        spec = _spec("openai-batch", srv, tmp_path / "state")
        c = lf.run(items, spec, tmp_path / "a.jsonl", samples=3, concurrency=64)
        assert c["done"] == 12 and len(srv.requests_seen) == 4  # greedy: one request per item
        c = lf.run(items, spec, tmp_path / "b.jsonl", samples=3, concurrency=64)
        assert c["done"] == 12 and c["errors"] == 0 and srv.creates == 1  # all from disk
        sampled = lf.Sampling(temperature=0.7)
        lf.run(items, spec, tmp_path / "c.jsonl", samples=3, sampling=sampled, concurrency=64)
        assert len(srv.requests_seen) == 4 + 12  # sampled: one request per sample


def test_an_unexpected_failure_ends_every_request_with_an_error_not_a_hang(
    tmp_path, monkeypatch
) -> None:
    from logicforge.models.batch import BatchState

    real = BatchState.write
    calls = [0]

    def flaky(self, st):  # noqa: ANN001
        calls[0] += 1
        if calls[0] == 2:  # the write of the batch id
            raise OSError(28, "No space left on device")
        real(self, st)

    monkeypatch.setattr(BatchState, "write", flaky)
    items = _items(5)
    with FakeBatchServer() as srv:
        c = lf.run(
            items,
            _spec("anthropic-batch", srv, tmp_path / "state"),
            tmp_path / "r.jsonl",
            concurrency=64,
        )
    assert c["done"] == 5 and c["errors"] == 5
    recs = _records(tmp_path / "r.jsonl")
    assert all("No space left" in r["error"] for r in recs)
