"""Name → object registries for families, renderers, models and metrics.

Example:
    >>> from logicforge.registry import FAMILIES
    >>> "ksat/random" in FAMILIES.names()
    True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from .errors import UnknownNameError

T = TypeVar("T")


class Registry(Generic[T]):
    """A mapping from names to registered objects with one error type for unknown names."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str, obj: T) -> T:
        if name in self._items:
            raise ValueError(f"{self.kind} {name!r} is already registered")
        self._items[name] = obj
        return obj

    def decorator(self, name: str) -> Callable[[T], T]:
        def wrap(obj: T) -> T:
            return self.register(name, obj)

        return wrap

    def get(self, name: str) -> T:
        _load_builtins()
        try:
            return self._items[name]
        except KeyError:
            raise UnknownNameError(self.kind, name, list(self._items)) from None

    def names(self) -> list[str]:
        _load_builtins()
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        _load_builtins()
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())


FAMILIES: Registry[object] = Registry("family")
RENDERERS: Registry[object] = Registry("renderer")
MODELS: Registry[object] = Registry("model")
METRICS: Registry[object] = Registry("metric")

_loaded = False


def _load_builtins() -> None:
    """Import the built-in modules so that their registrations run (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import families, models, render  # noqa: F401
    from .metrics import aggregate  # noqa: F401
