"""Problem families, one module each; the ``FAMILIES`` registry imports them on first use
(:mod:`logicforge._manifest`), so importing this package alone loads none of them.

Example:
    >>> from logicforge.families import generate_problems
    >>> next(generate_problems("ksat/random", {"n_vars": 5, "alpha": 4.0}, 1, seed=0)).family
    'ksat/random'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .._manifest import BUILTINS

# the family modules, as the registry's manifest lists them
_MODULES = tuple(m.rsplit(".", 1)[1] for m in BUILTINS["family"])

__all__ = ["Family", "generate_problems", *_MODULES]


def __getattr__(name: str) -> Any:
    if name in ("Family", "generate_problems"):
        return getattr(import_module(".base", __name__), name)
    if name in _MODULES:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
