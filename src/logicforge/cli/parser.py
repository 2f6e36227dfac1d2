"""The command line's parser: each verb's options, validated as they are read (:mod:`.args`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping

from .._version import __version__
from ..models.base import Sampling
from .args import allow_errors, natural, positive, strict_json_arg
from .dryrun import _probe_arg

VERBS = ("generate", "render", "run", "score", "report", "suite", "demo")


def _sampling_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("sampling")
    g.add_argument("--temperature", type=float, default=0.0, help="default: 0 (greedy)")
    g.add_argument("--top-p", type=float, default=1.0, help="default: 1")
    g.add_argument(
        "--max-tokens",
        type=natural,
        default=Sampling.max_tokens,
        help=f"completion budget per reply (default: {Sampling.max_tokens}, as in lf.run and in "
        "a suite without its own in its sampling block)",
    )
    g.add_argument("--sampling-seed", type=natural, default=0, help="default: 0")
    g.add_argument("--stop", action="append", help="stop sequence (repeatable)")
    g.add_argument(
        "--structured",
        action="store_true",
        help="constrain replies to the answer JSON schema where supported",
    )


def _executor_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--executor",
        choices=["local", "ray"],
        default="local",
        help="ray: spread the work over a Ray cluster (same results as local)",
    )
    p.add_argument("--ray-address", help="Ray cluster address (default: $RAY_ADDRESS, else local)")


def build(
    handlers: Mapping[str, Callable[[argparse.Namespace], int]], doc: str
) -> argparse.ArgumentParser:
    """Every verb's options, each with its handler from ``handlers`` (by verb) as ``fn``;
    ``doc`` is the program's description (:func:`logicforge.cli.build_parser` passes both).

    Example:
        >>> ap = build({v: print for v in VERBS}, "")
        >>> ap.parse_args(["report", "--records", "r.jsonl", "--out", "o"]).cmd
        'report'
    """
    ap = argparse.ArgumentParser(
        prog="logicforge", description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--version", action="version", version=f"logicforge {__version__}")
    sub = ap.add_subparsers(dest="cmd", required=True)

    g = sub.add_parser("generate", help="generate labelled problems and render them into items")
    g.add_argument("--family", required=True, help="registered family, e.g. ksat/random")
    g.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="fixed parameter (repeatable)",
    )
    g.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="swept parameter (repeatable)",
    )
    g.add_argument("--count", type=positive, default=10, help="problems per parameter point")
    g.add_argument(
        "--level",
        type=natural,
        help="difficulty level 0..10: the family's parameters at that level (--set overrides)",
    )
    g.add_argument("--seed", type=natural, default=0)
    g.add_argument(
        "--workers", type=natural, default=1, help="local processes (same output as one, faster)"
    )
    g.add_argument("--quiet", action="store_true", help="no progress line")
    _executor_args(g)
    g.add_argument("--json", action="store_true", help="print a JSON summary only")
    g.add_argument(
        "--renderer", action="append", help="renderer(s) for items.jsonl (default: formula)"
    )
    g.add_argument(
        "--transform",
        action="append",
        metavar="NAME[:K=V,...]",
        help="transform applied to every problem, in order (repeatable), e.g. shuffle, filler:ratio=0.5",
    )
    g.add_argument("--out", required=True, help="output directory (problems.jsonl, items.jsonl)")
    g.set_defaults(fn=handlers["generate"])

    r = sub.add_parser("render", help="render problems.jsonl with another renderer")
    r.add_argument("--problems", required=True)
    r.add_argument("--renderer", required=True)
    r.add_argument("--out", required=True)
    r.set_defaults(fn=handlers["render"])

    u = sub.add_parser("run", help="run models on items; resumable, appends to the records file")
    u.add_argument("--items", required=True)
    u.add_argument(
        "--model",
        action="append",
        required=True,
        help="model spec (repeatable), e.g. oracle, embedded, openai-compatible:URL:NAME",
    )
    u.add_argument("--records", required=True)
    u.add_argument("--samples", type=natural, default=1)
    u.add_argument(
        "--concurrency",
        type=natural,
        default=8,
        help="requests in flight at a time, per model (default 8; a model spec's own concurrency= wins)",
    )
    u.add_argument("--cache", default=".logicforge-cache/responses.sqlite")
    u.add_argument("--no-cache", action="store_true")
    u.add_argument(
        "--retry-errors",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="redo records that ended in an error (default; --no-retry-errors keeps them)",
    )
    allow_errors(u)
    u.add_argument("--limit", type=natural, help="only the first N items")
    u.add_argument("--quiet", action="store_true", help="no progress line")
    u.add_argument("--json", action="store_true", help="one JSON summary line per model")
    _executor_args(u)
    u.add_argument(
        "--dry-run",
        action="store_true",
        help="print requests, token and cost estimates per model; send nothing, load nothing",
    )
    _probe_arg(u)
    u.add_argument("--prices", help="price table (YAML: model pattern → {prompt, completion} $/1M)")
    u.add_argument(
        "--max-cost",
        type=float,
        help="stop before any request that could take the spend past this many US dollars "
        "(needs --prices; exit 4; rerun to resume)",
    )
    u.add_argument(
        "--max-tokens-total",
        type=int,
        help="stop before any request that could take prompt + completion tokens past N (exit 4)",
    )
    u.add_argument(
        "--max-errors",
        type=natural,
        help="error budget: stop cleanly once more records than this end in an error",
    )
    u.add_argument(
        "--truncation",
        choices=["incorrect", "as-parsed"],
        default="incorrect",
        help="how a reply cut off by the token limit is scored (default: incorrect, as the papers)",
    )
    u.add_argument(
        "--tokenizer",
        choices=["auto", "smollm2", "words", "off"],
        default="auto",
        help="counts reasoning tokens when the backend's usage has none (default auto)",
    )
    _sampling_args(u)
    strict_json_arg(u)
    u.set_defaults(fn=handlers["run"])

    s = sub.add_parser("score", help="re-parse and re-verify records (e.g. after a parser update)")
    s.add_argument("--items", required=True)
    s.add_argument("--records", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--truncation", choices=["incorrect", "as-parsed"], default="incorrect")
    s.add_argument("--quiet", action="store_true", help="no progress line")
    strict_json_arg(s)
    s.set_defaults(fn=handlers["score"])

    p = sub.add_parser("report", help="tables, figures and an HTML report from records")
    p.add_argument("--records", required=True)
    p.add_argument("--problems", help="problems.jsonl, for solver curves (phase transition)")
    p.add_argument("--items", help="items.jsonl, to show each record's prompt in the drill-down")
    p.add_argument("--prices", help="price table (YAML) for the cost column of the usage table")
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="logicforge report")
    p.add_argument("--command", help="command line shown in the report for reproduction")
    p.add_argument(
        "--table", action="append", help="row column of a Sat./Wit. summary table (repeatable)"
    )
    p.set_defaults(fn=handlers["report"])

    su = sub.add_parser(
        "suite", help="run a shipped or YAML suite end to end (generate, run, report); resumable"
    )
    strict_json_arg(su)
    su.add_argument(
        "name", nargs="?", help="shipped suite name or path to a YAML file (omit to list)"
    )
    su.add_argument("--out", help="output directory (default runs/<suite name>)")
    su.add_argument(
        "--dry-run",
        action="store_true",
        help="print items, requests, token ceilings and cost (--prices); send nothing, load "
        "nothing",
    )
    _probe_arg(su)
    su.add_argument("--prices", help="price table (YAML) for the dry run's cost ceiling")
    allow_errors(su)
    su.add_argument("--model", action="append", help="replace the suite's models (repeatable)")
    su.add_argument(
        "--renderer", action="append", help="replace the suite's renderers (repeatable)"
    )
    su.add_argument("--count", type=positive, help="replace every block's formulas per point")
    su.add_argument("--writer", help="replace the story writer model (story renderers)")
    su.add_argument(
        "--concurrency",
        type=natural,
        default=8,
        help="requests in flight at a time, per model (default 8; a model spec's own concurrency= wins)",
    )
    su.add_argument("--workers", type=natural, default=1, help="processes generating the problems (the same problems as one, faster)")  # fmt: skip
    su.add_argument("--no-cache", action="store_true")
    su.add_argument("--quiet", action="store_true")
    su.set_defaults(fn=handlers["suite"])

    from .more import add_parsers

    add_parsers(sub, ap)  # list, show, export, serve, completion
    from .story import add_parsers as add_story_parsers

    add_story_parsers(sub)  # narrate, judge
    from .data import add_parsers as add_data_parsers

    add_data_parsers(sub)  # import, rescore

    d = sub.add_parser(
        "demo", help="phase-transition demo: baselines and the embedded model, with report"
    )
    d.add_argument("--out", default="demo-out")
    d.add_argument("--per-alpha", type=natural, default=5, help="instances per α for the baselines")
    d.add_argument(
        "--embedded-per-alpha",
        type=natural,
        default=2,
        help="instances per α for the embedded model",
    )
    d.add_argument("--no-embedded", action="store_true")
    d.add_argument(
        "--started", type=float, help="Unix time the set-up began (printed as the total time)"
    )
    d.set_defaults(fn=handlers["demo"])
    return ap
