"""The records store keeps where each line lies, not the line: reads, appends, retries and
compactions in any order agree with a plain dict model, lines written by other programs (blanks,
CRLF) are read and compacted clean, and the memory held does not grow with the lines' size."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from logicforge.errors import DataFileError
from logicforge.runner.store import RecordStore


def _line(rid: str, v: int, pad: int = 0) -> bytes:
    return json.dumps({"record_id": rid, "v": v, "pad": "x" * pad}).encode()


def _on_disk(path: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for raw in path.read_bytes().splitlines():
        if raw.strip():
            out[json.loads(raw)["record_id"]] = raw.strip()
    return out


@pytest.mark.parametrize("seed", range(12))
def test_random_appends_retries_compactions_and_reopens_match_a_dict(
    tmp_path: Path, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    p = tmp_path / "r.jsonl"
    model: dict[str, bytes] = {}
    s = RecordStore(p)
    for step in range(120):
        op = rng.random()
        if op < 0.6:  # a new record or a retried one (the last written wins)
            rid = f"r{int(rng.integers(40))}"
            line = _line(rid, step, int(rng.integers(0, 50)))
            s.append(rid, line)
            model[rid] = line
        elif op < 0.8:  # compaction in a random order naming some ids (and some unknown ones)
            ids = list(model) + ["nope"]
            order = [ids[i] for i in rng.permutation(len(ids))[: int(rng.integers(len(ids) + 1))]]
            s.compact(order)
            assert list(_on_disk(p)) == [i for i in order if i in model] + [
                i for i in s.lines if i not in order
            ]
        elif op < 0.9:  # the process ends; the next one reopens the file
            s.release()
            s = RecordStore(p)
        assert dict(s.lines) == model and len(s) == len(model)
        assert all(rid in s for rid in model) and "nope" not in s
    s.compact()
    s.release()
    assert _on_disk(p) == model
    assert p.read_bytes().count(b"\n") == len(model)  # one line per record after compaction


def test_lines_written_by_another_program_are_read_and_compacted_clean(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    p.write_bytes(
        b'{"record_id": "a", "v": 1}\r\n'
        b'   {"record_id": "b", "v": 2}  \n'
        b"\n"
        b'{"record_id": "c", "v": 3}\n'
        b'{"record_id": "a", "v": 4}'  # a whole last record without its newline: kept
    )
    s = RecordStore(p)
    assert dict(s.lines) == {
        "a": b'{"record_id": "a", "v": 4}',
        "b": b'{"record_id": "b", "v": 2}',
        "c": b'{"record_id": "c", "v": 3}',
    }
    s.compact(["c", "b", "a"])
    assert p.read_bytes() == (
        b'{"record_id": "c", "v": 3}\n{"record_id": "b", "v": 2}\n{"record_id": "a", "v": 4}\n'
    )
    s.append("d", _line("d", 5))
    assert json.loads(s.lines["d"])["v"] == 5 and json.loads(s.lines["a"])["v"] == 4
    s.release()


def test_a_file_cut_short_under_the_store_is_a_clear_error(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    s = RecordStore(p)
    s.append("a", _line("a", 1, 100))
    with open(p, "r+b") as f:  # another program truncates the file behind the store's back
        f.truncate(10)
    with pytest.raises(DataFileError, match="changed under the store"):
        s.lines["a"]
    s.release()


def test_the_memory_held_does_not_grow_with_the_lines(tmp_path: Path) -> None:
    """2,000 records of 8 KB each (16 MB of lines): the open store holds well under 2 MB."""
    p = tmp_path / "r.jsonl"
    with open(p, "wb") as f:
        for i in range(2000):
            f.write(_line(f"r{i}", i, 8000) + b"\n")
    tracemalloc.start()
    try:
        s = RecordStore(p)
        held, _ = tracemalloc.get_traced_memory()
        s.compact(list(reversed(list(s.lines))))
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 2 * 2**20 and after < 2 * 2**20, (held, after)
    assert next(iter(_on_disk(p))) == "r1999"
    s.release()


def test_a_released_store_says_so_when_asked_for_a_line_or_a_compaction(tmp_path: Path) -> None:
    s = RecordStore(tmp_path / "r.jsonl")
    s.append("a", _line("a", 1))
    s.release()
    assert "a" in s and len(s) == 1  # what it knows stays known
    with pytest.raises(DataFileError, match="closed; open a RecordStore"):
        s.lines["a"]
    with pytest.raises(DataFileError, match="closed; open a RecordStore"):
        s.compact()
    assert dict(RecordStore(tmp_path / "r.jsonl").lines) == {"a": _line("a", 1)}
