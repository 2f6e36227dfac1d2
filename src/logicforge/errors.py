"""One exception hierarchy for logicforge.

Every error raised on purpose by the library derives from :class:`LogicforgeError`, and every
message says what was wrong and what to do about it.
"""

from __future__ import annotations

from typing import Any


class LogicforgeError(Exception):
    """Base class of every error logicforge raises on purpose."""


class DimacsError(LogicforgeError):
    """A DIMACS CNF text could not be read; the message names the line."""

    def __init__(self, message: str, line: int | None = None, source: str | None = None) -> None:
        where = ""
        if source:
            where += f"{source}: "
        if line is not None:
            where += f"line {line}: "
        super().__init__(f"{where}{message}")
        self.line = line
        self.source = source


class ConfigError(LogicforgeError):
    """A parameter or configuration value is invalid; raised before any work starts."""

    def __init__(self, field: str, value: object, why: str) -> None:
        shown = repr(value)
        if len(shown) > 200:  # a huge input is named, not printed whole
            shown = f"{shown[:200]}… ({len(shown):,} characters)"
        super().__init__(f"invalid value for {field!r}: {shown} — {why}")
        self.field = field
        self.value = value


def did_you_mean(name: str, known: Any, n: int = 3, cutoff: float = 0.6, quote: bool = True) -> str:
    """``"did you mean 'a' or 'b'? "`` for the names in ``known`` closest to ``name``, or "".

    Example:
        >>> did_you_mean("twosat-tabel1", ["twosat-table1", "zebra-grid"])
        "did you mean 'twosat-table1'? "
    """
    import difflib

    close = difflib.get_close_matches(name, list(known), n=n, cutoff=cutoff)
    shown = [repr(c) if quote else c for c in close]
    return f"did you mean {' or '.join(shown)}? " if close else ""


class UnknownNameError(LogicforgeError, KeyError):
    """A registry lookup used a name that is not registered."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:

        hint = did_you_mean(name, known, cutoff=0.5)
        kinds = f"{kind[:-1]}ies" if kind.endswith("y") else f"{kind}s"
        msg = (
            f"unknown {kind} {name!r}; {hint}known {kinds}: {', '.join(sorted(known)) or '(none)'}"
        )
        super().__init__(msg)
        self.kind = kind
        self.name = name
        self.known = known

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return str(self.args[0])


class GenerationError(LogicforgeError):
    """A generator could not produce an instance with the requested properties."""


class DataFileError(LogicforgeError):
    """A JSONL data file (items, records) is malformed; the message names the file and line."""

    @classmethod
    def missing(cls, path: object) -> DataFileError:
        """The error for a data file that is not there.

        Example:
            >>> str(DataFileError.missing("items.jsonl"))
            'items.jsonl: file not found'
        """
        return cls(f"{path}: file not found")


class ModelError(LogicforgeError):
    """A model backend could not be configured or reached in a way retries cannot fix."""


class EndpointDown(ModelError):
    """A model's endpoint is unusable from the start — every first request failed to connect,
    or was refused (401 / 403) or not found (404): the run stops that model at once (the
    others in the same run go on) instead of retrying every item."""


class CertificationError(LogicforgeError):
    """A construction or a check failed to certify what it promises (a label, a witness, a
    model). This is a bug in logicforge or in a solver, never in the user's input: please report
    it with the command that raised it."""


def certify(cond: object, what: str = "a certified property") -> None:
    """Raise :class:`CertificationError` unless ``cond`` holds; unlike ``assert``, ``python -O``
    cannot remove it.

    Example:
        >>> certify(1 + 1 == 2, "arithmetic")
        >>> certify(False, "the planted core is UNSAT")
        Traceback (most recent call last):
        ...
        logicforge.errors.CertificationError: certification failed: the planted core is UNSAT
    """
    if not cond:
        raise CertificationError(f"certification failed: {what}")
