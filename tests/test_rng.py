"""The bulk per-item streams and the list shuffle are NumPy's own, bit for bit."""

from __future__ import annotations

import random

import numpy as np
import pytest

import logicforge as lf
from logicforge.rng import generator_for, item_streams, pcg64_states, samples, shuffled


def _numpy_state(seed: int, key: tuple[int, ...]) -> tuple[int, int]:
    st = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)).state["state"]
    return st["state"], st["inc"]


@pytest.mark.parametrize("count", [1, 7, 15, 16, 40])  # both the integer and the array path
def test_pcg64_states_are_numpys(count: int) -> None:
    r = random.Random(count)
    for _ in range(25):
        seed = r.choice([0, 1, 2**32 - 1, 2**32, 2**64 + 3, r.getrandbits(128)])
        key = tuple(r.getrandbits(r.choice([3, 32, 33, 70])) for _ in range(r.randint(0, 3)))
        start = r.choice([0, 1, r.randint(0, 2**32 - count)])
        got = pcg64_states(seed, key, start, start + count)
        assert got == [_numpy_state(seed, (*key, i)) for i in range(start, start + count)]


def test_item_streams_draw_and_spawn_as_numpy() -> None:
    for g, i in zip(item_streams(9, (2,), 5, 25), range(5, 25), strict=True):
        ref = generator_for(9, (2, i))
        assert g.integers(0, 1000, 5).tolist() == ref.integers(0, 1000, 5).tolist()
        assert g.random() == ref.random()
        assert g.integers(7, dtype=np.uint32) == ref.integers(7, dtype=np.uint32)  # half words
        (child,) = g.spawn(1)
        (ref_child,) = np.random.SeedSequence(9, spawn_key=(2, i)).spawn(1)
        assert child.random() == np.random.Generator(np.random.PCG64(ref_child)).random()
    with pytest.raises(ValueError, match="2\\*\\*32"):
        pcg64_states(1, (), 2**32, 2**32 + 1)


def test_generated_items_regenerate_from_their_spawn_key() -> None:
    fam = lf.FAMILIES.get("sudoku")
    for p in lf.generate("sudoku", {"size": 4}, count=20, seed=3):
        again = fam.generate(fam.Params(size=4), generator_for(3, tuple(p.spawn_key)))
        assert again[0] == p.problem


def test_samples_are_numpys_choice() -> None:
    """Same lists and the same generator state after, from any state (a pending 32-bit half
    included), for one or several samples, full ones and size 1, and past NumPy's 10,000 switch."""
    for seed in range(400):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        g = np.random.default_rng(seed + 10_000)
        if seed % 2:  # leaves half of a 64-bit output buffered in the bit generator
            assert a.integers(0, 7) == b.integers(0, 7)
        jobs = []
        for _ in range(int(g.integers(1, 8))):
            pop = int(g.integers(1, 40))
            jobs.append((pop, int(g.integers(1, pop + 1))))
        if seed % 50 == 0:
            jobs.append((20_000, 5))
        assert samples(a, jobs) == [b.choice(p, s, replace=False).tolist() for p, s in jobs]
        assert a.bit_generator.state == b.bit_generator.state
    assert samples(np.random.default_rng(0), []) == []
    with pytest.raises(ValueError):
        samples(np.random.default_rng(0), [(3, 4)])


def test_shuffled_is_permutation() -> None:
    for seed in range(200):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for n in (0, 1, 2, 5, 16, 255, 256, 700):
            assert shuffled(a, n) == b.permutation(n).tolist()
        assert a.bit_generator.state == b.bit_generator.state
