"""A run's settings are one typed value (``RunSettings``) built at the edge and passed whole:
no function on the run path takes more than 8 parameters, options are validated before any
work and name the one that is wrong, and the keyword spelling of ``lf.run`` still works."""

from __future__ import annotations

import inspect

import pytest

import logicforge as lf
from logicforge import api
from logicforge.models.base import Sampling
from logicforge.runner import ray_exec, runner
from logicforge.runner.settings import RunOptions, RunSettings

RUN_PATH = [api.run, runner.run_model, runner._run, ray_exec.run_on_ray, ray_exec._eval_shard]


@pytest.mark.parametrize("fn", RUN_PATH, ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_no_function_on_the_run_path_takes_more_than_eight_parameters(fn) -> None:
    assert len(inspect.signature(fn).parameters) <= 8


def test_every_setting_is_a_keyword_of_run() -> None:
    import dataclasses

    assert set(RunOptions.__annotations__) == {f.name for f in dataclasses.fields(RunSettings)}


@pytest.mark.parametrize(
    "options, field",
    [({"samples": 0}, "samples"), ({"concurrency": 0}, "concurrency"),
     ({"truncation": "ignore"}, "truncation"), ({"executor": "dask"}, "executor"),
     ({"max_errors": -1}, "max_errors"), ({"sample": 2}, "sample")],
)  # fmt: skip
def test_bad_settings_fail_before_work_naming_the_field(options, field, tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=1, seed=0), "formula")
    with pytest.raises(lf.ConfigError, match=f"'{field}'"):
        lf.run(items, "random", tmp_path / "r.jsonl", **options)
    assert not (tmp_path / "r.jsonl").exists()


def test_settings_and_keywords_are_the_same_run(tmp_path) -> None:
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5}, count=3, seed=0), "formula")
    s = RunSettings(samples=2, sampling=Sampling(temperature=0.5), progress=False)
    a = lf.run(items, "random;seed=1", tmp_path / "a.jsonl", s)
    b = lf.run(items, "random;seed=1", tmp_path / "b.jsonl", samples=2,
               sampling=Sampling(temperature=0.5), progress=False)  # fmt: skip
    assert a["done"] == b["done"] == 6
    strip = [
        line.split('"latency_s"')[0] for line in (tmp_path / "a.jsonl").read_text().splitlines()
    ]
    same = [
        line.split('"latency_s"')[0] for line in (tmp_path / "b.jsonl").read_text().splitlines()
    ]
    assert strip == same
    # keywords layer over a settings value, which stays as it was
    c = lf.run(items, "random;seed=1", tmp_path / "c.jsonl", s, samples=1)
    assert c["done"] == 3 and s.samples == 2
