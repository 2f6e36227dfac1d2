"""Plain tables: CSV and Markdown from lists of dicts. An undefined value (None) is blank / "—";
a metric that does not apply to a row (absent from it) is blank / "n/a". Numbers read as
:mod:`logicforge.numfmt` says: percentages with one decimal, other floats with three."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..numfmt import cell


def to_csv(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    cols = list(columns or dict.fromkeys(k for r in rows for k in r))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([cell(r.get(c), False) for c in cols])
    return buf.getvalue()


def md_text(s: str) -> str:
    """Text safe in a Markdown table cell: HTML escaped (model names and replies are data, not
    markup), ``|`` escaped, line breaks as spaces.

    Example:
        >>> md_text("<b>a|b</b>\\nc")
        '&lt;b&gt;a\\\\|b&lt;/b&gt; c'
    """
    s = html.escape(s, quote=False).replace("|", "\\|")
    return " ".join(s.splitlines()) if "\n" in s or "\r" in s else s


def md_header(s: str) -> str:
    """A column name for a Markdown table, as written: ``<`` becomes ``&lt;`` only where it
    could open an HTML tag (before a letter, ``/``, ``!`` or ``?``), ``|`` is escaped — so
    ``Small <10^3`` reads the same in the raw file and rendered.

    Example:
        >>> print(md_header("Small <10^3"), md_header("<b>x|y"))
        Small <10^3 &lt;b>x\\|y
    """
    s = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", s).replace("|", "\\|")
    return " ".join(s.splitlines()) if "\n" in s or "\r" in s else s


def to_markdown(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    cols = list(columns or dict.fromkeys(k for r in rows for k in r))
    out = [
        "| " + " | ".join(md_header(str(c)) for c in cols) + " |",
        "|" + "|".join("---" for _ in cols) + "|",
    ]
    for r in rows:
        out.append(
            "| " + " | ".join(md_text(cell(r[c], True)) if c in r else "n/a" for c in cols) + " |"
        )
    return "\n".join(out) + "\n"
