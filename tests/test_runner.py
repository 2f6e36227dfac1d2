from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import logicforge as lf
from logicforge.errors import DataFileError
from logicforge.runner.store import RecordStore, write_jsonl

from .fakeserver import FakeServer

STABLE = ("record_id", "item_id", "model", "sample", "text", "answer", "verdict", "error", "meta")


def _stable(path: Path) -> list[tuple]:
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    return sorted(tuple(json.dumps(r[k], sort_keys=True) for k in STABLE) for r in rows)


def test_resume_skips_finished(small_items, tmp_path) -> None:
    out = tmp_path / "r.jsonl"
    c1 = lf.run(small_items[:5], "random", out)
    c2 = lf.run(small_items, "random", out)
    assert (c1["done"], c2["done"], c2["total"]) == (5, len(small_items) - 5, len(small_items))
    full = tmp_path / "full.jsonl"
    lf.run(small_items, "random", full)
    assert out.read_bytes().count(b"\n") == len(small_items)
    assert _stable(out) == _stable(full)


def test_torn_tail_is_repaired(small_items, tmp_path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    lf.run(small_items[:4], "oracle", out)
    data = out.read_bytes()
    out.write_bytes(data + b'{"record_id": "half-writ')
    store = RecordStore(out)
    store.close()
    assert store.repaired and len(store) == 4 and out.read_bytes() == data
    assert "torn final record" in capsys.readouterr().err


def test_corrupt_middle_is_rejected(small_items, tmp_path) -> None:
    out = tmp_path / "r.jsonl"
    lf.run(small_items[:4], "oracle", out)
    lines = out.read_bytes().split(b"\n")
    lines[1] = b"garbage"
    out.write_bytes(b"\n".join(lines))
    with pytest.raises(DataFileError, match="middle of the file"):
        RecordStore(out)


def test_retry_errors(small_items, tmp_path) -> None:
    out = tmp_path / "r.jsonl"
    with FakeServer() as srv:
        m = lambda: lf.load_model(f"openai-compatible:{srv.base_url}:m;max_retries=0")  # noqa: E731
        srv.default_script = ["500"]
        c = lf.run(small_items[:3], m(), out)
        assert c["errors"] == 3
        srv.default_script = []
        # kept when asked to keep them; retried by default
        assert lf.run(small_items[:3], m(), out, retry_errors=False)["done"] == 0
        c = lf.run(small_items[:3], m(), out)
        assert c["done"] == 3 and c["errors"] == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 3 and all(r["error"] is None for r in rows)


KILLS = int(os.environ.get("LOGICFORGE_TORTURE_KILLS", "20"))


def test_sigkill_at_random_moments_loses_and_duplicates_nothing(tmp_path) -> None:
    """20 SIGKILLs at random moments (mid-request, mid-write, mid-scoring, mid-compaction), each
    followed by a resume; the final file equals an uninterrupted run's, record for record.
    The killed runs go at 4 requests in flight (≈ 100 items/s), so 20 of them cannot finish
    1,500 items on a fast machine; the reference run and the last resume go at 64."""
    n_items = 1500
    problems = lf.generate("ksat/random", {"n_vars": 10, "alpha": 4.26}, count=n_items, seed=8)
    items_path = tmp_path / "items.jsonl"
    write_jsonl(items_path, lf.render(problems))
    rng = np.random.default_rng(0)
    with FakeServer(delay=0.04) as srv:
        spec = f"openai-compatible:{srv.base_url}:fake"
        base = [
            sys.executable,
            "-m",
            "logicforge",
            "run",
            "--items",
            str(items_path),
            "--model",
            spec,
            "--no-cache",
            "--quiet",
            "--concurrency",
            "4",
        ]
        ref = tmp_path / "ref.jsonl"
        fast = ["--concurrency", "64"]
        subprocess.run([*base, *fast, "--records", str(ref)], check=True, timeout=120)
        out = tmp_path / "killed.jsonl"
        kills = 0
        for _ in range(KILLS):
            proc = subprocess.Popen(
                [*base, "--records", str(out)], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL
            )
            time.sleep(float(rng.uniform(0.45, 1.0)))
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
            proc.wait(timeout=30)
            if out.exists():
                # every finished line is intact; at most the last is torn
                lines = out.read_bytes().split(b"\n")
                for ln in lines[:-1]:
                    json.loads(ln)
        subprocess.run([*base, *fast, "--records", str(out)], check=True, timeout=120)
    assert kills >= KILLS - 2  # a run may finish before its kill near the end
    assert out.read_bytes().count(b"\n") == n_items
    assert _stable(out) == _stable(ref)


def test_a_truncated_reply_is_incorrect_by_default_and_counted(tmp_path) -> None:
    """A reply cut off by the token limit ("Let me check whether … satisfiable" then nothing, or
    a lucky verdict before the cut) scores incorrect and is counted as truncated, not as a parse
    failure; ``as-parsed`` keeps the old behaviour; the report says which policy it used."""
    from logicforge.metrics import aggregate
    from logicforge.reports.html import truncation_note

    ps = lf.generate("ksat/random", {"n_vars": 4, "alpha": 1.0}, count=2, seed=0)
    items = lf.render(ps, "formula")
    assert all(it.gold["label"] == "SAT" for it in items)
    recs = [
        {
            "record_id": f"r{i}",
            "item_id": it.item_id,
            "model": "m",
            "sample": 0,
            "text": text,
            "finish_reason": "length",
        }
        for i, (it, text) in enumerate(
            zip(
                items,
                ["SAT, and the formula is satisfiable: x1", "Let me check whether"],
                strict=True,
            )
        )
    ]
    scored = lf.score(recs, items)
    assert [r.verdict.correct for r in scored] == [False, False]
    assert (
        scored[0].verdict.error_type == "truncated"
        and scored[0].verdict.details["as_parsed"]["correct"]
    )
    row = aggregate([r.model_dump() for r in scored])[0]
    assert (
        row["truncation_rate"] == 1.0
        and row["parse_failure_rate"] == 0.0
        and row["accuracy"] == 0.0
    )
    assert "2, scored incorrect" in truncation_note([r.model_dump() for r in scored])
    kept = lf.score(recs, items, truncation="as-parsed")
    assert kept[0].verdict.correct and kept[1].verdict.parse_failure
    assert "scored as parsed" in truncation_note([r.model_dump() for r in kept])
    with pytest.raises(lf.ConfigError, match="truncation"):
        lf.score(recs, items, truncation="ignore")


def test_the_progress_line_shows_from_the_first_second(small_items, tmp_path) -> None:
    """No line used to appear until the first reply came back (150 s of silence with the
    embedded model); it is drawn at once, with the requests in flight."""
    import io

    from logicforge.runner.cache import ResponseCache  # noqa: F401  (the runner's own imports)
    from logicforge.runner.progress import Progress
    from logicforge.runner.runner import _run
    from logicforge.runner.settings import RunSettings
    from logicforge.runner.store import RecordStore

    stream = io.StringIO()
    bar = Progress(2, "m", enabled=True, stream=stream)
    seen: list[str] = []
    with FakeServer(delay=2.5) as srv:
        m = lf.load_model(f"openai-compatible:{srv.base_url}:m")

        async def main() -> None:
            store = RecordStore(tmp_path / "r.jsonl")
            task = asyncio.create_task(
                _run(small_items[:2], m, store, RunSettings(concurrency=2), None, bar, [], None)
            )
            await asyncio.sleep(1.4)  # before any reply
            seen.append(stream.getvalue())
            await task
            await m.aclose()
            store.release()

        asyncio.run(main())
    assert "m: 0/2" in seen[0] and "2 in flight" in seen[0], seen[0]


def test_the_run_counts_its_file_as_the_manifest_reads_it(tmp_path) -> None:
    """A run's per-model counts of the records file (``file``, what the manifest shows) are
    those read back from the file: errors, truncations and unknown gold labels, over a resumed
    file holding two models, a retried error and records of an earlier run."""
    from logicforge.runner import manifest

    unknown = lf.generate(
        "ksat/random", {"n_vars": 400, "alpha": 4.26, "solver_timeout": 0.02}, count=2, seed=0
    )
    easy = lf.generate("ksat/random", {"n_vars": 8, "alpha": 2.0}, count=6, seed=0)
    items = lf.render(unknown + easy)
    prompts = [it.messages[-1].content for it in items]
    cut = json.dumps({"choices": [{"message": {"role": "assistant", "content": "SAT"},
                                   "finish_reason": "length"}]})  # fmt: skip
    out = tmp_path / "r.jsonl"
    with FakeServer() as srv:
        url = f"openai-compatible:{srv.base_url}"
        srv.scripts = {prompts[2]: ["500"], prompts[3]: [f"raw:200:{cut}"] * 2}
        first = lf.run(items[:5], lf.load_model(f"{url}:a;max_retries=0"), out)
        assert first["file"] == manifest.record_counts(out)
        assert first["file"]["a"] == {"records": 5, "errors": 1, "truncated": 1, "excluded": 2}
        second = lf.run(items, lf.load_model(f"{url}:a;max_retries=0"), out)  # retries the error
        assert second["done"] == 4 and second["file"] == manifest.record_counts(out)
        assert second["file"]["a"] == {"records": 8, "errors": 0, "truncated": 1, "excluded": 2}
        third = lf.run(items[1:4], lf.load_model(f"{url}:b;max_retries=0"), out)
        assert third["file"] == manifest.record_counts(out)
        assert third["file"]["b"] == {"records": 3, "errors": 0, "truncated": 1, "excluded": 1}
        assert third["file"]["a"] == second["file"]["a"]
