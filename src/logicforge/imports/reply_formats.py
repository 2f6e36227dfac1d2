"""The reply files of other harnesses, each read into :class:`Reply` rows (:data:`READERS`):
ZeroEval result files, plain JSONL, Inspect AI eval logs and lm-evaluation-harness sample
logs; :mod:`.replies` joins them to items and scores them.

Example:
    >>> sorted(READERS)
    ['inspect', 'jsonl', 'lm-eval', 'zeroeval']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DataFileError
from ..schema import ImportLog
from .files import rows_of

MARKER = "=== REPLY ==="


@dataclass
class Reply:
    id: str
    model: str
    text: str | None
    where: str
    sample: int = 0
    prompt: str | None = None
    source_verdict: bool | None = None
    finish_reason: str | None = None
    error: str | None = None
    config: dict[str, Any] | None = None  # how the source generated it (temperature, top_p …)


# a source's generation settings under the names a record's config uses
CONFIG_KEYS = {"temperature": "temperature", "top_p": "top_p", "max_tokens": "max_tokens",
               "max_new_tokens": "max_tokens", "seed": "seed", "repetition_penalty":
               "repetition_penalty", "engine": "engine"}  # fmt: skip


def source_config(raw: Any, source: str) -> dict[str, Any] | None:
    """A source's generation settings as a record's ``config`` (``source`` names the harness);
    None when it carries none.

    Example:
        >>> source_config({"temperature": 0.0, "top_p": 1.0, "max_tokens": 4096}, "zeroeval")
        {'source': 'zeroeval', 'temperature': 0.0, 'top_p': 1.0, 'max_tokens': 4096}
    """
    if not isinstance(raw, dict):
        return None
    got = {CONFIG_KEYS[k]: v for k, v in raw.items() if k in CONFIG_KEYS and v is not None}
    return {"source": source, **got} if got else None


def _verdict(v: Any) -> bool | None:
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in ("true", "false", "correct", "incorrect"):
        return v.strip().lower() in ("true", "correct")
    return None


def read_zeroeval(path: Path, shown: str, log: ImportLog) -> Iterator[Reply]:
    for where, row in rows_of(path, shown, log):
        if "id" not in row:
            log.reject(where, "not a ZeroEval row (an object with an 'id')")
            continue
        outs = row.get("output")
        if isinstance(outs, str):
            outs = [outs]
        if not isinstance(outs, list) or not outs:
            log.reject(where, "no 'output' list")
            continue
        hist = row.get("chat_history")
        prompt = hist[0] if isinstance(hist, list) and hist and isinstance(hist[0], str) else None
        model = str(row.get("generator") or "unknown")
        config = source_config(row.get("configs"), "zeroeval")
        for s, text in enumerate(outs):
            ok = isinstance(text, str)
            yield Reply(
                id=str(row["id"]),
                model=model,
                text=text if ok else None,
                where=where,
                sample=s,
                prompt=prompt,
                error=None if ok else f"the output is {type(text).__name__}, not text",
                config=config,
            )


def read_plain(path: Path, shown: str, log: ImportLog) -> Iterator[Reply]:
    for where, row in rows_of(path, shown, log):
        if "id" not in row or "response" not in row:
            log.reject(where, "expected an object with 'id', 'model' and 'response'")
            continue
        text = row["response"]
        sample = row.get("sample", 0)
        yield Reply(
            id=str(row["id"]),
            model=str(row.get("model") or "unknown"),
            text=text if isinstance(text, str) else None,
            where=where,
            sample=sample if isinstance(sample, int) and sample >= 0 else 0,
            prompt=row.get("prompt") if isinstance(row.get("prompt"), str) else None,
            source_verdict=_verdict(row.get("correct", row.get("verdict"))),
            error=None if isinstance(text, str) else "the response is not text",
            config=source_config(row.get("config"), "jsonl"),
        )


def _content(c: Any) -> str | None:
    """A message content as text: a string, or the text parts of a list of parts."""
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        parts = [p.get("text") for p in c if isinstance(p, dict) and p.get("type") == "text"]
        return "".join(x for x in parts if isinstance(x, str))
    return None


def _inspect_samples(path: Path) -> tuple[str, list[dict[str, Any]]]:
    """(model, samples as plain dicts) of an Inspect log: ``.json`` read directly, ``.eval``
    (a zstd-compressed zip) through ``inspect_ai`` when it is installed."""
    import json

    if path.suffix == ".json":
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise DataFileError(f"{path}: not an Inspect JSON log ({e})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("samples"), list):
            raise DataFileError(f"{path}: not an Inspect log (no 'samples' list)")
        return str((obj.get("eval") or {}).get("model") or "unknown"), obj["samples"]
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise DataFileError(
            f"{path}: reading .eval logs needs inspect_ai (pip install inspect-ai), or convert "
            "it first: inspect log convert --to json"
        ) from None
    try:
        log = read_eval_log(str(path))
    except Exception as e:  # inspect raises its own errors for a bad file
        raise DataFileError(
            f"{path}: inspect_ai cannot read it ({type(e).__name__}: {e})"
        ) from None
    return str(log.eval.model), [s.model_dump(mode="json") for s in log.samples or []]


def _score_value(scores: Any) -> bool | None:
    """The first scorer's verdict of an Inspect sample: C / I, 1 / 0, true / false."""
    if not isinstance(scores, dict) or not scores:
        return None
    first = next(iter(scores.values()))
    v = first.get("value") if isinstance(first, dict) else None
    if v in ("C", "I"):
        return v == "C"
    return _verdict(v)


def read_inspect(path: Path, shown: str, log: ImportLog) -> Iterator[Reply]:
    model, samples = _inspect_samples(path)
    for i, s in enumerate(samples):
        log.read += 1
        where = f"{shown}#{s.get('id', i + 1)}"
        out = s.get("output") or {}
        choices = out.get("choices") or []
        text = out.get("completion")
        if not text and choices:
            text = _content((choices[0].get("message") or {}).get("content"))
        inp = s.get("input")
        prompt = (
            inp
            if isinstance(inp, str)
            else "\n\n".join(_content(m.get("content")) or "" for m in inp if isinstance(m, dict))
            if isinstance(inp, list)
            else None
        )
        err = s.get("error")
        stop = choices[0].get("stop_reason") if choices else None
        yield Reply(
            id=str(s.get("id")),
            model=model,
            text=text if isinstance(text, str) and not err else None,
            where=where,
            sample=max(0, int(s.get("epoch") or 1) - 1),
            prompt=prompt,
            source_verdict=_score_value(s.get("scores")),
            finish_reason="length" if stop in ("max_tokens", "model_length") else stop,
            error=(
                str(err.get("message") if isinstance(err, dict) else err)[:300] if err else None
            ),
        )


def _lm_eval_model(path: Path) -> str:
    """The model name lm-evaluation-harness saved beside its samples (``results_<time>.json``),
    else the folder's name (``--output_path`` / <model>)."""
    import json

    stamp = path.stem.rsplit("_", 1)[-1]
    for f in sorted(path.parent.glob(f"results_{stamp}*.json")) or sorted(
        path.parent.glob("results_*.json")
    ):
        try:
            name = json.loads(f.read_text(encoding="utf-8")).get("model_name")
        except (OSError, ValueError):
            continue
        if isinstance(name, str) and name:
            return name
    return path.parent.name


def _lm_eval_prompt(args: Any) -> str | None:
    """The prompt of a ``generate_until`` request: the context string, or the text of a chat
    context (``--apply_chat_template`` stores the messages as a JSON string)."""
    import json

    if not isinstance(args, dict) or not args:
        return None
    ctx = next(iter(args.values()))
    ctx = ctx.get("arg_0") if isinstance(ctx, dict) else None
    if isinstance(ctx, list) and ctx:
        ctx = ctx[0]
    if not isinstance(ctx, str):
        return None
    try:
        msgs = json.loads(ctx)
    except ValueError:
        return ctx
    if isinstance(msgs, list) and all(isinstance(m, dict) for m in msgs):
        return "\n\n".join(_content(m.get("content")) or "" for m in msgs)
    return ctx


def read_lm_eval(path: Path, shown: str, log: ImportLog) -> Iterator[Reply]:
    model = _lm_eval_model(path)
    for where, row in rows_of(path, shown, log):
        if "resps" not in row:
            log.reject(where, "not an lm-eval sample (no 'resps')")
            continue
        doc: dict[str, Any] = row["doc"] if isinstance(row.get("doc"), dict) else {}
        rid = next((doc[k] for k in ("id", "item_id", "problem_id") if doc.get(k)), None)
        text = row.get("filtered_resps")
        text = text[0] if isinstance(text, list) and text else text
        if not isinstance(text, str):
            resps = row.get("resps")
            text = resps[0][0] if resps and isinstance(resps[0], list) and resps[0] else None
        metrics: list[Any] = row["metrics"] if isinstance(row.get("metrics"), list) else []
        verdict = next(
            (_verdict(row.get(m)) for m in metrics if _verdict(row.get(m)) is not None), None
        )
        yield Reply(
            id=str(rid if rid is not None else row.get("doc_id")),
            model=model,
            text=text if isinstance(text, str) else None,
            where=where,
            prompt=_lm_eval_prompt(row.get("arguments")),
            source_verdict=verdict,
            error=None if isinstance(text, str) else "no response text",
        )


READERS: dict[str, Callable[[Path, str, ImportLog], Iterator[Reply]]] = {
    "lm-eval": read_lm_eval,
    "zeroeval": read_zeroeval,
    "jsonl": read_plain,
    "inspect": read_inspect,
}
