"""Read the metadata of a GGUF model file (its key/value header) without loading the weights.

The header is a magic ``GGUF``, a version (2 or 3), the tensor count, the key count, then each key
as a length-prefixed UTF-8 string, a value type and the value (scalars, strings, arrays of
either). Reading stops at the end of the key/value block, so a 100 MB model's vocabulary is read
in tens of milliseconds — the embedded model's tokenizer is rebuilt from it with no llama.cpp
binding at all.

Example:
    >>> from logicforge.models.embedded import embedded_model_path   # doctest: +SKIP
    >>> meta = read_metadata(embedded_model_path(), {"tokenizer.ggml.model"})  # doctest: +SKIP
    >>> meta["tokenizer.ggml.model"]  # doctest: +SKIP
    'gpt2'
"""

from __future__ import annotations

import struct
from collections.abc import Collection
from pathlib import Path
from typing import IO, Any

from ..errors import ModelError

# GGUF value types: 8 is a string, 9 an array; the rest are fixed-size scalars
_SCALAR = {
    0: "B",
    1: "b",
    2: "H",
    3: "h",
    4: "I",
    5: "i",
    6: "f",
    7: "?",
    10: "Q",
    11: "q",
    12: "d",
}
_MAX_ITEMS = 1 << 26  # a corrupt length must not ask for petabytes


class _Reader:
    def __init__(self, f: IO[bytes], path: Path) -> None:
        self.f, self.path = f, path

    def bytes(self, n: int) -> bytes:
        b = self.f.read(n)
        if len(b) != n:
            raise ModelError(f"{self.path}: GGUF header is truncated")
        return b

    def scalar(self, code: str) -> Any:
        return struct.unpack("<" + code, self.bytes(struct.calcsize(code)))[0]

    def string(self) -> str:
        n = self.scalar("Q")
        if n > _MAX_ITEMS:
            raise ModelError(f"{self.path}: GGUF string of {n} bytes: the file is damaged")
        return self.bytes(n).decode("utf-8", "replace")

    def value(self, vtype: int) -> Any:
        if vtype == 8:
            return self.string()
        if vtype == 9:
            etype, n = self.scalar("I"), self.scalar("Q")
            if n > _MAX_ITEMS:
                raise ModelError(f"{self.path}: GGUF array of {n} items: the file is damaged")
            if etype in _SCALAR:
                code = _SCALAR[etype]
                return list(struct.unpack(f"<{n}{code}", self.bytes(n * struct.calcsize(code))))
            return [self.value(etype) for _ in range(n)]
        if vtype not in _SCALAR:
            raise ModelError(f"{self.path}: unknown GGUF value type {vtype}: the file is damaged")
        return self.scalar(_SCALAR[vtype])


def read_metadata(path: str | Path, keys: Collection[str] | None = None) -> dict[str, Any]:
    """The GGUF file's metadata: every key, or only ``keys`` (the others are read past).

    Raises :class:`ModelError` for a file that is not GGUF or whose header is damaged."""
    path = Path(path)
    with open(path, "rb") as f:
        r = _Reader(f, path)
        if f.read(4) != b"GGUF":
            raise ModelError(f"{path}: not a GGUF model file (no GGUF header)")
        version = r.scalar("I")
        if version not in (2, 3):
            raise ModelError(f"{path}: GGUF version {version} is not supported (2 or 3)")
        r.scalar("Q")  # tensor count
        n_keys = r.scalar("Q")
        out: dict[str, Any] = {}
        for _ in range(n_keys):
            key = r.string()
            value = r.value(r.scalar("I"))
            if keys is None or key in keys:
                out[key] = value
    return out
