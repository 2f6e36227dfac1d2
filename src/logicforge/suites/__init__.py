"""Declarative experiments (YAML): problems × variants × renderers × models → records → report.

Shipped suites live next to this file; ``load_suite`` takes a shipped name or a path.
"""

from .suite import Suite, list_suites, load_suite, run_suite

__all__ = ["Suite", "load_suite", "list_suites", "run_suite"]
