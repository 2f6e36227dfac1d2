"""Every verb that writes records or problems leaves a manifest — an interrupted one too — and a
resumed run's manifest lists every invocation; imported and re-scored data keep their source's
facts (its generation settings) and their report leads with the data's paper table."""

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
from logicforge.cli import main
from logicforge.runner.manifest import command_of
from logicforge.runner.store import write_jsonl

from .conftest import SHARED
from .fakeserver import FakeServer


def _man(p: Path) -> dict:
    return json.loads(p.read_text())


def test_an_interrupted_run_leaves_its_manifest_and_the_resume_adds_to_it(tmp_path) -> None:
    items = tmp_path / "items.jsonl"
    write_jsonl(
        items, lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 4.0}, 300, seed=2))
    )
    rec = tmp_path / "out" / "records.jsonl"
    with FakeServer(delay=0.05) as srv:
        cmd = [sys.executable, "-m", "logicforge", "run", "--items", str(items), "--records",
               str(rec), "--model", f"openai-compatible:{srv.base_url}:fake", "--no-cache",
               "--quiet", "--concurrency", "2"]  # fmt: skip
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not rec.exists() or len(rec.read_bytes().splitlines()) < 10
        ):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        first = _man(rec.parent / "manifest.json")
        assert first["status"] == "interrupted" and first["exit_code"] == 130
        held = len(rec.read_bytes().splitlines())
        assert 10 <= held < 300 and first["records"]["fake"]["records"] == held
        assert subprocess.run(cmd, timeout=120).returncode == 0
    again = _man(rec.parent / "manifest.json")
    assert again["status"] == "finished" and again["records"]["fake"]["records"] == 300
    assert [i["status"] for i in again["invocations"]] == ["interrupted", "finished"]
    assert again["invocations"][0]["started"] == first["started"]
    assert command_of(rec) == again["command"]  # one command: a resume, not two runs


def test_two_runs_into_one_file_are_both_the_reproduce_line(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    gen = ["generate", "--family", "ksat/random", "--set", "n_vars=5", "--set", "alpha=3",
           "--count", "2", "--out", "d", "--quiet"]  # fmt: skip
    assert main(gen) == 0
    a = ["run", "--items", "d/items.jsonl", "--records", "o/records.jsonl", "--quiet"]
    assert main([*a, "--model", "random"]) == 0 and main([*a, "--model", "oracle"]) == 0
    line = command_of(Path("o/records.jsonl"))
    assert line is not None and line.count("&&") == 1 and "oracle" in line and "random" in line


def test_lf_run_writes_a_manifest_naming_the_call(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=3, seed=0))
    lf.run(items, "random", tmp_path / "r.jsonl", samples=2)
    man = _man(tmp_path / "r.manifest.json")
    assert man["command"] is None and man["call"].startswith("logicforge.run(<3 items>, 'random'")
    assert man["status"] == "finished" and man["records"]["random"]["records"] == 6
    assert man["samples"] == 2 and man["models"][0]["spec"] == "random"
    lf.run(items, "random", tmp_path / "r.jsonl", samples=2)  # a resume: nothing new
    assert len(_man(tmp_path / "r.manifest.json")["invocations"]) == 2
    assert command_of(tmp_path / "r.jsonl") is None  # a Python call: no command to print
    lf.run(items, "oracle", tmp_path / "q.jsonl", manifest=False)
    assert not (tmp_path / "q.manifest.json").exists()


@pytest.mark.skipif(not (SHARED / "zeroeval").is_dir(), reason="needs the shared ZeroEval file")
def test_rescored_zeroeval_keeps_its_config_and_leads_with_table1(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LOGICFORGE_DATA", str(SHARED))
    assert main(["rescore", "zeroeval", "data:zeroeval/*.json", "--out", "z"]) == 0
    man = _man(Path("z/manifest.json"))
    (cfg,) = man["source_config"].values()
    assert cfg["temperature"] == 0.0 and cfg["top_p"] == 1.0 and cfg["max_tokens"] == 4096
    assert man["counts"]["scored"] == 16 and man["status"] == "finished"
    rec = json.loads(Path("z/records.jsonl").read_text().splitlines()[0])
    assert rec["config"]["source"] == "zeroeval" and rec["config"]["max_tokens"] == 4096
    assert main(["rescore", "zeroeval", "data:zeroeval/*.json", "--out", "z"]) == 0
    assert len(_man(Path("z/manifest.json"))["invocations"]) == 1  # rewritten whole: afresh
    assert main(["report", "--records", "z/records.jsonl", "--items", "z/items.jsonl",
                 "--out", "z/rep"]) == 0  # fmt: skip
    page = Path("z/rep/report.html").read_text()
    result = page[page.index("id='result'") : page.index("id='overview'")]
    assert "zebralogic_table1" in result and "Small" in result and "Cell-level Acc." in result
    assert "16 records · 16 problems" in page and "0 problems" not in page
    models = page[page.index("Models and their sampling") :]
    models = models[: models.index("</table>")]
    assert "<td class='num'>4096</td>" in models or "<td>4096</td>" in models
    assert "Reproduce: <code>logicforge rescore zeroeval" in page


def test_import_writes_a_manifest(tmp_path) -> None:
    d = tmp_path / "cnf"
    d.mkdir()
    (d / "a.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (d / "b.cnf").write_text("p cnf 2 1\n1 2 0\n")
    assert main(["import", "dimacs", str(d), "--out", str(tmp_path / "i")]) == 0
    man = _man(tmp_path / "i" / "manifest.json")
    assert man["dataset"] == "dimacs" and man["counts"]["imported"] == 2
    assert man["counts"]["labels"] == {"SAT": 1, "UNSAT": 1} and man["status"] == "finished"


def test_the_demo_writes_its_manifest(tmp_path) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--no-embedded", "--per-alpha", "1"]) == 0
    man = _man(out / "manifest.json")
    assert man["command"].startswith("logicforge demo") and man["status"] == "finished"
    assert set(man["records"]) == {"random", "always-sat", "always-unsat", "oracle"}
    assert not (out / "records.manifest.json").exists()


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_a_refused_run_changes_no_manifest(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    gen = ["generate", "--family", "ksat/random", "--set", "n_vars=5", "--set", "alpha=3",
           "--count", "2", "--out", "d", "--quiet"]  # fmt: skip
    assert main(gen) == 0
    a = ["run", "--items", "d/items.jsonl", "--records", "o/records.jsonl", "--quiet"]
    assert main([*a, "--model", "random"]) == 0
    before = Path("o/manifest.json").read_bytes()
    assert main([*a, "--model", "random", "--temperature", "0.5"]) == 2  # another config
    assert Path("o/manifest.json").read_bytes() == before
