"""How a number reads in a table: one format per kind of number, everywhere it is shown.

* a percentage (:class:`Percent`, made by :func:`pct`) — one decimal: ``100.0``, ``58.3``, ``0.0``;
* a value rounded on purpose to a few decimals (:class:`Fixed`) — exactly those decimals;
* any other float (a fraction, a rate) — three decimals in Markdown and HTML: ``0.969``;
* integers and text as they are; an undefined value (None) as "—".

The type, not the column name, decides, so a table never mixes ``100`` with ``58.300``. The
classes are plain floats for arithmetic, comparison and ``json.dumps`` (orjson refuses float
subclasses: report tables are written with the standard library).

Example:
    >>> cell(pct(0.5833)), cell(pct(1.0)), cell(0.96875), cell(Fixed(36.9, 1)), cell(None)
    ('58.3', '100.0', '0.969', '36.9', '—')
"""

from __future__ import annotations

from typing import Any


class Fixed(float):
    """A float shown with exactly ``digits`` decimals.

    Example:
        >>> x = Fixed(4.26, 2); x + 1, cell(x)
        (5.26, '4.26')
    """

    __slots__ = ("digits",)
    digits: int

    def __new__(cls, value: float, digits: int = 3) -> Fixed:
        self = super().__new__(cls, round(float(value), digits))
        self.digits = digits
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (float(self), self.digits))


class Percent(Fixed):
    """A percentage (0–100), one decimal."""

    __slots__ = ()

    def __new__(cls, value: float, digits: int = 1) -> Percent:
        return super().__new__(cls, value, digits)  # type: ignore[return-value]


def pct(x: float | None) -> Percent | None:
    """A fraction in [0, 1] as a percentage with one decimal; None stays None (undefined).

    Example:
        >>> pct(0.12345), pct(None)
        (12.3, None)
    """
    return None if x is None else Percent(100.0 * x)


def ratio_pct(num: float, den: float) -> Percent | None:
    """``num / den`` as a percentage; None where ``den`` is 0 (nothing to divide).

    Example:
        >>> ratio_pct(1, 3), ratio_pct(1, 0)
        (33.3, None)
    """
    return Percent(100.0 * num / den) if den else None


def cell(v: Any, md: bool = True) -> str:
    """A table cell for reading (``md=True``: Markdown and HTML) or for a CSV (full precision
    of what was computed, percentages at their one decimal)."""
    if v is None:
        return "—" if md else ""
    if isinstance(v, Fixed):
        return f"{float(v):.{v.digits}f}"
    if isinstance(v, float):
        return f"{v:.3f}" if md else repr(round(v, 6))
    return str(v)
