"""The collector tuning of runs and the process pool: applied inside, restored after, cycles
still reclaimed, a program's own freeze left alone, nested and threaded blocks restored once."""

from __future__ import annotations

import pytest

from logicforge.aio import run_async


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
        # unfrozen would be 0; a few frozen objects may be freed meanwhile by their refcount
        # (another thread of the test process dropping them), which moves the count a little
        assert abs(gc.get_freeze_count() - n) <= 64, (gc.get_freeze_count(), n)
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
