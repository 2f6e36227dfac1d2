"""``import_problems``: any registered dataset's files as labelled problems, with a log (the
public entry point, with its example, is :func:`logicforge.files.import_problems`)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import LogicforgeError
from ..registry import DATASETS
from ..schema import ImportLog, LabelledProblem
from .limits import use_limits


def import_problems(
    dataset: str,
    paths: Sequence[str | Path],
    limits: Mapping[str, Any] | None = None,
    **options: Any,
) -> tuple[list[LabelledProblem], ImportLog]:
    """The problems of ``paths`` read by the dataset's reader, and what it noted. Readers with a
    lenient ``read`` note each bad file or row and keep the rest; the others
    (LogicalDeduction, SATLIB flat) read each path whole, and a path they refuse is noted as
    rejected. ``limits`` overrides the import bounds (:mod:`.limits`, e.g.
    ``{"max_vars": 5_000_000}``). ``options`` the reader does not take (``timeout``,
    ``licence``, …) are ignored."""
    with use_limits(limits):
        return _import(dataset, paths, **options)


def _import(
    dataset: str, paths: Sequence[str | Path], **options: Any
) -> tuple[list[LabelledProblem], ImportLog]:
    from ..datadir import resolve

    ds: Any = DATASETS.get(dataset)
    log = ImportLog(dataset=dataset)
    if ds.read is not None:
        accepted = inspect.signature(ds.read).parameters
        kw = {k: v for k, v in options.items() if k in accepted and v is not None}
        problems = list(ds.read(paths, log, **kw))
    else:
        problems = []
        for p in paths:
            log.sources.append(str(p))
            try:
                got = ds.load(resolve(p))  # data:<rel> is read under the data folder
            except LogicforgeError as e:
                log.read += 1  # the file, refused whole
                log.reject(str(p), str(e))
                continue
            log.read += len(got)  # rows, as the lenient readers count them
            problems += got
        log.imported = len(problems)
    return problems, log


def strict_loader(dataset: str, read: Any) -> Any:
    """A suite ``data:`` block's loader built on a lenient reader: the problems of one path, or
    an error naming the first file or row the reader refused."""

    def load(path: Path) -> list[LabelledProblem]:
        log = ImportLog(dataset=dataset)
        problems = list(read([path], log))
        if log.rejected:
            first = log.rejected[0]
            raise LogicforgeError(
                f"{first.source}: {first.message} ({len(log.rejected)} rejected; "
                f"`logicforge import {dataset}` keeps the rest)"
            )
        return problems

    return load
