"""ZebraLogic logic-grid puzzles: attribute pool, the nine clue types, certified-unique generation,
rendering, parsing and grid / cell scoring."""

from . import generate, perturb, render
from .clues import TYPES, Clue
from .generate import ZebraParams, size_group

__all__ = ["Clue", "TYPES", "ZebraParams", "size_group", "generate", "perturb", "render"]
