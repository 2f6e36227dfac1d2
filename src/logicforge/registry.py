"""Name → object registries: kinds, families, renderers, transforms, models, metrics and the
optional kind capabilities (twins, reductions).

The registry imports nothing of logicforge but :mod:`~logicforge.errors`. A registry fills
itself on its first lookup: a lookup by name imports the one built-in module that
:mod:`logicforge._manifest` names for it where it names one; otherwise (and for ``names()``) it
imports every built-in module listed for the registry (by name, so no import edge runs upward),
then every plug-in of the entry-point
group ``logicforge.plugins`` (a third-party package declares
``[project.entry-points."logicforge.plugins"] mine = "mypkg.logicforge_plugin"``; importing that
module registers its objects).

Example:
    >>> from logicforge.registry import FAMILIES, KINDS
    >>> "ksat/random" in FAMILIES.names(), "cnf" in KINDS
    (True, True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from .errors import LogicforgeError, UnknownNameError

T = TypeVar("T")

PLUGIN_GROUP = "logicforge.plugins"
_plugins_loaded = False


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from importlib.metadata import entry_points  # scanning the installed packages costs

    for ep in entry_points(group=PLUGIN_GROUP):
        try:
            ep.load()
        except Exception as e:  # a broken plug-in must say which one it is
            raise LogicforgeError(
                f"plug-in {ep.name!r} ({ep.value}) of entry-point group {PLUGIN_GROUP!r} failed "
                f"to load: {type(e).__name__}: {e}; fix or uninstall that package"
            ) from e


class Registry(Generic[T]):
    """A mapping from names to registered objects with one error type for unknown names.

    ``what`` names the registry in messages and selects its built-in modules in the manifest.
    """

    def __init__(self, what: str, check: str | None = None) -> None:
        self.what = what
        self._items: dict[str, T] = {}
        self._loaded = False  # loading has begun (its built-in modules may look names up)
        self._complete = False  # every built-in module and plug-in is imported
        # "module:function" that checks an object's contract when it is registered, imported by
        # name on the first registration (the registry imports nothing of logicforge itself)
        self._check_at = check
        self._check: Callable[[str, T], None] | None = None

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        manifest = importlib.import_module("logicforge._manifest")
        for module in manifest.BUILTINS.get(self.what, ()):
            importlib.import_module(module)
        _load_plugins()
        self._complete = True

    def _load_name(self, name: str) -> None:
        """Import the one built-in module the manifest names for ``name`` (all of them, and the
        plug-ins, when it names none or that module does not register it)."""
        if self._complete or name in self._items:
            return
        # also while the registry is loading (a module it imports may look a name up before the
        # module that registers that name is reached)
        manifest = importlib.import_module("logicforge._manifest")
        module = manifest.NAMED.get(self.what, {}).get(name)
        if module is not None:
            importlib.import_module(module)
        if name not in self._items:
            self._load()

    def register(self, name: str, obj: T) -> T:
        """Add ``obj`` under ``name``, after its contract check (where the registry has one)."""
        if name in self._items:
            raise ValueError(f"{self.what} {name!r} is already registered")
        if self._check is None and self._check_at is not None:
            module, _, fn = self._check_at.partition(":")
            self._check = getattr(importlib.import_module(module), fn)
        if self._check is not None:
            self._check(name, obj)
        self._items[name] = obj
        return obj

    def decorator(self, name: str) -> Callable[[T], T]:
        def wrap(obj: T) -> T:
            return self.register(name, obj)

        return wrap

    def get(self, name: str) -> T:
        self._load_name(name)
        try:
            return self._items[name]
        except KeyError:
            raise UnknownNameError(self.what, name, list(self._items)) from None

    def find(self, name: str) -> T | None:
        """The registered object, or None (for optional capabilities)."""
        self._load_name(name)
        return self._items.get(name)

    def names(self) -> list[str]:
        self._load()
        return sorted(self._items)

    def in_order(self) -> list[str]:
        """Every name, built-ins and plug-ins loaded, in the order they were registered."""
        self._load()
        return list(self._items)

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str):
            self._load_name(name)
        else:
            self._load()
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())


# Each registry imports its built-in modules on first use, so a command pays only for what it uses.
KINDS: Registry[object] = Registry("kind")
FAMILIES: Registry[object] = Registry("family", check="logicforge.families.contract:check_family")
RENDERERS: Registry[object] = Registry("renderer")
MODELS: Registry[object] = Registry("model")
METRICS: Registry[object] = Registry("metric")
TRANSFORMS: Registry[object] = Registry("transform")
# optional capabilities of a kind, keyed by the kind's name
TWINS: Registry[object] = Registry("twin")  # a minimally different problem of the other label
# reductions between kinds, keyed "<from>-><to>" (e.g. "cnf->vc", "coloring->cnf")
REDUCTIONS: Registry[object] = Registry("reduction")
# the report's analyses (logicforge.reports.analysis.Analysis), laid out in registration order
ANALYSES: Registry[object] = Registry("analysis")
# readers of published data files for suites' ``data:`` blocks, keyed by the family they load as
DATASETS: Registry[object] = Registry("dataset")
