"""The Z3 conflicts measure against the ZebraLogic authors' own published statistics on the 16
real puzzles in ``shared/data/zeroeval`` (the per-puzzle table is printed with ``-s``)."""

from __future__ import annotations

import pytest

from logicforge.imports.z3_calibration import compare, geometric_mean_ratio, table

pytest.importorskip("z3")
FILE = "zebra-grid_Meta-Llama-3.1-405B-Instruct@hyperbolic.json"


@pytest.fixture(scope="module")
def rows(shared_data, tmp_path_factory):
    import os

    os.environ["LOGICFORGE_CACHE_DIR"] = "off"  # measured, never read back from a cache
    try:
        return compare(
            shared_data / "zeroeval" / FILE, shared_data / "zeroeval" / "z3_stats_16.json"
        )
    finally:
        del os.environ["LOGICFORGE_CACHE_DIR"]


def test_the_default_encoding_comes_close_to_the_published_conflicts(rows) -> None:
    print("\n" + table(rows))
    assert len(rows) == 16
    held = [r for r in rows if r.ratio is not None]
    assert len(held) == 13
    assert 0.85 <= geometric_mean_ratio(rows) <= 1.18
    inside = [r for r in held if 0.67 <= r.ratio <= 1.5]  # type: ignore[operator]
    assert len(inside) >= 12, table(rows)
    # the one puzzle at the edge (lgp-test-3x5-34, equalities only) is not far outside
    assert all(0.6 <= r.ratio <= 1.5 for r in held), table(rows)  # type: ignore[operator]
    # propagations too are of the authors' order (the old encoding: 2× to 10× theirs)
    assert all(0.4 <= r.propagations / r.published_propagations <= 1.5 for r in held)


def test_the_old_encoding_is_kept_by_name_and_is_far_off(shared_data) -> None:
    import os

    os.environ["LOGICFORGE_CACHE_DIR"] = "off"
    try:
        old = compare(
            shared_data / "zeroeval" / FILE,
            shared_data / "zeroeval" / "z3_stats_16.json",
            runs=8,
            encoding="clue-expansion",
        )
    finally:
        del os.environ["LOGICFORGE_CACHE_DIR"]
    assert geometric_mean_ratio(old) < 0.5  # why the default changed
