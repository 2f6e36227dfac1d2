"""Registering a family checks its contract on the spot: each missing part fails at
registration with a message naming it (and how to add it), not later in a test."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from logicforge.errors import ConfigError
from logicforge.families.levels import Levels
from logicforge.registry import FAMILIES, Registry


@dataclass(frozen=True)
class ToyParams:
    size: int = 3


def _toy(**drop_or_set):
    """A complete toy family, with the named attributes removed (None) or replaced."""

    class Toy:
        name = "toy"
        kind = "cnf"
        Params = ToyParams
        example = {"size": 2}
        levels = Levels(lambda lv: {"size": 2 + lv}, "size", lambda p: 1.0, "size = 2 + level")

        def generate(self, p, rng):
            return {}, "SAT", {}, {}

    for k, v in drop_or_set.items():
        setattr(Toy, k, v)
    return Toy()


def _registry() -> Registry:
    return Registry("family", check="logicforge.families.contract:check_family")


def test_a_complete_family_registers() -> None:
    reg = _registry()
    fam = _toy()
    assert reg.register("toy", fam) is fam


@pytest.mark.parametrize(
    ("part", "value", "says"),
    [
        ("levels", None, "declares no levels: give it `levels = Levels(...)`"),
        ("example", None, "declares no example: give it `example = {...}`"),
        ("kind", None, "declares no kind"),
        ("Params", None, "declares no Params"),
        ("generate", None, "declares no generate"),
        ("name", "other", "its `name` is 'other'"),
        ("example", {"sizes": 2}, "its `example` names ['sizes']"),
    ],
)
def test_a_missing_part_fails_at_registration_naming_it(part, value, says) -> None:
    reg = _registry()
    with pytest.raises(ConfigError, match="family") as e:
        reg.register("toy", _toy(**{part: value}))
    assert says in str(e.value), str(e.value)
    assert "toy" not in reg._items  # nothing half-registered


def test_an_invalid_example_is_refused() -> None:
    @dataclass(frozen=True)
    class Checked:
        size: int = 3

        def __post_init__(self) -> None:
            if self.size < 2:
                raise ConfigError("size", self.size, "must be ≥ 2")

    with pytest.raises(ConfigError, match="its `example` is not valid"):
        _registry().register("toy", _toy(Params=Checked, example={"size": 1}))


def test_every_shipped_family_passed_the_check() -> None:
    """The shipped registry carries the check, and every built-in family declares every part."""
    from logicforge.families.contract import check_family

    assert FAMILIES._check_at == "logicforge.families.contract:check_family"
    for name in FAMILIES.names():
        check_family(name, FAMILIES.get(name))
        fam = FAMILIES.get(name)
        fam.Params(**fam.example)  # type: ignore[attr-defined]


def test_a_family_whose_kind_has_no_formal_renderer_fails_at_registration(monkeypatch) -> None:
    from logicforge.kinds.base import Kind
    from logicforge.registry import KINDS

    fmt = KINDS.get("cnf").formats[0]  # type: ignore[attr-defined]
    for kind, says in (
        (Kind("toykind", ("SAT",), (fmt,), words_renderer="toy"), "declares no formal renderer"),
        (
            Kind("toykind", ("SAT",), (fmt,), formal_renderer="toy-f"),
            "declares no renderer in words",
        ),
    ):
        monkeypatch.setitem(KINDS._items, "toykind", kind)
        with pytest.raises(ConfigError, match="family") as e:
            _registry().register("toy", _toy(kind="toykind"))
        assert says in str(e.value) and "formal_renderer" in str(e.value), str(e.value)


def test_a_family_of_an_unregistered_kind_fails_at_registration() -> None:
    with pytest.raises(ConfigError, match="not registered: register the kind"):
        _registry().register("toy", _toy(kind="no-such-kind"))


def test_every_kind_with_families_has_its_two_renderers() -> None:
    """What a kind declares exists: its prompt in words and in formal notation are registered
    renderers of that kind (and the shared family tests render every family through both)."""
    from logicforge.kinds.base import get_kind
    from logicforge.registry import RENDERERS

    for kind in sorted({FAMILIES.get(f).kind for f in FAMILIES.names()}):  # type: ignore[attr-defined]
        k = get_kind(kind)
        for r in (k.words_renderer, k.formal_renderer):
            assert r in RENDERERS, (kind, r)
            assert getattr(RENDERERS.get(r), "kind", "cnf") == kind, (kind, r)
