"""Argument types shared by the CLI's commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def natural(text: str) -> int:
    """An integer ≥ 0 (counts, sizes, seeds, ports); anything else is a usage error naming it.

    Example:
        >>> natural("3")
        3
    """
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer ≥ 0, not {text[:40]!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be an integer ≥ 0, not {v}")
    return v


def positive(text: str) -> int:
    """An integer ≥ 1 (counts of problems: 0 would make an empty run that looks like a result).

    Example:
        >>> positive("2")
        2
    """
    v = natural(text)
    if v < 1:
        raise argparse.ArgumentTypeError("must be an integer ≥ 1, not 0 (nothing would be made)")
    return v


def seconds(text: str) -> float:
    """A number of seconds > 0 (time-outs and limits).

    Example:
        >>> seconds("2.5")
        2.5
    """
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0, not {text[:40]!r}") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, not {text[:40]}")
    return v


def server_limits(parser: argparse.ArgumentParser) -> None:
    """The connection bounds both servers take (:mod:`logicforge.serve_guard`)."""
    parser.add_argument(
        "--max-connections",
        type=positive,
        help="open connections at most (default: the descriptor limit less 128, ≤ 4096); at "
        "the cap the oldest idle connection is closed for a new one",
    )
    parser.add_argument(
        "--header-timeout",
        type=seconds,
        default=10.0,
        help="seconds a connection may take to send a request head (default 10)",
    )
    parser.add_argument(
        "--body-timeout",
        type=seconds,
        default=30.0,
        help="seconds a request body may take to arrive (default 30)",
    )


def strict_json_arg(parser: argparse.ArgumentParser) -> None:
    """``--strict-json``: read replies as strict JSON only (no Python dicts, no ``"Solution"``
    for ``"solution"``, no grid without its key)."""
    parser.add_argument(
        "--strict-json",
        action="store_true",
        help="read answers as strict JSON only (default: near-JSON read where unambiguous)",
    )


def server_limit_values(a: argparse.Namespace) -> dict[str, Any]:
    """The values of :func:`server_limits`' options, as the servers take them."""
    return {
        "max_connections": a.max_connections,
        "header_timeout": a.header_timeout,
        "body_timeout": a.body_timeout,
    }


def allow_errors(parser: argparse.ArgumentParser) -> None:
    """``--allow-errors``: exit 0 although records ended in an error (otherwise exit code 3)."""
    parser.add_argument(
        "--allow-errors",
        action="store_true",
        help="exit 0 even when records ended in an error (default: exit 3)",
    )


class LazyChoices:
    """Names for argparse ``choices``, read on first check rather than when the parser is built.

    Building the parser then imports no plug-in, so ``logicforge run`` does not pay for the
    importers' families; pass ``metavar`` too (argparse would list the choices in the usage line).

    Example:
        >>> from logicforge.registry import DATASETS
        >>> "folio" in LazyChoices(DATASETS.names)
        True
    """

    def __init__(self, names: Callable[[], Iterable[str]]) -> None:
        self._read = names

    def _names(self) -> list[str]:
        return sorted(self._read())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())
