"""The built-in plug-ins: for each registry, the modules whose import registers its entries.

This module imports nothing; :class:`logicforge.registry.Registry` imports the listed modules by
name on its first lookup. Adding a built-in kind, family, renderer, transform or model is one
module plus one line here (third-party packages use the ``logicforge.plugins`` entry-point group).
"""

from __future__ import annotations

_KIND_MODULES = (
    "logicforge.kinds.cnf",
    "logicforge.families.coloring",
    "logicforge.reductions.vertex_cover",
    "logicforge.reductions.packing",
    "logicforge.families.zebra.render",
    "logicforge.families.ordering",
    "logicforge.families.folio",
)
_FAMILY_MODULES = ("logicforge.families",)

BUILTINS: dict[str, tuple[str, ...]] = {
    "kind": _KIND_MODULES,
    "family": _FAMILY_MODULES,
    "renderer": (
        "logicforge.families",
        "logicforge.reductions",
        "logicforge.renderers",
        "logicforge.llm",
    ),
    "transform": ("logicforge.families", "logicforge.transforms"),
    "model": ("logicforge.models", "logicforge.strategies"),
    "metric": ("logicforge.metrics.aggregate",),
    "twin": (
        "logicforge.transforms.pair",
        "logicforge.families",
        "logicforge.families.zebra.pairs",
    ),
    "reduction": ("logicforge.reductions", "logicforge.families.coloring"),
    "dataset": (
        "logicforge.families.folio",
        "logicforge.families.logicaldeduction",
        "logicforge.families.coloring",
        "logicforge.imports.dimacs",
        "logicforge.imports.zebralogic",
        "logicforge.imports.satbench",
    ),
}
