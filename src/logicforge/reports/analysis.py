"""The report's analysis contract: an :class:`Analysis` has a ``name``, ``applies(ctx)`` (a
pure test of the records' columns — e.g. "items have several samples", "records carry a pair
id") and ``run(ctx)``, which adds tables (``ctx.table``) and figures (``ctx.figure``) to the
report's :class:`Context`; ``top=True`` puts its output above the generic tables. Analyses are
registered with :func:`analysis` into :data:`logicforge.registry.ANALYSES` — logicforge's own
(:mod:`logicforge.reports.analyses`, :mod:`logicforge.reports.analyses_papers`) and a plug-in's
alike — and the report lays out, in order, those that apply. Suites may name the analyses they
want (``analyses:``).

Example:
    >>> [a.name for a in all_analyses()][:3]
    ['metrics', 'phase_transition', 'accuracy_vs_n']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..registry import ANALYSES
from .tables import to_csv, to_markdown


@dataclass
class Context:
    """What every analysis reads (the records, their flattened rows, problems, items, options)
    and where it writes (``out``; the tables and figures so far)."""

    records: Sequence[Mapping[str, Any]]
    rows: list[dict[str, Any]]
    problems: Sequence[Mapping[str, Any]]
    items: Sequence[Mapping[str, Any]]
    out: Path
    colours: Mapping[str, str]
    table1: Sequence[str] = ()
    prices: Any = None
    tables: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)
    _top: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)

    @property
    def cols(self) -> set[str]:
        return {k for r in self.rows for k in r}

    def table(
        self,
        file: str,
        rows: list[dict[str, Any]],
        caption: str = "",
        columns: Sequence[str] | None = None,
        top: bool = False,
    ) -> None:
        """Write ``rows`` as ``file``.csv / .md and show them under ``file (caption)``."""
        cols = list(columns or dict.fromkeys(k for r in rows for k in r))
        (self.out / f"{file}.csv").write_text(to_csv(rows, cols))
        (self.out / f"{file}.md").write_text(to_markdown(rows, cols))
        title = f"{file} ({caption})" if caption else file
        (self._top if top else self.tables).append((title, rows))

    def figure(self, fig: tuple[str, str] | None, top: bool = False) -> None:
        if fig:
            (self.figures.insert(0, fig) if top else self.figures.append(fig))

    def shown(self, name: str) -> list[dict[str, Any]] | None:
        """A table added earlier (by its file name)."""
        for title, rows in [*self._top, *self.tables]:
            if title.split(" ")[0] == name:
                return rows
        return None

    def ordered_tables(self) -> list[tuple[str, list[dict[str, Any]]]]:
        return [*reversed(self._top), *self.tables]


@dataclass(frozen=True)
class Analysis:
    name: str
    applies: Callable[[Context], bool]
    run: Callable[[Context], None]
    description: str = ""


def analysis(
    name: str, applies: Callable[[Context], bool], description: str = ""
) -> Callable[[Callable[[Context], None]], Callable[[Context], None]]:
    """Register ``run`` as the analysis ``name`` (built-in analyses in the report in the order
    they are registered, then plug-ins' in theirs).

    Example:
        >>> @analysis("row_count", always, "how many records")  # doctest: +SKIP
        ... def row_count(ctx: Context) -> None:
        ...     ctx.table("row_count", [{"records": len(ctx.records)}])
    """

    def wrap(run: Callable[[Context], None]) -> Callable[[Context], None]:
        ANALYSES.register(name, Analysis(name, applies, run, description))
        return run

    return wrap


def all_analyses() -> list[Analysis]:
    """Every registered analysis in report order: logicforge's own in registration order, then
    those of plug-ins (the ``logicforge.plugins`` entry points) in theirs."""
    ANALYSES.names()  # loads the built-in analyses and the plug-ins
    found = [a for a in (ANALYSES.get(n) for n in ANALYSES.in_order()) if isinstance(a, Analysis)]
    own = [a for a in found if a.run.__module__.startswith("logicforge.")]
    return own + [a for a in found if a not in own]


def select(names: Sequence[str] | None) -> list[Analysis]:
    """The analyses named (all when ``names`` is None), in report order; unknown names fail."""
    every = all_analyses()
    if names is None:
        return every
    known = {a.name for a in every}
    for n in names:
        if n not in known:
            raise ConfigError("analyses", n, f"known analyses: {', '.join(sorted(known))}")
    return [a for a in every if a.name in names]


def always(ctx: Context) -> bool:
    return True


def has(col: str) -> Callable[[Context], bool]:
    return lambda ctx: col in ctx.cols


def has_pairs(ctx: Context) -> bool:
    return any(r.get("pair_id") for r in ctx.rows)


def variants_of(ctx: Context) -> set[Any]:
    return {r.get("variant") for r in ctx.rows} - {None}


def has_samples(ctx: Context) -> bool:
    return any((r.get("sample") or 0) > 0 for r in ctx.rows)


def several_renderings(ctx: Context) -> bool:
    return len({r.get("rendering") for r in ctx.rows}) > 1
