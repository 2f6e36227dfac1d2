"""Plain tables: CSV and Markdown from lists of dicts. An undefined value (None) is blank / "—";
a metric that does not apply to a row (absent from it) is blank / "n/a"."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any


def _cell(v: Any, md: bool) -> str:
    if v is None:
        return "—" if md else ""
    if isinstance(v, float):
        return f"{v:.3f}" if md else repr(round(v, 6))
    return str(v)


def to_csv(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    cols = list(columns or dict.fromkeys(k for r in rows for k in r))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([_cell(r.get(c), False) for c in cols])
    return buf.getvalue()


def to_markdown(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    cols = list(columns or dict.fromkeys(k for r in rows for k in r))
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in rows:
        out.append(
            "| "
            + " | ".join((_cell(r[c], True) if c in r else "n/a").replace("|", "\\|") for c in cols)
            + " |"
        )
    return "\n".join(out) + "\n"
