"""The event loop of runs: uvloop where installed, asyncio's on request, a clear error otherwise."""

from __future__ import annotations

import asyncio

import pytest

from logicforge.aio import loop_factory, run_async
from logicforge.errors import ConfigError


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_runs_on_uvloop_by_default_and_on_asyncio_when_asked(monkeypatch):
    pytest.importorskip("uvloop")
    monkeypatch.delenv("LOGICFORGE_EVENT_LOOP", raising=False)
    assert run_async(_loop_module()).startswith("uvloop")
    monkeypatch.setenv("LOGICFORGE_EVENT_LOOP", "asyncio")
    assert run_async(_loop_module()).startswith("asyncio")
    monkeypatch.setenv("LOGICFORGE_EVENT_LOOP", " UVLOOP ")
    assert run_async(_loop_module()).startswith("uvloop")


def test_an_unknown_loop_is_refused_naming_the_variable(monkeypatch):
    monkeypatch.setenv("LOGICFORGE_EVENT_LOOP", "trio")
    with pytest.raises(ConfigError, match="LOGICFORGE_EVENT_LOOP.*'trio'.*auto, uvloop, asyncio"):
        loop_factory()


def test_uvloop_asked_for_but_missing_says_what_to_do(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_uvloop(name, *a, **k):
        if name == "uvloop":
            raise ImportError("no uvloop here")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_uvloop)
    monkeypatch.setenv("LOGICFORGE_EVENT_LOOP", "uvloop")
    with pytest.raises(ConfigError, match="pip install uvloop"):
        loop_factory()
    monkeypatch.setenv("LOGICFORGE_EVENT_LOOP", "auto")
    assert loop_factory() is None  # auto falls back to asyncio's loop


def test_a_run_result_and_its_exception_come_back():
    async def boom() -> None:
        raise ValueError("inside the loop")

    with pytest.raises(ValueError, match="inside the loop"):
        run_async(boom())
