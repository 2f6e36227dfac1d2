"""Hostile servers, a run's error budget, and concurrent use of one results store.

Every server here is a real HTTP server on 127.0.0.1 (``tests/fakeserver.py``), bounded in time.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import pytest

import logicforge as lf
from logicforge.models.base import Prompt, Sampling
from logicforge.models.openai_compat import OpenAICompatModel
from logicforge.runner.store import RecordStore

from .fakeserver import FakeServer

# behaviour → (sticky?, what the record must show)
HOSTILE = {
    "drip": (True, "timed out"),
    "huge": (True, "over 16 MiB"),
    "badutf8": (True, "malformed"),
    "html200": (True, "malformed"),
    "surrogate": (False, None),
    "wrongtype": (False, None),
    "close": (False, None),  # dropped once, then answered
    "500": (False, None),
    "stall": (False, None),
}


def _records(path) -> dict[str, dict]:
    return {r["item_id"]: r for r in map(json.loads, path.read_text().splitlines())}


def test_every_hostile_behaviour_ends_in_a_record_not_a_crash(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=9, seed=2))
    plan = dict(zip((it.item_id for it in items), HOSTILE, strict=True))
    t0 = time.monotonic()
    with FakeServer(stall_s=1.5) as srv:
        for it in items:
            action = plan[it.item_id]
            sticky, _ = HOSTILE[action]
            prompt = it.messages[-1].content
            srv.scripts[prompt] = [action]
            if sticky:
                srv.sticky.add(prompt)
        m = OpenAICompatModel(srv.base_url, "m", timeout=1.0, max_retries=1, backoff=0.01)
        c = lf.run(items, m, tmp_path / "r.jsonl", concurrency=9)
        faults = dict(srv.faults)
    assert time.monotonic() - t0 < 30
    recs = _records(tmp_path / "r.jsonl")
    assert c["total"] == len(items) == len(recs)
    for it in items:
        action = plan[it.item_id]
        r = recs[it.item_id]
        want = HOSTILE[action][1]
        if want is None:
            assert r["error"] is None and r["verdict"] is not None, (action, r["error"])
        else:
            assert want in (r["error"] or ""), (action, r["error"])
    sur = next(r for i, r in recs.items() if plan[i] == "surrogate")
    assert "\ufffd" in sur["text"]  # a lone surrogate is replaced, the record still written
    assert (
        faults["close"] == 1 and faults["drip"] == 2 and faults["huge"] == 1
    )  # huge: refused, not retried


@pytest.mark.parametrize("status", ["401", "403"])
def test_refused_credentials_fail_fast(small_items, tmp_path, status: str) -> None:
    with FakeServer() as srv:
        srv.default_script = [status]
        m = OpenAICompatModel(srv.base_url, "m", max_retries=5, backoff=0.01)
        with pytest.raises(lf.ModelError, match=f"HTTP {status}"):
            lf.run(small_items, m, tmp_path / "r.jsonl", concurrency=4)
        assert srv.requests <= 4  # at most one request per worker, no retry storm


def test_a_flood_of_429s_stops_cleanly_at_the_error_budget_then_resumes(
    small_items, tmp_path
) -> None:
    out = tmp_path / "r.jsonl"
    with FakeServer() as srv:
        srv.default_script = ["429"]
        for it in small_items:
            srv.sticky.add(it.messages[-1].content)
        m = OpenAICompatModel(srv.base_url, "m", max_retries=2, backoff=0.01)
        t0 = time.monotonic()
        with pytest.raises(lf.ModelError, match="error budget: 2"):
            lf.run(small_items, m, out, concurrency=2, max_errors=2)
        assert time.monotonic() - t0 >= 2 * 0.05  # Retry-After (0.05 s) was waited each time
        errs = len(_records(out))
        assert 3 <= errs <= 4 and srv.faults["429"] == 3 * errs  # 3 attempts each, then stop
        srv.sticky.clear()
        srv.default_script = []
        srv.seen.clear()
        c = lf.run(small_items, m, out, retry_errors=True)
    recs = _records(out)
    assert c["errors"] == 0 and len(recs) == len(small_items)
    assert all(r["error"] is None for r in recs.values())


def test_a_second_writer_is_refused_with_a_clear_message(small_items, tmp_path) -> None:
    out = tmp_path / "r.jsonl"
    first = RecordStore(out)
    try:
        with pytest.raises(lf.DataFileError, match="another logicforge run is writing"):
            RecordStore(out)
        code = (
            "import logicforge as lf, sys\n"
            "try:\n    lf.run([], 'random', sys.argv[1])\n"
            "except lf.DataFileError as e:\n    print(e); sys.exit(3)\n"
        )
        p = subprocess.run(
            [sys.executable, "-c", code, str(out)], capture_output=True, text=True, timeout=60
        )
        assert p.returncode == 3 and "another logicforge run" in p.stdout
    finally:
        first.release()
    lf.run(small_items[:2], "random", out)  # free again once the first writer is gone
    assert len(_records(out)) == 2


def test_the_cache_tolerates_concurrent_writers_and_readers(small_items, tmp_path) -> None:
    cache = tmp_path / "c.sqlite"
    code = (
        "import logicforge as lf, sys\n"
        "from logicforge.runner.cache import ResponseCache\n"
        "from logicforge.models.base import Response\n"
        "c = ResponseCache(sys.argv[1], commit_every_s=0.0)\n"
        "for i in range(300):\n"
        "    c.put(f'{sys.argv[2]}-{i}', Response(text=str(i)))\n"
        "    assert c.get(f'{sys.argv[2]}-{i // 2}') is not None\n"
        "c.close()\n"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(cache), tag]) for tag in ("a", "b", "c")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    from logicforge.runner.cache import ResponseCache

    c = ResponseCache(cache)
    assert all(c.get(f"{t}-{i}") is not None for t in "abc" for i in range(300))
    c.close()


def test_odd_reply_shapes_are_records_never_a_crash(tmp_path) -> None:
    """A content-parts list is read (its text parts joined); an int content is a malformed,
    retried error record; a non-string finish_reason and non-numeric or infinite usage counts
    are ignored. Any of these used to end the run for good."""
    shapes = {  # behaviour → (sticky?, error expected)
        "content-parts": (False, None),
        "content-int": (True, "malformed"),
        "finish-int": (False, None),
        "usage-bad": (False, None),
        "error-200": (True, "error in a 200 reply"),
    }
    items = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=5, seed=5))
    plan = dict(zip((it.item_id for it in items), shapes, strict=True))
    with FakeServer() as srv:
        for it in items:
            prompt = it.messages[-1].content
            srv.scripts[prompt] = [plan[it.item_id]]
            if shapes[plan[it.item_id]][0]:
                srv.sticky.add(prompt)
        m = OpenAICompatModel(srv.base_url, "m", timeout=2.0, max_retries=1, backoff=0.01)
        lf.run(items, m, tmp_path / "r.jsonl", concurrency=4)
        lf.run(items, m, tmp_path / "r.jsonl", concurrency=4)  # a resume does not crash either
    recs = _records(tmp_path / "r.jsonl")
    for it in items:
        r, want = recs[it.item_id], shapes[plan[it.item_id]][1]
        if want is None:
            assert r["error"] is None and r["verdict"] is not None, (plan[it.item_id], r)
        else:
            assert want in (r["error"] or ""), r
    parts = next(r for i, r in recs.items() if plan[i] == "content-parts")
    assert parts["answer"]["label"] in ("SAT", "UNSAT")
    odd = next(r for i, r in recs.items() if plan[i] == "usage-bad")
    assert odd["usage"]["prompt_tokens"] is None and odd["usage"]["completion_tokens"] is None


@pytest.mark.parametrize(
    "opt",
    [
        "timeout=nan",
        "timeout=inf",
        "backoff=nan",
        "max_body_mb=nan",
        "max_body_mb=inf",
        "max_retry_after=inf",
        "cooldown=-1",
    ],  # fmt: skip
)
def test_non_finite_or_negative_client_options_fail_naming_the_option(opt: str) -> None:
    with pytest.raises(lf.ConfigError, match=opt.split("=")[0]):
        lf.load_model(f"openai-compatible:http://127.0.0.1:9/v1:m;{opt}")


@pytest.mark.parametrize("value", ["-5", "nan", "NaN", "Mon, 01 Jan 2001 00:00:00 GMT", "soon"])
def test_an_invalid_retry_after_gets_the_normal_back_off(value: str) -> None:
    """Retry-After of −5, NaN, a past date or junk used to mean "retry at once" (18 requests in
    0.7 s); it is treated as absent, so the client's own back-off applies and is counted."""
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=1, seed=0))
    with FakeServer() as srv:
        srv.default_script = [f"429:{value}"] * 3
        m = OpenAICompatModel(srv.base_url, "m", timeout=2.0, max_retries=3, backoff=0.1)
        r = asyncio.run(m.generate(Prompt.of(items[0]), Sampling(), 0))
        asyncio.run(m.aclose())
    assert r.error is None and srv.requests == 4
    assert m.waited_s >= 0.5 * (0.1 + 0.2 + 0.4)  # three jittered back-offs, none skipped


@pytest.mark.parametrize("value", ["inf", "1000000000", "Fri, 31 Dec 9999 23:59:59 GMT"])
def test_an_endless_retry_after_is_bounded_by_the_wait_budgets(value: str, tmp_path) -> None:
    """Retry-After: inf / 10⁹ / year 9999 used to hold one item for minutes and a run for hours;
    each wait is capped and counted against a per-request and a per-run budget."""
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=6, seed=0))
    with FakeServer() as srv:
        srv.default_script = [f"429:{value}"]
        srv.sticky.update(it.messages[-1].content for it in items)
        m = OpenAICompatModel(
            srv.base_url, "m", timeout=2.0, max_retries=50, backoff=0.05, max_backoff=0.05,
            max_retry_after=0.05, max_item_wait=0.12, max_total_wait=0.4,
        )  # fmt: skip
        lf.run(items, m, tmp_path / "r.jsonl", concurrency=1)
    recs = list(_records(tmp_path / "r.jsonl").values())
    errors = [r["error"] or "" for r in recs]
    assert len(recs) == 6 and all("gave up" in e for e in errors), errors
    assert any("max_item_wait" in e for e in errors) and any("max_total_wait" in e for e in errors)
    assert m.waited_s <= 0.4 + 1e-9 and srv.requests < 6 * 4


def test_the_progress_line_shows_the_retry_waits() -> None:
    from logicforge.runner.progress import Progress

    p = Progress(10, "m", enabled=False, note=lambda: "waited 42 s to retry")
    assert p.line().endswith("· waited 42 s to retry")


def test_a_resume_with_another_configuration_is_refused(tmp_path) -> None:
    """record_id is (item, model name, sample): rerunning the same records file with other
    sampling, another endpoint or structured output used to print "0 new records" and keep the
    old answers. Records now carry their configuration and a different one is refused."""
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=3, seed=0))
    rec = tmp_path / "r.jsonl"
    with FakeServer() as a, FakeServer() as b:
        m = OpenAICompatModel(a.base_url, "m", timeout=2.0)
        assert lf.run(items, m, rec)["done"] == 3
        before = rec.read_bytes()
        for model, sampling, what in (
            (OpenAICompatModel(a.base_url, "m"), Sampling(temperature=0.7), "temperature"),
            (OpenAICompatModel(a.base_url, "m"), Sampling(structured=True), "structured"),
            (OpenAICompatModel(b.base_url, "m"), Sampling(), "endpoint"),
            (OpenAICompatModel(a.base_url, "m"), Sampling(max_tokens=99), "max_tokens"),
        ):
            with pytest.raises(lf.ConfigError, match=f"another configuration.*{what}"):
                lf.run(items, model, rec, sampling=sampling)
            assert rec.read_bytes() == before  # nothing mixed in, nothing lost
        again = lf.run(items, OpenAICompatModel(a.base_url, "m"), rec)  # the same: resumes
        assert again["done"] == 0 and again["total"] == 3
        other = OpenAICompatModel(a.base_url, "m", name="m-hot")  # its own name: kept apart
        assert lf.run(items, other, rec, sampling=Sampling(temperature=0.7))["done"] == 3
    cfgs = {r["model"]: r["config"] for r in map(json.loads, rec.read_text().splitlines())}
    assert cfgs["m"]["temperature"] == 0.0 and cfgs["m-hot"]["temperature"] == 0.7
    assert cfgs["m"]["endpoint"].startswith(a.base_url)


RAW_BODIES = {  # body → what the record must show ("" = an answer, no error)
    "200:" + json.dumps({"choices": [{"message": {"content": True}}]}): "malformed",
    "200:" + json.dumps({"choices": [{"message": {"content": {"text": "SAT"}}}]}): "malformed",
    "200:" + json.dumps({"choices": []}): "no choices",
    "200:" + json.dumps({"choices": None}): "malformed",
    "200:" + json.dumps({"choices": "SAT"}): "no choices",
    "200:" + json.dumps({"choices": [None]}): "not an object",
    "200:" + json.dumps({"choices": [{"message": "SAT"}]}): "not an object",
    "200:" + json.dumps({"choices": [{"message": {}}]}): "no message content",
    "200:[1, 2, 3]": "malformed",
    "200:null": "malformed",
    "200:": "malformed",
    "200:"
    + json.dumps(
        {"choices": [{"message": {"content": "SAT"}, "finish_reason": None}], "usage": [1]}
    ): "",
    "200:"
    + json.dumps(
        {"choices": [{"message": {"content": "SAT"}}], "usage": {"prompt_tokens": -4}}
    ): "",
    "400:" + json.dumps({"error": {"message": "context length exceeded"}}): "HTTP 400",
    "404:<html>not here</html>": "HTTP 404",
    "422:" + "x" * 5000: "HTTP 422",
}


@pytest.mark.parametrize("body", list(RAW_BODIES))
def test_malformed_bodies_end_in_a_record(body: str, tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=1, seed=0))
    with FakeServer() as srv:
        srv.default_script = [f"raw:{body}"]
        srv.sticky.add(items[0].messages[-1].content)
        m = OpenAICompatModel(srv.base_url, "m", timeout=2.0, max_retries=1, backoff=0.01)
        lf.run(items, m, tmp_path / "r.jsonl")
        lf.run(items, m, tmp_path / "r.jsonl", retry_errors=True)  # a resume does not crash
    (r,) = _records(tmp_path / "r.jsonl").values()
    want = RAW_BODIES[body]
    if want:
        assert want in (r["error"] or ""), r["error"]
        assert len(r["error"]) < 400  # a long body is cut in the error
    else:
        assert r["error"] is None and r["answer"]["label"] == "SAT", r


def test_a_dead_endpoint_is_loud_and_a_rerun_retries(tmp_path, capsys) -> None:
    """A run against a dead URL used to return {'done': 30, 'errors': 30} silently, exit 0,
    report accuracy 0.000 and never retry."""
    from logicforge.cli import main
    from logicforge.metrics.aggregate import aggregate, row_of

    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=3, seed=0))
    (tmp_path / "items.jsonl").write_text("".join(it.model_dump_json() + "\n" for it in items))
    rec = tmp_path / "r.jsonl"
    argv = ["run", "--items", str(tmp_path / "items.jsonl"), "--records", str(rec), "--no-cache"]
    dead = "openai-compatible:http://127.0.0.1:9/v1:m;max_retries=0;timeout=1"
    assert main([*argv, "--model", dead, "--quiet"]) == 2  # stopped: the endpoint is down
    err = capsys.readouterr().err
    assert "the endpoint is down or the URL is wrong" in err and "curl" in err
    dead += ";dead_after=0"  # never stopped: every item tried and recorded as an error
    assert main([*argv, "--model", dead, "--quiet"]) == 3
    err = capsys.readouterr().err
    assert "3 of 3 new records ended in an error" in err and "connection error" in err
    rows = aggregate([row_of(json.loads(x)) for x in rec.read_text().splitlines()])
    assert rows[0]["n"] == 0 and rows[0]["errors"] == 3 and rows[0]["accuracy"] is None
    assert main([*argv, "--model", dead, "--quiet", "--allow-errors"]) == 0  # allowed
    assert "3 of 3 new records" in capsys.readouterr().err  # … and retried, not kept
    rec2 = tmp_path / "r2.jsonl"
    argv2 = [*argv[:-3], "--records", str(rec2), "--no-cache"]
    with FakeServer() as srv:  # an outage, then the same endpoint answers again
        live = f"openai-compatible:{srv.base_url}:m;max_retries=0"
        srv.default_script = ["500"]
        srv.sticky.update(it.messages[-1].content for it in items)
        assert main([*argv2, "--model", live, "--quiet"]) == 3
        srv.sticky.clear()
        srv.default_script = []
        srv.seen.clear()
        assert main([*argv2, "--model", live, "--quiet"]) == 0
    done = [json.loads(x) for x in rec2.read_text().splitlines()]
    assert len(done) == 3 and all(r["error"] is None for r in done)


def test_serve_answers_for_baselines_with_items_and_says_why_without(tmp_path) -> None:
    """`serve --model random` answered HTTP 500 on every request."""
    import threading

    from aiohttp import web

    from logicforge.models.base import load_model
    from logicforge.serve import make_app

    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=2, seed=0))
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    port: list[int] = []

    async def start() -> web.AppRunner:
        runner = web.AppRunner(make_app(load_model("oracle"), items), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port.append(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        return runner

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        ready.set()
        loop.run_forever()

    threading.Thread(target=serve, daemon=True).start()
    assert ready.wait(10)
    try:
        m = OpenAICompatModel(f"http://127.0.0.1:{port[0]}/v1", "oracle", max_retries=0)
        lf.run(items, m, tmp_path / "r.jsonl")
        recs = list(_records(tmp_path / "r.jsonl").values())
        assert all(r["error"] is None and r["verdict"]["correct"] for r in recs), recs
        other = Prompt((items[0].messages[0].model_copy(update={"content": "hello?"}),), key="x")
        r = asyncio.run(m.generate(other, Sampling(), 0))
        assert r.error and "HTTP 400" in r.error and "--items" in r.error
        asyncio.run(m.aclose())
    finally:
        loop.call_soon_threadsafe(loop.stop)


def test_processes_opening_an_old_cache_file_at_once_migrate_it_once(tmp_path) -> None:
    import sqlite3

    cache = tmp_path / "old.sqlite"
    db = sqlite3.connect(cache)
    db.execute(
        "CREATE TABLE responses (key TEXT PRIMARY KEY, text TEXT, finish_reason TEXT,"
        " prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL)"
    )
    db.execute("INSERT INTO responses VALUES ('old', 'SAT', 'stop', 1, 1, 0.1)")
    db.commit()
    db.close()
    code = (
        "import sys\n"
        "from logicforge.runner.cache import ResponseCache\n"
        "c = ResponseCache(sys.argv[1])\n"
        "assert c.get('old').text == 'SAT'\n"
        "c.close()\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(cache)]) for _ in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    db = sqlite3.connect(cache)
    cols = [row[1] for row in db.execute("PRAGMA table_info(responses)")]
    db.close()
    assert cols.count("more") == 1
