from __future__ import annotations

import os
from pathlib import Path

import pytest

import logicforge as lf

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
if not SHARED.exists():  # CI clones the repository next to shared/ as well; fall back to env
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


@pytest.fixture(autouse=True)
def _local_models_only_where_marked(request, monkeypatch):
    """Where ``make test`` runs tests in parallel (``LOGICFORGE_LOCAL_MODELS=off``), a test that
    tries to load a local model fails here, even when the refusal only became an error record:
    such a test belongs with the ``embedded`` ones, which run alone."""
    from logicforge.models import embedded

    if not embedded.local_models_off() or request.node.get_closest_marker("embedded"):
        yield
        return

    tried: list[str] = []
    load = embedded.GGUFModel._load

    def _load(self):  # type: ignore[no-untyped-def]
        tried.append(self.path.name)
        return load(self)

    monkeypatch.setattr(embedded.GGUFModel, "_load", _load)
    yield
    if tried:
        pytest.fail(f"this test loads a local model ({tried[0]}): mark it @pytest.mark.embedded")


_ROOT = Path(__file__).resolve().parents[1]
_STRAYS = (".logicforge-cache", "runs", "out")  # what a command run in the wrong folder writes
_present: set[str] = set()


def pytest_sessionstart(session) -> None:  # type: ignore[no-untyped-def]
    _present.update(n for n in _STRAYS if (_ROOT / n).exists())


def pytest_sessionfinish(session, exitstatus) -> None:  # type: ignore[no-untyped-def]
    """A test that writes into the repository (a CLI command run from its root, say the default
    response cache) fails the session: tests write under their tmp_path."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # the controller checks once, after every worker has finished
    new = [n for n in _STRAYS if (_ROOT / n).exists() and n not in _present]
    if new:
        print(f"\ntests wrote {', '.join(new)} into {_ROOT}: write under tmp_path instead")
        session.exitstatus = 1
