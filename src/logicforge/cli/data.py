"""``logicforge import`` (published problem files → problems.jsonl + items.jsonl) and
``logicforge rescore`` (other harnesses' replies → records.jsonl)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import ConfigError, LogicforgeError
from ..registry import DATASETS
from ..renderers.base import render_problem
from ..runner.store import write_jsonl
from .args import LazyChoices


def cmd_import(a: argparse.Namespace) -> int:
    from ..imports.base import import_problems
    from ..kinds import get_kind

    limits = {}
    for kv in a.limit or []:
        k, sep, v = kv.partition("=")
        if not sep or not v.strip().isdigit():
            raise ConfigError("--limit", kv, "write NAME=N, e.g. max_vars=5000000")
        limits[k.strip()] = int(v)
    problems, log = import_problems(
        a.dataset, a.paths, limits=limits, timeout=a.timeout, licence=a.licence
    )
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "import_report.json").write_text(log.model_dump_json(indent=1) + "\n", encoding="utf-8")
    for line in log.lines()[:-1]:
        print(f"logicforge import: {line}", file=sys.stderr)
    if not problems:
        raise LogicforgeError(
            f"nothing imported from {', '.join(map(str, a.paths))} "
            f"(see {out / 'import_report.json'})"
        )
    items = []
    for p in problems:
        own = p.metadata.get("renderer") or get_kind(p.kind).renderer
        for r in a.renderer or [own]:
            items.append(render_problem(p, r))
    write_jsonl(out / "problems.jsonl", problems)
    write_jsonl(out / "items.jsonl", items)
    labels: dict[str, int] = {}
    for p in problems:
        labels[p.label] = labels.get(p.label, 0) + 1
    summary: dict[str, Any] = {
        "read": log.read,
        "imported": log.imported,
        "labels": dict(sorted(labels.items())),
        "rejected": len(log.rejected),
        "unknown": len(log.unknown),
        "warnings": len(log.warnings),
        "disagreements": len(log.disagreements),
        "items": len(items),
        "out": str(out),
    }
    a.manifest = (out, "manifest.json", {
        "dataset": a.dataset, "sources": [str(x) for x in a.paths], "licence": a.licence,
        "renderers": a.renderer, "timeout_s": a.timeout, "counts": summary,
        "_history": False,  # problems and items are rewritten whole
    })  # fmt: skip
    if a.json:
        print(json.dumps(summary))
    else:
        print(log.lines()[-1] + f"; wrote {len(items)} items to {out}/")
    return 0


def cmd_check_leakage(a: argparse.Namespace) -> int:
    from .. import api
    from ..leakage import check_leakage

    r = check_leakage(api.load_problems(a.train), api.load_problems(a.test))
    if a.json:
        print(json.dumps(r))
    else:
        print(
            f"{r['test']} test problems against {r['train']} training problems: "
            f"{r['exact']} exact duplicates, {r['symmetric']} more up to symmetry; duplicates "
            f"within train {r['duplicates_within_train']}, within test {r['duplicates_within_test']}"
        )
        for kind in ("exact_pairs", "symmetric_pairs"):
            for pair in r[kind][:20]:
                print(f"  {kind.split('_')[0]}: {pair['test']} ~ {', '.join(pair['train'])}")
    return 1 if (r["exact"] or r["symmetric"]) and a.fail else 0


def _reply_formats() -> tuple[str, ...]:
    from ..imports.replies import FORMATS

    return FORMATS


def add_parsers(sub: Any) -> None:
    lk = sub.add_parser(
        "check-leakage",
        help="test problems that occur in the training set, exactly or up to symmetry",
    )
    lk.add_argument("train", help="training problems.jsonl")
    lk.add_argument("test", help="test problems.jsonl")
    lk.add_argument("--fail", action="store_true", help="exit 1 when any test problem leaks")
    lk.add_argument("--json", action="store_true")
    lk.set_defaults(fn=cmd_check_leakage)
    im = sub.add_parser(
        "import",
        help="published problem files (DIMACS folders, ZebraLogic, SATBench, FOLIO, …) as "
        "problems and items, every label re-proved",
    )
    im.add_argument(
        "dataset",
        choices=LazyChoices(DATASETS.names),
        metavar="DATASET",
        help="the data's format (`list datasets`)",
    )
    im.add_argument("paths", nargs="+", help="files, folders (recursive) or globs")
    im.add_argument("--out", required=True, help="folder for problems.jsonl, items.jsonl, report")
    im.add_argument(
        "--timeout", type=float, default=60.0, help="seconds per solve; longer is UNKNOWN"
    )
    im.add_argument("--licence", help="licence recorded with every problem (e.g. CC-BY-4.0)")
    im.add_argument(
        "--limit",
        action="append",
        metavar="NAME=N",
        help="raise or lower an import bound (repeatable): max_bytes, max_vars, max_clauses, "
        "max_literals, max_token_chars, max_houses, max_attributes, max_rows",
    )
    im.add_argument("--renderer", action="append", help="renderers (default: the kind's own)")
    im.add_argument("--json", action="store_true")
    im.set_defaults(fn=cmd_import)

    rs = sub.add_parser(
        "rescore",
        help="re-score replies collected by other harnesses (ZeroEval, Inspect, lm-eval, JSONL, "
        "DIMACS + reply) with logicforge's parser and verifiers",
    )
    rs.add_argument("format", choices=LazyChoices(_reply_formats), metavar="FORMAT")
    rs.add_argument("paths", nargs="+", help="reply files, folders or globs")
    rs.add_argument("--out", required=True, help="folder for records.jsonl (+ items, report)")
    rs.add_argument(
        "--items", help="items.jsonl the replies answer (ids matched to items/problems)"
    )
    rs.add_argument(
        "--import",
        dest="import_",
        choices=LazyChoices(DATASETS.names),
        metavar="DATASET",
        help="read the problems from the same files with this dataset's reader "
        "(zeroeval: zebralogic by default)",
    )
    rs.add_argument("--model", help="the model name to record (default: the file's)")
    rs.add_argument("--marker", default="=== REPLY ===", help="dimacs-reply: the marker line")
    rs.add_argument(
        "--marker-pattern",
        help="dimacs-reply: a regular expression the marker line matches whole, for markers "
        "that vary between files ('c .* solve time: .*')",
    )
    rs.add_argument(
        "--pair-pattern",
        help="dimacs-reply: a regular expression over file names whose match (group 'pair', else "
        "the whole) is the pair id of ADR pairs ('cnf_k\\d+_N\\d+_L\\d+_alpha[\\d.]+_inst\\d+')",
    )
    rs.add_argument(
        "--error-pattern",
        action="append",
        default=[],
        help="a reply matching this regular expression (in its first 400 characters) is a "
        "stored API failure: an error record, not scored (repeatable; the common shapes — "
        "[Error] …, 502 pages, time-outs, tracebacks — are built in)",
    )
    rs.add_argument("--json", action="store_true")
    rs.set_defaults(fn=cmd_rescore)


def cmd_rescore(a: argparse.Namespace) -> int:
    from ..imports.replies import rescore
    from ..schema import Item

    items = None
    if a.items:
        from ..runner.store import read_jsonl

        items = [Item.model_validate(x) for x in read_jsonl(a.items)]
    records, items_used, problems, log = rescore(
        a.format, a.paths, items=items, dataset=a.import_, model=a.model, marker=a.marker,
        marker_pattern=a.marker_pattern, failures=a.error_pattern, pair_pattern=a.pair_pattern,
    )  # fmt: skip
    out = Path(a.out)
    rows_read = log.read
    out.mkdir(parents=True, exist_ok=True)
    if problems:
        write_jsonl(out / "problems.jsonl", problems)
    if not a.items:
        write_jsonl(out / "items.jsonl", items_used)
    write_jsonl(out / "records.jsonl", records)
    (out / "rescore_report.json").write_text(log.model_dump_json(indent=1) + "\n", encoding="utf-8")
    for line in log.lines()[:-1]:
        print(f"logicforge rescore: {line}", file=sys.stderr)
    by: dict[str, list[bool]] = {}
    for rec in records:
        by.setdefault(rec.model, []).append(bool(rec.verdict and rec.verdict.correct))
    acc = {m: round(sum(v) / len(v), 4) for m, v in sorted(by.items())}
    from ..runner import manifest

    configs = {rec.model: rec.config for rec in records if rec.config}
    a.manifest = (out, "manifest.json", {
        "format": a.format, "sources": [str(x) for x in a.paths], "dataset": a.import_,
        "items": a.items, "model": a.model,
        "source_config": configs,  # the generation settings the source files state
        "counts": {"rows_read": rows_read, "scored": len(records), "left_out": len(log.rejected),
                   "accuracy": acc},
        "records": lambda: manifest.record_counts(out / "records.jsonl"),
        "_history": False,  # records.jsonl is rewritten whole
    })  # fmt: skip
    if a.json:
        print(
            json.dumps(
                {
                    "rows_read": rows_read,
                    "scored": len(records),
                    "left_out": len(log.rejected),
                    "accuracy": acc,
                    "out": str(out),
                }
            )
        )
    else:
        print(
            f"rescored {len(records)} replies of {rows_read} rows ({len(log.rejected)} left out, "
            f"see rescore_report.json); accuracy "
            + ", ".join(f"{m} {v:.1%}" for m, v in acc.items())
            + f"; wrote {out / 'records.jsonl'}"
        )
    return 0 if records else 2
