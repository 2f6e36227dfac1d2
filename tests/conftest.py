from __future__ import annotations

from pathlib import Path

import pytest

import logicforge as lf

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
if not SHARED.exists():  # CI clones the repository next to shared/ as well; fall back to env
    import os

    SHARED = Path(os.environ.get("LOGICFORGE_SHARED_DATA", "/work/shared/data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED.exists():
        pytest.skip(f"shared benchmark data not found at {SHARED}")
    return SHARED


@pytest.fixture(scope="session")
def small_items() -> list[lf.Item]:
    problems = lf.generate(
        "ksat/random", {"n_vars": 8}, count=6, seed=3, grid={"alpha": [2.0, 4.26, 7.0]}
    )
    return lf.render(problems, "formula")
