"""Transforms: ``LabelledProblem -> LabelledProblem`` with a declared label effect, recorded in
the problem's metadata (``transforms``) and the Item's transform chain."""

from . import edits, pair
from .base import Transform, apply_transform, parse_transform_spec
from .presentation import Duplicate, Filler, Rename, Shuffle

__all__ = [
    "Transform",
    "apply_transform",
    "parse_transform_spec",
    "Shuffle",
    "Rename",
    "Filler",
    "Duplicate",
    "edits",
    "pair",
]
