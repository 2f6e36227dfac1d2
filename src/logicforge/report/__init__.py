"""Reports: CSV + Markdown tables, PNG figures and one self-contained HTML file."""

from .build import build_report
from .tables import to_csv, to_markdown

__all__ = ["build_report", "to_csv", "to_markdown"]
