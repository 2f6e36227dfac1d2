"""Runs explain themselves: manifest.json beside the outputs, and a "Reproduce" line that reruns
exactly."""

from __future__ import annotations

import html
import json
import re
import shlex
from pathlib import Path

import pytest

from logicforge.cli import main
from logicforge.runner.manifest import record_counts

FIELDS = ("command", "argv", "started", "ended", "versions", "machine", "models", "sampling",
          "runs", "records", "exit_code")  # fmt: skip


def _reproduce_line(report: Path) -> list[str]:
    m = re.search(r"Reproduce: <code>(.*?)</code>", report.read_text())
    assert m, "the report has no Reproduce line"
    return shlex.split(html.unescape(m.group(1)))


def test_a_suite_report_reruns_byte_for_byte_from_its_reproduce_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ["suite", "twosat-table1", "--model", "oracle", "--model", "random", "--count", "2",
            "--renderer", "logic", "--out", "runs/t1", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    man = json.loads(Path("runs/t1/manifest.json").read_text())
    for f in (*FIELDS, "suite", "seed"):
        assert f in man, f
    assert man["argv"] == argv and man["suite"]["models"] == ["oracle", "random"]
    assert {m["spec"] for m in man["models"]} == {"oracle", "random"}
    assert man["suite"]["problems"][0]["count"] == 2 and man["suite"]["renderers"] == ["logic"]
    assert man["versions"]["logicforge"] and man["machine"]["cpus"]
    assert man["records"]["random"]["records"] == man["runs"]["random"]["done"] > 0
    line = _reproduce_line(Path("runs/t1/report/report.html"))
    assert line[:2] == ["logicforge", "suite"] and "--count" in line and "--model" in line
    again = [("runs/t2" if x == "runs/t1" else x) for x in line[1:]]
    assert main(again) == 0
    assert Path("runs/t2/records.jsonl").read_bytes() == Path("runs/t1/records.jsonl").read_bytes()


def test_a_run_writes_its_manifest_with_endpoints_and_never_a_key(tmp_path, monkeypatch):
    from .fakeserver import FakeServer

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LF_MANIFEST_KEY", "sk-manifest-secret-123")
    gen = ["generate", "--family", "ksat/random", "--set", "n_vars=5", "--set", "alpha=3",
           "--count", "3", "--out", "d", "--quiet"]  # fmt: skip
    assert main(gen) == 0
    with FakeServer() as srv:
        spec = f"openai-compatible:{srv.base_url}:m;api_key_env=LF_MANIFEST_KEY"
        argv = ["run", "--items", "d/items.jsonl", "--records", "out/records.jsonl", "--model",
                spec, "--temperature", "0.3", "--max-tokens", "77", "--quiet", "--no-cache"]  # fmt: skip
        assert main(argv) == 0
    text = Path("out/manifest.json").read_text()
    man = json.loads(text)
    for f in FIELDS:
        assert f in man, f
    assert man["sampling"]["temperature"] == 0.3 and man["sampling"]["max_tokens"] == 77
    assert man["models"][0]["endpoints"][0].startswith(srv.base_url)
    assert man["runs"]["m"]["done"] == 3 and man["records"]["m"]["errors"] == 0
    assert man["records"] == record_counts("out/records.jsonl") and "file" not in man["runs"]["m"]
    assert "sk-manifest-secret-123" not in text


@pytest.mark.parametrize("records", ["r.jsonl", "sub/records.jsonl"])
def test_the_manifest_sits_beside_the_records(records: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    gen = ["generate", "--family", "ksat/random", "--set", "n_vars=5", "--set", "alpha=3",
           "--count", "2", "--out", "d", "--quiet"]  # fmt: skip
    assert main(gen) == 0
    assert main(["run", "--items", "d/items.jsonl", "--records", records, "--model", "random",
                 "--quiet"]) == 0  # fmt: skip
    p = Path(records)
    want = p.parent / ("manifest.json" if p.name == "records.jsonl" else f"{p.stem}.manifest.json")
    assert json.loads(want.read_text())["runs"]["random"]["done"] == 2


def test_a_report_of_a_run_says_how_to_rerun_it(tmp_path, monkeypatch) -> None:
    """`report` on a records file reads the command from the manifest beside it."""
    monkeypatch.chdir(tmp_path)
    gen = ["generate", "--family", "ksat/random", "--set", "n_vars=5", "--set", "alpha=3",
           "--count", "2", "--out", "d", "--quiet"]  # fmt: skip
    assert main(gen) == 0
    run = ["run", "--items", "d/items.jsonl", "--records", "o/records.jsonl", "--model", "random",
           "--samples", "2", "--quiet"]  # fmt: skip
    assert main(run) == 0
    assert main(["report", "--records", "o/records.jsonl", "--out", "o/rep"]) == 0
    line = _reproduce_line(Path("o/rep/report.html"))
    assert line[1:] == run
    first = Path("o/records.jsonl").read_bytes()
    Path("o/records.jsonl").rename("o/old.jsonl")
    assert main(line[1:]) == 0
    assert Path("o/records.jsonl").read_bytes() == first


def test_the_report_overview_states_each_models_sampling(tmp_path) -> None:
    import logicforge as lf
    from logicforge.models.base import Sampling

    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=2, seed=0))
    lf.run(items, "random", tmp_path / "r.jsonl", sampling=Sampling(temperature=0.3, max_tokens=77),
           samples=3)  # fmt: skip
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    page = lf.report(tmp_path / "r.jsonl", tmp_path / "rep").read_text()
    i = page.index("Models and their sampling")
    models = page[i : page.index("</table>", i)]
    assert "<td>0.3</td>" in models and "<td>77</td>" in models and "<td>1024</td>" in models
    assert "<td class='num'>3</td>" in models  # samples per item
