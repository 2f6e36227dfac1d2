"""logicforge's files read back: items streamed or loaded, problems, any JSONL file checked for
its shape (items, problems, records) with the line and the field named when it is not.

Example:
    >>> file_kind({"problem_id": "p", "label": "SAT", "problem": {}})
    'problem'
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import jsonfast
from .errors import DataFileError
from .runner.store import read_jsonl
from .schema import ImportLog, Item, LabelledProblem, Record

READ_AHEAD = 64  # item lines parsed together by iter_items


def iter_items(path: str | Path, read_ahead: int = READ_AHEAD) -> Iterator[Item]:
    """Stream an items JSONL file, naming the line of any item that does not fit the schema.

    Lines are read and parsed ``read_ahead`` at a time: a run keeps far fewer items in memory
    than the file holds, and parsing a block in one go is cheaper than parsing each line between
    requests (about 15 % of the client's CPU per sample on a zero-latency server). A bad line
    raises only when the iteration reaches it, so the items before it are all yielded, and one
    past a stop (``itertools.islice``) is never reported.

    Example:
        >>> import logicforge as lf, tempfile, os
        >>> from logicforge.runner.store import write_jsonl
        >>> f = os.path.join(tempfile.mkdtemp(), "items.jsonl")
        >>> n = write_jsonl(f, lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 2.0}, count=3, seed=0)))
        >>> len(list(iter_items(f, read_ahead=2)))
        3
    """
    from pydantic import ValidationError

    try:
        f = open(path, "rb")  # noqa: SIM115 - closed by the generator
    except FileNotFoundError:
        raise DataFileError.missing(path) from None
    block = max(1, read_ahead)
    known: dict[tuple[str, str], Any] = {}  # labels (or the item's own) per (kind, format)
    with f:
        lines = enumerate(f, start=1)
        while True:
            chunk = list(itertools.islice(lines, block))
            if not chunk:
                return
            items: list[Item] = []
            bad: DataFileError | None = None
            for i, line in chunk:
                if line.isspace():
                    continue
                try:
                    it = _parse_item(line)
                except ValidationError as e:
                    bad = _schema_error(path, "line", i, e, _row(line))
                    break
                why = _item_problem(it, known)
                if why:
                    bad = DataFileError(f"{path}: line {i}: {why}")
                    break
                items.append(it)
            yield from items
            if bad is not None:
                raise bad


def _row(line: bytes) -> Any:
    """A line's JSON value for an error message (None when it is not JSON)."""
    try:
        return json.loads(line)
    except ValueError:
        return None


def _parse_item(line: bytes) -> Item:
    """One items line as an Item: read by orjson and validated as Python data (a fifth less
    CPU than pydantic reading the JSON itself) where :func:`jsonfast.fast_loads` reads it
    exactly; pydantic's own reader otherwise, and for a line that is not an object, so that its
    error names what is wrong."""
    try:
        data = jsonfast.fast_loads(line)
    except jsonfast.Unread:
        data = None
    return Item.model_validate(data) if isinstance(data, dict) else Item.model_validate_json(line)


def _kind_labels(it: Item, known: dict[tuple[str, str], Any]) -> tuple[str, ...]:
    """The gold labels ``it`` may carry (none for an unknown kind), looked up once per (kind,
    answer format) in ``known``; a format whose labels are the item's own (multiple choice)
    is asked per item."""
    key = (it.kind, it.answer_format)
    labels = known.get(key)
    if labels is None:
        from .kinds.base import format_of, gold_labels

        f = format_of(*key)
        own = None if f is None else f.item_labels
        labels = known[key] = own if own is not None else gold_labels(it)
    if isinstance(labels, tuple):
        return labels
    return tuple(str(x) for x in labels(it))


def _item_problem(it: Item, known: dict[tuple[str, str], Any]) -> str:
    """What is wrong with a schema-valid item's contents ("" when nothing): a gold label its
    kind (or, for multiple choice, its own options) does not have, a name mapped to a variable
    the problem does not declare (``known``: the labels seen so far, kept by the caller across
    items)."""
    labels = _kind_labels(it, known)
    gold = it.gold.get("label")
    if labels and gold not in (*labels, "UNKNOWN"):
        return f"gold.label: {str(gold)[:40]!r} is not a {it.kind} label ({', '.join(labels)})"
    n = it.problem.get("num_vars")
    if isinstance(n, int):
        bad = [k for k, v in it.mapping.items() if not 1 <= v <= n]
        if bad:
            return f"mapping: {bad[0][:40]!r} names variable {it.mapping[bad[0]]}, not in 1..{n}"
    return ""


def count_lines(path: str | Path) -> int:
    """Non-empty lines of a JSONL file (for progress totals), without parsing them."""
    with open(path, "rb") as f:  # a file yields no empty line; isspace() copies nothing
        return sum(not line.isspace() for line in f)


def load_items(path: str | Path) -> list[Item]:
    """Read a whole items JSONL file (see :func:`iter_items`)."""
    return list(iter_items(path))


def checked_rows(path: str | Path, model: Any, what: str) -> list[dict[str, Any]]:
    """The rows of a JSONL file, each checked against ``model`` (kept as dicts); the first that
    does not fit is a :class:`DataFileError` naming the line and the field."""
    from pydantic import ValidationError

    rows = []
    for i, obj in enumerate(read_jsonl(path), start=1):
        try:
            model.model_validate(obj)
        except ValidationError as e:
            raise _schema_error(path, what, i, e, obj) from None
        rows.append(obj)
    return rows


_SHAPES = {  # the fields that tell logicforge's files apart
    "record": ("record_id", "item_id", "model"),
    "item": ("item_id", "messages", "gold"),
    "problem": ("problem_id", "label", "problem"),
}


def file_kind(row: Any) -> str | None:
    """Which of logicforge's files a row comes from (``record``, ``item``, ``problem``), by
    its fields, or None.

    Example:
        >>> file_kind({"record_id": "r", "item_id": "i", "model": "m", "text": "SAT"})
        'record'
    """
    if not isinstance(row, dict):
        return None
    return next((k for k, keys in _SHAPES.items() if all(f in row for f in keys)), None)


def _schema_error(path: str | Path, what: str, i: int, e: Any, row: Any = None) -> DataFileError:
    """The first field of a row that does not fit its schema, named with file and row; a row
    of another of logicforge's files (records given as items …) is named as such."""
    label, what = (what, "item") if what == "line" else (what, what)  # items: "line i"
    got = file_kind(row)
    if got is not None and got != what:
        a = "an" if got[0] in "aeiou" else "a"
        return DataFileError(
            f"{path}: this is {a} {got}s file (line {i} has {a} {got}'s fields: "
            f"{', '.join(_SHAPES[got])}), not a file of {what}s — give it as --{got}s, and the "
            f"{what}s file as --{what}s"
        )
    err = e.errors()[0]
    where = ".".join(map(str, err["loc"])) or "(the row)"
    return DataFileError(f"{path}: {label} {i}: {where}: {err['msg']}")


def check_file_kind(path: str | Path, want: str) -> None:
    """Refuse at once a file whose first row is another of logicforge's files (records given
    as items …), before any work or output; a row of no known shape is left to the reader.

    Example:
        >>> import tempfile, pathlib
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.jsonl"
        >>> _ = p.write_text('{"record_id": "r", "item_id": "i", "model": "m"}\\n')
        >>> check_file_kind(p, "item")
        Traceback (most recent call last):
        ...
        logicforge.errors.DataFileError: ...: this is a records file (line 1 has a record's fields: record_id, item_id, model), not a file of items — give it as --records, and the items file as --items
    """
    with open(path, "rb") as f:
        for i, line in enumerate(f, start=1):
            if line.strip():
                try:
                    row = json.loads(line)
                except ValueError:
                    return
                got = file_kind(row)
                if got is not None and got != want:
                    raise _schema_error(path, want, i, None, row)
                return


def load_problems(path: str | Path) -> list[LabelledProblem]:
    from pydantic import ValidationError

    out = []
    for i, obj in enumerate(read_jsonl(path), start=1):
        try:
            out.append(LabelledProblem.model_validate(obj))
        except ValidationError as e:
            raise _schema_error(path, "problem", i, e, obj) from None
    return out


def dumps_params(p: Mapping[str, Any]) -> str:
    return json.dumps(p, sort_keys=True)


def import_problems(
    dataset: str, paths: Sequence[str | Path], **options: Any
) -> tuple[list[LabelledProblem], ImportLog]:
    """Published problem files as labelled problems, every label re-proved, with a log of what
    was refused, timed out or contradicted (see :mod:`logicforge.imports`).

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "a.cnf").write_text("p cnf 1 2\\n1 0\\n-1 0\\n")
        >>> problems, log = import_problems("dimacs", [d])
        >>> problems[0].label, log.imported
        ('UNSAT', 1)
    """
    from .imports.base import import_problems as _imp

    return _imp(dataset, paths, **options)


def rescore(
    fmt: str, paths: Sequence[str | Path], **options: Any
) -> tuple[list[Record], list[Item], list[LabelledProblem], ImportLog]:
    """Replies collected by another harness (``zeroeval``, ``jsonl``, ``dimacs-reply``) as
    ordinary records scored by logicforge's parser and verifiers; see
    :func:`logicforge.imports.replies.rescore`."""
    from .imports.replies import rescore as _rescore

    return _rescore(fmt, paths, **options)
