"""Replies collected by other harnesses, re-scored by logicforge's parser and verifiers
(``logicforge rescore``): each reader turns a file into :class:`Reply` rows; :func:`rescore`
joins them to items and writes ordinary records, so ``report`` works unchanged.

Joins are honest: a reply whose problem is not among the items, that matches several items, or
whose stored prompt differs from the prompt its item renders to (compared with whitespace
collapsed) is noted and left out, never scored against the wrong problem. A verdict the source
carries (its own ``correct`` / score) is kept on the record as ``extra.source_verdict``, and the
report compares it with logicforge's (``rescore_disagreements``).

Formats:

* ``zeroeval`` — ZeroEval result files (a JSON list of ``{id, output: [reply], generator,
  chat_history: [prompt], configs}``); ``configs`` (temperature, top_p, max_tokens, engine,
  repetition_penalty) becomes each record's ``config``, so the report shows the sampling;
* ``jsonl`` — one ``{"id", "model", "response"}`` object per line (``sample``, ``prompt``,
  ``correct``, ``config`` optional), ids matching an item, problem or source id;
* ``inspect`` — Inspect AI eval logs (``.eval`` through ``inspect_ai``, ``.json`` directly):
  each sample's input, output completion, epoch (sample = epoch − 1) and its first scorer's
  value as the source verdict; the log's model;
* ``lm-eval`` — lm-evaluation-harness ``--log_samples`` files (``samples_<task>_<time>.jsonl``):
  the doc's ``id`` (else ``doc_id``), the filtered response, the request's prompt (chat
  contexts read back from their JSON), the first metric as the source verdict, and the model
  from the ``results_<time>.json`` beside it;
* ``dimacs-reply`` — a DIMACS CNF followed by a marker line (default ``=== REPLY ===``) and the
  model's raw reply, one file per reply, as several SAT papers store them; the formula itself is
  the problem (imported and solved), the file name its id.

Example:
    >>> r = Reply(id="p1", model="m", text="SAT", where="f.jsonl#1")
    >>> r.sample, r.prompt is None
    (0, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError, DataFileError
from ..schema import ImportLog, Item, LabelledProblem, Record
from .dimacs import formula_problem
from .files import expand, read_bytes, rows_of

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
FORMATS = (*READERS, "dimacs-reply")  # the formats rescore reads
SUFFIXES = {
    "zeroeval": (".json",),
    "jsonl": (".jsonl", ".json"),
    "inspect": (".eval", ".json"),
    "lm-eval": (".jsonl",),
}


# stored API failures: a harness that wrote its error where the reply goes (the ADR authors'
# files hold "[Error] Request timed out.", 502 pages, "[Error] module 'openai' has no attribute
# 'error'"). An outage is not the model's mistake: such a reply becomes an error record.
API_FAILURES = (
    r"^\s*\[\s*error\s*\]",
    r"^\s*(?:error|exception)\s*(?:code)?\s*[:(]?\s*\d{3}\b",
    r"^\s*traceback \(most recent call last\)",
    r"\brequest timed out\b",
    r"\b(?:502|503|504)\b[^\n]{0,20}\b(?:bad gateway|service (?:temporarily )?unavailable|"
    r"gateway time-?out)\b",
    r"^\s*<(?:!doctype\s+html|html)\b",
    r"\brate limit (?:reached|exceeded)\b",
    r"\bmodule '[\w.]+' has no attribute\b",
    r"^\s*(?:openai|anthropic)\.\w*error\b",
)
FAILURE_HEAD = 400  # characters of a reply searched for a failure's shape
FAILURE_MAX = 4000  # a longer text is a reply, whatever it mentions


def stored_failure(text: str | None, extra: Sequence[str] = ()) -> str | None:
    """The reason a stored reply is a harness's API failure, not a model's answer, or None.

    Example:
        >>> stored_failure("[Error] Request timed out.")
        'stored API failure: [Error] Request timed out.'
        >>> stored_failure("The formula is UNSAT: x1 and not x1 conflict.") is None
        True
    """
    if not text or len(text.strip()) > FAILURE_MAX:
        return None
    head = text.strip()[:FAILURE_HEAD]
    for pat in (*API_FAILURES, *extra):
        if re.search(pat, head, re.I | re.M):
            first = head.splitlines()[0][:120]
            return f"stored API failure: {first}"
    return None


def _split_reply(text: str, marker: str, pattern: str | None) -> tuple[str, str] | None:
    """(formula, reply) around the marker line — the fixed line, or the first line matching
    ``pattern`` whole (``c GPT solve time: 114.52 seconds``) — or None without one."""
    if pattern is None:
        head, sep, reply = text.partition(f"\n{marker}\n")
        return (head, reply) if sep else None
    m = re.search(rf"^(?:{pattern})[ \t]*$", text, re.M)
    if m is None:
        return None
    return text[: m.start()], text[m.end() + 1 :]


def read_dimacs_replies(
    paths: Sequence[str | Path],
    log: ImportLog,
    marker: str = MARKER,
    model: str = "unknown",
    marker_pattern: str | None = None,
    pair_pattern: str | None = None,
) -> tuple[list[LabelledProblem], list[Reply]]:
    """(problems, replies) of DIMACS-plus-reply files: the text before the marker line (or the
    first line matching ``marker_pattern``) is the formula (solved here), the text after it the
    reply. With ``pair_pattern``, the part of a file's name it matches (its group ``pair``, else
    the whole match) is the problem's pair id: the SAT and UNSAT members of an ADR pair share it
    (``cnf_k3_N10_L35_alpha3.5_inst1040.txt`` and ``…_inst1040_RC2_fixed.cnf``)."""
    problems, replies = [], []
    for path, shown in expand(paths, (".txt", ".cnf", ".log", ".out")):
        log.read += 1
        try:
            text = read_bytes(path).decode("utf-8")
        except (DataFileError, UnicodeDecodeError) as e:
            log.reject(shown, str(e))
            continue
        split = _split_reply(text, marker, marker_pattern)
        if split is None:
            want = f"line matching {marker_pattern!r}" if marker_pattern else f"line {marker!r}"
            log.reject(shown, f"no marker {want} between the formula and the reply")
            continue
        head, reply = split
        p = formula_problem(head, head.encode(), shown, log)
        if p is None:
            continue
        if pair_pattern is not None:
            m = re.search(pair_pattern, Path(shown).name)
            if m is None:
                log.warn(shown, f"its name does not match the pair pattern {pair_pattern!r}")
            else:
                pid = m.groupdict().get("pair") or m.group(0)
                p = p.model_copy(update={"metadata": p.metadata | {"pair_id": pid}})
        problems.append(p)
        replies.append(Reply(id=p.problem_id, model=model, text=reply, where=shown))
    return problems, replies


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def join(
    replies: Sequence[Reply], items: Sequence[Item], log: ImportLog
) -> list[tuple[Reply, Item]]:
    """Each reply with its one item (module docstring); the others noted in ``log``."""
    index: dict[str, list[Item]] = {}
    for it in items:
        keys = {
            it.item_id,
            it.problem_id,
            str(it.params.get("id", "")),
            str(it.metadata.get("id", "")),
        }
        for k in keys - {""}:
            index.setdefault(k.lower(), []).append(it)
    out = []
    for r in replies:
        cands = index.get(r.id.lower(), [])
        if r.prompt is not None and len(cands) > 1:
            cands = [it for it in cands if _norm(_prompt(it)) == _norm(r.prompt)] or cands
        if not cands:
            log.reject(r.where, f"no item or problem with id {r.id!r}: not scored")
            continue
        if len(cands) > 1:
            names = ", ".join(sorted(it.item_id for it in cands)[:3])
            log.reject(r.where, f"id {r.id!r} matches {len(cands)} items ({names}): not scored")
            continue
        if r.prompt is not None and _norm(_prompt(cands[0])) != _norm(r.prompt):
            log.reject(
                r.where,
                f"the stored prompt differs from {cands[0].item_id}'s rendering: not scored",
            )
            continue
        out.append((r, cands[0]))
    return out


def _prompt(item: Item) -> str:
    return "\n\n".join(m.content for m in item.messages)


def score_replies(
    pairs: Sequence[tuple[Reply, Item]], source: str, failures: Sequence[str] = ()
) -> list[Record]:
    """Ordinary records for joined replies, scored by logicforge's parser and verifier; a
    stored API failure (:func:`stored_failure`, plus the ``failures`` patterns) is an error
    record, never scored."""
    from ..models.base import Response
    from ..runner.records import clean_text, score_response

    out = []
    seen: set[str] = set()
    for r, it in pairs:
        if r.error is None and (why := stored_failure(r.text, failures)):
            r.error = why
        rec = score_response(
            it,
            r.model,
            r.sample,
            Response(text=clean_text(r.text), finish_reason=r.finish_reason, error=r.error),
            config=r.config,  # the source's own generation settings, where it kept them
        )
        if rec.record_id in seen:
            continue  # the same reply twice (item, model, sample): the first is kept
        seen.add(rec.record_id)
        extra: dict[str, Any] = {"rescored_from": source, "source_row": r.where}
        if r.source_verdict is not None:
            extra["source_verdict"] = r.source_verdict
        out.append(rec.model_copy(update={"extra": rec.extra | extra}))
    return out


def read_replies(fmt: str, paths: Sequence[str | Path], log: ImportLog) -> list[Reply]:
    if fmt not in READERS:
        raise DataFileError(f"unknown reply format {fmt!r}; known: {', '.join(sorted(READERS))}")
    out: list[Reply] = []
    log.sources += [str(p) for p in paths]
    for path, shown in expand(paths, SUFFIXES[fmt]):
        try:
            out += list(READERS[fmt](path, shown, log))
        except DataFileError as e:
            log.reject(shown, str(e))
    return out


def _check_regex(name: str, pattern: str | None) -> None:
    if pattern is None:
        return
    try:
        re.compile(pattern)
    except re.error as e:
        raise ConfigError(name, pattern, f"not a regular expression: {e}") from None


def rescore(
    fmt: str,
    paths: Sequence[str | Path],
    *,
    items: Sequence[Item] | None = None,
    dataset: str | None = None,
    model: str | None = None,
    marker: str = MARKER,
    marker_pattern: str | None = None,
    failures: Sequence[str] = (),
    pair_pattern: str | None = None,
) -> tuple[list[Record], list[Item], list[LabelledProblem], ImportLog]:
    """Records for the replies in ``paths`` (format ``fmt``), joined to ``items`` — or to the
    problems read from the same files by ``dataset`` (``zeroeval``: ``zebralogic`` by default;
    ``dimacs-reply``: the files' own formulas, split at ``marker`` or at the first line matching
    ``marker_pattern``) — and the items, problems and log. Stored API failures (and replies
    matching ``failures``) are error records, not wrong answers.

    Example:
        >>> import tempfile, pathlib
        >>> f = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
        >>> _ = f.write_text("p cnf 1 2\\n1 0\\n-1 0\\n=== REPLY ===\\nThey conflict: UNSAT\\n")
        >>> recs, _, _, log = rescore("dimacs-reply", [f], model="m")
        >>> recs[0].verdict.correct, log.imported
        (True, 1)
    """
    from ..kinds import get_kind
    from ..renderers.base import render_problem
    from .base import import_problems

    patterns = [("marker_pattern", marker_pattern), ("pair_pattern", pair_pattern)]
    for name, pat in [*patterns, *(("error_pattern", f) for f in failures)]:
        _check_regex(name, pat)  # before any file is read
    log = ImportLog(dataset=f"rescore:{fmt}")
    problems: list[LabelledProblem] = []
    if fmt == "dimacs-reply":
        problems, replies = read_dimacs_replies(
            paths, log, marker, model or "unknown", marker_pattern, pair_pattern
        )
        if not problems and log.rejected and items is None:
            first = log.rejected[0]
            raise DataFileError(
                f"dimacs-reply: none of the {log.read} files could be read — the first, "
                f"{first.source}: {first.message}"
                + (
                    "; a marker line that varies between files is given as a pattern: "
                    "--marker-pattern 'c .* solve time: .*'"
                    if "marker" in first.message
                    else ""
                )
            )
    else:
        replies = read_replies(fmt, paths, log)
    source = dataset or ("zebralogic" if fmt == "zeroeval" and items is None else None)
    if source:
        problems, plog = import_problems(source, paths)
        for n in plog.rejected:
            log.reject(n.source, f"problem not imported: {n.message}")
    if items is None:
        if not problems:
            raise DataFileError(
                f"{fmt}: give the items the replies answer (--items) or a dataset to read the "
                "problems from the same files (--import)"
            )
        items = [
            render_problem(p, p.metadata.get("renderer") or get_kind(p.kind).renderer)
            for p in problems
        ]
    if model:
        for r in replies:
            r.model = model
    records = score_replies(join(replies, items, log), fmt, failures)
    log.imported = len(records)
    return records, list(items), problems, log
