"""Exports: Hugging Face layout (loaded back by ``datasets`` offline), SFT chat data, DIMACS, the
ZebraLogic layout, and the reward function's use on records."""

from __future__ import annotations

import json

import pytest

import logicforge as lf
from logicforge.export import export_dimacs, export_hf, export_sft, export_zebralogic, load_hf


@pytest.fixture(scope="module")
def mixed() -> tuple[list[lf.LabelledProblem], list[lf.Item]]:
    ps = lf.generate("ksat/random", {"n_vars": 6, "alpha": 4.26}, count=6, seed=2)
    zs = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=3, seed=2)
    return ps + zs, lf.render(ps, "formula") + lf.render(ps, "room") + lf.render(zs, "zebra")


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_hf_layout_loads_with_datasets_and_reimports_byte_identical(
    mixed, tmp_path, monkeypatch, fmt: str
) -> None:
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    _, items = mixed
    d = export_hf(items, tmp_path / "ds", fmt=fmt, command="logicforge generate …")
    again = load_hf(d)
    assert [x.model_dump_json() for x in again] == [x.model_dump_json() for x in items]
    files = sorted(str(p) for p in (d / "data").iterdir())
    ds = datasets.load_dataset("json" if fmt == "jsonl" else "parquet", data_files=files)
    rows = ds["train"]
    assert rows.num_rows == len(items)
    assert rows[0]["item_id"] == items[0].item_id and rows[0]["gold_label"] in ("SAT", "UNSAT")
    assert [lf.Item.model_validate_json(r).item_id for r in rows["item_json"]] == [
        it.item_id for it in items
    ]
    card = (d / "README.md").read_text()
    for needle in ("license: apache-2.0", "## Label balance", "| zebra |", "Seeds: 2", "n_vars"):
        assert needle in card, needle


def test_a_mixture_exports_with_levels_and_provenance_and_loads_back(tmp_path) -> None:
    """A training mixture across families and a level: the card lists families and levels,
    every row carries its level, seed and SHA-256 provenance, and a tampered row is refused."""
    import hashlib
    import json

    from logicforge.errors import DataFileError

    weights = {"sudoku": 0.5, "knights": 0.3, "ksat/random": 0.2}
    for seed in range(4, 40):  # the first seed whose mixture holds an UNSAT formula
        mix = lf.generate_mixture(weights, count=10, seed=seed, level=3)
        if any(p.label == "UNSAT" for p in mix):
            break
    assert any(p.label == "UNSAT" for p in mix)
    with pytest.raises(lf.ConfigError, match="formula-proof"):
        export_hf(lf.render(mix), tmp_path / "refused", split="train")  # UNSAT without proof
    assert not (tmp_path / "refused").exists()
    items = lf.render(mix, training=True)
    assert {it.rendering for it in items} == {"sudoku", "knights", "formula-proof"}
    d = export_hf(items, tmp_path / "mix", split="train", command="lf.generate_mixture(…)")
    assert [x.model_dump_json() for x in load_hf(d)] == [x.model_dump_json() for x in items]
    rows = [
        json.loads(x)
        for f in sorted((d / "data").glob("*.jsonl"))
        for x in f.read_text().splitlines()
    ]
    assert {r["level"] for r in rows} == {3}
    assert [r["seed"] for r in rows] == [it.seed for it in items]  # each family's derived seed
    assert all(r["provenance"] == hashlib.sha256(r["item_json"].encode()).hexdigest() for r in rows)
    card = (d / "README.md").read_text()
    assert "Reward mode: `certified`" in card and "cannot pay" not in card
    for needle in (
        "## Levels",
        "| sudoku | 3 | 5 |",
        "| knights | 3 | 3 |",
        "| ksat/random | 3 | 2 |",
        "provenance",
    ):
        assert needle in card, needle
    f = sorted((d / "data").glob("*.jsonl"))[0]
    lines = f.read_text().splitlines()
    bad = json.loads(lines[0])
    bad["item_json"] = bad["item_json"].replace('"family":"', '"family":"x', 1)
    f.write_text("\n".join([json.dumps(bad), *lines[1:]]) + "\n")
    with pytest.raises(DataFileError, match="provenance"):
        load_hf(d)


def test_sft_keeps_only_verified_correct_responses(mixed, tmp_path) -> None:
    _, items = mixed
    lf.run(items, "random", tmp_path / "r.jsonl")
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    with pytest.raises(lf.ConfigError, match="formula-proof"):
        export_sft(items, recs, tmp_path / "sft.jsonl")  # UNSAT asked without a certificate
    assert not (tmp_path / "sft.jsonl").exists()
    n = export_sft(items, recs, tmp_path / "sft.jsonl", reward_mode="decision")
    rows = [json.loads(x) for x in (tmp_path / "sft.jsonl").read_text().splitlines()]
    assert n == len(rows) >= len(items)  # every oracle answer, plus the random ones that are right
    by_id = {it.item_id: it for it in items}
    for r in rows:
        assert r["messages"][-1]["role"] == "assistant"
        assert lf.reward(by_id[r["item_id"]], r["messages"][-1]["content"], mode="decision") == 1.0


def test_sft_certified_keeps_only_answers_with_their_certificate(mixed, tmp_path) -> None:
    """By default a bare right decision is not a training example; a proof or a witness is."""
    problems, _ = mixed
    items = lf.render(problems[:6], "formula-proof")
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    lf.run(items, "always-unsat", tmp_path / "r.jsonl")
    lf.run(items, "always-sat", tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    bare = sum(1 for r in recs if r["model"] == "always-unsat" and r["verdict"]["correct"])
    assert bare > 0  # right decisions without a refutation exist, and are left out
    n = export_sft(items, recs, tmp_path / "sft.jsonl")
    rows = [json.loads(x) for x in (tmp_path / "sft.jsonl").read_text().splitlines()]
    assert n == len(rows) and {r["model"] for r in rows} <= {"oracle", "always-sat"}
    assert sum(r["model"] == "oracle" for r in rows) == len(items)
    by_id = {it.item_id: it for it in items}
    assert all(lf.reward(by_id[r["item_id"]], r["messages"][-1]["content"]) == 1.0 for r in rows)


def test_dimacs_export_round_trips(mixed, tmp_path) -> None:
    problems, _ = mixed
    n = export_dimacs(problems, tmp_path / "cnf")
    assert n == 6  # zebra puzzles are not CNF
    for p in problems[:6]:
        text = (tmp_path / "cnf" / f"{p.problem_id}.cnf").read_text()
        cnf = lf.parse_dimacs(text)
        assert [list(c) for c in cnf.clauses] == [list(c) for c in p.problem["clauses"]]
        assert f"c label {p.label}" in text
        assert lf.solve(cnf).label == p.label


def test_zebralogic_layout(mixed, tmp_path) -> None:
    problems, _ = mixed
    assert export_zebralogic(problems, tmp_path / "z.jsonl") == 3
    rows = [json.loads(x) for x in (tmp_path / "z.jsonl").read_text().splitlines()]
    for r in rows:
        assert set(r) == {"id", "size", "puzzle", "solution"} and r["size"] == "3*3"
        assert r["solution"]["header"][0] == "House" and len(r["solution"]["rows"]) == 3
        assert "## Clues:" in r["puzzle"]


def test_inspect_task_runs_and_agrees_with_logicforge(tmp_path) -> None:
    pytest.importorskip("inspect_ai")
    pytest.importorskip("openai")
    import os
    import subprocess
    import sys

    from inspect_ai.log import read_eval_log

    from logicforge.export import export_inspect

    from .fakeserver import FakeServer

    items = lf.render(lf.generate("ksat/random", {"n_vars": 6, "alpha": 4.26}, count=12, seed=4))
    task = export_inspect(items, tmp_path / "task")
    with FakeServer() as srv:
        env = {
            **os.environ,
            "LFTEST_BASE_URL": srv.base_url,  # inspect's generic OpenAI-compatible provider
            "LFTEST_API_KEY": "unused",
            "INSPECT_LOG_DIR": str(tmp_path / "logs"),
            "INSPECT_DISPLAY": "none",
        }
        p = subprocess.run(
            [
                sys.executable,
                "-m",
                "inspect_ai",
                "eval",
                task.name + "@logicforge_items",
                "--model",
                "openai-api/lftest/fake",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            cwd=task.parent,  # inspect resolves the task file relative to its working directory
        )
        assert p.returncode == 0, p.stderr[-2000:]
        lf.run(items, f"openai-compatible:{srv.base_url}:fake", tmp_path / "r.jsonl")
    logs = sorted((tmp_path / "logs").glob("*.eval")) + sorted((tmp_path / "logs").glob("*.json"))
    log = read_eval_log(str(logs[-1]))
    inspect_acc = log.results.scores[0].metrics["accuracy"].value
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    ours = sum(r["verdict"]["correct"] for r in recs) / len(recs)
    assert log.results.total_samples == len(items)
    assert inspect_acc == pytest.approx(ours)
    # the Inspect log re-scored by logicforge gives the same verdicts as the logicforge run,
    # read from the .eval file (through inspect_ai) and from its JSON form (directly)
    from inspect_ai.log import write_eval_log

    write_eval_log(log, str(tmp_path / "log.json"), format="json")
    mine = {r["item_id"]: r["verdict"]["correct"] for r in recs}
    for path in (logs[-1], tmp_path / "log.json"):
        rescored, _, _, rlog = lf.rescore("inspect", [path], items=items)
        assert not rlog.rejected and len(rescored) == len(items)
        assert {r.item_id: r.verdict.correct for r in rescored} == mine
        assert {r.model for r in rescored} == {"openai-api/lftest/fake"}
        assert all(r.extra["source_verdict"] == r.verdict.correct for r in rescored)


def test_inspect_level_task_generates_its_items(tmp_path) -> None:
    """``logicforge_level``: Inspect generates the items at load time from the task arguments;
    its accuracy equals a logicforge run on the same items against the same server."""
    pytest.importorskip("inspect_ai")
    import os
    import subprocess
    import sys

    from inspect_ai.log import read_eval_log

    from logicforge.export import export_inspect

    from .fakeserver import FakeServer

    task = export_inspect([], tmp_path / "task")
    items = lf.render(lf.generate("ksat/random", count=6, seed=2, level=1))
    with FakeServer() as srv:
        env = {
            **os.environ,
            "LFTEST_BASE_URL": srv.base_url,
            "LFTEST_API_KEY": "unused",
            "INSPECT_LOG_DIR": str(tmp_path / "logs"),
            "INSPECT_DISPLAY": "none",
        }
        cmd = [sys.executable, "-m", "inspect_ai", "eval", task.name + "@logicforge_level"]
        cmd += ["-T", "family=ksat/random", "-T", "level=1", "-T", "count=6", "-T", "seed=2"]
        p = subprocess.run(
            [*cmd, "--model", "openai-api/lftest/fake"],
            capture_output=True, text=True, timeout=300, env=env, cwd=task.parent,
        )  # fmt: skip
        assert p.returncode == 0, p.stderr[-2000:]
        lf.run(items, f"openai-compatible:{srv.base_url}:fake", tmp_path / "r.jsonl")
    log = read_eval_log(str(sorted((tmp_path / "logs").glob("*.eval"))[-1]))
    assert [s.id for s in log.samples] == [it.item_id for it in items]
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    ours = sum(r["verdict"]["correct"] for r in recs) / len(recs)
    assert log.results.scores[0].metrics["accuracy"].value == pytest.approx(ours)


def test_sft_model_keeps_one_models_answers(mixed, tmp_path, capsys) -> None:
    """`export sft` mixed an oracle's and a teacher's answers in one file, with no way to pick."""
    from logicforge.cli import main

    _, items = mixed
    from logicforge.runner.store import write_jsonl

    write_jsonl(tmp_path / "items.jsonl", items)
    lf.run(items, "noisy:p=0.6", tmp_path / "r.jsonl")
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    base = ["export", "sft", "--items", str(tmp_path / "items.jsonl"), "--records",
            str(tmp_path / "r.jsonl"), "--reward-mode", "decision"]  # fmt: skip
    assert main([*base, "--out", str(tmp_path / "all.jsonl")]) == 0
    assert main([*base, "--out", str(tmp_path / "o.jsonl"), "--model", "oracle"]) == 0
    every = [json.loads(x)["model"] for x in (tmp_path / "all.jsonl").read_text().splitlines()]
    only = [json.loads(x)["model"] for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert set(every) == {"oracle", "noisy:p=0.6"} and set(only) == {"oracle"}
    assert len(only) == every.count("oracle")
    assert main([*base, "--out", str(tmp_path / "x.jsonl"), "--model", "orcale"]) == 2
    assert "orcale" in capsys.readouterr().err and not (tmp_path / "x.jsonl").exists()
