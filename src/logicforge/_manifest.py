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
    "logicforge.families.arlsat",
    "logicforge.families.sudoku",
    "logicforge.families.futoshiki",
    "logicforge.families.binairo",
    "logicforge.families.lightsout",
    "logicforge.families.knights",
    "logicforge.families.xorsat",
    "logicforge.families.minesweeper",
    "logicforge.families.queens",
    "logicforge.families.latinsquare",
    "logicforge.families.kenken",
    "logicforge.families.nonogram",
    "logicforge.families.exactcover",
    "logicforge.families.circuit",
    "logicforge.families.toposort",
    "logicforge.families.kakurasu",
    "logicforge.families.sumplete",
    "logicforge.families.uniquesat",
    "logicforge.families.graphcolour",
    "logicforge.families.skyscrapers",
    "logicforge.families.thermometers",
)
_FAMILY_MODULES = (
    "logicforge.families.binairo",
    "logicforge.families.circuit",
    "logicforge.families.coloring",
    "logicforge.families.exactcover",
    "logicforge.families.folio",
    "logicforge.families.futoshiki",
    "logicforge.families.graphcolour",
    "logicforge.families.kakurasu",
    "logicforge.families.knights",
    "logicforge.families.kenken",
    "logicforge.families.ksat",
    "logicforge.families.latinsquare",
    "logicforge.families.lightsout",
    "logicforge.families.minesweeper",
    "logicforge.families.nonogram",
    "logicforge.families.ordering",
    "logicforge.families.queens",
    "logicforge.families.satbench",
    "logicforge.families.skyscrapers",
    "logicforge.families.sudoku",
    "logicforge.families.sumplete",
    "logicforge.families.thermometers",
    "logicforge.families.toposort",
    "logicforge.families.twosat_backbone",
    "logicforge.families.twosat_bridge",
    "logicforge.families.twosat_cycle",
    "logicforge.families.twosat_equiv",
    "logicforge.families.twosat_symmetry",
    "logicforge.families.uniquesat",
    "logicforge.families.xorsat",
    "logicforge.families.zebra",
)
_MODEL_MODULES = (
    "logicforge.models.baselines",
    "logicforge.models.batch",
    "logicforge.models.embedded",
    "logicforge.models.local_batch",
    "logicforge.models.openai_compat",
    "logicforge.strategies",
)

BUILTINS: dict[str, tuple[str, ...]] = {
    "kind": _KIND_MODULES,
    "family": _FAMILY_MODULES,
    "renderer": (
        *_FAMILY_MODULES,
        "logicforge.families.arlsat",
        "logicforge.reductions",
        "logicforge.renderers",
        "logicforge.llm",
    ),
    "transform": (*_FAMILY_MODULES, "logicforge.transforms"),
    "model": _MODEL_MODULES,
    "metric": ("logicforge.metrics.aggregate",),
    "analysis": ("logicforge.reports.analyses", "logicforge.reports.analyses_papers"),
    "twin": (
        "logicforge.transforms.pair",
        *_FAMILY_MODULES,
        "logicforge.families.zebra.pairs",
    ),
    "reduction": ("logicforge.reductions", "logicforge.families.coloring"),
    "dataset": (
        "logicforge.families.folio",
        "logicforge.families.logicaldeduction",
        "logicforge.families.arlsat",
        "logicforge.families.coloring",
        "logicforge.imports.dimacs",
        "logicforge.imports.zebralogic",
        "logicforge.imports.satbench",
    ),
}

# The module that registers a built-in name, for lookups by name: ``KINDS.get("cnf")`` imports
# only ``logicforge.kinds.cnf``, so a run pays for the kinds and models it uses. Listing every
# name (``names()``, iteration, an unknown name) still loads the whole registry and the plug-ins.
_BASELINES = "logicforge.models.baselines"
NAMED: dict[str, dict[str, str]] = {
    "kind": {
        "cnf": "logicforge.kinds.cnf",
        "coloring": "logicforge.families.coloring",
        "vc": "logicforge.reductions.vertex_cover",
        "packing": "logicforge.reductions.packing",
        "zebra": "logicforge.families.zebra.render",
        "deduction": "logicforge.families.ordering",
        "fol": "logicforge.families.folio",
        "lsat": "logicforge.families.arlsat",
    },
    "model": {
        **dict.fromkeys(
            ("always-sat", "always-unsat", "budget", "learner", "noisy", "oracle", "random"),
            _BASELINES,
        ),
        "openai-compatible": "logicforge.models.openai_compat",
        "openai": "logicforge.models.openai_compat",
        "openai-batch": "logicforge.models.batch",
        "anthropic-batch": "logicforge.models.batch",
        "embedded": "logicforge.models.embedded",
        "local": "logicforge.models.embedded",
        "hf": "logicforge.models.local_batch",
        "vllm": "logicforge.models.local_batch",
        "bestofn": "logicforge.strategies.bestofn",
        "repair": "logicforge.strategies.repair",
        "selfverify": "logicforge.strategies.selfverify",
        "symbcot": "logicforge.strategies.symbcot",
    },
}
