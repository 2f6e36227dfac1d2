"""Per-record verdicts and aggregate metrics over the records table."""

from ..kinds import verify
from .aggregate import METRIC_NAMES, aggregate, group_rows, mcc, wilson

__all__ = ["verify", "aggregate", "group_rows", "wilson", "mcc", "METRIC_NAMES"]
