"""Reductions of CNF to other representations, each a problem kind with its own renderer,
parser and exact verifier: Vertex Cover (Karp) and discrete 3D packing."""

from . import packing, vertex_cover
from .base import reduce_problem

__all__ = ["reduce_problem", "vertex_cover", "packing"]
