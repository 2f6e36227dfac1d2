"""Problem kinds: one contract per kind (labels, answer formats, checks, oracle / random / wrong
answers) and the dispatch that reads and checks an answer for any Item."""

from .base import (
    AnswerFormat,
    Kind,
    MetricSet,
    answer_format,
    chance_of,
    choice_format,
    constant_answers,
    format_of,
    get_kind,
    metric_set,
    register_kind,
    yes_no_format,
    yes_no_head,
    yes_no_verdict,
)
from .dispatch import parse_answer, verify

__all__ = [
    "AnswerFormat",
    "Kind",
    "MetricSet",
    "answer_format",
    "chance_of",
    "choice_format",
    "constant_answers",
    "format_of",
    "get_kind",
    "metric_set",
    "parse_answer",
    "register_kind",
    "verify",
    "yes_no_format",
    "yes_no_head",
    "yes_no_verdict",
]
