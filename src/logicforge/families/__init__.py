"""Problem families, one module each; importing this package registers them."""

from . import (
    coloring,
    folio,
    ksat,
    ordering,
    satbench,
    twosat_backbone,
    twosat_bridge,
    twosat_cycle,
    twosat_equiv,
    twosat_symmetry,
    zebra,
)
from .base import Family, generate_problems

__all__ = [
    "Family",
    "coloring",
    "folio",
    "generate_problems",
    "ksat",
    "ordering",
    "satbench",
    "twosat_backbone",
    "twosat_bridge",
    "twosat_cycle",
    "twosat_equiv",
    "twosat_symmetry",
    "zebra",
]
