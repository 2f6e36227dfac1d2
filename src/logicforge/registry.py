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

    def __init__(self, kind: str, loader: Callable[[], None] | None = None) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}
        self._loader = loader
        self._loaded = loader is None

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            assert self._loader is not None
            self._loader()

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
        self._load()
        try:
            return self._items[name]
        except KeyError:
            raise UnknownNameError(self.kind, name, list(self._items)) from None

    def names(self) -> list[str]:
        self._load()
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())


def _families() -> None:
    from . import families  # noqa: F401


def _renderers() -> None:
    from . import families, reductions, render  # noqa: F401


def _models() -> None:
    from . import models  # noqa: F401


def _transforms() -> None:
    from . import families, transforms  # noqa: F401


def _metrics() -> None:
    from .metrics import aggregate  # noqa: F401


# Each registry imports its built-in modules on first use, so a command pays only for what it uses.
FAMILIES: Registry[object] = Registry("family", _families)
RENDERERS: Registry[object] = Registry("renderer", _renderers)
MODELS: Registry[object] = Registry("model", _models)
METRICS: Registry[object] = Registry("metric", _metrics)
TRANSFORMS: Registry[object] = Registry("transform", _transforms)
