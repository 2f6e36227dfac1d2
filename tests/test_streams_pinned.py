"""Same seed, same problems, release after release: every registered family's problems at
levels 0, 5 and 10 (three per level, seed 0), and the items its default renderer makes of them
(the prompts), are held to the SHA-256 digests recorded in ``tests/data/streams.json``.

A change that gives a seed other problems (a new draw order, another solver call sequence, an
extra metadata field) fails here, naming the family and level. When the change is meant, say so
in the CHANGELOG ("a given seed's … puzzles differ from earlier builds") and record the new
digests::

    python tests/test_streams_pinned.py --write

The problems depend on NumPy's streams and on PySAT's solvers (cores, models, statistics), so
the digests are compared where the NumPy and python-sat versions are the recorded ones; with
others installed the test says which and is skipped (re-record them on the new versions).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import logicforge as lf
from logicforge.registry import FAMILIES

PINNED = Path(__file__).parent / "data" / "streams.json"
LEVELS = (0, 5, 10)
COUNT, SEED = 3, 0
PACKAGES = ("numpy", "python-sat")


def versions() -> dict[str, str]:
    return {p: importlib.metadata.version(p) for p in PACKAGES}


def _sha(rows: list[Any]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def digests(family: str, level: int) -> dict[str, str]:
    """SHA-256 of the family's problems at ``level`` and of their default items (every field,
    canonical JSON), keyed ``family@level`` and ``family@level:items``."""
    ps = lf.generate(family, count=COUNT, seed=SEED, level=level)
    items = lf.render(ps)
    return {
        f"{family}@{level}": _sha([p.model_dump(mode="json") for p in ps]),
        f"{family}@{level}:items": _sha([it.model_dump(mode="json") for it in items]),
    }


def record() -> dict[str, Any]:
    return {
        "versions": versions(),
        "count": COUNT,
        "seed": SEED,
        "digests": {
            k: v
            for f in sorted(FAMILIES.names())
            for lv in LEVELS
            for k, v in digests(f, lv).items()
        },
    }


@functools.cache
def _pinned() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PINNED.read_text())
    return data


def test_every_family_is_pinned() -> None:
    """A new family gets its digests recorded with it (and a removed one loses them)."""
    pinned = {k.rsplit("@", 1)[0] for k in _pinned()["digests"] if not k.endswith(":items")}
    assert pinned == set(FAMILIES.names()), (
        "families without recorded digests: "
        f"{sorted(set(FAMILIES.names()) - pinned)}; recorded but gone: "
        f"{sorted(pinned - set(FAMILIES.names()))} — run `python tests/test_streams_pinned.py --write`"
    )


@pytest.mark.parametrize("family", sorted(FAMILIES.names()))
def test_a_seed_gives_the_recorded_problems(family: str) -> None:
    pinned = _pinned()
    if pinned["versions"] != versions():
        pytest.skip(f"digests recorded with {pinned['versions']}, installed {versions()}")
    got = {k: v for lv in LEVELS for k, v in digests(family, lv).items()}
    changed = [k for k, v in got.items() if pinned["digests"].get(k) != v]
    assert not changed, (
        f"seed {SEED} gives other problems or prompts than recorded: {changed}; if that is "
        "meant, say so in the CHANGELOG and run `python tests/test_streams_pinned.py --write`"
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit(f"usage: python {sys.argv[0]} --write")
    PINNED.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {PINNED}")
