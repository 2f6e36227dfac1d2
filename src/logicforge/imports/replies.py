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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError, DataFileError
from ..schema import ImportLog, Item, LabelledProblem, Record
from .dimacs import formula_problem
from .files import expand, read_bytes
from .reply_formats import (
    MARKER,
    READERS,
    Reply,
)

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
