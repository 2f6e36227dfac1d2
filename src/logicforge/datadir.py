"""One place for the public benchmark files logicforge's data commands read.

A path written ``data:<relative path>`` (``logicforge import dimacs data:satlib/uf20-91``) and a
suite's relative ``data:`` block are read under the data folder: ``$LOGICFORGE_DATA``, else
``$XDG_DATA_HOME/logicforge`` (``~/.local/share/logicforge``). The files are not shipped
(their licences are their own: SATLIB, FOLIO, Logic-LM, ZeroEval); put them there, or point
``LOGICFORGE_DATA`` at the folder that holds ``satlib/``, ``logiclm/``, ``zeroeval/``.

Example:
    >>> import os
    >>> os.environ["LOGICFORGE_DATA"] = "/data"
    >>> str(resolve("data:satlib/uf20-91", must_exist=False))
    '/data/satlib/uf20-91'
    >>> del os.environ["LOGICFORGE_DATA"]
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import DataFileError

PREFIX = "data:"
LAYOUT = (
    "satlib/ (SATLIB: uf20-91, uf50-218, uuf50-218, flat30-60), logiclm/ (Logic-LM's "
    "folio_v0.0_validation_gold_fol.jsonl, logicaldeduction_dev.json and their GPT-4 programs), "
    "zeroeval/ (ZeroEval's zebra-grid result files)"
)


def data_root() -> Path:
    """The data folder: ``$LOGICFORGE_DATA``, else ``$XDG_DATA_HOME/logicforge``."""
    env = os.environ.get("LOGICFORGE_DATA")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "logicforge"


def _where() -> str:
    root = data_root()
    how = (
        "$LOGICFORGE_DATA"
        if os.environ.get("LOGICFORGE_DATA")
        else "the default; set LOGICFORGE_DATA to change it"
    )
    return f"{root} ({how})"


def resolve(path: str | Path, must_exist: bool = True) -> Path:
    """``data:<rel>`` → the data folder / ``rel``; any other path unchanged. A ``data:`` path
    that is not there is a :class:`DataFileError` saying where it was looked for and what the
    folder should hold (a glob is left for the caller to expand)."""
    s = str(path)
    if not s.startswith(PREFIX):
        return Path(s)
    rel = s[len(PREFIX) :].lstrip("/")
    p = data_root() / rel
    if must_exist and not any(ch in rel for ch in "*?[") and not p.exists():
        raise DataFileError(
            f"{s}: not in the data folder {_where()}. Put the public benchmark files there "
            f"({LAYOUT}), or set LOGICFORGE_DATA to the folder that holds them"
        )
    return p
