"""Seeding helpers: every random choice takes an explicit ``numpy.random.Generator``.

Per-item streams come from ``SeedSequence.spawn`` — never from ``seed + i`` — so items are
independent and the same (seed, index) always yields the same stream.

Example:
    >>> rngs = item_generators(7, 3)
    >>> len(rngs)
    3
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def item_seeds(seed: int, n: int) -> list[np.random.SeedSequence]:
    """The ``n`` child seed sequences of ``seed``, in order."""
    import numpy as np

    return np.random.SeedSequence(seed).spawn(n)


def item_generators(seed: int, n: int) -> list[np.random.Generator]:
    """One independent PCG64 generator per item."""
    import numpy as np

    return [np.random.Generator(np.random.PCG64(s)) for s in item_seeds(seed, n)]


def generator_for(seed: int, spawn_key: tuple[int, ...]) -> np.random.Generator:
    """Recreate the generator of one item from its root seed and spawn key."""
    import numpy as np

    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=spawn_key)))


def child_seed(seed: int, *key: int) -> int:
    """The integer root seed of the child ``key`` of ``seed`` (a 32-bit integer drawn from
    ``SeedSequence(seed, spawn_key=key)``): how a part of a larger design — a suite's block, a
    calibration level, a curriculum's draw — gets its own seed, never by ``seed * k + i``.

    Example:
        >>> child_seed(1, 0) == child_seed(1, 0) != child_seed(1, 1)
        True
    """
    import numpy as np

    return int(np.random.SeedSequence(seed, spawn_key=key).generate_state(1)[0])


def stable_int(*parts: object) -> int:
    """A 64-bit integer derived deterministically from ``parts`` (for keyed baselines)."""
    h = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big")


def shuffled(rng: np.random.Generator, n: int) -> list[int]:
    """``rng.permutation(n).tolist()``: the same list from the same draws (NumPy shuffles a
    list by the same Fisher–Yates as an array), in a third of the time for the small ``n``
    puzzles draw by the dozen; from 256 on, the array path, which is then as fast.

    Example:
        >>> import numpy as np
        >>> shuffled(np.random.default_rng(1), 6) == np.random.default_rng(1).permutation(6).tolist()
        True
    """
    if n >= 256:
        return rng.permutation(n).tolist()
    out = list(range(n))
    rng.shuffle(out)
    return out


def samples(rng: np.random.Generator, jobs: list[tuple[int, int]]) -> list[list[int]]:
    """``[rng.choice(pop, size, replace=False).tolist() for pop, size in jobs]``: the same lists
    from the same draws, in half the time for the few small samples a puzzle draws together.

    NumPy draws such a sample by Floyd's algorithm — for ``j`` in ``pop - size … pop - 1`` a
    bounded integer ``t ≤ j``, taken unless already taken, ``j`` then — and shuffles it
    (Fisher–Yates from the end, bounded integers ``≤ i``); every draw is one Lemire-bounded
    integer, which ``rng.integers`` with an array of bounds draws in order in one call. A sample
    from a population above 10,000 takes NumPy's other path and is drawn by ``rng.choice``.

    Example:
        >>> import numpy as np
        >>> a, b = np.random.default_rng(3), np.random.default_rng(3)
        >>> samples(a, [(24, 3), (10, 4)]) == [b.choice(24, 3, replace=False).tolist(),
        ...                                    b.choice(10, 4, replace=False).tolist()]
        True
    """
    for pop, size in jobs:
        if not 0 < size <= pop:
            raise ValueError(f"a sample of {size} from {pop} without replacement")
    if not jobs:
        return []
    if any(pop > 10_000 for pop, _ in jobs):
        return [rng.choice(pop, size, replace=False).tolist() for pop, size in jobs]
    bounds = _bounds(tuple(jobs))
    draws = iter(rng.integers(0, bounds, endpoint=True).tolist())
    out = []
    for pop, size in jobs:
        idx: list[int] = []
        taken: set[int] = set()
        for j in range(pop - size, pop):
            t = next(draws)
            if t in taken:
                t = j
            taken.add(t)
            idx.append(t)
        for i in range(size - 1, 0, -1):
            j = next(draws)
            idx[i], idx[j] = idx[j], idx[i]
        out.append(idx)
    return out


@functools.lru_cache(maxsize=1024)
def _bounds(jobs: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The inclusive bounds of every draw :func:`samples` makes for ``jobs``, in order (read-only;
    a puzzle family draws the same few shapes over and over)."""
    import numpy as np

    out: list[int] = []
    for pop, size in jobs:
        out += range(pop - size, pop)
        out += range(size - 1, 0, -1)
    arr = np.array(out, dtype=np.int64)
    arr.flags.writeable = False
    return arr


# ---- per-item streams, derived in bulk ----------------------------------------------------------
# NumPy's SeedSequence hash (O'Neill's seed_seq_fe: a pool of 4 uint32 words) and PCG64's seeding,
# written out so that a whole shard's streams are derived with a few array operations instead of a
# SeedSequence and a PCG64 per item (≈ 11 µs each). The result is the same generator state bit for
# bit; tests/test_rng.py compares it with NumPy's own on many seeds, spawn keys and indices.
_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
_M128 = (1 << 128) - 1


def _words(x: int) -> list[int]:
    """A non-negative integer as NumPy's SeedSequence reads it: little-endian uint32 words."""
    out = [x & _M32]
    x >>= 32
    while x:
        out.append(x & _M32)
        x >>= 32
    return out


def _hashmix(value: int, hc: int) -> tuple[int, int]:
    value ^= hc
    hc = (hc * _MULT_A) & _M32
    value = (value * hc) & _M32
    return value ^ (value >> 16), hc


def _mix(x: int, y: int) -> int:
    r = (_MIX_L * x - _MIX_R * y) & _M32
    return r ^ (r >> 16)


def _pool_prefix(seed: int, key: tuple[int, ...]) -> tuple[list[int], int]:
    """SeedSequence(seed, spawn_key=(*key, i))'s pool before the words of ``i`` are mixed in,
    and the hash constant reached there."""
    run = _words(seed)
    run += [0] * (4 - len(run))  # padded to the pool size: a spawn key follows
    entropy = run + [w for k in key for w in _words(k)]
    hc = _INIT_A
    pool = []
    for i in range(4):
        v, hc = _hashmix(entropy[i], hc)
        pool.append(v)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                v, hc = _hashmix(pool[src], hc)
                pool[dst] = _mix(pool[dst], v)
    for w in entropy[4:]:
        for dst in range(4):
            v, hc = _hashmix(w, hc)
            pool[dst] = _mix(pool[dst], v)
    return pool, hc


def pcg64_states(seed: int, key: tuple[int, ...], start: int, stop: int) -> list[tuple[int, int]]:
    """The PCG64 ``(state, inc)`` of ``Generator(PCG64(SeedSequence(seed, spawn_key=(*key, i))))``
    for ``i`` in ``start … stop − 1`` (``i`` < 2³²), derived together.

    Example:
        >>> import numpy as np
        >>> st = np.random.PCG64(np.random.SeedSequence(7, spawn_key=(0, 3))).state["state"]
        >>> pcg64_states(7, (0,), 3, 4)[0] == (st["state"], st["inc"])
        True
    """
    import numpy as np

    if not 0 <= start <= stop <= 1 << 32:
        raise ValueError(f"item indices {start}..{stop} must lie in 0..2**32")
    pool, hc = _pool_prefix(seed, key)
    if stop - start < 16:  # a few items: plain integers beat the arrays' fixed cost
        return [_state_one(pool, hc, i) for i in range(start, stop)]
    i = np.arange(start, stop, dtype=np.uint64).astype(np.uint32)
    mixed = []
    for dst in range(4):  # the item's one word, mixed into every pool word
        v = (i ^ np.uint32(hc)) * np.uint32((hc * _MULT_A) & _M32)
        hc = (hc * _MULT_A) & _M32
        v ^= v >> np.uint32(16)
        r = np.uint32((_MIX_L * pool[dst]) & _M32) - np.uint32(_MIX_R) * v
        mixed.append(r ^ (r >> np.uint32(16)))
    words = []
    hb = _INIT_B
    for k in range(8):  # generate_state(4, uint64): 8 uint32 words from the pool, cycled
        d = mixed[k % 4] ^ np.uint32(hb)
        hb = (hb * _MULT_B) & _M32
        d = d * np.uint32(hb)
        words.append((d ^ (d >> np.uint32(16))).astype(np.uint64))
    w64 = [(words[2 * k] | (words[2 * k + 1] << np.uint64(32))).tolist() for k in range(4)]
    return [_pcg_seeded(*w) for w in zip(*w64, strict=True)]


def _pcg_seeded(s0: int, s1: int, s2: int, s3: int) -> tuple[int, int]:
    """PCG64's ``(state, inc)`` after seeding with the four 64-bit words ``s0 … s3``."""
    inc = (((s2 << 64) | s3) << 1 | 1) & _M128
    return (((inc + ((s0 << 64) | s1)) & _M128) * _PCG_MULT + inc) & _M128, inc


def _state_one(pool: list[int], hc: int, i: int) -> tuple[int, int]:
    """:func:`pcg64_states` for one index, on Python integers."""
    mixed = []
    for dst in range(4):
        nxt = (hc * _MULT_A) & _M32
        v = ((i ^ hc) * nxt) & _M32
        v ^= v >> 16
        mixed.append(_mix(pool[dst], v))
        hc = nxt
    w = []
    hb = _INIT_B
    for k in range(8):
        d = mixed[k % 4] ^ hb
        hb = (hb * _MULT_B) & _M32
        d = (d * hb) & _M32
        w.append(d ^ (d >> 16))
    s0, s1, s2, s3 = (w[2 * k] | w[2 * k + 1] << 32 for k in range(4))
    return _pcg_seeded(s0, s1, s2, s3)


def item_streams(
    seed: int, key: tuple[int, ...], start: int, stop: int
) -> Iterator[np.random.Generator]:
    """The generators of items ``start … stop − 1``: ``Generator(PCG64(SeedSequence(seed,
    spawn_key=(*key, i))))`` in state and in ``spawn``, at a fraction of the cost. One bit
    generator serves the whole range, so each is valid until the next one is taken (a
    generator is used by one item and dropped).

    Example:
        >>> import numpy as np
        >>> [g.random() for g in item_streams(5, (0,), 0, 2)] == [
        ...     np.random.Generator(np.random.PCG64(np.random.SeedSequence(5, spawn_key=(0, i)))).random()
        ...     for i in range(2)]
        True
    """
    import numpy as np

    if stop > 1 << 32:  # beyond one word per index: NumPy's own (never reached by a count)
        for i in range(start, stop):
            yield np.random.Generator(
                np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(*key, i)))
            )
        return
    cls = _item_generator_class()
    bg = np.random.PCG64(0)
    for i, (state, inc) in zip(
        range(start, stop), pcg64_states(seed, key, start, stop), strict=True
    ):
        bg.state = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": inc},
            "has_uint32": 0,
            "uinteger": 0,
        }
        yield cls(bg, seed, (*key, i))


@functools.lru_cache(maxsize=1)
def _item_generator_class() -> Any:
    import numpy as np

    class ItemGenerator(np.random.Generator):
        """A Generator whose ``spawn`` derives children from the item's own seed sequence."""

        def __init__(self, bg: Any, seed: int, key: tuple[int, ...]) -> None:
            super().__init__(bg)
            self._item = (seed, key)
            self._seq: Any = None

        def spawn(self, n_children: int) -> list[np.random.Generator]:
            if self._seq is None:
                self._seq = np.random.SeedSequence(self._item[0], spawn_key=self._item[1])
            return [np.random.Generator(np.random.PCG64(s)) for s in self._seq.spawn(n_children)]

    return ItemGenerator
