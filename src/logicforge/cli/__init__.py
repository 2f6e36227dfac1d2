"""``logicforge`` — one entry point with the pipeline verbs.

logicforge generate --family ksat/random --set n_vars=20 --grid alpha=3.5,4.26,5 --count 10 --out runs/x
logicforge run      --items runs/x/items.jsonl --model oracle --model random --records runs/x/records.jsonl
logicforge score    --items runs/x/items.jsonl --records runs/x/records.jsonl --out runs/x/scored.jsonl
logicforge report   --records runs/x/records.jsonl --problems runs/x/problems.jsonl --out runs/x/report
logicforge demo
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import itertools
import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from .. import api
from .._version import __version__
from ..errors import ConfigError, DataFileError, EndpointDown, LogicforgeError
from ..models.base import Sampling, load_model
from ..registry import RENDERERS
from ..renderers.base import get_renderer, render_problem
from ..runner import manifest
from ..runner.store import read_jsonl, write_jsonl
from .args import allow_errors, natural, positive, strict_json_arg


def _value(field: str, raw: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(raw)
    except yaml.YAMLError:
        raise ConfigError(field, raw, "not a valid scalar") from None


def _kv(pairs: list[str], what: str) -> dict[str, str]:
    out = {}
    for p in pairs:
        if "=" not in p:
            raise ConfigError(what, p, "expected key=value")
        k, v = p.split("=", 1)
        out[k.strip()] = v
    return out


def cmd_generate(a: argparse.Namespace) -> int:
    params = {k: _value(k, v) for k, v in _kv(a.set, "--set").items()}
    grid = {k: [_value(k, x) for x in v.split(",")] for k, v in _kv(a.grid, "--grid").items()}
    from ..families.base import get_family
    from ..kinds import get_kind

    family = get_family(a.family)  # fail before work starts
    renderers = a.renderer or [get_kind(family.kind).renderer]
    for r in renderers:
        RENDERERS.get(r)  # fail before work starts
    from ..transforms.base import apply_spec, check_spec

    transforms = [check_spec(spec, "--transform") for spec in a.transform or []]  # before work
    from ..families.base import expand_grid, generate_problems
    from ..runner.progress import Progress

    points = expand_grid(params, grid)
    bar = Progress(len(points) * a.count, "generate", enabled=not (a.quiet or a.json))
    stream = generate_problems(
        a.family,
        points,
        a.count,
        a.seed,
        workers=a.workers,
        executor=a.executor,
        ray_address=a.ray_address,
        level=a.level,
    )
    first = next(stream, None)  # every parameter is validated before anything is written
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    labels: dict[str, int] = {}
    n_items = 0
    # streamed: one problem at a time through transforms and renderers, so memory stays flat
    # however many problems; items go renderer by renderer (one part file each, then joined)
    parts = [out / f".items.{i}.part" for i in range(len(renderers))]
    with open(out / ".problems.part", "w", encoding="utf-8") as fp:
        files = [open(q, "w", encoding="utf-8") for q in parts]  # noqa: SIM115
        try:
            for p in itertools.chain([first] if first is not None else [], stream):
                for name, opts in transforms:
                    p = apply_spec(p, name, opts)
                fp.write(p.model_dump_json() + "\n")
                labels[p.label] = labels.get(p.label, 0) + 1
                for r, f in zip(renderers, files, strict=True):
                    f.write(render_problem(p, r).model_dump_json() + "\n")
                    n_items += 1
                bar.update()
        finally:
            for f in files:
                f.close()
    bar.close()
    with open(out / ".items.part", "wb") as joined:
        for q in parts:
            with open(q, "rb") as src:
                shutil.copyfileobj(src, joined)
            q.unlink()
    os.replace(out / ".problems.part", out / "problems.jsonl")
    os.replace(out / ".items.part", out / "items.jsonl")
    n_problems = sum(labels.values())
    if a.json:
        summary = {"problems": n_problems, "labels": dict(sorted(labels.items())), "items": n_items}
        print(json.dumps(summary | {"out": str(out)}))
        return 0
    counts = ", ".join(f"{n} {label}" for label, n in sorted(labels.items()))
    print(f"wrote {n_problems} problems ({counts or 'none'}) and {n_items} items to {out}/")
    return 0


def cmd_render(a: argparse.Namespace) -> int:
    problems = api.load_problems(a.problems)
    RENDERERS.get(a.renderer)
    n = write_jsonl(a.out, api.render(problems, a.renderer))
    print(f"wrote {n} items to {a.out}")
    return 0


def _sampling(a: argparse.Namespace) -> Sampling:
    return Sampling(
        temperature=a.temperature,
        top_p=a.top_p,
        max_tokens=a.max_tokens,
        seed=a.sampling_seed,
        stop=tuple(a.stop or ()),
        structured=a.structured,
    )


def cmd_run(a: argparse.Namespace) -> int:
    sampling = _sampling(a)
    models = [load_model(m) for m in a.model]  # every spec is validated before any call
    prices = None
    if a.prices:
        from ..metrics.usage import PriceTable

        prices = PriceTable.load(a.prices)
    if a.dry_run:
        return _dry_run(a, models, sampling, prices)
    # The CLI owns its process: move everything loaded so far out of the cyclic GC's scans
    # (modules, classes, registries), which then only walks the per-record garbage.
    gc.freeze()
    if not Path(a.items).exists():  # before the response cache's folder is made
        raise DataFileError.missing(a.items)
    api.check_file_kind(a.items, "item")  # records given as items: said before any output
    shown = not (a.quiet or a.json)  # the item count is for the progress line only
    total = api.count_lines(a.items) if shown else 0
    if a.limit is not None:
        total = min(total, a.limit)
    errors = 0
    runs: dict[str, Any] = {}
    down: list[str] = []  # models stopped because their endpoint failed from the start
    budget = None
    if a.max_cost is not None or a.max_tokens_total is not None:
        from ..runner.budget import Budget

        budget = Budget(a.max_cost, a.max_tokens_total, prices)  # one budget for every model
        for m in models:
            budget.check_model(m.name)  # before any request
    rec = Path(a.records)
    where = manifest.beside(rec)
    a.manifest = (  # named before the work: an interrupted run leaves its manifest too
        where.parent,
        where.name,
        {
            "models": [manifest.model_entry(s, m) for s, m in zip(a.model, models, strict=True)],
            "sampling": dataclasses.asdict(sampling),
            "samples": a.samples,
            "items": a.items,
            "runs": runs,
            "records": lambda: _file_counts(runs, rec),
        },
    )
    for spec, m in zip(a.model, models, strict=True):
        if budget is not None and budget.stopped:
            break
        items = itertools.islice(api.iter_items(a.items), a.limit)
        try:
            c = _run_one(a, spec, m, items, sampling, shown, total, budget)
        except EndpointDown as e:  # this model only: the others still run
            print(f"logicforge run: {e}", file=sys.stderr)
            down.append(m.name)
            continue
        errors += c["errors"]
        runs[m.name] = c
        if a.json:
            print(json.dumps({"model": m.name, **c, "records": a.records}))
            continue
        print(
            f"{m.name}: {c['done']} new records ({c['errors']} errors, {c['cached']} from cache); {c['total']} in {a.records}"
        )
    if down:
        print(
            f"logicforge run: stopped {len(down)} of {len(models)} models whose endpoint failed "
            f"from the start: {', '.join(down)}",
            file=sys.stderr,
        )
        return 2
    if budget is not None:
        b = budget.summary()
        spent = f"${b['spent_usd']:.4f} of ${a.max_cost:g}" if a.max_cost is not None else ""
        toks = f"{b['spent_tokens']:,} tokens" + (
            f" of {a.max_tokens_total:,}" if a.max_tokens_total is not None else ""
        )
        head = f"stopped at the {budget.stopped} cap" if budget.stopped else "within budget"
        tail = "; rerun the same command (with a higher cap) to resume" if budget.stopped else ""
        print(f"{head}: spent {', '.join(x for x in (spent, toks) if x)} "
              f"in {b['requests']} requests{tail}", file=sys.stderr)  # fmt: skip
        if budget.stopped:
            return EXIT_BUDGET
    return EXIT_ERRORS if errors and not a.allow_errors else 0


def _run_one(
    a: argparse.Namespace,
    spec: str,
    m: Any,
    items: Any,
    sampling: Any,
    shown: bool,
    total: int,
    budget: Any,
) -> dict[str, Any]:
    """One model's run of ``cmd_run``."""
    return api.run(
        items,
        spec if a.executor == "ray" else m,
        a.records,
        samples=a.samples,
        sampling=sampling,
        concurrency=a.concurrency,
        cache_path=None if a.no_cache else a.cache,
        retry_errors=a.retry_errors,
        progress=shown,
        total_items=total,
        tokenizer=None if a.tokenizer == "off" else a.tokenizer,
        max_errors=a.max_errors,
        executor=a.executor,
        ray_address=a.ray_address,
        truncation=a.truncation,
        budget=budget,
        manifest=False,  # the command's own manifest covers every model
    )


def _loud(runs: dict[str, Any], a: argparse.Namespace) -> int:
    """Exit code of a command whose runs may have ended in errors (already reported on stderr)."""
    errors = sum(int(c.get("errors") or 0) for c in runs.values())
    return EXIT_ERRORS if errors and not getattr(a, "allow_errors", False) else 0


DRY_SAMPLE = 2  # problems per parameter point a suite's dry run makes (the first ones)


def _suite_dry_run(suite: Any, out: Path, a: argparse.Namespace) -> int:
    """What a suite would send, in seconds whatever its size: the first ``DRY_SAMPLE``
    problems of each parameter point generated and rendered here (measurement-only parameters
    such as zebra's Z3 runs skipped), their tokens scaled to the whole plan; LLM-written stories
    and back-translated sentences are estimated from the formula and the unedited text. Nothing
    is sent, nothing written."""
    from ..llm.backtranslate import needs_backtranslation
    from ..reports.tables import to_markdown
    from ..runner.dryrun import estimate
    from ..suites.suite import expand_problems

    weights: list[float] = []
    problems = expand_problems(suite, sample=DRY_SAMPLE, weights=weights)
    items, item_weights = [], []
    for r in suite.renderers:
        rend = get_renderer(r)
        for p, w in zip(problems, weights, strict=True):
            if p.kind != rend.kind:
                continue
            if needs_backtranslation(p):  # the rewritten sentences stand in for these
                p = p.model_copy(update={"metadata": p.metadata | {"nl_verified": True}})
            items.append(
                render_problem(p, "formula" if getattr(rend, "needs_writer", False) else r)
            )
            item_weights.append(w)
    prices = None
    if a.prices:
        from ..metrics.usage import PriceTable

        prices = PriceTable.load(a.prices)
    rows = estimate(
        items,
        [load_model(m) for m in suite.models],
        samples=[suite.samples_for(m) for m in suite.models],
        sampling=Sampling(**suite.sampling),
        records_path=out / "records.jsonl",
        prices=prices,
        weights=item_weights,
        probe=a.probe_speed,
    )
    if suite.story is not None and any(b.formalise for b in suite.problems):
        rows.append(_translation_row(suite, prices))
    planned = round(sum(weights))
    print(
        f"dry run of suite {suite.name}: {planned:,} problems, {round(sum(item_weights)):,} items "
        f"(estimated from the first {len(problems):,}: {DRY_SAMPLE} per parameter point or data "
        "file); nothing sent" + ("" if a.probe_speed else ", no model loaded")
    )
    print(to_markdown(rows, list(dict.fromkeys(k for r in rows for k in r))), end="")
    return 0


def _translation_row(suite: Any, prices: Any) -> dict[str, Any]:
    """The dry run's row for the writer's translation requests (``formalise`` blocks): every
    question without a valid program, up to ``attempts`` samples each — a ceiling, since a
    question stops at its first valid program."""
    from ..llm.formalise_lsat import FormaliseConfig
    from ..models.tokens import TokenCounter
    from ..suites.suite import translation_requests

    cfg, counter = FormaliseConfig(), TokenCounter("auto")
    asks = translation_requests(suite)
    prompt = sum(counter.count(t) + 4 for t in asks) * cfg.attempts
    row: dict[str, Any] = {
        "model": f"{suite.story.writer} (translation)",
        "items": len(asks),
        "samples": cfg.attempts,
        "records_to_do": len(asks),
        "requests": len(asks) * cfg.attempts,
        "prompt_tokens": prompt,
        "completion_tokens_max": len(asks) * cfg.attempts * cfg.max_tokens,
        "tokenizer": counter.resolved,
    }
    if prices is not None:
        c = prices.cost(suite.story.writer, prompt, row["completion_tokens_max"])
        row["cost_usd_max"] = None if c is None else round(c, 4)
    return row


def _probe_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--probe-speed",
        action="store_true",
        help="with --dry-run: load each local model (embedded, GGUF) once and time it, for "
        "the hours column",
    )


def _local_models(specs: list[str]) -> list[str]:
    """The specs that run a model on this machine (the embedded one, a GGUF, a Hugging Face
    model — also inside a wrapper such as best-of-n), by what loading them would need."""
    return [s for s in specs if re.search(r"(^|[:;])(embedded|local|hf|vllm)\b", s)]


def _dry_run(a: argparse.Namespace, models: list[Any], sampling: Sampling, prices: Any) -> int:
    from ..reports.tables import to_markdown
    from ..runner.dryrun import estimate

    items = itertools.islice(api.iter_items(a.items), a.limit)
    tok = "words" if a.tokenizer == "off" else a.tokenizer
    rows = estimate(
        items,
        models,
        samples=a.samples,
        sampling=sampling,
        records_path=a.records,
        prices=prices,
        tokenizer=tok,
        probe=a.probe_speed,
    )
    if a.json:
        print(json.dumps(rows))
    else:
        loaded = "" if a.probe_speed else ", no model loaded"
        print(f"dry run: nothing was sent{loaded}; estimates per model")
        print(to_markdown(rows, list(rows[0]) if rows else []), end="")
    return 0


def cmd_score(a: argparse.Namespace) -> int:
    from ..runner.progress import Progress

    items = api.load_items(a.items)
    bar = Progress(api.count_lines(a.records), "scoring", enabled=not a.quiet)

    def counted() -> Any:
        for r in read_jsonl(a.records):
            yield r
            bar.update()
            bar.draw()

    try:
        recs = api.score(counted(), items, truncation=a.truncation)
    finally:
        bar.close()
    write_jsonl(a.out, recs)
    print(f"scored {len(recs)} records into {a.out}")
    return 0


def cmd_report(a: argparse.Namespace) -> int:
    problems: Any = a.problems if a.problems else ()
    path = api.report(
        a.records,
        a.out,
        problems,
        title=a.title,
        command=a.command,
        table=a.table or (),
        items=a.items or (),
        prices=a.prices,
    )
    print(f"report: {path}")
    return 0


def cmd_suite(a: argparse.Namespace) -> int:
    from ..suites import list_suites, load_suite, run_suite

    if a.name is None:  # each shipped suite: its size and what it reproduces
        from ..suites.suite import planned_size

        print("shipped suites (problems before pairs, edits and variants; then what it does):")
        for name in list_suites():
            s = load_suite(name)
            size = planned_size(s)
            what = " ".join(s.description.split())
            what = what[:110] + ("…" if len(what) > 110 else "")
            shown = f"{size:>7,}" if size is not None else "   data"
            print(f"  {name:28s}{shown}  {what}")
        return 0
    overrides: dict[str, Any] = {"models": a.model or None, "renderers": a.renderer or None}
    suite = load_suite(a.name, writer=a.writer, **overrides)
    if a.count is not None:
        suite = suite.with_blocks(count=a.count)
    out = Path(a.out or f"runs/{suite.name}")
    if a.dry_run:
        return _suite_dry_run(suite, out, a)
    if not a.model and (local := _local_models(list(suite.models))) and not a.quiet:
        print(
            f"suite {suite.name}: its own models run on this machine ({', '.join(local)}) — "
            "`--dry-run --probe-speed` says how long; --model chooses others",
            file=sys.stderr,
        )
    summary: dict[str, Any] = {}
    models = [manifest.model_entry(s, load_model(s)) for s in suite.models]
    a.manifest = (out, "manifest.json", {  # named first: an interrupted suite leaves it too
        "suite": suite.model_dump(mode="json"),
        "models": models,
        "sampling": dataclasses.asdict(Sampling(**suite.sampling)),
        "seed": suite.seed,
        "runs": summary,
        "records": lambda: _file_counts(summary, out / "records.jsonl"),
    })  # fmt: skip
    path = run_suite(
        suite,
        out,
        concurrency=a.concurrency,
        progress=not a.quiet,
        cache=not a.no_cache,
        command=command_line(a.argv),
        workers=a.workers,
        summary=summary,
    )
    print(f"report: {path}")
    from ..suites.suite import empty_story_arms

    empty = empty_story_arms(out)
    for line in empty:
        print(f"logicforge suite: error: {line}", file=sys.stderr)
    return EXIT_ERRORS if empty else _loud(summary, a)


def _file_counts(runs: dict[str, Any], records: Path) -> dict[str, dict[str, int]]:
    """The manifest's per-model counts of the records file: what the last run's store held at
    its end (each run returns them as ``file``, taken out of the runs here), or the file read
    when no run happened."""
    held = [c.pop("file") for c in runs.values() if "file" in c]
    return held[-1] if held else manifest.record_counts(records)


def cmd_demo(a: argparse.Namespace) -> int:
    from ..demo import run_demo

    out = Path(a.out)
    a.manifest = (out, "manifest.json", {
        "demo": {"per_alpha": a.per_alpha, "embedded_per_alpha": 0 if a.no_embedded else a.embedded_per_alpha},
        "records": lambda: manifest.record_counts(out / "records.jsonl"),
    })  # fmt: skip

    path = run_demo(
        Path(a.out),
        per_alpha=a.per_alpha,
        embedded_per_alpha=0 if a.no_embedded else a.embedded_per_alpha,
    )
    print(f"demo report: {path}")
    if a.started is not None:  # `make demo` passes its start: the set-up counts too
        import time

        print(f"make demo took {time.time() - a.started:.0f} s in all (set-up included)")
    return 0


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


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="logicforge", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
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
    g.set_defaults(fn=cmd_generate)

    r = sub.add_parser("render", help="render problems.jsonl with another renderer")
    r.add_argument("--problems", required=True)
    r.add_argument("--renderer", required=True)
    r.add_argument("--out", required=True)
    r.set_defaults(fn=cmd_render)

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
    u.set_defaults(fn=cmd_run)

    s = sub.add_parser("score", help="re-parse and re-verify records (e.g. after a parser update)")
    s.add_argument("--items", required=True)
    s.add_argument("--records", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--truncation", choices=["incorrect", "as-parsed"], default="incorrect")
    s.add_argument("--quiet", action="store_true", help="no progress line")
    strict_json_arg(s)
    s.set_defaults(fn=cmd_score)

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
    p.set_defaults(fn=cmd_report)

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
    su.add_argument(
        "--workers", type=natural, default=1,
        help="processes generating the problems (the same problems as one, faster)",
    )  # fmt: skip
    su.add_argument("--no-cache", action="store_true")
    su.add_argument("--quiet", action="store_true")
    su.set_defaults(fn=cmd_suite)

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
    d.set_defaults(fn=cmd_demo)
    return ap


EXIT_ERRORS = 3  # the run finished, but some records ended in an error (a rerun retries them)
EXIT_BUDGET = 4  # the run stopped at --max-cost / --max-tokens-total (a rerun resumes)


def _unknown_options(parser: argparse.ArgumentParser, cmd: str, extra: list[str]) -> None:
    """Exit 2 with the verb's usage, naming the unknown arguments and the options they may be."""
    from ..errors import did_you_mean

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[cmd]
    known = [o for a in sub._actions for o in a.option_strings if o.startswith("--")]
    hints = []
    for word in extra:
        if word.startswith("--"):
            hint = did_you_mean(word.split("=", 1)[0], known, n=2, quote=False)
            if hint:
                hints.append(f"{word}: {hint.strip()}")
    sub.error(
        f"unrecognized arguments: {' '.join(extra)}"
        + ("".join(f"\n  {h}" for h in hints) if hints else f"\n  see: logicforge {cmd} --help")
    )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the verb's own parser: its usage, and the option it could be
        _unknown_options(parser, args.cmd, extra)
    args.argv, args.manifest = argv, None
    strict_before = os.environ.get("LOGICFORGE_STRICT_JSON")
    if getattr(args, "strict_json", False):  # worker processes read it too
        os.environ["LOGICFORGE_STRICT_JSON"] = "1"
    started = manifest.now()
    rc = 2
    try:
        rc = int(args.fn(args))
        return rc
    except LogicforgeError as e:
        print(f"logicforge {args.cmd}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - so the exit flush cannot fail
        rc = 0
        return 0
    except OSError as e:  # a path that is a folder, exists, is read-only, a full disk …
        where = f"{e.filename}: " if e.filename else ""
        print(f"logicforge {args.cmd}: error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        rc = 130
        print(
            f"logicforge {args.cmd}: interrupted; finished records are kept — rerun the same command to resume",
            file=sys.stderr,
        )
        return 130
    finally:
        # the command's own facts, beside its outputs — also when it ended with errors (3) or
        # was interrupted (130): a verb names its manifest before its work. A refused command
        # (2: bad config, a folder of another run) changes nothing, its manifest included.
        if args.manifest is not None and rc != 2:
            folder, name, fields = args.manifest
            fields = dict(fields)
            history = bool(fields.pop("_history", True))  # False: the verb rewrote its outputs
            try:
                manifest.write_manifest(
                    folder,
                    name,
                    manifest.manifest(argv, started=started, exit_code=rc, **fields),
                    history=history,
                )
            except OSError as e:  # never hide the command's own outcome behind this one
                print(f"logicforge {args.cmd}: manifest not written: {e}", file=sys.stderr)
        if strict_before is None:  # a caller's own process keeps its environment
            os.environ.pop("LOGICFORGE_STRICT_JSON", None)
        else:
            os.environ["LOGICFORGE_STRICT_JSON"] = strict_before


def command_line(argv: list[str]) -> str:
    return "logicforge " + " ".join(shlex.quote(x) for x in argv)


if __name__ == "__main__":
    sys.exit(main())
