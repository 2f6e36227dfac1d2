"""Figures chosen by what the run holds: no empty panels, points rather than lines where a
series rests on single items, small multiples beyond a few series, and a zebra report that
leads with accuracy (it led with a reasoning-token histogram)."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import logicforge as lf
from logicforge.reports import plots
from logicforge.reports.zebra_figures import heatmaps


def _png_width(path) -> int:
    data = path.read_bytes()
    return int.from_bytes(data[16:20], "big")


def test_a_measure_with_no_value_gets_no_panel(tmp_path) -> None:
    """The ZeroEval re-score drew an empty 'mean Z3 conflicts' panel with a −0.1…0.1 bar."""
    rows = [{"N": n, "M": m, "log10_search_space": n * m / 3, "z3_conflicts": None}
            for n in (2, 3) for m in (2, 3)]  # fmt: skip
    cap = heatmaps(rows, tmp_path / "one.png")
    assert cap and "not measured" in cap and "mean Z3 conflicts per" not in cap
    both = [dict(r, z3_conflicts=1.0) for r in rows]
    assert "mean Z3 conflicts" in (heatmaps(both, tmp_path / "two.png") or "")
    assert _png_width(tmp_path / "one.png") < 0.7 * _png_width(tmp_path / "two.png")
    assert heatmaps([dict(r, log10_search_space=None) for r in rows], tmp_path / "n.png") is None


def test_single_item_series_are_points_and_many_series_small_multiples(tmp_path) -> None:
    """`suite zebra-grid --count 1` drew a zigzag of single points; `twosat-table1` overplotted
    12+ series in one small panel."""
    import matplotlib.pyplot as plt

    one = [{"model": "m", "x": x, "accuracy": x % 2, "n": 1} for x in range(4)]
    fig, ax = plt.subplots()
    assert "points" in (plots.model_lines(ax, one, "x", "accuracy", {}) or "")
    assert ax.get_lines()[0].get_linestyle() == "None"
    many = [dict(r, n=20) for r in one]
    fig, ax = plt.subplots()
    plots.model_lines(ax, many, "x", "accuracy", {})
    assert ax.get_lines()[0].get_linestyle() == "-"
    plt.close("all")
    rows = [
        {"model": m, "rendering": r, "family": "f", "x": x, "accuracy": 0.5, "n": 1}
        for m in ("a", "b", "c") for r in ("r1", "r2", "r3") for x in (1, 2)
    ]  # fmt: skip
    cap = plots.metric_vs(rows, "x", "accuracy", {}, tmp_path / "sm.png", "t")
    assert cap and "one panel per model" in cap and "points, not lines" in cap
    few = [r for r in rows if r["model"] == "a"]
    cap = plots.metric_vs(few, "x", "accuracy", {}, tmp_path / "one.png", "t")
    assert cap and "panel per model" not in cap


def test_a_zebra_report_leads_with_accuracy(tmp_path) -> None:
    ps = lf.generate("zebra", {"n_attributes": 2}, grid={"n_houses": [2, 3]}, count=2, seed=0)
    items = lf.render(ps)
    lf.run(items, "oracle", tmp_path / "r.jsonl")
    lf.run(items, "noisy:p=0.5", tmp_path / "r.jsonl")
    html = lf.report(tmp_path / "r.jsonl", tmp_path / "rep").read_text()
    caps = re.findall(r"<figcaption>([^<]*)", html)
    assert caps and caps[0].lower().startswith(("accuracy", "cell_accuracy")), caps[:3]
    assert not caps[0].lower().startswith("zebralogic fig. 5")
