"""A full disk or a read-only folder, from the response cache and from `export hf`: one line,
exit code 2, no traceback, nothing that looks complete but is not.

The cache errors are SQLite's own: ``PRAGMA max_page_count`` makes the database really full
(``SQLITE_FULL``) and a read-only folder (as an unprivileged user) makes it really read-only."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.errors import DataFileError
from logicforge.models.base import Response
from logicforge.runner import cache as cache_mod
from logicforge.runner.store import write_jsonl

from .fakeserver import FakeServer


def _items(tmp: Path, n: int = 6) -> Path:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=n, seed=0))
    write_jsonl(tmp / "items.jsonl", items)
    return tmp / "items.jsonl"


def test_a_full_cache_is_one_line_and_keeps_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: a `sqlite3.OperationalError: database or disk is full` traceback, exit 1."""
    from logicforge.cli import main

    real_init = cache_mod.ResponseCache.__init__

    def full_after_open(self: cache_mod.ResponseCache, *a: object, **kw: object) -> None:
        real_init(self, *a, **kw)  # type: ignore[arg-type]
        pages = self.db.execute("PRAGMA page_count").fetchone()[0]
        self.db.execute(f"PRAGMA max_page_count = {pages}")  # no room for one more page

    monkeypatch.setattr(cache_mod.ResponseCache, "__init__", full_after_open)
    with FakeServer() as srv:  # an HTTP model: its replies go to the cache
        argv = ["run", "--items", str(_items(tmp_path, 60)), "--model",
                f"openai-compatible:{srv.base_url}:m", "--records", str(tmp_path / "r.jsonl"),
                "--cache", str(tmp_path / "c.sqlite"), "--quiet"]  # fmt: skip
        for _ in range(2):  # and again on the rerun
            assert main(argv) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and "Traceback" not in err, err
            assert "response cache" in err and "the disk is full" in err and "--no-cache" in err
        assert main([*argv[:-3], "--no-cache", "--quiet"]) == 0  # the way the message names


def test_cache_errors_are_sqlites_own_and_said_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from logicforge.cli import main

    c = cache_mod.ResponseCache(tmp_path / "c.sqlite", commit_every_s=0)  # commit each put
    pages = c.db.execute("PRAGMA page_count").fetchone()[0]
    c.db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(DataFileError, match="the disk is full.*Finished records are kept"):
        c.put("k", Response(text="x" * 20_000))
    c.close(quiet=True)  # while another error is on its way out: no second one
    # a read-only cache (SQLite's read-only mode: root writes through file permissions)
    real_connect = sqlite3.connect

    def read_only(path: object, **kw: object) -> sqlite3.Connection:
        return real_connect(f"file:{path}?mode=ro", uri=True)

    monkeypatch.setattr(cache_mod.sqlite3, "connect", read_only)
    ro = cache_mod.ResponseCache(tmp_path / "c.sqlite", commit_every_s=0)  # reads still work
    with pytest.raises(DataFileError, match="read-only"):
        ro.put("k2", Response(text="x"))
    ro.close(quiet=True)
    with FakeServer() as srv:
        argv = ["run", "--items", str(_items(tmp_path)), "--model",
                f"openai-compatible:{srv.base_url}:m", "--records", str(tmp_path / "r.jsonl"),
                "--cache", str(tmp_path / "c.sqlite"), "--quiet"]  # fmt: skip
        assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "response cache" in err and "read-only" in err


def test_a_read_only_cache_folder_is_one_line(tmp_path: Path) -> None:
    """Before: a raw `sqlite3.OperationalError` traceback. Root writes through permissions,
    so there the check runs on SQLite's read-only mode (the test above)."""
    if os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder; covered by SQLite's read-only mode")
    items = _items(tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o555)
    try:
        with FakeServer() as srv:
            p = subprocess.run(
                [sys.executable, "-m", "logicforge", "run", "--items", str(items), "--model",
                 f"openai-compatible:{srv.base_url}:m", "--records", str(tmp_path / "r.jsonl"),
                 "--cache", str(ro / "c.sqlite"), "--quiet"],
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
    finally:
        os.chmod(ro, 0o755)
    assert p.returncode == 2, p.stderr
    err = p.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "response cache" in err and "--no-cache" in err


def test_export_hf_writes_no_file_that_looks_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a kill or a full disk left a data file with 167 or 207 of 300 rows, no README."""
    pytest.importorskip("pyarrow")
    from logicforge.export import hf

    items = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=30, seed=0), "formula-proof")
    out = tmp_path / "hf"
    real = os.replace
    calls: list[str] = []

    def full(src: object, dst: object) -> None:
        calls.append(str(dst))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises((DataFileError, OSError)):
        hf.export_hf(items, out)
    monkeypatch.setattr(os, "replace", real)
    assert calls, "export hf must move each file into place"
    left = sorted(p.name for p in out.rglob("*") if p.is_file()) if out.exists() else []
    assert not [n for n in left if not n.startswith(".")], left  # only hidden temporaries, or none
    hf.export_hf(items, out)  # the rerun writes it whole
    assert (out / "README.md").exists()
    assert json.loads(json.dumps(sorted(p.name for p in out.rglob("*") if p.is_file())))


@pytest.mark.slow
def test_export_hf_killed_at_random_leaves_no_file_that_looks_complete(tmp_path: Path) -> None:
    """A SIGKILL anywhere in `export hf`: every visible data file holds all its rows, and the
    card appears only beside whole data."""
    import random
    import signal
    import time

    items = lf.render(
        lf.generate("ksat/random", {"n_vars": 6}, count=3000, seed=1), "formula-proof"
    )
    write_jsonl(tmp_path / "items.jsonl", items)
    cmd = [sys.executable, "-m", "logicforge", "export", "hf", "--items",
           str(tmp_path / "items.jsonl")]  # fmt: skip
    t0 = time.monotonic()
    subprocess.run([*cmd, "--out", str(tmp_path / "whole")], check=True, capture_output=True)
    full = time.monotonic() - t0
    rng = random.Random(7)
    for k in range(6):
        out = tmp_path / f"k{k}"
        p = subprocess.Popen([*cmd, "--out", str(out)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)  # fmt: skip
        time.sleep(rng.uniform(0.3, 1.0) * full)
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        data = sorted((out / "data").glob("[!.]*")) if (out / "data").exists() else []
        for f in data:  # a visible shard is a whole one
            assert len(f.read_text().splitlines()) == 3000, (k, f.name)
        assert not (out / "README.md").exists() or data, k  # no card without its data
