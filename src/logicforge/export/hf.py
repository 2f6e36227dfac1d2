"""Hugging Face ``datasets`` layout: JSONL (or Parquet) shards under ``data/`` and a dataset card.

Each row has readable columns (``item_id``, ``family``, ``kind``, ``rendering``, ``prompt``,
``messages``, ``gold_label``) and ``item_json``, the whole Item, so :func:`load_hf` re-imports
byte-identical items. Load it with ``datasets.load_dataset("json", data_files=...)`` or simply
``load_dataset(path)`` (the card's ``configs`` section names the files).
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import ConfigError, DataFileError
from ..runner.store import atomic_path, atomic_text
from ..schema import Item

SHARD_ROWS = 50_000


def provenance(item_json: str) -> str:
    """A row's provenance hash: SHA-256 of its ``item_json`` (the whole item, its family,
    parameters, seed and spawn key included), so any change to a row is visible.

    Example:
        >>> provenance("{}")[:12]
        '44136fa355b3'
    """
    import hashlib

    return hashlib.sha256(item_json.encode("utf-8")).hexdigest()


def _row(it: Item) -> dict[str, Any]:
    users = [m.content for m in it.messages if m.role == "user"]
    item_json = it.model_dump_json()
    level = it.metadata.get("level")
    return {
        "item_id": it.item_id,
        "family": it.family,
        "kind": it.kind,
        "rendering": it.rendering,
        "prompt": users[-1] if users else "",
        "messages": [m.model_dump() for m in it.messages],
        "gold_label": it.gold.get("label"),
        "level": level if isinstance(level, int) else None,
        "seed": it.seed,
        "provenance": provenance(item_json),
        "item_json": item_json,
    }


def export_hf(
    items: Iterable[Item],
    out_dir: str | Path,
    *,
    split: str = "test",
    fmt: str = "jsonl",
    command: str | None = None,
    licence: str = "apache-2.0",
    reward_mode: str = "certified",
) -> Path:
    """Write items as a Hugging Face dataset folder; returns its path. A ``train`` split is for
    training on the reward ``reward_mode`` (certified by default): items it cannot pay — a
    prompt that asks for no certificate of the gold label — are refused before anything is
    written; the card's Reward section states the mode and what it pays."""
    from ..metrics.reward import check_mode, require_certified

    if fmt not in ("jsonl", "parquet"):
        raise ConfigError("format", fmt, "choose jsonl or parquet")
    check_mode(reward_mode)
    items = list(items)
    if split == "train":
        require_certified(items, reward_mode)
    rows = [_row(it) for it in items]
    d = Path(out_dir)
    (d / "data").mkdir(parents=True, exist_ok=True)
    shards = [rows[i : i + SHARD_ROWS] for i in range(0, len(rows), SHARD_ROWS)] or [[]]
    for k, shard in enumerate(shards):
        path = d / "data" / f"{split}-{k:05d}-of-{len(shards):05d}.{fmt}"
        if fmt == "jsonl":
            with atomic_text(path) as f:
                f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in shard)
        else:
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise ConfigError("format", fmt, "needs pyarrow: pip install pyarrow") from None
            with atomic_path(path) as tmp:
                pq.write_table(pa.Table.from_pylist(shard), tmp)
    with atomic_text(d / "README.md") as f:  # last: a folder with a card is whole
        f.write(_card(rows, split, fmt, command, licence) + _reward_section(items, reward_mode))
    return d


def load_hf(path: str | Path) -> list[Item]:
    """Re-import the items of a folder written by :func:`export_hf` (all splits, in file order)."""
    d = Path(path)
    files = sorted((d / "data").glob("*.jsonl")) + sorted((d / "data").glob("*.parquet"))
    if not files:
        raise DataFileError(f"{d}: no data/*.jsonl or data/*.parquet shards")
    out = []
    for f in files:
        if f.suffix == ".jsonl":
            rows: Iterable[dict[str, Any]] = (
                json.loads(x) for x in f.read_text(encoding="utf-8").splitlines() if x.strip()
            )
        else:
            import pyarrow.parquet as pq

            rows = pq.read_table(f).to_pylist()
        for i, r in enumerate(rows, start=1):
            if "item_json" not in r:
                raise DataFileError(f"{f}: row {i} has no item_json column")
            if "provenance" in r and r["provenance"] != provenance(r["item_json"]):
                raise DataFileError(f"{f}: row {i}'s item_json does not match its provenance hash")
            out.append(Item.model_validate_json(r["item_json"]))
    return out


def _reward_section(items: list[Item], mode: str) -> str:
    """The card's Reward section: the mode, and which renderings it can pay."""
    from ..metrics.reward import uncertified

    unpaid = Counter(it.rendering for it in items if uncertified(it))
    lines = [
        "",
        "## Reward",
        "",
        f"Reward mode: `{mode}` (`logicforge.reward(item, reply, mode={mode!r})`, "
        "`serve-verify`, the TRL / verl / verifiers adapters).",
        "",
    ]
    if mode == "certified":
        lines.append(
            "A decision earns reward only with a certificate the checker accepts (an assignment "
            "for SAT, a refutation or a minimal core for UNSAT); a solution, a grid or an "
            "arrangement is its own certificate; a constant answer earns nothing."
        )
    else:
        lines.append(
            "The decision alone is paid (a bare right SAT 0.5): a constant policy earns its "
            "label's share. Use `certified` to train."
        )
    if unpaid and mode == "certified":
        lines += ["", "Renderings the certified reward cannot pay (no certificate asked):"]
        lines += [f"- {r}: {n} items" for r, n in sorted(unpaid.items())]
    return "\n".join(lines) + "\n"


def _stats(values: Sequence[float]) -> str:
    return f"{min(values):g} / {statistics.median(values):g} / {max(values):g}"


def _card(
    rows: list[dict[str, Any]], split: str, fmt: str, command: str | None, licence: str
) -> str:
    items = [json.loads(r["item_json"]) for r in rows]
    labels = Counter(str(r["gold_label"]) for r in rows)
    fams = Counter(r["family"] for r in rows)
    levels = Counter((r["family"], r.get("level")) for r in rows)
    seeds = sorted({it["seed"] for it in items})
    numeric: dict[tuple[str, str], list[float]] = {}  # (family, measure) -> values
    for it in items:
        for k, v in (it.get("metadata") or {}).items():
            if isinstance(v, int | float) and not isinstance(v, bool):
                numeric.setdefault((it["family"], k), []).append(float(v))
    difficulty = [
        f"| {fam} | {k} | {_stats(v)} |"
        for (fam, k), v in sorted(numeric.items())
        if len(v) == fams[fam]  # measures every item of the family has
    ]
    lines = [
        "---",
        f"license: {licence}",
        "task_categories:\n- question-answering",
        "tags:\n- logic\n- reasoning\n- sat\n- logicforge",
        "configs:",
        "- config_name: default",
        "  data_files:",
        f"  - split: {split}",
        f"    path: data/{split}-*.{fmt}",
        "---",
        "",
        "# logicforge dataset",
        "",
        f"{len(rows)} solver-verified items generated by logicforge {__version__}. Every label was "
        "proven by a solver when the item was generated (an UNKNOWN label means the solver timed out).",
        "",
        "## Reproduce",
        "",
        f"`{command}`" if command else "(generation command not recorded)",
        "",
        f"Seeds: {', '.join(map(str, seeds)) or '—'}. The same command and seeds give byte-identical items.",
        "",
        "## Schema",
        "",
        "| column | type | meaning |",
        "|---|---|---|",
        "| item_id | string | unique id of the rendered item |",
        "| family | string | problem family (generator) |",
        "| kind | string | problem kind (cnf, zebra, vc, packing, coloring) |",
        "| rendering | string | renderer that wrote the prompt |",
        "| prompt | string | the last user message |",
        "| messages | list of {role, content} | the whole chat prompt |",
        "| gold_label | string | the proven answer (SAT / UNSAT, YES / NO, …) |",
        "| level | int or null | the difficulty level 0–10 it was generated at (null: by parameters) |",
        "| seed | int | the generation seed (with the item's spawn key: its own random stream) |",
        "| provenance | string | SHA-256 of item_json; `load_hf` refuses a row that does not match |",
        "| item_json | string | the whole item (problem, gold answer, mapping, metadata) as JSON; "
        "`logicforge.export.load_hf` re-imports it exactly |",
        "",
        "## Label balance",
        "",
        "| label | items |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in sorted(labels.items())),
        "",
        "## Families",
        "",
        "| family | items |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in sorted(fams.items())),
        "",
        "## Levels",
        "",
        "| family | level | items |",
        "|---|---|---|",
        *(
            f"| {f} | {'—' if lv is None else lv} | {n} |"
            for (f, lv), n in sorted(
                levels.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1])
            )
        ),
        "",
        "## Difficulty (min / median / max)",
        "",
        "| family | measure | value |",
        "|---|---|---|",
        *(difficulty or ["| — | — | — |"]),
        "",
        "## Licence",
        "",
        f"{licence}. The items are generated; no third-party data is included. Each row's "
        "`provenance` column is the SHA-256 of its `item_json`.",
        "",
    ]
    return "\n".join(lines)
