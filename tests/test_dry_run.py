"""A suite's ``--dry-run`` costs seconds, whatever the suite's size: it makes the first two
problems of each parameter point (never the whole plan, never a measurement-only parameter such
as zebra's 32 Z3 runs), scales their tokens to the plan, and estimates the same requests and
tokens as the whole plan rendered (exactly where the sample is the whole plan). The speed probe
reaches a wrapped model's inner one and says how busy the machine was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main
from logicforge.models.base import Sampling, load_model
from logicforge.runner.dryrun import _load_note, estimate
from logicforge.suites import list_suites, load_suite
from logicforge.suites.suite import expand_problems

from .conftest import SHARED


def _table(out: str) -> list[dict[str, str]]:
    lines = [x for x in out.splitlines() if x.startswith("| ")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return [dict(zip(head, (c.strip() for c in x.strip("|").split("|")), strict=True))
            for x in lines[1:]]  # fmt: skip


def _exact(suite) -> dict[str, int]:
    """The estimate over every problem of the plan, rendered (what a dry run did before)."""
    ps = expand_problems(suite)
    items = [
        it
        for r in suite.renderers
        for it in lf.render([p for p in ps if p.kind == lf.RENDERERS.get(r).kind], r)
    ]
    (row,) = estimate(items, [load_model("random")], samples=suite.samples,
                      sampling=Sampling(**suite.sampling))  # fmt: skip
    return row


@pytest.mark.parametrize("name", ["twosat-table1", "adr-phase", "zebra-pairs"])
def test_the_sampled_estimate_matches_the_whole_plan(name: str, tmp_path: Path, capsys) -> None:
    suite = load_suite(name, models=["random"]).with_blocks(count=4)
    exact = _exact(suite)
    assert main(["suite", name, "--model", "random", "--count", "4", "--dry-run",
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    (row,) = _table(capsys.readouterr().out)
    assert int(row["items"]) == exact["items"] and int(row["requests"]) == exact["requests"]
    assert int(row["completion_tokens_max"]) == exact["completion_tokens_max"]
    assert abs(int(row["prompt_tokens"]) - exact["prompt_tokens"]) <= 0.02 * exact["prompt_tokens"]
    small = load_suite(name, models=["random"]).with_blocks(count=1)  # the sample is the plan
    assert main(["suite", name, "--model", "random", "--count", "1", "--dry-run",
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    (row,) = _table(capsys.readouterr().out)
    assert int(row["prompt_tokens"]) == _exact(small)["prompt_tokens"]
    assert not any(tmp_path.iterdir()), "a dry run writes nothing"


def test_zebra_grid_dry_run_makes_two_puzzles_per_size_and_no_z3_runs(monkeypatch, capsys):
    from logicforge.families.zebra import generate as zg

    made = []
    real = zg.ZebraFamily.generate

    def counted(self, params, rng):
        made.append(params)
        return real(self, params, rng)

    def no_z3(*a, **k):
        raise AssertionError("a dry run must not measure Z3 conflicts")

    monkeypatch.setattr(zg.ZebraFamily, "generate", counted)
    monkeypatch.setattr(zg, "z3_complexity", no_z3)
    assert main(["suite", "zebra-grid", "--dry-run", "--model", "random"]) == 0
    out = capsys.readouterr().out
    assert len(made) == 50 and all(p.z3_runs == 0 for p in made)
    assert "1,000 problems, 1,000 items" in out
    assert int(_table(out)[0]["requests"]) == 1000


def test_every_shipped_suite_dry_runs(tmp_path: Path, monkeypatch, capsys) -> None:
    """Each shipped suite's dry run exits 0 and prints one row per model — a suite with model
    templates one per template, each with its own samples (data-backed suites with the shared
    data; the embedded model's probe is left to the embedded tests)."""
    monkeypatch.setenv("LOGICFORGE_DATA", str(SHARED))
    for name in list_suites():
        suite = load_suite(name)
        if any(b.data for b in suite.problems) and not SHARED.is_dir():
            continue
        args = ["suite", name, "--dry-run", "--model", "random", "--out", str(tmp_path / name)]
        assert main(args) == 0, name
        out = capsys.readouterr().out
        assert re.search(r"dry run of suite .*: [\d,]+ problems", out), out
        rows = _table(out)
        assert len(rows) == len(load_suite(name, models=["random"]).models)
        if name == "zebra-table2":
            assert [int(r["samples"]) for r in rows] == [128, 1, 1, 1]


def test_a_resumed_suite_dry_run_counts_what_is_left(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t"
    base = ["suite", "twosat-table1", "--model", "random", "--count", "1", "--out", str(out)]
    assert main([*base, "--dry-run"]) == 0
    (before,) = _table(capsys.readouterr().out)
    assert main([*base, "--quiet"]) == 0
    capsys.readouterr()
    assert main([*base, "--dry-run"]) == 0
    (after,) = _table(capsys.readouterr().out)
    assert int(before["records_to_do"]) == 132 and int(after["records_to_do"]) == 0
    assert int(after["prompt_tokens"]) == 0


class _Local:
    """A local model with a speed probe (a unit-test double of the embedded model)."""

    name = cache_id = "local-test"
    probes = 0

    def speed(self) -> tuple[float, float]:
        type(self).probes += 1
        return 1000.0, 50.0


def test_the_speed_probe_reaches_wrapped_models_once() -> None:
    from logicforge.strategies.bestofn import BestOfNModel
    from logicforge.strategies.scorers import make_scorer

    inner = _Local()
    wrapped = BestOfNModel(inner, 3, make_scorer("majority"), 0.7)  # type: ignore[arg-type]
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=2, seed=0))
    plain = estimate(items, [inner, wrapped], samples=1, sampling=Sampling(max_tokens=100_000))
    assert _Local.probes == 0  # a dry run loads nothing unless asked to probe
    assert [r["hours_max"] for r in plain] == [None, None]
    assert all("--probe-speed" in r["speed_measured"] for r in plain)
    rows = estimate(
        items, [inner, wrapped], samples=1, sampling=Sampling(max_tokens=100_000), probe=True
    )
    assert [r["tokens_per_s"] for r in rows] == [50.0, 50.0] and _Local.probes == 1
    assert rows[1]["hours_max"] > rows[0]["hours_max"]  # three candidates per sample
    assert all(r["speed_measured"].startswith(("idle", "BUSY", "load unknown")) for r in rows)


def test_the_load_note_says_when_the_probe_ran_beside_other_work() -> None:
    assert _load_note((0.0, 0.0, 0.0), (1.0, 1.9, 1.0)).startswith("BUSY: other processes used 0.9")
    assert _load_note((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)).startswith("idle")
    assert _load_note(None, None).startswith("load unknown")


def test_a_dry_run_with_the_embedded_model_loads_nothing(tmp_path, monkeypatch, capsys) -> None:
    """`suite … --model embedded --dry-run` ("nothing sent") loaded SmolLM2 for a speed probe;
    with GGUF loads refused, it now runs; `--probe-speed` is what asks for the load."""
    from logicforge.cli import main

    monkeypatch.setenv("LOGICFORGE_LOCAL_MODELS", "off")  # any load would raise
    argv = ["suite", "adr-pairs-3sat", "--model", "embedded", "--dry-run", "--count", "1",
            "--out", str(tmp_path / "s")]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "no model loaded" in out and "--probe-speed" in out  # the probe: the README's line


def test_a_suite_whose_own_models_run_locally_says_so(tmp_path, capsys) -> None:
    from logicforge.cli import _local_models

    assert _local_models(["oracle", "embedded", "bestofn:5:majority:embedded;temperature=0.7",
                          "symbcot:embedded", "openai-compatible:http://x/v1:m"]) == [
        "embedded", "bestofn:5:majority:embedded;temperature=0.7", "symbcot:embedded"
    ]  # fmt: skip
