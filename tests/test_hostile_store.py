"""The records store against aliased paths, full disks, read-only folders and odd last lines
(hardening findings 3, 6 and 9)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from logicforge.errors import DataFileError
from logicforge.runner.store import RecordStore


def _line(rid: str, **extra: object) -> bytes:
    return json.dumps({"record_id": rid, **extra}).encode()


def _hold(path: Path) -> subprocess.Popen[str]:
    """Another process holding a store on ``path`` until its stdin closes."""
    code = (
        "import sys; from logicforge.runner.store import RecordStore; "
        f"s = RecordStore({str(path)!r}); print('ready', flush=True); sys.stdin.read()"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


@pytest.mark.parametrize("alias", ["symlink", "hardlink", "dotted"])
def test_a_second_writer_through_an_alias_is_refused(tmp_path: Path, alias: str) -> None:
    target = tmp_path / "r.jsonl"
    target.write_bytes(_line("a") + b"\n")
    other = tmp_path / "alias.jsonl"
    if alias == "symlink":
        other.symlink_to(target)
    elif alias == "hardlink":
        os.link(target, other)
    else:
        (tmp_path / "sub").mkdir()
        other = tmp_path / "sub" / ".." / "r.jsonl"
    holder = _hold(target)
    try:
        with pytest.raises(DataFileError, match="another logicforge run"):
            RecordStore(other)
    finally:
        holder.communicate("")
    RecordStore(other).release()  # free again once the first run ends


def test_compaction_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    s = RecordStore(link)
    for rid in ("b", "a", "b"):
        s.append(rid, _line(rid))
    s.compact(order=["a", "b"])
    s.append("c", _line("c"))
    s.release()
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert [json.loads(x)["record_id"] for x in target.read_text().splitlines()] == ["a", "b", "c"]


def test_a_hard_linked_file_is_not_split_by_compaction(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    s = RecordStore(a)
    os.link(a, b)
    s.append("x", _line("x"))
    s.append("x", _line("x", v=2))
    s.compact()
    s.append("y", _line("y"))
    s.release()
    assert os.path.samefile(a, b) and a.read_bytes() == b.read_bytes()
    again = RecordStore(b)
    assert sorted(again.lines) == ["x", "y"] and json.loads(again.lines["x"])["v"] == 2
    again.release()


def test_an_unterminated_but_complete_last_record_is_kept(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    p.write_bytes(_line("a") + b"\n" + _line("b", error=None))  # no final newline
    s = RecordStore(p)
    assert sorted(s.lines) == ["a", "b"] and not s.repaired
    s.append("c", _line("c"))
    s.release()
    assert [json.loads(x)["record_id"] for x in p.read_text().splitlines()] == ["a", "b", "c"]


@pytest.mark.parametrize(
    "tail", [b'{"record_id": "b", "x": [1, 2', b'{"x": 1}', b"[1, 2]", b"\xff"]
)
def test_a_torn_or_keyless_tail_is_still_dropped(tmp_path: Path, tail: bytes) -> None:
    p = tmp_path / "r.jsonl"
    p.write_bytes(_line("a") + b"\n" + tail)
    s = RecordStore(p)
    assert list(s.lines) == ["a"] and s.repaired
    s.release()
    assert p.read_bytes() == _line("a") + b"\n"


def test_an_unhashable_record_id_is_a_clear_error(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    p.write_bytes(b'{"record_id": ["a"]}\n' + _line("b") + b"\n")
    with pytest.raises(DataFileError, match="line|byte"):
        RecordStore(p)
    RecordStore(tmp_path / "other.jsonl").release()


def test_a_directory_as_records_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="is a directory"):
        RecordStore(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_folder_is_a_clear_error(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(DataFileError, match="permission denied"):
            RecordStore(ro / "r.jsonl")
    finally:
        ro.chmod(0o700)


def test_disk_full_while_compacting_keeps_every_record_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = tmp_path / "r.jsonl"
    s = RecordStore(p)
    for i in range(5):
        s.append(f"r{i}", _line(f"r{i}", pad="x" * 100))
    before = p.read_bytes()
    real_replace = os.replace

    def full(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")  # ENOSPC, after the temporary was written

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(DataFileError, match="disk is full.*kept"):
        s.compact()
    monkeypatch.setattr(os, "replace", real_replace)
    assert not (tmp_path / "r.jsonl.tmp").exists() and p.read_bytes() == before
    s.append("r5", _line("r5"))  # the store still works, and so does the next run
    s.release()
    again = RecordStore(p)
    assert len(again) == 6
    again.compact()
    again.release()


def test_disk_full_while_appending_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = RecordStore(tmp_path / "r.jsonl")
    s.append("a", _line("a"))

    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(DataFileError, match="disk is full.*finished before this one is kept"):
        s.append("b", _line("b"))
    monkeypatch.undo()
    s.release()
    assert list(RecordStore(tmp_path / "r.jsonl").lines) == ["a"]


def test_a_leftover_temporary_from_a_failed_compaction_is_removed(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    p.write_bytes(_line("a") + b"\n")
    (tmp_path / "r.jsonl.tmp").write_bytes(b"x" * 10_000)
    RecordStore(p).release()
    assert not (tmp_path / "r.jsonl.tmp").exists()
