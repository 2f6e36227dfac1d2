"""Argument types shared by the CLI's commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator


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
