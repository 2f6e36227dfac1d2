"""Per-record verdicts and aggregate metrics over the records table."""

from .aggregate import METRIC_NAMES, aggregate, group_rows, mcc, wilson
from .verdict import verify

__all__ = ["verify", "aggregate", "group_rows", "wilson", "mcc", "METRIC_NAMES"]
