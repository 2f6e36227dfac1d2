"""Assemble the report directory: tables (CSV, Markdown), figures (PNG) and ``report.html``."""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from ..metrics.aggregate import METRIC_NAMES, aggregate, row_of
from . import compute, plots, studies
from .tables import to_csv, to_markdown

GROUPINGS: list[tuple[str, ...]] = [
    ("model",),
    ("model", "label"),
    ("model", "alpha"),
    ("model", "size_group"),
    ("model", "size"),
    ("model", "log10_search_space"),
    ("model", "n_vars"),
]
MAX_DRILLDOWN = 500


def build_report(
    records: Sequence[Mapping[str, Any]],
    out_dir: str | Path,
    problems: Sequence[Mapping[str, Any]] = (),
    title: str = "logicforge report",
    command: str | None = None,
    table: Sequence[str] = (),
) -> Path:
    """Write tables, figures and a self-contained HTML report; returns the HTML path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = [row_of(r) for r in records]
    colours = plots.model_colours(sorted({r["model"] for r in rows}))
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    for by in GROUPINGS:
        if any(r.get(c) is None for r in rows for c in by):
            continue
        agg = aggregate(records, by)
        name = "metrics_by_" + "_".join(by)
        (out / f"{name}.csv").write_text(to_csv(agg, [*by, *METRIC_NAMES]))
        (out / f"{name}.md").write_text(to_markdown(agg, [*by, *METRIC_NAMES]))
        tables.append((name, agg))
    figures: list[tuple[str, str]] = []
    cap = plots.phase_transition(problems, rows, colours, out / "phase_transition.png")
    if cap:
        figures.append(("phase_transition.png", cap))
    agg_n = dict(tables).get("metrics_by_model_n_vars")
    if agg_n:
        cap = plots.metric_vs(
            agg_n, "n_vars", "accuracy", colours, out / "accuracy_vs_n.png", "Accuracy vs N"
        )
        if cap:
            figures.append(("accuracy_vs_n.png", cap))
    agg_a = dict(tables).get("metrics_by_model_alpha")
    if agg_a:
        cap = plots.metric_vs(
            agg_a, "alpha", "accuracy", colours, out / "accuracy_vs_alpha.png", "Accuracy vs α"
        )
        if cap:
            figures.append(("accuracy_vs_alpha.png", cap))
    cols = {k for r in rows for k in r}
    if table:
        t1 = studies.table1(records, table)
        _write(out, "table1", t1)
        tables.insert(0, ("table1 (Sat./Wit. %, per-formula means)", t1))
    if "sweep_knob" in cols:
        sw = studies.sweep_tests(records)
        _write(out, "sweep_tests", sw)
        tables.append(("sweep_tests (Friedman across levels, BH within family)", sw))
        figures += studies.sweep_figures(records, colours, out)
    if any((r.get("answer") or {}).get("stats") for r in records):
        st, fig = studies.solver_stats_comparison(records, colours, out)
        if st:
            _write(out, "reported_vs_solver", st)
            tables.append(("reported_vs_solver (Spearman ρ: reported counts vs MiniSat)", st))
        if fig:
            figures.append(fig)
    variants = {r.get("variant") for r in rows} - {None}
    if any(r.get("pair_id") for r in rows) and len(variants) > 1:
        from ..metrics.adr import adr_table

        t = adr_table(records, ("model", "variant"))
        _write(out, "adr_by_model_variant", t)
        tables.insert(0, ("adr_by_model_variant", t))
    if len(variants) > 1:
        ag = studies.representation_agreement(records)
        _write(out, "agreement", ag)
        tables.insert(0, ("agreement (decisions on the same source formula)", ag))
    if any(r.get("pair_id") for r in rows):
        for name, t in studies.adr_tables(records):
            _write(out, name, t)
            tables.insert(0, (name, t))
        fig = studies.adr_figure(records, colours, out)
        if fig:
            figures.insert(0, fig)
    if "variant" in cols and len({r.get("variant") for r in rows}) > 1:
        vt = studies.variant_tests(records)
        _write(out, "variant_tests", vt)
        tables.append(("variant_tests (paired t per formula)", vt))
    if any((r.get("sample") or 0) > 0 for r in rows):
        from ..metrics.ttc import majority_table, pass_at_k_table

        pk = pass_at_k_table(records)
        _write(out, "pass_at_k", pk)
        tables.append(("pass_at_k (unbiased estimator)", pk))
        mj = majority_table(records)
        _write(out, "majority_vote", mj)
        tables.append(("majority_vote", mj))
        cap = plots.pass_at_k_figure(pk, colours, out / "pass_at_k.png")
        if cap:
            figures.append(("pass_at_k.png", cap))
    if "z3_conflicts" in cols:
        zc, fig = compute.conflicts_figure(records, colours, out)
        _write(out, "accuracy_by_z3_conflicts", zc)
        tables.append(("accuracy_by_z3_conflicts", zc))
        if fig:
            figures.append(fig)
        tz = compute.tokens_vs_conflicts(records)
        if tz:
            _write(out, "reasoning_tokens_vs_z3_conflicts", tz)
            tables.append(("reasoning_tokens_vs_z3_conflicts (Spearman ρ per model)", tz))
    bon = compute.best_of_n_table(records)
    if bon:
        _write(out, "best_of_n", bon)
        tables.append(("best_of_n (selected answer per item)", bon))
    agg_s = dict(tables).get("metrics_by_model_log10_search_space")
    if agg_s:
        for metric in ("accuracy", "cell_accuracy"):
            cap = plots.metric_vs(
                agg_s,
                "log10_search_space",
                metric,
                colours,
                out / f"{metric}_vs_search_space.png",
                f"{metric} vs log10 search space",
            )
            if cap:
                figures.append((f"{metric}_vs_search_space.png", cap))
    path = out / "report.html"
    path.write_text(
        _html(title, records, problems, tables, figures, out, command), encoding="utf-8"
    )
    return path


def _write(out: Path, name: str, rows: list[dict[str, Any]]) -> None:
    cols = list(dict.fromkeys(k for r in rows for k in r))
    (out / f"{name}.csv").write_text(to_csv(rows, cols))
    (out / f"{name}.md").write_text(to_markdown(rows, cols))


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def _table_html(name: str, rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    cols = list(dict.fromkeys(k for r in rows for k in r))
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_fmt(r.get(c)))}</td>" for c in cols) + "</tr>"
        for r in rows
    )
    return f'<h3>{html.escape(name)}</h3><div class="scroll"><table class="sortable"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;font-size:12px;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#f3f3f3;cursor:pointer}.scroll{overflow-x:auto}img{max-width:100%;border:1px solid #eee}
pre{white-space:pre-wrap;background:#f8f8f8;padding:6px;max-height:20em;overflow:auto;font-size:11px}
details{border-bottom:1px solid #eee;padding:2px}.ok{color:#070}.bad{color:#b00}"""

_JS = """document.querySelectorAll('table.sortable th').forEach(function(th,i){th.addEventListener('click',function(){
var tb=th.closest('table').tBodies[0],rows=Array.from(tb.rows),asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
rows.sort(function(a,b){var x=a.cells[i].textContent,y=b.cells[i].textContent,nx=parseFloat(x),ny=parseFloat(y);
var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return asc?c:-c;});rows.forEach(function(r){tb.appendChild(r);});});});
var f=document.getElementById('filter');if(f){f.addEventListener('change',function(){document.querySelectorAll('details.rec').forEach(function(d){
d.style.display=(f.value===''||d.dataset.verdict===f.value)?'':'none';});});}"""


def _html(
    title: str,
    records: Sequence[Mapping[str, Any]],
    problems: Sequence[Mapping[str, Any]],
    tables: list[tuple[str, list[dict[str, Any]]]],
    figures: list[tuple[str, str]],
    out: Path,
    command: str | None,
) -> str:
    esc = html.escape
    models = sorted({str(r.get("model")) for r in records})
    fams = sorted({str((r.get("meta") or {}).get("family")) for r in records})
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title><style>{_CSS}</style></head><body>"
    ]
    parts.append(
        f"<h1>{esc(title)}</h1><p>logicforge {esc(__version__)} · {len(records)} records · "
        f"{len(problems)} problems · models: {esc(', '.join(models))} · families: {esc(', '.join(fams))}</p>"
    )
    if command:
        parts.append(f"<p>Reproduce: <code>{esc(command)}</code></p>")
    parts.append("<h2>Figures</h2>")
    for fn, cap in figures:
        b64 = base64.b64encode((out / fn).read_bytes()).decode()
        parts.append(
            f"<figure><img src='data:image/png;base64,{b64}' alt='{esc(cap, quote=True)}'><figcaption>{esc(cap)}</figcaption></figure>"
        )
    parts.append(
        "<h2>Tables</h2><p>Click a column header to sort. “—” marks an undefined metric (zero denominator).</p>"
    )
    parts += [_table_html(n, rows) for n, rows in tables]
    parts.append(
        "<h2>Records</h2><label>Show: <select id='filter'><option value=''>all</option>"
        "<option value='correct'>correct</option><option value='wrong'>wrong</option>"
        "<option value='parse-failure'>parse failure</option><option value='error'>error</option></select></label>"
    )
    for r in list(records)[:MAX_DRILLDOWN]:
        v = r.get("verdict") or {}
        kind = (
            "error"
            if r.get("error")
            else "parse-failure"
            if v.get("parse_failure")
            else "correct"
            if v.get("correct")
            else "wrong"
        )
        cls = "ok" if kind == "correct" else "bad"
        meta = r.get("meta") or {}
        summary = (
            f"{esc(str(r.get('model')))} · {esc(str(meta.get('problem_id')))} · gold {esc(str(meta.get('label')))}"
            f" · <span class='{cls}'>{kind}</span>"
        )
        answer = json.dumps(r.get("answer"), ensure_ascii=False)
        parts.append(
            f"<details class='rec' data-verdict='{kind}'><summary>{summary}</summary>"
            f"<p>why: {esc(v.get('reason') or r.get('error') or '')}</p><p>parsed: <code>{esc(answer)}</code></p>"
            f"<pre>{esc(r.get('text') or '')}</pre></details>"
        )
    if len(records) > MAX_DRILLDOWN:
        parts.append(f"<p>… {len(records) - MAX_DRILLDOWN} more records in records.jsonl</p>")
    parts.append(f"<script>{_JS}</script></body></html>")
    return "".join(parts)
