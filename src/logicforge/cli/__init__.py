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
import shutil
import sys
from pathlib import Path
from typing import Any

from .. import api
from ..errors import ConfigError, DataFileError, EndpointDown, LogicforgeError
from ..models.base import Sampling, load_model
from ..registry import RENDERERS
from ..renderers.base import render_problem
from ..runner import manifest
from ..runner.store import read_jsonl, write_jsonl
from . import parser as _parser
from .dryrun import _dry_run, _local_models
from .outcome import EXIT_BUDGET, EXIT_ERRORS, _file_counts, _loud, command_line
from .suite import cmd_suite

__all__ = ["_local_models", "_loud", "build_parser", "command_line", "main"]


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


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, each verb with its handler.

    Example:
        >>> build_parser().parse_args(["report", "--records", "r.jsonl", "--out", "o"]).cmd
        'report'
    """
    handlers = {"generate": cmd_generate, "render": cmd_render, "run": cmd_run,
                "score": cmd_score, "report": cmd_report, "suite": cmd_suite, "demo": cmd_demo}  # fmt: skip
    return _parser.build(handlers, __doc__ or "")


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


if __name__ == "__main__":
    sys.exit(main())
