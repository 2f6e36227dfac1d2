"""Reports: CSV + Markdown tables, PNG figures and one self-contained HTML file.

The modules load on first use (``build_report`` pulls in the statistics and plotting code), so a
run that writes no report does not pay for them at start-up."""

from typing import Any

__all__ = ["build_report", "to_csv", "to_markdown"]


def __getattr__(name: str) -> Any:
    if name == "build_report":
        from .build import build_report

        return build_report
    if name in ("to_csv", "to_markdown"):
        from . import tables

        return getattr(tables, name)
    raise AttributeError(f"module 'logicforge.reports' has no attribute {name!r}")
