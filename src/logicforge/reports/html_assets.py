"""The report page's fixed parts: its style sheet, its one script (allowed by hash in the
page's content security policy), and the plain-language names and glossary of the metrics."""

from __future__ import annotations

import base64
import hashlib
import html

CSS = """body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
h3{font-size:1em;margin:1.2em 0 .3em}nav a{margin-right:1em}.meta{color:#555;font-size:13px}
table{border-collapse:collapse;font-size:12px;margin:.4em 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
td,th{text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f1f3f5;cursor:pointer;user-select:none;position:sticky;top:0}
th[data-asc='1']::after{content:' ▲'}th[data-asc='0']::after{content:' ▼'}tbody tr:nth-child(even){background:#fafafa}
.scroll{overflow-x:auto}figure{margin:1em 0;display:inline-block;max-width:49%;vertical-align:top}
figure img{max-width:100%;border:1px solid #eee}figcaption{font-size:12px;color:#444}
pre{white-space:pre-wrap;word-break:break-word;background:#f8f8f8;padding:6px;max-height:22em;overflow:auto;font-size:11px}
details{border-bottom:1px solid #eee;padding:3px 0}summary{cursor:pointer}.ok{color:#087f23}.bad{color:#c62828}
.filters label{margin-right:1em}.filters select{margin-left:.3em}#shown{color:#555;font-size:13px}
#result{background:#f6f9fc;border:1px solid #dbe4ee;padding:.2em 1em 1em;margin:1em 0}
.reading{font-size:16px;margin:.4em 0}.headline{display:flex;gap:1.5em;flex-wrap:wrap;align-items:flex-start}
.headline-figure{max-width:560px}dl.glossary dt{font-weight:600;font-family:monospace}dl.glossary dd{margin:0 0 .4em 1.5em}"""

# the names the HTML tables show (CSV and Markdown keep the column names; hover shows them)
HUMAN = {
    "accuracy_lo": "accuracy 95 % low",
    "accuracy_hi": "accuracy 95 % high",
    "precision_sat": "precision (SAT)",
    "recall_sat": "recall (SAT)",
    "f1_sat": "F1 (SAT)",
    "precision_unsat": "precision (UNSAT)",
    "recall_unsat": "recall (UNSAT)",
    "f1_unsat": "F1 (UNSAT)",
    "mcc": "MCC",
    "pred_sat_rate": "answered SAT",
    "sat_rate_on_unsat": "SAT on UNSAT items",
    "witness_valid_on_sat": "valid witness (SAT items)",
    "witness_valid_on_sat_claims": "valid witness (SAT claims)",
    "parse_failure_rate": "parse failures",
    "truncation_rate": "truncated",
    "error_rate": "error rate",
    "cell_accuracy": "cell accuracy",
    "cell_accuracy_macro": "cell accuracy (macro)",
    "mean_completion_tokens": "mean completion tokens",
    "mean_reasoning_tokens": "mean reasoning tokens",
    "adr": "ADR",
    "adr_lo": "ADR 95 % low",
    "adr_hi": "ADR 95 % high",
    "n_vars": "N (variables)",
    "target_clauses": "|C|",
    "size_group": "size group",
    "log10_search_space": "log10 search space",
}

# what each column means (the docs hold the formulas: docs/metrics/)
GLOSSARY = {
    "n": "scored records (errors and unknown gold labels are not scored)",
    "errors": "records that ended in an error (no reply: a dead endpoint, a time-out, a "
    "malformed body) — not counted as wrong",
    "unlabelled": "records whose gold label is unknown (the solver timed out), never scored",
    "accuracy": "share of scored records judged correct (docs/metrics/accuracy.md)",
    "accuracy_lo / accuracy_hi": "Wilson 95 % interval of accuracy",
    "precision_sat / recall_sat / f1_sat": "for the SAT class (binary kinds only)",
    "precision_unsat / recall_unsat / f1_unsat": "for the UNSAT class (binary kinds only)",
    "mcc": "Matthews correlation between gold and predicted labels; undefined (—) when a "
    "model predicts one class only",
    "pred_sat_rate": "share of records answered SAT / YES",
    "sat_rate_on_unsat": "share of UNSAT items answered SAT (satisfiability bias)",
    "witness_valid_on_sat": "share of SAT items answered with an assignment the solver checks",
    "witness_valid_on_sat_claims": "share of SAT answers whose assignment the solver checks (the "
    "ADR paper's assignments satisfied rate)",
    "parse_failure_rate": "share of replies from which no answer could be read",
    "truncation_rate": "share of replies cut off by the token limit (scored incorrect by default)",
    "error_rate": "errors over all labelled records",
    "cell_accuracy": "grid cells right over grid cells in all, pooled (micro; "
    "docs/metrics/zebra-grids.md)",
    "adr": "Accurate Differentiation Rate: pairs with both members right (docs/metrics/adr.md)",
    "Sat. / Wit.": "Table 1 of the 2-SAT paper: decision accuracy and witness validity, in %",
    "n/a": "the metric does not apply to this kind; — : undefined (zero denominator)",
}


def _glossary() -> str:
    def term(k: str) -> str:
        shown = " / ".join(HUMAN.get(x.strip(), x.strip()) for x in k.split("/"))
        return shown if shown == k else f"{shown} ({k})"

    rows = "".join(
        f"<dt>{html.escape(term(k))}</dt><dd>{html.escape(v)}</dd>" for k, v in GLOSSARY.items()
    )
    return f"<h2 id='glossary'>Glossary</h2><dl class='glossary'>{rows}</dl>"


JS = """function sortTable(th){var i=Array.prototype.indexOf.call(th.parentNode.children,th);
var tb=th.closest('table').tBodies[0],rows=Array.from(tb.rows),asc=th.dataset.asc!=='1';
th.parentNode.querySelectorAll('th').forEach(function(h){delete h.dataset.asc;});th.dataset.asc=asc?'1':'0';
rows.sort(function(a,b){var x=a.cells[i].textContent,y=b.cells[i].textContent,nx=parseFloat(x),ny=parseFloat(y);
var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:(x==='—')-(y==='—')||x.localeCompare(y);return asc?c:-c;});
rows.forEach(function(r){tb.appendChild(r);});}
document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){sortTable(th);});});
function applyFilters(){var f={};document.querySelectorAll('.filters select').forEach(function(s){f[s.dataset.key]=s.value;});
var n=0;document.querySelectorAll('details.rec').forEach(function(d){var ok=Object.keys(f).every(function(k){return f[k]===''||d.dataset[k]===f[k];});
d.style.display=ok?'':'none';if(ok)n++;});var s=document.getElementById('shown');if(s)s.textContent=n+' shown';}
document.querySelectorAll('.filters select').forEach(function(s){s.addEventListener('change',applyFilters);});applyFilters();"""


# only this exact script may run: a model response that slipped past escaping still could not
_JS_HASH = "sha256-" + base64.b64encode(hashlib.sha256(JS.encode()).digest()).decode()
