"""Problem families, one module each; importing this package registers them."""

from . import ksat, twosat_backbone, twosat_bridge, twosat_cycle, twosat_equiv, twosat_symmetry
from .base import Family, generate_problems

__all__ = [
    "Family",
    "generate_problems",
    "ksat",
    "twosat_backbone",
    "twosat_bridge",
    "twosat_cycle",
    "twosat_equiv",
    "twosat_symmetry",
]
