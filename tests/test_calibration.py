"""Calibrated levels across families: the fit on curves of known shape, the shipped table
against the registered families' level maps, and the calibrated mixture."""

from __future__ import annotations

import numpy as np
import pytest

import logicforge as lf
from logicforge import calibration as cal
from logicforge.registry import FAMILIES

REWRITE = "python benchmarks/bench_levels.py --calibration-only --write src/logicforge/calibration_table.json"


def test_the_fit_is_monotone_keeps_ungraded_maps_and_matches_the_target_better() -> None:
    rng = np.random.default_rng(0)
    curves = {}
    for k in range(8):  # falling at different speeds, noisy, not always monotone
        speed = 0.05 + 0.1 * k
        curves[f"f{k}"] = [
            float(np.clip(1 - speed * lv + rng.normal(0, 0.03), 0, 1)) for lv in range(11)
        ]
    curves["flat"] = [1.0] * 11
    curves["nobudget"] = [None] * 11
    maps = cal.fit(curves)
    assert maps["flat"] == maps["nobudget"] == list(range(11))
    envs = {f: cal._envelope(c) for f, c in curves.items() if cal.graded(c)}
    target = cal._envelope([float(np.median([e[lv] for e in envs.values()])) for lv in range(11)])
    for f, env in envs.items():
        row = maps[f]
        assert row == sorted(row) and row[0] == 0, f  # never easier at a higher common level
        fitted = sum(abs(env[row[lv]] - target[lv]) for lv in range(11))
        identity = sum(abs(env[lv] - target[lv]) for lv in range(11))
        assert fitted <= identity + 1e-9, f
    # the fast fallers are pulled down the scale, the slow ones pushed up
    assert maps["f7"][2] < 2 < maps["f1"][2] <= maps["f0"][2]


def test_a_family_is_graded_only_when_the_reference_sees_it_get_harder() -> None:
    assert cal.graded([1.0, 0.9, 0.7, 0.5] + [0.4] * 7)
    assert not cal.graded([1.0] * 10 + [0.9])
    assert not cal.graded([1.0, None] + [0.0] * 9)


def test_the_shipped_table_covers_every_family_on_its_current_level_map() -> None:
    doc = cal.table()
    assert doc["budgets"] == list(cal.BUDGETS)
    rows = doc["families"]
    missing = sorted(set(FAMILIES.names()) - set(rows))
    assert not missing, f"not calibrated: {missing}; run {REWRITE}"
    stale = [f for f in FAMILIES.names() if rows[f]["levels_fingerprint"] != cal.fingerprint(f)]
    assert not stale, f"level maps changed since calibration: {stale}; run {REWRITE}"
    for f, row in rows.items():
        assert len(row["native"]) == len(row["ease"]) == 11, f
        assert row["native"] == sorted(row["native"]), f
        assert row["graded"] == cal.graded(row["ease"]), f
        if not row["graded"]:
            assert row["native"] == list(range(11)), f
    assert sum(r["graded"] for r in rows.values()) >= 5  # the reference grades several
    refit = cal.fit({f: r["ease"] for f, r in rows.items()})
    assert all(refit[f] == r["native"] for f, r in rows.items())  # the map is the fit of the table


def test_the_reference_ease_falls_with_ksat_levels_and_is_none_without_a_budgeted_solver() -> None:
    def at(level: int) -> float | None:
        ps = lf.generate("ksat/random", level=level, count=10, seed=level)
        return cal.ease(lf.render(ps, "formula"))

    low, high = at(0), at(10)
    assert low is not None and high is not None and low > high
    vc = lf.render(lf.reduce(lf.generate("ksat/random", {"n_vars": 5}, count=2), "vc"), "vc")
    assert cal.ease(vc) is None


def test_a_calibrated_mixture_draws_each_family_at_its_mapped_level() -> None:
    weights = {"ksat/random": 1, "zebra": 1, "sudoku": 1}
    for level in (0, 4, 9):
        ps = lf.generate_mixture(weights, count=6, seed=2, level=level, calibrated=True)
        assert {p.metadata["calibrated_level"] for p in ps} == {level}
        for p in ps:
            assert p.metadata["level"] == cal.native_level(p.family, level), p.family
    plain = lf.generate_mixture(weights, count=6, seed=2, level=4)
    assert all("calibrated_level" not in p.metadata for p in plain)


def test_calibrated_needs_a_level_and_a_boolean() -> None:
    with pytest.raises(lf.ConfigError, match="calibrated"):
        lf.generate_mixture({"ksat/random": 1}, count=2, calibrated=True)
    with pytest.raises(lf.ConfigError, match="calibrated"):
        lf.generate_mixture({"ksat/random": 1}, count=2, level=1, calibrated="yes")  # type: ignore[arg-type]
    assert cal.native_level("no/such-family", 7) == 7  # a plug-in without a row keeps its own
