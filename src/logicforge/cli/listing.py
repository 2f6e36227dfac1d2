"""``logicforge list``: every registry's entries with a one-line description (families with
their parameters, renderers, models, transforms, metrics, suites, datasets).

Example:
    >>> "ksat/random" in {r["name"] for r in list_rows("families")}
    True
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import re
import sys
from typing import Any

from ..registry import DATASETS, FAMILIES, METRICS, MODELS, RENDERERS, TRANSFORMS

MODEL_HELP = {
    "random": "uniformly random answer of the right shape (seed=N)",
    "always-sat": "answers SAT / YES to everything",
    "always-unsat": "answers UNSAT / NO to everything",
    "oracle": "the proven answer with its witness (an upper bound and a pipeline check)",
    "embedded": "SmolLM2-135M-Instruct in-process through llama.cpp (from PyPI, no download)",
    "local": "any GGUF file in-process: local:/path/model.gguf",
    "openai-compatible": "chat API of vLLM, llama.cpp, Ollama or a hosted service: openai-compatible:URL:MODEL",
    "openai": "alias of openai-compatible",
    "selfverify": "review rounds around a model: selfverify:<rounds>:<none|oracle>:<model spec>",
    "hf": "Hugging Face transformers in-process, micro-batched: hf:<local model dir>;batch=8;device=cpu",
    "vllm": "vLLM's offline engine, micro-batched: vllm:<model dir or name>;batch=64",
    "bestofn": "best-of-n with a scorer: bestofn:<n>:<oracle|majority|model(<spec>)>:<model spec>",
}


METRIC_HELP = {
    "n": "scored records in the group",
    "unlabelled": "records whose gold label timed out: never scored",
    "accuracy": "share of correct decisions (missing answers count wrong)",
    "accuracy_lo": "Wilson 95 % interval, lower end",
    "accuracy_hi": "Wilson 95 % interval, upper end",
    "precision_sat": "precision with SAT as the positive class",
    "recall_sat": "recall with SAT as the positive class",
    "f1_sat": "F1 with SAT as the positive class",
    "precision_unsat": "precision with UNSAT as the positive class",
    "recall_unsat": "recall with UNSAT as the positive class",
    "f1_unsat": "F1 with UNSAT as the positive class",
    "mcc": "Matthews correlation (undefined when a marginal is empty)",
    "pred_sat_rate": "share of SAT predictions",
    "sat_rate_on_unsat": "share of UNSAT items called SAT (satisfiability bias)",
    "witness_valid_on_sat": "share of SAT items answered with a valid witness",
    "witness_valid_on_sat_claims": "share of SAT answers with a valid witness (ADR paper)",
    "parse_failure_rate": "share of responses with no readable answer",
    "truncation_rate": "share of responses cut at max_tokens",
    "error_rate": "share of requests that failed",
    "cell_accuracy": "grids: correct cells over all cells, Σ right / Σ cells (ZebraLogic; missing answers count 0)",
    "cell_accuracy_macro": "grids: mean of per-puzzle cell fractions (an extra; not the paper's)",
    "mean_completion_tokens": "mean completion tokens per response",
    "mean_reasoning_tokens": "mean reasoning tokens (usage, else counted)",
}


def _first_line(text: str | None, limit: int | None = 150) -> str:
    """The first sentence of the first paragraph (at most ``limit`` characters; None: whole),
    with reStructuredText's double backticks read as plain text.

    Example:
        >>> _first_line("``2sat/backbone``: SAT 2-CNFs. More.")
        '2sat/backbone: SAT 2-CNFs.'
    """
    para = " ".join((text or "").strip().split("\n\n")[0].split())
    para = re.sub(r"``([^`]*)``", r"\1", para)
    end = para.find(". ")
    s = para if end == -1 else para[: end + 1]
    return s if limit is None or len(s) <= limit else s[: limit - 1] + "…"


# what a renderer's name suffix changes, for renderers that share their base's docstring
VARIANTS = {
    "formal": "formal notation: the cells as variables, the rules as constraints (no story)",
    "proof": "UNSAT answered with a numbered refutation, checked step by step (trains on the "
    "certified reward)",
    "ascii": "ASCII connectives (OR, NOT)",
    "aware": "with SATBench's error reminder",
    "mus": "asks a minimal unsatisfiable subset",
    "mcs": "asks a minimal correction set",
    "maxsat": "asks a maximum satisfiable subset",
    "search": "asks the search's steps",
    "trace": "asks SATBench's reasoning trace (the conditions an UNSAT answer rests on)",
    "last": "the label on the last line, after the reasoning and its justification (SATBench's order)",
}


def _distinct(rows: list[dict[str, str]]) -> None:
    """Give renderers that share one description a note of what their own name changes."""
    by_desc: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        by_desc.setdefault(r["description"], []).append(r)
    for group in by_desc.values():
        if len(group) < 2:
            continue
        for r in group:
            suffix = r["name"].rsplit("-", 1)[-1] if "-" in r["name"] else ""
            note = VARIANTS.get(suffix)
            words = r["name"].split("-")
            if note is not None and len(words) > 2 and words[-2] in VARIANTS:
                note = f"{VARIANTS[words[-2]]}; {note}"  # two variants in one name
            if note is None:
                note = "the base prompt" if suffix == "" or suffix == r["name"] else None
            if note is None:
                note = f"the '{suffix}' variant"
            tag, _, head = (
                r["description"].rpartition("] ")
                if r["description"].startswith("[")
                else ("", "", r["description"])
            )
            tag = f"{tag}] " if tag else ""
            stem = r["name"].split("-")[0]  # the scheme or puzzle the variants share
            shared = sum(x["name"].split("-")[0] != stem for x in group)
            r["description"] = f"{tag}{f'{stem}: ' if shared else ''}{note} — {head.rstrip('.…')}"


def describe(obj: Any) -> str:
    """One line about a registered object: its own docstring (an instance may carry one), its
    class docstring, else its module's."""
    doc = vars(obj).get("__doc__") if hasattr(obj, "__dict__") else None
    own = _first_line(
        doc or (inspect.getdoc(type(obj)) if not inspect.isfunction(obj) else obj.__doc__)
    )
    if own and not own.startswith(type(obj).__name__ + "("):  # not a dataclass's default repr
        return own
    return _first_line(sys.modules[getattr(obj, "__module__", type(obj).__module__)].__doc__)


def _params(params_cls: type | None) -> str:
    if params_cls is None or not dataclasses.is_dataclass(params_cls):
        return ""
    out = []
    for f in dataclasses.fields(params_cls):
        d = f.default if f.default is not dataclasses.MISSING else "…"
        out.append(f"{f.name}={d!r}" if not isinstance(d, str) or d != "…" else f"{f.name}=…")
    return ", ".join(out)


def list_rows(what: str, full: bool = False) -> list[dict[str, str]]:
    """Rows ``{name, description, parameters}`` for one registry (or the shipped suites);
    ``full``: suites' descriptions whole (for ``--json``), not cut to a line."""
    if what == "suites":
        from ..suites.suite import list_suites, load_suite

        return [
            {
                "name": n,
                "description": _first_line(load_suite(n).description, None if full else 150),
                "parameters": "",
            }
            for n in list_suites()
        ]
    if what == "datasets":
        return [
            {"name": n, "description": str(getattr(DATASETS.get(n), "what", "")), "parameters": ""}
            for n in DATASETS.names()
        ]
    reg = {
        "families": FAMILIES,
        "renderers": RENDERERS,
        "models": MODELS,
        "transforms": TRANSFORMS,
        "metrics": METRICS,
    }[what]
    rows = []
    for name in reg.names():
        obj = reg.get(name)
        if what == "models":
            desc, params = MODEL_HELP.get(name, describe(obj)), ""
        elif what == "metrics":
            sets = ", ".join(getattr(obj, "applies_to", ()))
            desc, params = f"{METRIC_HELP.get(name, name)} [{sets}]", ""
        elif what == "families":
            desc, params = describe(obj), _params(getattr(obj, "Params", None))
        elif what == "transforms":
            desc, params = describe(obj), _params(obj if isinstance(obj, type) else type(obj))
        else:
            from ..renderers.base import get_renderer

            desc, params = f"[{get_renderer(name).kind}] {describe(obj)}", ""
        if what == "families":
            desc = desc.removeprefix(f"{name}: ")  # the name is the row's first column
        rows.append({"name": name, "description": desc, "parameters": params})
    if what == "renderers":
        _distinct(rows)
    return rows


WHAT = ["families", "renderers", "models", "transforms", "metrics", "suites", "datasets"]


def cmd_list(a: argparse.Namespace) -> int:
    import signal

    if hasattr(signal, "SIGPIPE"):  # `logicforge list | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    for what in [a.what] if a.what else WHAT:
        rows = list_rows(what, full=a.json)
        if a.json:
            print(json.dumps({what: rows}, ensure_ascii=False))
            continue
        print(f"{what}:")
        width = max((len(r["name"]) for r in rows), default=0)
        for r in rows:
            print(f"  {r['name']:<{width}}  {r['description']}")
            if r["parameters"] and a.what:
                print(f"  {'':<{width}}  parameters: {r['parameters']}")
    return 0
