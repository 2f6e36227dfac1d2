"""The Ray executor on a local 2-CPU cluster: the same bytes as the local executor for
generation, and a run that survives a killed worker without losing or duplicating a record."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

import logicforge as lf
from logicforge.runner.store import write_jsonl

from .fakeserver import FakeServer

ray = pytest.importorskip("ray", reason="installed by `make test` via the [test] extra")

STABLE = ("record_id", "item_id", "model", "sample", "text", "answer", "verdict", "meta")


@pytest.fixture(scope="module", autouse=True)
def cluster():
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _stable(path) -> list[tuple]:
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    return [tuple(json.dumps(r[k], sort_keys=True) for k in STABLE) for r in rows]


@pytest.mark.parametrize(
    "family, params",
    [("ksat/random", {"n_vars": 20, "alpha": 4.26}), ("zebra", {"n_houses": 4, "n_attributes": 3})],
)
def test_ray_generation_is_byte_identical_to_local(tmp_path, family: str, params: dict) -> None:
    a = lf.generate(family, params, count=150, seed=3)
    b = lf.generate(family, params, count=150, seed=3, executor="ray")
    write_jsonl(tmp_path / "a.jsonl", a)
    write_jsonl(tmp_path / "b.jsonl", b)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_ray_shards_grow_with_the_count_and_keep_the_bytes() -> None:
    """On Ray a large count goes in shards of up to 256 (eight per CPU at least), a small one in
    shards of 64; the lines are the local executor's either way."""
    from logicforge.families.base import _plan, generate_lines
    from logicforge.registry import FAMILIES

    fam, params = "ksat/random", {"n_vars": 5, "alpha": 2.0}
    _, n_big = _plan(fam, FAMILIES.get(fam), [params], 3000, 1, 1, "ray")
    _, n_small = _plan(fam, FAMILIES.get(fam), [params], 300, 1, 1, "ray")
    assert (n_big, n_small) == (-(-3000 // 187), -(-300 // 64))  # 3000 // (8 · 2 CPUs) = 187
    local = list(generate_lines(fam, params, 3000, seed=1))
    assert list(generate_lines(fam, params, 3000, seed=1, executor="ray")) == local


def test_ray_remote_function_is_made_once_per_shard_function() -> None:
    """A second generation on the same cluster reuses the first one's remote function (each new
    one is exported to the cluster again) and gives the same lines."""
    from logicforge import executor
    from logicforge.families.base import _shard_lines, generate_lines

    fam, params = "ksat/random", {"n_vars": 5, "alpha": 2.0}
    first = list(generate_lines(fam, params, 200, seed=2, executor="ray"))
    task = executor._REMOTE[_shard_lines]
    assert list(generate_lines(fam, params, 200, seed=2, executor="ray")) == first
    assert executor._REMOTE[_shard_lines] is task


def _kill_one_shard_worker(stop: threading.Event, killed: list[int]) -> None:
    import psutil

    while not stop.is_set() and not killed:
        for p in psutil.process_iter(["pid", "cmdline"]):
            cmd = " ".join(p.info.get("cmdline") or [])
            if "_eval_shard" in cmd:
                os.kill(p.info["pid"], signal.SIGKILL)
                killed.append(p.info["pid"])
                return
        time.sleep(0.02)


def test_ray_run_survives_a_killed_worker(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 3.0}, count=120, seed=9))
    write_jsonl(tmp_path / "items.jsonl", items)
    with FakeServer(delay=0.03) as srv:
        spec = f"openai-compatible:{srv.base_url}:fake"
        lf.run(items, spec, tmp_path / "local.jsonl", concurrency=8)
        stop, killed = threading.Event(), []
        killer = threading.Thread(target=_kill_one_shard_worker, args=(stop, killed))
        killer.start()
        try:
            c = lf.run(items, spec, tmp_path / "ray.jsonl", concurrency=8, executor="ray")
        finally:
            stop.set()
            killer.join(10)
    assert killed, "no shard worker was found to kill"
    assert c["total"] == len(items) and c["errors"] == 0
    assert (tmp_path / "ray.jsonl").read_bytes().count(b"\n") == len(items)
    assert _stable(tmp_path / "ray.jsonl") == _stable(tmp_path / "local.jsonl")


def test_ray_run_uses_the_drivers_cache_and_error_budget(tmp_path) -> None:
    """Cache hits are scored at the driver and never shipped; worker responses are cached;
    past --max-errors the Ray run stops with the local run's message and keeps every record."""
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=40, seed=4))
    cache = tmp_path / "cache.sqlite"
    with FakeServer() as srv:
        spec = f"openai-compatible:{srv.base_url}:fake"
        a = lf.run(items, spec, tmp_path / "a.jsonl", executor="ray", cache_path=cache)
        assert a["done"] == 40 and a["cached"] == 0 and srv.requests == 40
        b = lf.run(items, spec, tmp_path / "b.jsonl", executor="ray", cache_path=cache)
        assert b["done"] == 40 and b["cached"] == 40 and srv.requests == 40  # nothing shipped
        assert _stable(tmp_path / "a.jsonl") == _stable(tmp_path / "b.jsonl")
    with FakeServer() as srv:
        srv.default_script = ["500"]
        srv.sticky.update(it.messages[-1].content for it in items)
        spec = f"openai-compatible:{srv.base_url}:down;max_retries=0"
        with pytest.raises(lf.ModelError, match="error budget: 3"):
            lf.run(items, spec, tmp_path / "c.jsonl", executor="ray", max_errors=3)
    kept = (tmp_path / "c.jsonl").read_text().splitlines()
    assert 3 < len(kept) < 40 and all(json.loads(x)["error"] for x in kept)
