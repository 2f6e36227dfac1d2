"""CLI verbs for first contact and for data out: ``list``, ``show`` and ``export``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .. import api
from ..errors import ConfigError, DataFileError
from .args import natural, positive, seconds, server_limit_values, server_limits
from .listing import (
    WHAT,
    cmd_list,
)


def _gold_line(it: Any) -> str:
    """The gold answer as ``show`` prints it: the label where the answer is a decision; for a
    puzzle whose answer is its solution (a grid, an arrangement), the solution — its label
    ``SAT`` says nothing there."""
    from ..kinds import answer_format

    if answer_format(it).metric_set in ("grid", "certificate"):
        rest = {k: v for k, v in it.gold.items() if k != "label"}
        if rest:
            return f"gold solution: {json.dumps(rest, ensure_ascii=False)}"
        return "gold: the puzzle's certified solution (the oracle's answer, below)"
    return f"gold: {json.dumps(it.gold, ensure_ascii=False)}"


def cmd_show(a: argparse.Namespace) -> int:
    for it in api.iter_items(a.items):
        if it.item_id == a.item_id or it.problem_id == a.item_id:
            if a.json:
                print(it.model_dump_json(indent=1))
                return 0
            print(f"item {it.item_id} · problem {it.problem_id} · {it.family} ({it.kind})")
            print(f"renderer {it.rendering} · params {json.dumps(it.params, sort_keys=True)}")
            print(_gold_line(it))
            for m in it.messages:
                print(f"\n--- {m.role} ---\n{m.content}")
            from ..models.baselines import OracleBaseline

            print(f"\n--- the oracle's answer ---\n{OracleBaseline()._answer(it, 0)}")
            return 0
    raise DataFileError(f"{a.items}: no item or problem with id {a.item_id!r}")


def cmd_export(a: argparse.Namespace) -> int:
    from .. import export

    out = Path(a.out)
    if a.format == "hf":
        items = api.load_items(_need(a, "items"))
        export.export_hf(
            items, out, fmt=a.shard_format, command=a.command, licence=a.licence,
            split=a.split, reward_mode=a.reward_mode,
        )  # fmt: skip
        print(f"wrote {len(items)} items as a Hugging Face dataset to {out}/")
    elif a.format == "sft":
        from ..schema import Record

        records = api.checked_rows(_need(a, "records"), Record, "record")
        n = export.export_sft(
            api.iter_items(_need(a, "items")),
            records,
            out,
            reward_mode=a.reward_mode,
            models=a.model or None,
        )
        print(f"wrote {n} verified-correct chat examples to {out}")
    elif a.format == "dimacs":
        n = export.export_dimacs(api.load_problems(_need(a, "problems")), out)
        print(f"wrote {n} DIMACS files to {out}/")
    elif a.format == "zebralogic":
        n = export.export_zebralogic(api.load_problems(_need(a, "problems")), out)
        print(f"wrote {n} puzzles in the ZebraLogic layout to {out}")
    else:  # inspect
        from ..export.inspect_task import export_inspect

        path = export_inspect(api.load_items(_need(a, "items")), out)
        print(
            f"wrote an Inspect task to {path}; run: inspect eval {path}@logicforge_items --model …"
        )
    return 0


def _need(a: argparse.Namespace, name: str) -> str:
    v = getattr(a, name)
    if not v:
        raise ConfigError(f"--{name}", None, f"`export {a.format}` needs --{name} FILE")
    return str(v)


def completion_script(parser: argparse.ArgumentParser) -> str:
    """A bash completion script for the verbs and their options, built from the parser."""
    verbs: dict[str, list[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sp in action.choices.items():
                opts = [o for a in sp._actions for o in a.option_strings]
                choices = [
                    str(c) for a in sp._actions if not a.option_strings for c in (a.choices or [])
                ]
                verbs[name] = choices + opts
    cases = "\n".join(f'    {v}) words="{" ".join(w)}" ;;' for v, w in sorted(verbs.items()))
    return f"""# bash completion for logicforge: eval "$(logicforge completion bash)"
_logicforge() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{" ".join(sorted(verbs))}" -- "$cur")); return
  fi
  case "${{COMP_WORDS[1]}}" in
{cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  [ ${{#COMPREPLY[@]}} -eq 0 ] && COMPREPLY=($(compgen -f -- "$cur"))
}}
complete -F _logicforge logicforge
"""


def cmd_completion(a: argparse.Namespace) -> int:
    print(completion_script(a.root_parser), end="")
    return 0


def cmd_serve(a: argparse.Namespace) -> int:
    from ..serve import serve

    items = api.load_items(a.items) if a.items else None
    serve(
        a.model,
        host=a.host,
        port=a.port,
        port_file=a.port_file,
        items=items,
        **server_limit_values(a),
    )
    return 0


def cmd_serve_verify(a: argparse.Namespace) -> int:
    from ..metrics.reward import require_certified
    from ..serve_verify import serve_verify

    items = api.load_items(a.items) if a.items else None
    require_certified(items or [], a.reward_mode)  # before listening, not per request
    serve_verify(
        host=a.host, port=a.port, port_file=a.port_file, items=items,
        api_key_env=a.api_key_env, sign_key_env=a.sign_key_env,
        accept_unsigned=a.accept_unsigned_items, concurrency=a.concurrency,
        max_batch=a.max_batch, reward_mode=a.reward_mode, generate_timeout=a.generate_timeout,
        generate_memory_mb=a.generate_memory_mb, generate_workers=a.generate_workers,
        **server_limit_values(a),
    )  # fmt: skip
    return 0


def add_parsers(sub: Any, root: argparse.ArgumentParser) -> None:
    """The verbs of this module, on ``sub`` (the subparsers of ``root``, the whole parser)."""
    sv = sub.add_parser(
        "serve-verify",
        help="the verifiers over HTTP for training loops: /generate, /verify (batched), /health",
    )
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=natural, default=8100, help="0 picks a free port")
    sv.add_argument("--port-file", help='write {"port": N} here once listening')
    sv.add_argument("--items", help="items.jsonl that /verify may name by item_id")
    sv.add_argument("--api-key-env", help="require 'Authorization: Bearer $VAR' on every request")
    sv.add_argument(
        "--sign-key-env",
        help="sign items with the key in $VAR (shared by replicas; default: a random key)",
    )
    sv.add_argument(
        "--accept-unsigned-items",
        action="store_true",
        help="pay items a client sends without this server's signature (a changed item under "
        "a known id is still refused)",
    )
    sv.add_argument("--concurrency", type=natural, default=4, help="verifications at a time")
    sv.add_argument("--max-batch", type=natural, default=1024, help="requests per /verify call")
    sv.add_argument(
        "--reward-mode",
        choices=("certified", "decision"),
        default="certified",
        help="certified (default): a decision pays only with a checked certificate; "
        "decision: the decision alone (a constant policy earns its label's share)",
    )
    sv.add_argument(
        "--generate-timeout",
        type=seconds,
        default=60.0,
        help="seconds one /generate may take; a request estimated past it is refused at once, "
        "one that runs past it is stopped (default 60)",
    )
    sv.add_argument(
        "--generate-memory-mb",
        type=natural,
        default=4096,
        help="memory of a generation worker process in MiB (default 4096; 0: no limit)",
    )
    sv.add_argument(
        "--generate-workers", type=positive, default=1, help="generation worker processes"
    )
    server_limits(sv)
    sv.set_defaults(fn=cmd_serve_verify)
    se = sub.add_parser("serve", help="serve a model (e.g. embedded) as an OpenAI-compatible API")
    se.add_argument("--model", default="embedded", help="model spec (default: embedded)")
    se.add_argument("--host", default="127.0.0.1")
    se.add_argument("--port", type=natural, default=8000, help="0 picks a free port")
    se.add_argument("--port-file", help='write {"port": N} here once listening')
    se.add_argument("--items", help="items.jsonl whose prompts a baseline model answers")
    server_limits(se)
    se.set_defaults(fn=cmd_serve)
    co = sub.add_parser("completion", help="print a shell completion script (bash)")
    co.add_argument("shell", choices=["bash"])
    co.set_defaults(fn=cmd_completion, root_parser=root)  # the script lists every verb

    li = sub.add_parser("list", help="registered families, renderers, models, … with descriptions")
    li.add_argument("what", nargs="?", choices=WHAT, help="one registry (default: all)")
    li.add_argument("--json", action="store_true", help="machine-readable output")
    li.set_defaults(fn=cmd_list)

    sh = sub.add_parser("show", help="print one item: its problem, prompt and gold answer")
    sh.add_argument("item_id", help="an item id or problem id")
    sh.add_argument("--items", required=True)
    sh.add_argument("--json", action="store_true")
    sh.set_defaults(fn=cmd_show)

    ex = sub.add_parser(
        "export", help="Hugging Face dataset, SFT chat data, DIMACS, ZebraLogic, Inspect"
    )
    ex.add_argument("format", choices=["hf", "sft", "dimacs", "zebralogic", "inspect"])
    ex.add_argument("--items", help="items.jsonl (hf, sft, inspect)")
    ex.add_argument("--records", help="records.jsonl (sft)")
    ex.add_argument(
        "--model",
        action="append",
        help="sft: keep only this model's answers (repeatable; default: every model's)",
    )
    ex.add_argument("--problems", help="problems.jsonl (dimacs, zebralogic)")
    ex.add_argument("--out", required=True)
    ex.add_argument("--shard-format", choices=["jsonl", "parquet"], default="jsonl")
    ex.add_argument("--licence", default="apache-2.0")
    ex.add_argument("--command", help="the generation command, for the dataset card")
    ex.add_argument("--split", default="test", help="hf: the split name (train refuses items "
                    "the reward mode cannot pay)")  # fmt: skip
    ex.add_argument(
        "--reward-mode",
        choices=("certified", "decision"),
        default="certified",
        help="sft / hf train: certified (default) keeps a decision only with its checked "
        "certificate; decision: the decision alone",
    )
    ex.set_defaults(fn=cmd_export)
