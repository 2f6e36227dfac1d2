"""The self-contained HTML report: overview, figures, sortable tables, and a filterable
drill-down to every record. Works offline (no CDN, images inlined); every piece of text that
came from a model or a data file is escaped, so a response is shown, never executed."""

from __future__ import annotations

import base64
import html
import json
import platform
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._version import __version__
from ..numfmt import cell
from .html_assets import (
    _JS_HASH,
    CSS,
    HUMAN,
    JS,
    _glossary,
)

MAX_DRILLDOWN = 500
MAX_PROMPT = 6000  # characters of a prompt shown in the drill-down
HEADLINE_ROWS = 10  # rows of the headline table on the first screen (all of them further down)
MAX_RESPONSE = 20_000  # characters of a response shown there (the record keeps all of it)


def _clip(text: str, limit: int, where: str) -> str:
    """``text`` cut to ``limit`` characters with a note saying how much more ``where`` holds."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit:,} more characters in {where})"


def table_html(name: str, rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    cols = list(dict.fromkeys(k for r in rows for k in r))
    head = "".join(
        f"<th data-col='{html.escape(c, quote=True)}' title='{html.escape(c, quote=True)}'>"
        f"{html.escape(HUMAN.get(c, c))}</th>"
        for c in cols
    )
    body = "".join(
        "<tr>"
        + "".join(
            f"<td class='num'>{html.escape(cell(r.get(c)))}</td>"
            if isinstance(r.get(c), int | float) or r.get(c) is None
            else f"<td>{html.escape(cell(r.get(c)))}</td>"
            for c in cols
        )
        + "</tr>"
        for r in rows
    )
    return (
        f"<h3>{html.escape(name)}</h3><div class='scroll'><table class='sortable'>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _verdict_kind(r: Mapping[str, Any]) -> str:
    v = r.get("verdict") or {}
    if r.get("error"):
        return "error"
    if v.get("excluded"):
        return "unlabelled"
    if r.get("finish_reason") == "length":
        return "truncated"
    if v.get("parse_failure"):
        return "parse-failure"
    return "correct" if v.get("correct") else "wrong"


def drilldown_sample(
    records: Sequence[Mapping[str, Any]], limit: int = MAX_DRILLDOWN
) -> list[Mapping[str, Any]]:
    """At most ``limit`` records, taken in turn from every (model, family, verdict) group in
    file order, so a model that ran second — and its rarer failures — is as visible as the
    first; all of them when there are fewer.

    Example:
        >>> recs = [{"model": "a", "verdict": {"correct": True}}] * 9 + [{"model": "b"}]
        >>> [r["model"] for r in drilldown_sample(recs, 2)]
        ['a', 'b']
    """
    if len(records) <= limit:
        return list(records)
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for r in records:
        key = (str(r.get("model")), str((r.get("meta") or {}).get("family")), _verdict_kind(r))
        groups.setdefault(key, []).append(r)
    queues = list(groups.values())
    out: list[Mapping[str, Any]] = []
    depth = 0
    while len(out) < limit:
        took = False
        for q in queues:
            if depth < len(q) and len(out) < limit:
                out.append(q[depth])
                took = True
        if not took:
            break
        depth += 1
    return out


def truncation_note(records: Sequence[Mapping[str, Any]]) -> str:
    """How replies cut off by the token limit were scored, from the records themselves.

    Example:
        >>> truncation_note([{"finish_reason": "length", "verdict": {"details": {"truncation": "incorrect"}}}])
        'Truncated replies (token limit): 1, scored incorrect.'
    """
    cut = [r for r in records if r.get("finish_reason") == "length"]
    if not cut:
        return "Truncated replies (token limit): none."
    policies = sorted(
        {
            str(((r.get("verdict") or {}).get("details") or {}).get("truncation", "as parsed"))
            for r in cut
        }
    )
    how = " and ".join(
        "scored incorrect" if p == "incorrect" else "scored as parsed" for p in policies
    )
    return f"Truncated replies (token limit): {len(cut)}, {how}."


def model_rows(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per model: its records, samples per item and the sampling its records were produced
    with (from each record's ``config``; "—" for records written before configurations were
    recorded, and every distinct value when a file mixes them).

    Example:
        >>> recs = [{"model": "m", "sample": 1, "config": {"temperature": 0.7, "max_tokens": 64}}]
        >>> model_rows(recs)[0]["temperature"], model_rows(recs)[0]["samples"]
        ('0.7', 2)
    """
    out = []
    for m in sorted({str(r.get("model")) for r in records}):
        mine = [r for r in records if str(r.get("model")) == m]
        row: dict[str, Any] = {"model": m, "records": len(mine)}
        row["samples"] = 1 + max(int(r.get("sample") or 0) for r in mine)
        for k in ("temperature", "top_p", "max_tokens", "seed", "structured"):
            seen = sorted({str((r.get("config") or {}).get(k, "—")) for r in mine})
            row[k] = " / ".join(seen)
        out.append(row)
    return out


def _seeds(seeds: set[Any]) -> str:
    """The seeds of a block: all of them when a few, else how many (imported problems have
    one seed each).

    Example:
        >>> _seeds({3, 1}), _seeds(set(range(40)))
        ('1, 3', '40 distinct')
    """
    known = sorted(s for s in seeds if s is not None)
    return ", ".join(map(str, known)) if len(known) <= 6 else f"{len(known)} distinct"


def _overview(
    records: Sequence[Mapping[str, Any]],
    problems: Sequence[Mapping[str, Any]],
    command: str | None,
    scale: str | None = None,
) -> str:
    from ..metrics.aggregate import natural

    esc = html.escape
    blocks: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"problems": 0, "seeds": set(), "labels": Counter()}
    )
    for p in problems:
        params = p.get("params") or {}
        shown = ", ".join(  # an imported problem's own id is not a parameter: grouped together
            f"{k}={json.dumps(v)}"
            for k, v in sorted(params.items())
            if v not in (None, False) and k != "id"
        )
        b = blocks[(str(p.get("family")), shown)]
        b["problems"] += 1
        b["seeds"].add(p.get("seed"))
        b["labels"][str(p.get("label"))] += 1
    rows = [
        {
            "family": fam,
            "parameters": params,
            "problems": b["problems"],
            "seeds": _seeds(b["seeds"]),
            "labels": ", ".join(f"{k} {v}" for k, v in sorted(b["labels"].items())),
        }
        # parameters in numeric order (n_vars=5 before n_vars=10), not as strings
        for (fam, params), b in sorted(blocks.items(), key=lambda kv: (kv[0][0], natural(kv[0][1])))
    ]
    models = model_rows(records)
    try:
        import numpy
        import pysat

        versions = f"numpy {numpy.__version__} · python-sat {pysat.__version__}"
    except ImportError:  # pragma: no cover
        versions = ""
    parts = [
        "<h2 id='overview'>Overview</h2>",
        f"<p class='meta'>logicforge {esc(__version__)} · Python {esc(platform.python_version())}"
        f" · {esc(versions)} · {len(records)} records · {len(problems)} problems</p>",
    ]
    if scale:
        parts.append(
            f"<p class='scale'>Scale: this run has {len(problems)} problems and "
            f"{len(records)} records; the paper: {esc(scale)}.</p>"
        )
    if command:
        parts.append(f"<p>Reproduce: <code>{esc(command)}</code></p>")
    parts.append(f"<p class='meta'>{esc(truncation_note(records))}</p>")
    parts.append(table_html("Problems by family and parameters", rows))
    parts.append(table_html("Models and their sampling", models))
    return "".join(parts)


def _select(key: str, label: str, values: Sequence[str]) -> str:
    opts = "".join(
        f"<option value='{html.escape(v, quote=True)}'>{html.escape(v)}</option>" for v in values
    )
    return (
        f"<label>{label}<select data-key='{key}'><option value=''>all</option>{opts}</select>"
        "</label>"
    )


def _records(records: Sequence[Mapping[str, Any]], prompts: Mapping[str, str]) -> str:
    esc = html.escape
    shown = drilldown_sample(records)
    kinds = ["correct", "wrong", "parse-failure", "truncated", "error", "unlabelled"]
    models = sorted({str(r.get("model")) for r in shown})
    fams = sorted({str((r.get("meta") or {}).get("family")) for r in shown})
    parts = [
        "<h2 id='records'>Records</h2><p>Open a record for its prompt, the response, the parsed "
        "answer and why it was judged so. Model text is shown as text.</p><div class='filters'>",
        _select("verdict", "verdict", kinds),
        _select("model", "model", models),
        _select("family", "family", fams),
        "<span id='shown'></span></div>",
    ]
    for r in shown:
        kind = _verdict_kind(r)
        v = r.get("verdict") or {}
        meta = r.get("meta") or {}
        model, fam = str(r.get("model")), str(meta.get("family"))
        cls = "ok" if kind == "correct" else "bad"
        summary = (
            f"{esc(model)} · {esc(str(meta.get('problem_id')))} · {esc(str(meta.get('rendering')))}"
            f" · gold {esc(str(meta.get('label')))} · <span class='{cls}'>{kind}</span>"
        )
        prompt = _clip(prompts.get(str(r.get("item_id")), ""), MAX_PROMPT, "items.jsonl")
        where = f"records.jsonl, record_id {r.get('record_id')}"
        response = _clip(str(r.get("text") or ""), MAX_RESPONSE, where)
        answer = json.dumps(r.get("answer"), ensure_ascii=False)
        parts.append(
            f"<details class='rec' data-verdict='{kind}' data-model='{esc(model, quote=True)}' "
            f"data-family='{esc(fam, quote=True)}'><summary>{summary}</summary>"
            f"<p>why: {esc(v.get('reason') or r.get('error') or '')}</p>"
            + (f"<p>prompt:</p><pre class='prompt'>{esc(prompt)}</pre>" if prompt else "")
            + f"<p>response:</p><pre class='response'>{esc(response)}</pre>"
            f"<p>parsed: <code>{esc(answer)}</code></p></details>"
        )
    if len(records) > len(shown):
        parts.append(
            f"<p>{len(shown)} of {len(records)} records shown, taken in turn from every model, "
            "family and verdict; all of them are in records.jsonl</p>"
        )
    return "".join(parts)


def _headline(h: Any, out: Path) -> str:
    """The first screen: the headline sentence, table and figure (nothing when there is none)."""
    if h is None:
        return ""
    esc = html.escape
    parts = [
        "<section id='result'><h2>Result</h2>",
        f"<p class='reading'>{esc(h.sentence)}</p>",
        "<div class='headline'>",
        f"<div>{table_html(h.title, h.rows[:HEADLINE_ROWS])}"
        + (
            f"<p class='meta'>the first {HEADLINE_ROWS} of {len(h.rows)} rows; all of them in "
            "<a href='#tables'>the tables</a></p>"
            if len(h.rows) > HEADLINE_ROWS
            else ""
        )
        + "</div>",
    ]
    if h.figure is not None:
        fn, cap = h.figure
        b64 = base64.b64encode((out / fn).read_bytes()).decode()
        parts.append(
            f"<figure class='headline-figure'><img src='data:image/png;base64,{b64}' "
            f"alt='{esc(cap, quote=True)}'><figcaption>{esc(cap)}</figcaption></figure>"
        )
    parts.append(
        "</div><p class='meta'>Every table below, the figures and a glossary of the columns: "
        "<a href='#tables'>tables</a> · <a href='#glossary'>glossary</a>. Accuracy and rates "
        "are over scored records; records that ended in an error are counted apart "
        "(<code>errors</code>).</p></section>"
    )
    return "".join(parts)


def render_html(
    title: str,
    records: Sequence[Mapping[str, Any]],
    problems: Sequence[Mapping[str, Any]],
    tables: list[tuple[str, list[dict[str, Any]]]],
    figures: list[tuple[str, str]],
    out: Path,
    command: str | None,
    prompts: Mapping[str, str] | None = None,
    headline: Any = None,
    scale: str | None = None,
) -> str:
    esc = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        f"img-src data:; style-src 'unsafe-inline'; script-src '{_JS_HASH}'\">"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1><nav><a href='#overview'>Overview</a><a href='#figures'>Figures</a>"
        "<a href='#tables'>Tables</a><a href='#records'>Records</a></nav>",
        _headline(headline, out),
        _overview(records, problems, command, scale),
        "<h2 id='figures'>Figures</h2>",
    ]
    for fn, cap in figures:
        b64 = base64.b64encode((out / fn).read_bytes()).decode()
        parts.append(
            f"<figure><img src='data:image/png;base64,{b64}' alt='{esc(cap, quote=True)}'>"
            f"<figcaption>{esc(cap)}</figcaption></figure>"
        )
    if not figures:
        parts.append("<p>No figure applies to these records.</p>")
    parts.append(
        "<h2 id='tables'>Tables</h2><p>Click a column header to sort. “—” marks an undefined "
        "metric (zero denominator). Every table is also written as CSV and Markdown.</p>"
    )
    parts += [table_html(n, rows) for n, rows in tables]
    parts.append(_glossary())
    parts.append(_records(records, prompts or {}))
    parts.append(f"<script>{JS}</script></body></html>")
    return "".join(parts)
