"""Seeding helpers: every random choice takes an explicit ``numpy.random.Generator``.

Per-item streams come from ``SeedSequence.spawn`` — never from ``seed + i`` — so items are
independent and the same (seed, index) always yields the same stream.

Example:
    >>> rngs = item_generators(7, 3)
    >>> len(rngs)
    3
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

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


def stable_int(*parts: object) -> int:
    """A 64-bit integer derived deterministically from ``parts`` (for keyed baselines)."""
    h = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big")
