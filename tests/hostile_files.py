"""The hostile import files of the round-three probe, written small: each must be refused on its
own, quickly and in little memory, with a one-line reason (``tests/test_import_bounds.py``,
``benchmarks/bench_hostile_imports.py``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path


def _gz(path: Path, head: bytes, chunk: bytes, total: int) -> None:
    with gzip.open(path, "wb", compresslevel=6) as f:
        f.write(head)
        block = chunk * max(1, (1 << 20) // len(chunk))
        written = 0
        while written < total:
            f.write(block)
            written += len(block)


def zebra_text(n: int) -> str:
    vals = ", ".join(f"`v{i}`" for i in range(min(n, 400)))
    return (
        f"There are {n} houses, numbered 1 to {n} from left to right.\n"
        f" - Each person has a unique name: {vals}\n\n## Clues:\n1. v1 is in the first house.\n"
    )


def write_dimacs(folder: Path) -> dict[str, Path]:
    """The DIMACS ones, and one good file: name → path."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {
        "literal beyond the header": folder / "beyond.cnf",
        "huge header": folder / "header.cnf",
        "gzipped clause flood": folder / "flood.cnf.gz",
        "gzipped clause flood, matching header": folder / "flood2.cnf.gz",
        "gzipped digit flood": folder / "digits.cnf.gz",
        "good": folder / "good.cnf",
    }
    out["literal beyond the header"].write_text("p cnf 3 1\n1 -2 3000000000 0\n")
    out["huge header"].write_text("p cnf 99999999 1\n")
    _gz(out["gzipped clause flood"], b"p cnf 1 1\n", b"1 0\n", 12 << 20)
    _gz(out["gzipped clause flood, matching header"], b"p cnf 1 99999\n", b"1 0\n", 12 << 20)
    _gz(out["gzipped digit flood"], b"p cnf 1 1\n", b"9", 12 << 20)
    out["good"].write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    return out


def write_rows(folder: Path) -> dict[str, Path]:
    """The row-file ones (ZebraLogic JSONL / JSON / Parquet), and one good row file."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {
        "300 houses": folder / "h300.jsonl",
        "a million houses": folder / "h1e6.jsonl",
        "deep JSON": folder / "deep.json",
        "deep JSONL row": folder / "deep.jsonl",
        "corrupt Parquet": folder / "corrupt.parquet",
    }
    out["300 houses"].write_text(json.dumps({"id": "h300", "puzzle": zebra_text(300)}) + "\n")
    out["a million houses"].write_text(
        json.dumps({"id": "h1e6", "puzzle": zebra_text(10**6)}) + "\n"
    )
    out["deep JSON"].write_text("[" * 100_000 + "]" * 100_000)
    out["deep JSONL row"].write_text('{"id": "a", "x": ' + "[" * 50_000 + "]" * 50_000 + "}\n")
    out["corrupt Parquet"].write_bytes(b"PAR1" + b"\x00garbage" * 100 + b"PAR1")
    return out
