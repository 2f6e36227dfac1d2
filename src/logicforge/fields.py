"""Parameter objects declared, not coded: a family's ``Params`` (or any frozen configuration)
is a class of fields, each with its range, and ``@params`` makes it a frozen dataclass that
checks every field on construction (a :class:`~logicforge.errors.ConfigError` naming the field,
the value and the range), then the class's own ``validate()`` for rules between fields.

Example:
    >>> @params
    ... class Toy:
    ...     size: int = integer(3, 7, default=4, note="grid side")
    ...     density: float = number(0, 1, default=0.5, open_lo=True)
    >>> Toy(size=5).size
    5
    >>> Toy(size=9)
    Traceback (most recent call last):
    ...
    logicforge.errors.ConfigError: invalid value for 'size': 9 — must be an integer in 3..7 (grid side)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

from .errors import ConfigError

T = TypeVar("T")
_CHECK = "check"


def _note(why: str, note: str) -> str:
    return f"{why} ({note})" if note else why


def integer(lo: int, hi: int | None = None, *, default: int, note: str = "") -> Any:
    """A field holding an integer in ``lo..hi`` (``hi`` None: no upper bound); a bool is refused."""

    def check(name: str, v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            why = (
                f"must be an integer in {lo}..{hi}"
                if hi is not None
                else f"must be an integer ≥ {lo}"
            )
            raise ConfigError(name, v, _note(why, note))

    return dataclasses.field(default=default, metadata={_CHECK: check})


def number(
    lo: float,
    hi: float | None = None,
    *,
    default: float,
    open_lo: bool = False,
    open_hi: bool = False,
    note: str = "",
) -> Any:
    """A field holding a number from ``lo`` to ``hi`` (``hi`` None: no upper bound), each end
    closed unless ``open_lo`` / ``open_hi``; the error writes the interval ``[lo, hi]``,
    ``(lo, hi]`` … or ``≥ lo``."""

    def check(name: str, v: Any) -> None:
        ok = isinstance(v, int | float) and not isinstance(v, bool)
        ok = ok and (v > lo if open_lo else v >= lo)
        ok = ok and (hi is None or (v < hi if open_hi else v <= hi))
        if not ok:
            span = (
                f"{'(' if open_lo else '['}{lo}, {hi}{')' if open_hi else ']'}"
                if hi is not None
                else f"{'>' if open_lo else '≥'} {lo}"
            )
            raise ConfigError(
                name,
                v,
                _note(
                    (
                        f"must be a number in {span}"
                        if hi is not None
                        else f"must be a number {span}"
                    ),
                    note,
                ),
            )

    return dataclasses.field(default=default, metadata={_CHECK: check})


def choice(*options: str, default: str) -> Any:
    """A field holding one of ``options``."""

    def check(name: str, v: Any) -> None:
        if v not in options:
            raise ConfigError(name, v, f"must be one of {', '.join(options)}")

    return dataclasses.field(default=default, metadata={_CHECK: check})


def at_most(name: str, value: int, most: int, lo: int = 0) -> None:
    """Refuse an integer field above a bound that depends on other fields (``validate()``'s
    usual check): a :class:`~logicforge.errors.ConfigError` naming the field and ``lo..most``."""
    if value > most:
        raise ConfigError(name, value, f"must be an integer in {lo}..{most}")


@dataclass_transform(
    frozen_default=True, field_specifiers=(dataclasses.field, integer, number, choice)
)
def params(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen dataclass whose :func:`integer` / :func:`number` fields are checked
    on construction, in their order, then ``cls.validate(self)`` where the class defines it."""
    own: Callable[[Any], None] | None = getattr(cls, "validate", None)

    def __post_init__(self: Any) -> None:
        for f in dataclasses.fields(self):
            check = f.metadata.get(_CHECK)
            if check is not None:
                check(f.name, getattr(self, f.name))
        if own is not None:
            own(self)

    cls.__post_init__ = __post_init__  # type: ignore[attr-defined]
    return dataclasses.dataclass(frozen=True)(cls)
