"""SATBench's Fig. 3: accuracy against model size, one panel per difficulty bucket, one line per
model family. A model's size is read from its name (``Qwen3-14B``, ``Llama-3.1-70B-Instruct``,
``Mixtral-8x7B`` = 56B, ``SmolLM2-135M`` = 0.135B); a family is its name without the size. Models
whose name states no size are left out and named in the caption."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

_SIZE = re.compile(r"(?<![\w.])(?:(\d+)x)?(\d+(?:\.\d+)?)([bBmM])(?![a-zA-Z0-9])")
BUCKETS = ("Easy", "Medium", "Hard")


def model_size(name: str) -> tuple[float, str] | None:
    """(billions of parameters, family) read from a model's name, or None when it states none.

    Example:
        >>> model_size("Llama-3.1-70B-Instruct"), model_size("Mixtral-8x7B")[0]
        ((70.0, 'Llama-3.1-Instruct'), 56.0)
        >>> model_size("smollm2-135m-instruct")[0], model_size("gpt-4o")
        (0.135, None)
    """
    found = list(_SIZE.finditer(name))
    if not found:
        return None
    m = found[-1]
    experts, value, unit = m.group(1, 2, 3)
    size = float(value) * (int(experts) if experts else 1) / (1000 if unit in "mM" else 1)
    family = re.sub(r"[-_ ]{2,}", "-", (name[: m.start()] + name[m.end() :]).strip("-_ "))
    return size, family.strip("-_ ") or name


def scaling_rows(
    table3_rows: Sequence[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], list[str]]:
    """Fig. 3's numbers from Table 3's rows: per model with a size, its family, size and Overall
    accuracy per bucket; and the models left out (no size in the name)."""
    rows, unsized = [], []
    for r in table3_rows:
        got = model_size(str(r["model"]))
        if got is None:
            unsized.append(str(r["model"]))
            continue
        size, family = got
        row: dict[str, Any] = {"model": r["model"], "family": family, "params_b": size}
        if "rendering" in r:
            row["rendering"] = r["rendering"]
        row |= {b: r.get(f"Overall {b}") for b in BUCKETS}
        row["Avg."] = r.get("Avg.")
        rows.append(row)
    rows.sort(key=lambda x: (x["family"], x.get("rendering", ""), x["params_b"]))
    return rows, sorted(set(unsized))


def scaling_figure(
    rows: Sequence[Mapping[str, Any]], unsized: Sequence[str], colours: Mapping[str, str], path: Any
) -> str | None:
    """One panel per bucket: Overall accuracy against parameters (log), a line per family."""
    if not rows:
        return None
    from .plots import _plt, save_figure

    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6), dpi=100, sharey=True)
    series: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        series[r["family"] + (f" · {r['rendering']}" if "rendering" in r else "")].append(r)
    for ax, b in zip(axes, BUCKETS, strict=True):
        for name, pts in sorted(series.items()):
            xy = [(p["params_b"], float(p[b])) for p in pts if p.get(b) is not None]
            if xy:
                ax.plot(
                    [x for x, _ in xy], [y for _, y in xy], "-o", ms=4, label=name,
                    color=colours.get(str(pts[0]["model"])),
                )  # fmt: skip
        ax.axhline(50, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_title(b)
        ax.set_xlabel("parameters (billions)")
        ax.set_ylim(-3, 103)
    axes[0].set_ylabel("accuracy (%)")
    axes[-1].legend(fontsize=7)
    save_figure(fig, path)
    left = f"; left out (no size in the name): {', '.join(unsized)}" if unsized else ""
    spread = max(r["params_b"] for r in rows) / min(r["params_b"] for r in rows)
    scale = f" ({len(rows)} models, {math.log10(spread):.1f} decades of size)" if spread > 1 else ""
    return (
        "Accuracy (Overall, SAT and UNSAT averaged) against model size per bucket, a line per "
        f"family (SATBench Fig. 3){scale}; dotted: chance{left}."
    )
