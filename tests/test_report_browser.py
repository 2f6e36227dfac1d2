"""The HTML report in a real headless Chromium: figures and tables present, sorting and filtering
work, and a hostile model response is shown as text and never runs."""

from __future__ import annotations

import asyncio
import json
import os
import shutil

import pytest

import logicforge as lf
from logicforge.models.base import Response
from logicforge.runner.records import score_response

from .browser import Browser, chromium_path

EVIL = (
    '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
    "</pre><b onmouseover='window.__pwned=3'>bold</b> Answer: SAT"
)


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple:
    out = tmp_path_factory.mktemp("report")
    ps = lf.generate(
        "ksat/random", {"n_vars": 8}, count=6, seed=5, grid={"alpha": [2.0, 4.26, 6.0]}
    )
    items = lf.render(ps)
    lf.run(items, "random", out / "records.jsonl")
    lf.run(items, "oracle", out / "records.jsonl")
    recs = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    evil = score_response(items[0], "evil<b>model</b>", 0, Response(text=EVIL))
    recs.append(evil.model_dump(mode="json"))
    html = lf.report(recs, out / "rep", ps, command="pytest", items=items)
    return html, recs


def _need_browser() -> str:
    exe = chromium_path()
    if exe is None:
        if os.environ.get("LOGICFORGE_REQUIRE_BROWSER"):
            pytest.fail("chromium is required here (LOGICFORGE_REQUIRE_BROWSER is set)")
        pytest.skip("no chromium on this machine (`.ci/run` installs Debian's where apt-get works)")
    return exe


def test_report_in_headless_chromium(report, tmp_path) -> None:
    exe = _need_browser()
    html, recs = report

    async def main() -> dict:
        async with Browser(exe) as b:
            await b.open(html.as_uri())
            res = {
                "title": await b.eval("document.title"),
                "tables": await b.eval("document.querySelectorAll('table.sortable').length"),
                "figures": await b.eval(
                    "Array.from(document.images).filter(i => i.naturalWidth > 0 && i.alt.length > 10).length"
                ),
                "pwned": await b.eval("window.__pwned === undefined ? null : window.__pwned"),
                "evil_text": await b.eval(
                    "Array.from(document.querySelectorAll('pre.response')).some(p => p.textContent.includes('<script>window.__pwned'))"
                ),
                "injected": await b.eval(
                    "document.querySelectorAll('details.rec script, details.rec img, details.rec b').length"
                ),
                "prompts": await b.eval("document.querySelectorAll('pre.prompt').length"),
            }
            # sorting: the first table's "model" column, ascending then descending
            col = "Array.from(document.querySelector('table.sortable').tBodies[0].rows).map(r => r.cells[0].textContent)"
            first = "document.querySelector('table.sortable thead th')"
            await b.eval(f"{first}.click()")
            res["asc"] = await b.eval(col)
            await b.eval(f"{first}.click()")
            res["desc"] = await b.eval(col)
            # filtering by verdict, then by model
            shown = "Array.from(document.querySelectorAll('details.rec')).filter(d => d.style.display !== 'none').length"
            res["all"] = await b.eval(shown)
            await b.eval(
                "var s=document.querySelector(\"select[data-key='verdict']\");s.value='wrong';s.dispatchEvent(new Event('change'))"
            )
            res["wrong"] = await b.eval(shown)
            await b.eval(
                "var s=document.querySelector(\"select[data-key='model']\");s.value='oracle';s.dispatchEvent(new Event('change'))"
            )
            res["wrong_oracle"] = await b.eval(shown)
            await b.eval(
                "document.querySelectorAll('.filters select').forEach(s => {s.value=''; s.dispatchEvent(new Event('change'))});"
                "document.querySelectorAll('details.rec').forEach((d, i) => { if (i < 2) d.open = true; })"
            )
            await b.eval("window.__pwned === undefined ? null : window.__pwned")
            res["pwned_after"] = await b.eval(
                "window.__pwned === undefined ? null : window.__pwned"
            )
            await b.screenshot(tmp_path / "report.png")
            return res

    res = asyncio.run(main())
    assert res["title"] == "logicforge report"
    assert res["tables"] >= 3 and res["figures"] >= 1
    assert res["pwned"] is None and res["pwned_after"] is None and res["evil_text"]
    assert res["injected"] == 0 and res["prompts"] == len(recs)
    assert res["asc"] == sorted(res["asc"]) and res["desc"] == sorted(res["asc"], reverse=True)
    wrong = sum(
        1 for r in recs if not r["verdict"]["correct"] and not r["verdict"]["parse_failure"]
    )
    assert res["all"] == len(recs) and res["wrong"] == wrong and res["wrong_oracle"] == 0
    png = (tmp_path / "report.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    if os.environ.get("LOGICFORGE_SCREENSHOT_DIR"):  # keep it for a look
        shutil.copy(tmp_path / "report.png", os.environ["LOGICFORGE_SCREENSHOT_DIR"])


@pytest.fixture(scope="module")
def suite_reports(tmp_path_factory) -> dict:
    """Every shipped suite at one formula per point, answered by the oracle and by a scripted
    model right on a fixed 70 % of items with witnesses on half its right SAT answers (a story
    suite's writer is the random baseline: every story falls back to its template)."""
    from logicforge.suites import list_suites, load_suite, run_suite

    from .conftest import SHARED

    out = tmp_path_factory.mktemp("suites")
    paths = {}
    old = os.environ.get("LOGICFORGE_DATA")
    os.environ["LOGICFORGE_DATA"] = str(SHARED)
    try:
        for name in list_suites():
            s = load_suite(name, models=["oracle", "noisy:p=0.7"], writer="random")
            if s.story is not None:  # the scripted writer's stories all fail: keep them, templated
                s = s.model_copy(
                    update={"story": s.story.model_copy(update={"on_failure": "template"})}
                )
            if any(b.data for b in s.problems) and not SHARED.exists():
                continue  # a data-backed suite, and no data here
            s = s.with_blocks(count=1)
            paths[name] = run_suite(s, out / name, progress=False, cache=False)
    finally:
        if old is None:
            os.environ.pop("LOGICFORGE_DATA", None)
        else:
            os.environ["LOGICFORGE_DATA"] = old
    return paths


def test_the_first_screen_is_the_result(suite_reports, tmp_path) -> None:
    """For every shipped suite, at 1400 px the first screen holds the headline sentence (with n
    and a 95 % interval), the headline table and, where the report has figures, the headline
    figure; the drill-down reaches every model's records; zebra, deduction and FOL reports carry
    no SAT-only column."""
    exe = _need_browser()

    async def main() -> dict:
        got = {}
        async with Browser(exe) as b:
            await b.send("Emulation.setDeviceMetricsOverride", width=1400, height=900,
                         deviceScaleFactor=1, mobile=False)  # fmt: skip
            for name, html in suite_reports.items():
                await b.open(html.as_uri())
                got[name] = await b.eval(
                    """(() => {
                    const r = document.querySelector('#result');
                    if (!r) return null;
                    const t = r.querySelector('table'), img = r.querySelector('img');
                    const models = new Set(Array.from(document.querySelectorAll('details.rec'))
                        .map(d => d.dataset.model));
                    const heads = Array.from(document.querySelectorAll('table.sortable thead th'))
                        .map(th => th.dataset.col);
                    return {
                      top: r.getBoundingClientRect().top,
                      table_top: t ? t.getBoundingClientRect().top : null,
                      img_top: img ? img.getBoundingClientRect().top : null,
                      img_ok: img ? img.naturalWidth > 0 : null,
                      figures: document.querySelectorAll('#figures ~ figure img').length,
                      reading: r.querySelector('.reading').textContent,
                      models: Array.from(models).sort(),
                      heads: heads,
                    };
                    })()"""
                )
                await b.screenshot(tmp_path / f"{name}.png", full_page=False)
        return got

    got = asyncio.run(main())
    for name, g in got.items():
        assert g is not None, f"{name}: no headline section"
        assert g["top"] < 300 and g["table_top"] is not None and g["table_top"] < 900, (name, g)
        if g["figures"]:
            assert g["img_ok"] and g["img_top"] < 900, (name, g)
        assert ("n = " in g["reading"] or "pairs" in g["reading"]) and "CI" in g["reading"], (
            name,
            g["reading"],
        )
        if name == "zebra-table2":  # each model and its self-verification wrappers (templates)
            assert {m.split("+")[0] for m in g["models"]} == {"noisy:p=0.7", "oracle"}, g
            assert len(g["models"]) == 8, (name, g["models"])
        else:
            assert g["models"] == ["noisy:p=0.7", "oracle"], (name, g["models"])
    assert len(got) >= 21  # every shipped suite (the data-backed ones where the data is here)
    sat_only = {"f1_sat", "precision_sat", "recall_sat", "mcc", "witness_valid_on_sat"}
    for name in got:
        if name.startswith(("zebra-", "logicedit-")):
            assert not sat_only & set(got[name]["heads"]), (
                name,
                sat_only & set(got[name]["heads"]),
            )
    assert (tmp_path / "twosat-table1.png").stat().st_size > 10_000


@pytest.mark.embedded
def test_a_fol_report_first_screen_has_no_sat_only_column(shared_data, tmp_path, monkeypatch):
    """FOLIO answers True / False / Unknown: its report shows the result first and none of the
    SAT-only columns (precision_sat, f1_sat, mcc, witness validity …)."""
    exe = _need_browser()
    from logicforge.suites import load_suite, run_suite

    monkeypatch.setenv("LOGICFORGE_DATA", str(shared_data))
    s = load_suite("logicedit-folio", models=["oracle", "random"])
    blocks = [b.model_copy(update={"count": 1, "edits": "cumulative"}) for b in s.problems]
    html = run_suite(s.model_copy(update={"problems": blocks}), tmp_path, progress=False)

    async def main() -> dict:
        async with Browser(exe) as b:
            await b.send("Emulation.setDeviceMetricsOverride", width=1400, height=900,
                         deviceScaleFactor=1, mobile=False)  # fmt: skip
            await b.open(html.as_uri())
            return await b.eval(
                """({top: document.querySelector('#result').getBoundingClientRect().top,
                    reading: document.querySelector('#result .reading').textContent,
                    heads: Array.from(document.querySelectorAll('table.sortable thead th'))
                        .map(th => th.dataset.col)})"""
            )

    got = asyncio.run(main())
    assert got["top"] < 300 and "CI" in got["reading"], got["reading"]
    sat_only = {"f1_sat", "precision_sat", "recall_sat", "mcc", "witness_valid_on_sat"}
    assert not sat_only & set(got["heads"]), sat_only & set(got["heads"])


def _reproduction_rows() -> list[tuple[str, str, list[str]]]:
    """(artefact, suite, files) for every row of docs/reproduce.md whose command is one suite
    run with a model M and nothing else a scripted model cannot stand in for."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "reproduce.md").read_text()
    rows = []
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 4 or not cells[1].startswith("`"):
            continue
        cmd = re.findall(r"`([^`]*)`", cells[1])[0]
        m = re.search(r"logicforge suite ([a-z0-9-]+)", cmd)
        if not m or cmd.count("--model") > 1:
            continue  # several suites, or models a scripted one cannot stand in for
        files = [f for f in re.findall(r"`([^`]+\.(?:md|png|json))`", cells[2])]
        rows.append((cells[0], m.group(1), files))
    return rows


def test_every_reproduction_row_produces_its_files(suite_reports) -> None:
    """docs/reproduce.md: each row's command, run at one problem per point on the scripted
    model, writes every report file the row names (tables, figures, back-translation counts)."""
    rows = _reproduction_rows()
    assert len(rows) >= 35
    missing = []
    for artefact, suite, files in rows:
        if suite not in suite_reports:
            continue  # a data-backed suite without its data here
        rep = suite_reports[suite].parent
        for f in files:
            where = rep.parent if f.startswith(("backtranslation-", "pairing")) else rep
            if not list(where.glob(f)):
                missing.append(f"{artefact} ({suite}): {f}")
    assert not missing, "\n".join(missing)
