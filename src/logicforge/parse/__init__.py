"""Text parsing utilities: JSON finding, verdict words, assignment pairs. Parsers never raise."""

from .answer import prepare
from .assignment import parse_assignment
from .decision import parse_decision, strip_thinking

__all__ = ["prepare", "parse_assignment", "parse_decision", "strip_thinking"]
