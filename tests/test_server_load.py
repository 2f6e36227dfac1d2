"""One client doing its worst to ``serve-verify`` — a ``/generate`` far too large, 1,100 idle
half-sent connections under ``ulimit -n 1024``, a body that trickles, JSON nested 100,000 deep —
while ``/health`` is asked every second and must answer each time.

Before the guard, the ``/generate`` alone left ``/health`` unanswered for over 3 minutes (the
generation held the interpreter), and the idle connections exhausted the descriptors."""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil
import pytest

CLIENT_FDS = 1400  # the test's own sockets: 1,100 idle ones and the rest


def _start(tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    pf = tmp_path / "port.json"

    def limit() -> None:  # the common default a server runs under
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    proc = subprocess.Popen(
        [sys.executable, "-m", "logicforge", "serve-verify", "--port", "0", "--port-file",
         str(pf), "--generate-timeout", "4", "--header-timeout", "5", "--body-timeout", "3"],
        preexec_fn=limit, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not pf.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"serve-verify did not start: {proc.communicate()[1][-2000:]}")
        time.sleep(0.1)
    return proc, f"http://127.0.0.1:{json.loads(pf.read_text())['port']}"


def _post(url: str, body: bytes, timeout: float = 30) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _raw(port: int, data: bytes) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(data)
    return s


@pytest.mark.slow
def test_health_answers_every_second_while_a_client_does_its_worst(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < CLIENT_FDS:  # the client's side needs more descriptors than the server has
        want = CLIENT_FDS if hard == resource.RLIM_INFINITY else min(hard, CLIENT_FDS)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= CLIENT_FDS, "raise the hard ulimit -n"
    proc, url = _start(tmp_path)
    port = int(url.rsplit(":", 1)[1])
    polls: list[tuple[float, int | str]] = []
    stop = threading.Event()

    def poll_health() -> None:
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=1.5) as r:
                    polls.append((time.monotonic() - t0, r.status))
            except Exception as e:  # noqa: BLE001 - any failure is what the test counts
                polls.append((time.monotonic() - t0, type(e).__name__))
            stop.wait(max(0.0, 1.0 - (time.monotonic() - t0)))

    results: dict[str, Any] = {}

    def huge_generate() -> None:
        body = {"family": "ksat/random", "params": {"n_vars": 1_000_000}, "count": 1}
        t0 = time.monotonic()
        results["generate"] = (*_post(f"{url}/generate", json.dumps(body).encode(), 60),)
        results["generate_s"] = time.monotonic() - t0

    idle: list[socket.socket] = []
    health = threading.Thread(target=poll_health)
    gen = threading.Thread(target=huge_generate)
    try:
        health.start()
        gen.start()
        for _ in range(1100):  # half-sent heads, never finished
            with contextlib.suppress(OSError):  # an evicted connection is the guard at work
                idle.append(_raw(port, b"POST /verify HTTP/1.1\r\nHost: x\r\nContent-Le"))
        opened = len(idle)
        deep = b"[" * 100_000 + b"]" * 100_000
        results["deep"] = _post(f"{url}/verify", deep)
        nested = json.dumps({"requests": [{"item": {"x": json.loads("[" * 70 + "]" * 70)}}]})
        results["nested"] = _post(f"{url}/verify", nested.encode())
        slow = _raw(port, b"POST /verify HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
        t0 = time.monotonic()
        slow.settimeout(20)
        results["slow"] = (slow.recv(200).split(b"\r\n")[0], time.monotonic() - t0)
        slow.close()
        gen.join(60)
        time.sleep(1.5)
    finally:
        stop.set()
        health.join(10)
        rss = psutil.Process(proc.pid).memory_info().rss
        ok = _post(f"{url}/generate", b'{"family": "ksat/random", "count": 2}')
        for s in idle:
            s.close()
        proc.terminate()
        proc.wait(30)
    status, err = results["generate"]
    assert status == 400 and ("time limit" in err["error"] or "too costly" in err["error"]), err
    assert results["generate_s"] < 15
    assert results["deep"][0] == 400 and "deeper" in results["deep"][1]["error"]
    assert results["nested"][0] == 400 and "deeper" in results["nested"][1]["error"]
    assert results["slow"][0].startswith(b"HTTP/1.1 400"), results["slow"]
    assert opened >= 1000  # the connections were made: more than the server's descriptors
    assert len(polls) >= 8, polls
    assert all(s == 200 for _, s in polls), polls  # every second, an answer
    assert rss < 400 * 2**20, rss  # generation ran elsewhere; the server stayed small
    assert ok[0] == 200 and len(ok[1]["items"]) == 2  # a stopped worker was replaced


def test_a_half_sent_request_is_closed_after_the_header_timeout() -> None:
    from logicforge.serve_verify import InThread

    with InThread(header_timeout=0.5) as srv:
        s = _raw(srv.port, b"GET /health HTTP/1.1\r\nHo")
        s.settimeout(10)
        t0 = time.monotonic()
        assert s.recv(100) == b""  # closed by the server, no answer
        assert time.monotonic() - t0 < 5
        assert srv.guard.timed_out >= 1


def test_at_the_cap_the_oldest_idle_connection_makes_room() -> None:
    from logicforge.serve_verify import InThread

    with InThread(max_connections=4) as srv:
        idle = [_raw(srv.port, b"GET /hea") for _ in range(4)]
        with urllib.request.urlopen(f"{srv.url}/health", timeout=5) as r:
            assert r.status == 200
        assert srv.guard.evicted >= 1 and len(srv.guard.open) <= 4
        for s in idle:
            s.close()


def test_server_options_fail_before_listening() -> None:
    from logicforge.errors import ConfigError
    from logicforge.serve_verify import make_app

    for bad in ({"generate_timeout": 0}, {"max_connections": 0}, {"generate_memory_mb": -1}):
        with pytest.raises(ConfigError, match=next(iter(bad))):
            make_app(**bad)


def test_serve_refuses_malformed_requests_with_a_400() -> None:
    """`serve` answered 500 to a non-object response_format and to deep JSON, and took a
    dict as `stop`."""
    from logicforge.models.base import load_model
    from logicforge.serve import make_app
    from logicforge.serve_verify import InThread

    msgs = [{"role": "user", "content": "hi"}]
    cases = [
        ({"messages": msgs, "response_format": "json"}, "response_format"),
        (
            {"messages": msgs, "response_format": {"type": "json_schema", "json_schema": 3}},
            "schema",
        ),
        ({"messages": msgs, "stop": {"a": 1}}, "stop"),
        ({"messages": msgs, "temperature": "hot"}, "temperature"),
        ({"messages": msgs, "max_tokens": -5}, "max_tokens"),
        ({"messages": [{"role": "wizard", "content": "x"}]}, "role"),
        ({"messages": "hi"}, "messages"),
    ]
    with InThread(app=make_app(load_model("always-sat"))) as srv:
        url = f"{srv.url}/v1/chat/completions"
        for body, word in cases:
            status, err = _post(url, json.dumps(body).encode())
            assert status == 400 and word in err["error"]["message"], (body, err)
        status, err = _post(url, b"[" * 100_000 + b"]" * 100_000)
        assert status == 400 and "deeper" in err["error"]["message"]
