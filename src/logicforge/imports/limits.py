"""Bounds on what an imported file may make logicforge build: checked on what a file declares
and on what it holds, before anything that size is allocated. A file past a bound is refused on
its own with a one-line reason naming the line and the limit; the import goes on with the
rest. Every bound is settable — ``logicforge import … --limit max_vars=5000000`` or
``import_problems(…, limits={"max_vars": 5_000_000})``.

Example:
    >>> current().max_houses
    20
    >>> with use_limits({"max_houses": 40}):
    ...     current().max_houses
    40
    >>> use_limits({"max_house": 40}).__enter__()
    Traceback (most recent call last):
    ...
    logicforge.errors.ConfigError: invalid value for 'limits': 'max_house' — unknown limit; known: max_bytes, max_vars, max_clauses, max_literals, max_token_chars, max_houses, max_attributes, max_rows
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ConfigError


class ImportLimits(BaseModel):
    """The bounds. The defaults hold every file of SATLIB, ZebraLogic, SATBench and FOLIO many
    times over and keep one file's import under about 2 s and 200 MB; SAT-competition-sized
    formulas need ``max_vars`` / ``max_clauses`` / ``max_literals`` raised."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_bytes: int = Field(default=16 << 20, ge=1)  # one file, once decompressed
    max_vars: int = Field(default=250_000, ge=1)  # DIMACS: declared or used
    max_clauses: int = Field(default=250_000, ge=1)  # DIMACS: declared or found
    max_literals: int = Field(default=2_500_000, ge=1)  # DIMACS: all clauses together
    max_token_chars: int = Field(default=24, ge=1)  # DIMACS: one number, in characters
    max_houses: int = Field(default=20, ge=1)  # ZebraLogic: houses of a grid
    max_attributes: int = Field(default=20, ge=1)  # ZebraLogic: attributes of a grid
    max_rows: int = Field(default=1_000_000, ge=1)  # rows of one JSON / JSONL / Parquet file


_DEFAULT = ImportLimits()
_LIMITS: contextvars.ContextVar[ImportLimits | None] = contextvars.ContextVar(
    "logicforge_import_limits", default=None
)


def current() -> ImportLimits:
    """The bounds in force (the defaults unless :func:`use_limits` set others)."""
    return _LIMITS.get() or _DEFAULT


@contextlib.contextmanager
def use_limits(overrides: Mapping[str, Any] | ImportLimits | None) -> Iterator[ImportLimits]:
    """The bounds with ``overrides`` in force inside the block; an unknown name or a bad value
    is a :class:`~logicforge.errors.ConfigError` before any file is read."""
    if isinstance(overrides, ImportLimits):
        lim = overrides
    else:
        known = list(ImportLimits.model_fields)
        for k in overrides or {}:
            if k not in known:
                raise ConfigError("limits", k, f"unknown limit; known: {', '.join(known)}")
        try:
            lim = ImportLimits(**{**current().model_dump(), **dict(overrides or {})})
        except ValidationError as e:
            err = e.errors()[0]
            raise ConfigError(
                "limits", f"{err['loc'][0]}={err.get('input')!r}", err["msg"]
            ) from None
    token = _LIMITS.set(lim)
    try:
        yield lim
    finally:
        _LIMITS.reset(token)


def excerpt(text: str, n: int = 40) -> str:
    """``text`` quoted for a message, at most ``n`` characters of it (a refused file's
    content must not make the message, or the report that holds it, large).

    Example:
        >>> excerpt("9" * 1000)
        "'9999999999999999999999999999999999999999…' (1,000 characters)"
        >>> excerpt("abc")
        "'abc'"
    """
    if len(text) <= n:
        return repr(text)
    return f"{text[:n]!r}".rstrip("'") + f"…' ({len(text):,} characters)"
