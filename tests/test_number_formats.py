"""Numbers a reader trusts: one format per kind of number in every table (Markdown, HTML, CSV),
α as asked, intervals honest at small n, and figure series that stay apart."""

from __future__ import annotations

import re

import pytest

from logicforge import numfmt
from logicforge.metrics.adr import adr_from_pairs
from logicforge.reports import satbench_tables as sb
from logicforge.reports.html import table_html
from logicforge.reports.tables import to_csv, to_markdown


def _records() -> list[dict]:
    """A scripted model right on 7 of 12 easy SAT items and every other cell mixed, in two
    renderings: Table 3's cells are then 100, 0 and fractions like 58.3 at once."""
    out = []
    for rend, right_every in (("formula", 12), ("formula-trace", 2)):
        for b in sb.BUCKETS:
            for lb in ("SAT", "UNSAT"):
                for i in range(12):
                    ok = (lb == "SAT") if b == "hard" else (i % right_every != 0 or i < 7)
                    out.append(
                        {
                            "model": "m",
                            "error": None,
                            "meta": {"bucket": b, "label": lb, "rendering": rend, "n_clauses": 4},
                            "verdict": {"correct": ok},
                        }
                    )
    return out


def test_satbench_table3_one_format_for_every_percentage() -> None:
    rows = sb.table3(_records())
    values = {v for r in rows for k, v in r.items() if k not in ("model", "rendering", "n")}
    assert {100.0, 0.0} <= values and any(v not in (0.0, 50.0, 100.0) for v in values)
    md = to_markdown(rows)
    cells = [c.strip() for line in md.splitlines()[2:] for c in line.strip("|").split("|")]
    nums = [c for c in cells if re.fullmatch(r"[\d.]+", c) and "." in c]
    assert nums and all(re.fullmatch(r"\d{1,3}\.\d", c) for c in nums), nums  # 100.0, 58.3, 0.0
    assert "100.000" not in md and "0.000" not in md
    html = table_html("t3", rows)
    shown = re.findall(r"<td class='num'>([^<]*)</td>", html)
    pcts = [c for c in shown if "." in c]
    assert pcts and all(re.fullmatch(r"\d{1,3}\.\d", c) for c in pcts), shown
    assert "<td class='num'>100</td>" not in html  # a whole percentage is not a count
    assert "100.0" in to_csv(rows) and "0.0" in to_csv(rows)


def test_fractions_keep_three_decimals_and_percentages_one() -> None:
    rows = [
        {"accuracy": 1.0, "acc %": numfmt.pct(1.0)},
        {"accuracy": 0.5, "acc %": numfmt.pct(0.58333)},
    ]
    md = to_markdown(rows)
    assert "| 1.000 | 100.0 |" in md and "| 0.500 | 58.3 |" in md
    html = table_html("t", rows)
    assert "<td class='num'>1.000</td>" in html and "<td class='num'>58.3</td>" in html
    assert numfmt.cell(numfmt.Fixed(36.94, 1)) == "36.9" and numfmt.pct(None) is None
    assert numfmt.ratio_pct(3, 0) is None  # nothing to divide: undefined, not 0


def test_alpha_is_shown_as_asked_with_the_clause_ratio_beside_it() -> None:
    import logicforge as lf

    [p] = lf.generate("ksat/random", {"n_vars": 20, "alpha": 4.26}, count=1, seed=0)
    assert p.metadata["alpha"] == 4.26 and p.metadata["n_clauses"] == 85
    assert p.metadata["clause_ratio"] == 4.25
    [q] = lf.generate("ksat/random", {"n_vars": 75, "alpha_choices": [3.5]}, count=1, seed=0)
    assert q.metadata["alpha"] == 3.5 and q.metadata["clause_ratio"] == pytest.approx(
        262 / 75, abs=1e-6
    )
    [r] = lf.generate("ksat/random", {"n_vars": 10, "n_clauses": 43}, count=1, seed=0)
    assert r.metadata["alpha"] == 4.3  # nothing asked: the ratio is the α there is


def test_adr_interval_is_honest_at_small_n() -> None:
    r = adr_from_pairs([(True, True)] * 14)
    assert r["adr"] == 1.0 and r["adr_hi"] == 1.0 and r["ci_method"] == "wilson"
    assert 0.75 < r["adr_lo"] < 0.8  # a bootstrap said 1.0 - 1.0
    boot = adr_from_pairs([(True, True)] * 14, interval="bootstrap")
    assert boot["adr_lo"] == boot["adr_hi"] == 1.0 and boot["ci_method"] == "bootstrap"
    mixed = adr_from_pairs([(True, True)] * 6 + [(True, False)] * 4)
    assert mixed["adr_lo"] < 0.6 < mixed["adr_hi"]
    with pytest.raises(ValueError, match="interval"):
        adr_from_pairs([(True, True)], interval="exact")


def _lines(ax):
    return [
        (ln.get_label(), ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in ax.lines
    ]


def test_satbench_figure_tells_a_models_renderings_apart(tmp_path, monkeypatch) -> None:
    from logicforge.reports import plots

    seen = {}
    real = plots._plt

    def spy():
        plt = real()
        orig = plt.close

        def close(fig):
            seen["lines"] = _lines(fig.axes[0])
            orig(fig)

        monkeypatch.setattr(plt, "close", close)
        return plt

    monkeypatch.setattr(plots, "_plt", spy)
    rows = [
        {"model": "m", "rendering": rend, "n_clauses": n, "n": 4, "accuracy": 50.0}
        for rend in ("formula", "formula-trace")
        for n in (4, 8)
    ]
    assert sb.clauses_figure(rows, {"m": "#1f77b4"}, tmp_path / "f.png")
    mine = [x for x in seen["lines"] if x[0].startswith("m ·")]
    assert len(mine) == 2 and mine[0][1] == mine[1][1]  # one colour per model
    assert (mine[0][2], mine[0][3]) != (mine[1][2], mine[1][3])  # told apart by style


def test_phase_figure_keeps_the_solver_visible_under_a_perfect_model(tmp_path, monkeypatch) -> None:
    from logicforge.reports import plots

    seen = {}
    real = plots._plt

    def spy():
        plt = real()
        orig = plt.close

        def close(fig):
            seen["lines"] = [ln for ax in fig.axes for ln in ax.lines]
            orig(fig)

        monkeypatch.setattr(plt, "close", close)
        return plt

    monkeypatch.setattr(plots, "_plt", spy)
    probs = [
        {"label": lb, "metadata": {"alpha": a, "decisions": 3}}
        for a in (3.0, 5.0)
        for lb in ("SAT", "UNSAT")
    ]
    rows = [
        {"model": "oracle", "alpha": a, "pred": lb} for a in (3.0, 5.0) for lb in ("SAT", "UNSAT")
    ]
    colours = plots.model_colours(["oracle"])
    assert plots.phase_transition(probs, rows, colours, tmp_path / "p.png")
    solver = next(ln for ln in seen["lines"] if ln.get_label() == "P(SAT) (solver)")
    model = next(ln for ln in seen["lines"] if ln.get_label() == "P(pred SAT): oracle")
    assert list(solver.get_ydata()) == list(model.get_ydata())  # the same curve …
    assert solver.get_color() != model.get_color()  # … in another colour,
    assert solver.get_linewidth() > 2 * model.get_linewidth()  # wider, and beneath it
    assert solver.get_zorder() < model.get_zorder()
    assert "#7f7f7f" not in plots.PALETTE and solver.get_color() not in plots.PALETTE


def test_small_n_intervals_are_error_bars_not_slabs() -> None:
    from logicforge.reports import plots

    plt = plots._plt()
    fig, ax = plt.subplots()
    small = [
        {"model": m, "x": x, "n": 2, "acc": 0.5, "acc_lo": 0.09, "acc_hi": 0.91}
        for m in ("a", "b")
        for x in (1.0, 2.0)
    ]
    assert plots.model_lines(ax, small, "x", "acc", {}) == "bars+points"  # n = 2: no lines
    assert not ax.collections or all(
        type(c).__name__ != "PolyCollection" and type(c).__name__ != "FillBetweenPolyCollection"
        for c in ax.collections
    )
    fig2, ax2 = plt.subplots()
    big = [dict(r, n=40) for r in small]
    assert plots.model_lines(ax2, big, "x", "acc", {}) == "bands"
    plt.close(fig)
    plt.close(fig2)
