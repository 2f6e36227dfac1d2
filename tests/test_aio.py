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


def test_a_run_tunes_the_collector_and_restores_it():
    import gc

    from logicforge.gctune import GC_YOUNG

    before, frozen = gc.get_threshold(), gc.get_freeze_count()

    async def inside() -> tuple[tuple[int, int, int], int, bool]:
        return gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()

    threshold, count, enabled = run_async(inside())
    assert threshold[0] == max(before[0], GC_YOUNG) and threshold[1:] == before[1:]
    assert count > frozen and enabled  # the start-up heap is frozen; the collector stays on
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen

    async def boom() -> None:
        raise RuntimeError("mid-run")

    with pytest.raises(RuntimeError):
        run_async(boom())
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen


def test_the_tuned_collector_still_reclaims_cycles_and_respects_a_programs_freeze():
    import gc
    import weakref

    from logicforge.gctune import collector_tuned

    class Node:
        pass

    with collector_tuned(1_000):
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle only the collector can free
        dead = weakref.ref(a)
        del a, b
        keep = [[] for _ in range(5_000)]  # enough allocations for young collections
        assert dead() is None
        del keep
    gc.freeze()  # the program froze its own heap: the block leaves that freeze alone
    try:
        n = gc.get_freeze_count()
        with collector_tuned(1_000):
            pass
        assert gc.get_freeze_count() == n
    finally:
        gc.unfreeze()


def test_nested_and_concurrent_blocks_restore_once_at_the_outermost():
    import gc
    import threading

    from logicforge.gctune import collector_tuned

    before = gc.get_threshold()
    entered, release = threading.Barrier(3), threading.Event()

    def hold() -> None:
        with collector_tuned(30_000):
            entered.wait(5)
            release.wait(5)

    threads = [threading.Thread(target=hold) for _ in range(2)]
    with collector_tuned(30_000):
        for t in threads:
            t.start()
        entered.wait(5)
        with collector_tuned(40_000):  # an inner block changes nothing
            assert gc.get_threshold()[0] == 30_000
    assert gc.get_threshold()[0] == 30_000  # the threads' blocks are still open
    release.set()
    for t in threads:
        t.join(5)
    assert gc.get_threshold() == before
