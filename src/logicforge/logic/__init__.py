"""Symbolic kernels: CNF formulas, DIMACS, and the SAT oracle."""

from .cnf import CNF, VarPool, parse_dimacs, read_dimacs, to_dimacs
from .sat import Solution, count_models, equivalent, solve, unsat_core

__all__ = [
    "CNF",
    "VarPool",
    "read_dimacs",
    "parse_dimacs",
    "to_dimacs",
    "Solution",
    "solve",
    "unsat_core",
    "count_models",
    "equivalent",
]
