"""Imports are bounded before they allocate: the probe's hostile files (a literal beyond the
header, ``p cnf 99999999 1``, gzipped clause and digit floods, 300- and 10⁶-house grids, deep
JSON, corrupt Parquet) are each refused on their own with a one-line reason naming the limit,
and the import goes on with the other files. (They took up to 7.2 GB, aborted the import or
wrote a 1 GiB report.) Times and memory: ``benchmarks/bench_hostile_imports.py``."""

from __future__ import annotations

import subprocess
import sys

import pytest

import logicforge as lf
from logicforge.imports.base import import_problems

from .hostile_files import write_dimacs, write_rows


def test_hostile_dimacs_files_are_refused_one_by_one(tmp_path) -> None:
    files = write_dimacs(tmp_path / "d")
    problems, log = import_problems("dimacs", [str(p) for p in files.values()])
    assert [p.label for p in problems] == ["SAT"] and log.imported == 1  # the good one
    why = {r.source: r.message for r in log.rejected}
    assert len(why) == len(files) - 1
    for name, path in files.items():
        if name == "good":
            continue
        msg = why[path.name]
        assert "\n" not in msg and len(msg) < 300, (name, msg)
    assert "past the limit of 250,000 variables" in why["beyond.cnf"]
    assert "max_vars" in why["header.cnf"]
    assert "fix the header" in why["flood.cnf.gz"]
    assert "longer than 24 characters" in why["digits.cnf.gz"]
    assert len(log.model_dump_json()) < 10_000  # the report quotes excerpts, never a whole token


def test_hostile_row_files_are_refused_one_by_one(tmp_path) -> None:
    pytest.importorskip("pyarrow")
    files = write_rows(tmp_path / "r")
    problems, log = import_problems("zebralogic", [str(p) for p in files.values()])
    assert problems == [] and len(log.rejected) == len(files)
    text = " | ".join(r.message for r in log.rejected)
    assert text.count("over the max_houses limit of 20") == 2
    assert text.count("nested too deep") == 2 and "not a readable Parquet file" in text
    assert all("\n" not in r.message and len(r.message) < 300 for r in log.rejected)


def test_limits_are_settable_and_checked(tmp_path) -> None:
    f = tmp_path / "a.cnf"
    f.write_text("p cnf 30 1\n1 30 0\n")
    assert import_problems("dimacs", [f])[1].imported == 1
    _, log = import_problems("dimacs", [f], limits={"max_vars": 10})
    assert log.imported == 0 and "10 variables" in log.rejected[0].message
    with pytest.raises(lf.ConfigError, match="unknown limit"):
        import_problems("dimacs", [f], limits={"max_var": 10})
    with pytest.raises(lf.ConfigError, match="max_vars"):
        import_problems("dimacs", [f], limits={"max_vars": 0})
    p = subprocess.run(
        [sys.executable, "-m", "logicforge", "import", "dimacs", str(f), "--out",
         str(tmp_path / "o"), "--limit", "max_vars=10"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert p.returncode == 2 and "max_vars" in (tmp_path / "o" / "import_report.json").read_text()
    p = subprocess.run(
        [sys.executable, "-m", "logicforge", "import", "dimacs", str(f), "--out",
         str(tmp_path / "o2"), "--limit", "max_vars"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert p.returncode == 2 and "NAME=N" in p.stderr and "Traceback" not in p.stderr
