"""A dead endpoint is found in seconds: a closed port (or a wrong path answering 404) stops that
model after ``dead_after`` failed first attempts, with one message saying what failed and how
to check the endpoint; the run's other models go on. (Every item retried 6 times: 30 items took
49.5 s, 1,000 would have taken about 25 minutes.)"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest

import logicforge as lf
from logicforge.errors import EndpointDown
from logicforge.runner.store import write_jsonl

from .fakeserver import FakeServer


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again on leaving: nothing listens there


def test_a_closed_port_stops_the_model_within_seconds(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=1000, seed=0), "formula")
    spec = f"openai-compatible:http://127.0.0.1:{_closed_port()}/v1:m"
    t0 = time.monotonic()
    with pytest.raises(EndpointDown, match=r"curl http://127\.0\.0\.1:\d+/v1/models"):
        lf.run(items, spec, tmp_path / "r.jsonl", progress=False)
    assert time.monotonic() - t0 < 10


def test_a_wrong_path_answering_404_stops_the_model(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=50, seed=0), "formula")
    with FakeServer() as srv:
        spec = f"openai-compatible:http://127.0.0.1:{srv.port}/nope:m"
        with pytest.raises(EndpointDown, match="HTTP 404"):
            lf.run(items, spec, tmp_path / "r.jsonl", progress=False)


def test_two_models_one_dead_finishes_the_live_one(tmp_path) -> None:
    ps = lf.generate("ksat/random", {"n_vars": 5}, count=40, seed=0)
    write_jsonl(tmp_path / "items.jsonl", lf.render(ps, "formula"))
    dead = f"openai-compatible:http://127.0.0.1:{_closed_port()}/v1:dead"
    with FakeServer() as srv:
        live = f"openai-compatible:{srv.base_url}:live"
        t0 = time.monotonic()
        p = subprocess.run(
            [sys.executable, "-m", "logicforge", "run", "--items", "items.jsonl", "--records",
             "r.jsonl", "--no-cache", "--quiet", "--model", dead, "--model", live],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
        )  # fmt: skip
    assert time.monotonic() - t0 < 60
    assert p.returncode == 2, p.stderr
    assert "'dead'" in p.stderr and "curl" in p.stderr and "stopped 1 of 2" in p.stderr
    models = [json.loads(line)["model"] for line in (tmp_path / "r.jsonl").open()]
    assert models.count("live") == 40 and "dead" not in models


def test_dead_after_is_a_checked_option() -> None:
    with pytest.raises(lf.ConfigError, match="dead_after"):
        lf.load_model("openai-compatible:http://127.0.0.1:9/v1:m;dead_after=-1")
