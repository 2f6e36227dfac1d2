"""What a family must declare, checked when it is registered (built-in or plug-in), so a missing
part fails at import with its name instead of in a test far away.

A family has a ``name`` (the name it is registered under), a ``kind`` (a registered kind's
name), a frozen ``Params`` dataclass whose defaults are valid, ``generate(params, rng)``,
``levels`` (:class:`~logicforge.families.levels.Levels`: the parameters at each difficulty
level) and ``example`` (small parameters, valid for ``Params``, that every contract test uses).

Example:
    >>> class NoLevels:
    ...     name, kind, example = "toy", "cnf", {}
    ...     from logicforge.families.ksat import KSATParams as Params
    ...     def generate(self, p, rng): ...
    >>> check_family("toy", NoLevels())
    Traceback (most recent call last):
    ...
    logicforge.errors.ConfigError: invalid value for 'family': 'toy' — declares no levels: give it `levels = Levels(...)` (logicforge.families.levels) with its parameters at levels 0-10
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import ConfigError

_HOW = {
    "kind": 'a registered kind\'s name (e.g. `kind = "cnf"`)',
    "Params": "a frozen dataclass of its parameters, valid at their defaults",
    "generate": "`generate(params, rng) -> (problem, label, oracle, metadata)`",
    "levels": "`levels = Levels(...)` (logicforge.families.levels) with its parameters at "
    "levels 0-10",
    "example": "`example = {...}`: small parameters every contract test can use",
    "renderer": "a prompt in words and one in formal notation: its kind's `words_renderer` and "
    "`formal_renderer` (`register_puzzle` names `<kind>` and `<kind>-formal`)",
}


def _missing(name: str, part: str) -> ConfigError:
    return ConfigError("family", name, f"declares no {part}: give it {_HOW[part]}")


def check_family(name: str, fam: Any) -> None:
    """Raise :class:`~logicforge.errors.ConfigError` naming the first part ``fam`` lacks."""
    if getattr(fam, "name", None) != name:
        raise ConfigError(
            "family", name, f"is registered under {name!r} but its `name` is "
            f"{getattr(fam, 'name', None)!r}: give it `name = {name!r}`"
        )  # fmt: skip
    if not isinstance(getattr(fam, "kind", None), str) or not fam.kind:
        raise _missing(name, "kind")
    params = getattr(fam, "Params", None)
    if not (isinstance(params, type) and dataclasses.is_dataclass(params)):
        raise _missing(name, "Params")
    if not callable(getattr(fam, "generate", None)):
        raise _missing(name, "generate")
    if getattr(fam, "levels", None) is None:
        raise _missing(name, "levels")
    example = getattr(fam, "example", None)
    if not isinstance(example, dict):
        raise _missing(name, "example")
    _check_renderers(name, fam.kind)
    fields = {f.name for f in dataclasses.fields(params)}
    unknown = sorted(set(example) - fields)
    if unknown:
        raise ConfigError(
            "family", name, f"its `example` names {unknown}, not parameters of {params.__name__}"
        )
    try:
        params(**example)
    except (ConfigError, TypeError, ValueError) as e:
        raise ConfigError("family", name, f"its `example` is not valid: {e}") from None


def _check_renderers(name: str, kind_name: str) -> None:
    """The family's kind is registered and names a prompt in words and one in formal notation
    (the renderers themselves register beside it; the contract tests render both)."""
    from ..registry import KINDS

    kind = KINDS.find(kind_name)
    if kind is None:
        raise ConfigError(
            "family", name, f"its kind {kind_name!r} is not registered: register the kind "
            "(`register_puzzle(...)` or `register_kind(...)`) before the family"
        )  # fmt: skip
    words, formal = getattr(kind, "words_renderer", ""), getattr(kind, "formal_renderer", "")
    if not words or not formal:
        missing = "renderer in words" if not words else "formal renderer"
        raise ConfigError("family", name, f"declares no {missing}: give it {_HOW['renderer']}")
