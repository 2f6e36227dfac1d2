"""Answer extraction from model text: decisions and assignments. Parsers never raise."""

from .answer import parse_answer
from .assignment import parse_assignment
from .decision import parse_decision, strip_thinking

__all__ = ["parse_answer", "parse_assignment", "parse_decision", "strip_thinking"]
