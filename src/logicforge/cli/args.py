"""Argument types shared by the CLI's commands."""

from __future__ import annotations

import argparse


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


def allow_errors(parser: argparse.ArgumentParser) -> None:
    """``--allow-errors``: exit 0 although records ended in an error (otherwise exit code 3)."""
    parser.add_argument(
        "--allow-errors",
        action="store_true",
        help="exit 0 even when records ended in an error (default: exit 3)",
    )
