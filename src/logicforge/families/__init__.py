"""Problem families, one module each; importing this package registers them."""

from . import ksat
from .base import Family, generate_problems

__all__ = ["Family", "generate_problems", "ksat"]
