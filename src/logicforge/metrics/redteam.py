"""A red team for the reward: for any item, answers that must earn **0** — empty, hedged between
labels, an echoed prompt, every value stuffed in, a partial grid, a witness that does not check
out, a wrong answer dressed with keys claiming it is right, a very long reply, and (with partial
credit on) certificates forged to prove nothing — and the right
answer in unusual but legitimate layouts that must earn the **full** reward. ``redteam(items)``
reports the reward's false-positive and false-negative rates per family (``tests`` hold the
false positives at 0 for every registered renderer).

Nothing here knows a kind: attacks are built from the item's answer format (its labels, its
oracle, wrong and random answers and its ``to_text``) and from the item's prompt.

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 5.0}, count=1, seed=1))[0]
    >>> names = [n for n, _ in attacks(it)]
    >>> "hedge: or" in names and "echoed prompt" in names
    True
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..kinds import answer_format
from ..schema import Answer, Item
from .reward import reward


def _words(item: Item, right: Answer | None = None) -> list[str]:
    """The label words a reply chooses between: the decision words of a binary format
    (SAT / UNSAT, YES / NO), or the option letters of a multiple-choice one (``right``: the
    oracle's answer, when the caller has it already)."""
    fmt = answer_format(item)
    right = fmt.oracle(item) if right is None else right
    texts = [fmt.to_text(right, item), fmt.to_text(fmt.wrong(item), item)]
    found = []
    for t in texts:
        m = re.search(r'"answer"\s*:\s*"([^"]+)"', t)
        if m and m.group(1) not in found:
            found.append(m.group(1))
    return found


def _with_keys(text: str, extra: dict[str, Any]) -> str:
    """``text`` with ``extra`` keys added to its last JSON object."""
    i = text.rfind("{")
    j = text.rfind("}")
    if i < 0 or j < i:
        return text + "\n" + json.dumps(extra)
    obj_start = text.find("{", max(0, text.rfind("\n", 0, i)))
    try:
        obj = json.loads(text[obj_start : j + 1])
    except ValueError:
        return text
    return text[:obj_start] + json.dumps({**obj, **extra}) + text[j + 1 :]


def attacks(
    item: Item, mode: str = "certified", right: Answer | None = None
) -> list[tuple[str, str]]:
    """(name, reply) pairs that must earn a reward of 0 on ``item`` under the reward ``mode``
    (the certified mode adds the bare decisions: a right label without its certificate;
    ``right``: the oracle's answer, when the caller has it already)."""
    fmt = answer_format(item)
    right = fmt.oracle(item) if right is None else right
    words = _words(item, right)
    out = [
        ("empty", ""),
        ("empty tags", "<answer></answer>"),
        ("empty object", "{}"),
        ("empty answer", '{"answer": ""}'),
        ("echoed prompt", "\n\n".join(m.content for m in item.messages)),
        ("very long, no answer", "Let me think about this carefully. " * 6000),
    ]
    for a, b in ((words[0], words[1]), (words[1], words[0])) if len(words) >= 2 else ():
        out += [  # the right label first and last: neither order may pay
            ("hedge: or", f"The answer is either {a} or {b}."),
            ("hedge: or, plain", f"The answer is {a} or {b}."),
            ("hedge: slash", f"Final answer: {a} / {b}"),
            ("hedge: slash, tight", f"Answer: {a}/{b}"),
            ("hedge: bold", f"**{a} or {b}**"),
            ("hedge: json", json.dumps({"answer": f"{a} or {b}"})),
            ("hedge: json list", json.dumps({"answer": [a, b]})),
            ("hedge: boxed", f"\\boxed{{{a}}} or \\boxed{{{b}}}"),
            ("hedge: might", f"The answer might be {a}."),
            ("both labels", f"{a} {b}"),
        ]
    if len(words) > 2:  # multiple choice: every option at once
        out += [
            ("stuffing: letters", json.dumps({"answer": " ".join(words)})),
            ("stuffing: all", "The answer is " + ", ".join(words)),
        ]
    if mode == "certified" and fmt.certifies is not None:
        out += [(f"bare {x}", fmt.to_text(Answer(label=x), item)) for x in fmt.certifies]
    wrong = fmt.to_text(fmt.wrong(item), item)
    out += [
        ("wrong, claiming right", _with_keys(wrong, {"correct": True, "reward": 1.0})),
        ("wrong, very long", "I have checked every condition. " * 6000 + wrong),
    ]
    if right.label == "SAT" and (right.assignment or right.certificate):
        rng = np.random.default_rng(7)
        for _ in range(50):  # a witness of the right shape that does not check out
            bogus = fmt.random(item, rng)
            if bogus.label != "SAT" or not (bogus.assignment or bogus.certificate):
                continue
            text = fmt.to_text(bogus, item)
            if reward(item, text, mode=mode) < 1.0:
                out.append(("invalid witness", text))
                break
    grid = (right.certificate or {}).get("grid") if right.label == "SAT" else None
    if grid:
        houses = sorted(grid, key=int)
        first = {houses[0]: grid[houses[0]]}
        out.append(
            ("partial grid", fmt.to_text(Answer(label="SAT", certificate={"grid": first}), item))
        )
        values = sorted({v for row in grid.values() for v in row.values()})
        stuffed = {h: {k: " ".join(values) for k in grid[h]} for h in houses}
        out.append(
            ("stuffed grid", fmt.to_text(Answer(label="SAT", certificate={"grid": stuffed}), item))
        )
        same = {h: dict(grid[houses[0]]) for h in houses}
        out.append(
            ("one house copied", fmt.to_text(Answer(label="SAT", certificate={"grid": same}), item))
        )
    return out


def forged(item: Item, mode: str = "certified") -> list[tuple[str, str]]:
    """(name, reply) pairs of certificates that prove nothing (the format's ``forgeries``: a
    refutation of tautologies, every condition cited as a core, …) that must earn 0 *even with
    partial credit*; a forgery that happens to be a real certificate on this item (the whole
    formula is a minimal core) is left out."""
    fmt = answer_format(item)
    if fmt.forgeries is None:
        return []
    out = []
    for name, a in fmt.forgeries(item):
        text = fmt.to_text(a, item)
        if reward(item, text, mode=mode) < 1.0:
            out.append((f"forged: {name}", text))
    return out


def legit(item: Item, right: Answer | None = None) -> list[tuple[str, str]]:
    """(name, reply) pairs: the right answer in layouts real models use, each must earn 1."""
    fmt = answer_format(item)
    right = fmt.oracle(item) if right is None else right
    canon = fmt.to_text(right, item)
    body = canon.split("\n")[-1] if canon.strip().startswith("Final answer") else canon
    words = _words(item, right)
    other = words[1] if len(words) > 1 else "the other option"
    return [
        ("canonical", canon),
        ("code fence", f"Here is my answer.\n```json\n{body.strip()}\n```"),
        (
            "reasoning that names both",
            f"At first I suspected {other}, but checking every condition again rules that "
            f"out.\n\n{canon}",
        ),
        ("bold heading", f"**Final answer**\n\n{canon}"),
        ("think block", f"<think>\nMaybe {other}? No.\n</think>\n{canon}"),
    ]


def redteam(items: Iterable[Item], mode: str = "certified") -> list[dict[str, Any]]:
    """Per family: attacks and legitimate replies tried under the reward ``mode``, false
    positives (an attack earning more than 0) and false negatives (a legitimate reply earning
    less than 1), with the first few of each named."""
    per: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for it in items:
        d = per[it.family]
        right = answer_format(it).oracle(it)  # once per item: attacks and layouts share it
        for name, text in attacks(it, mode, right):
            d["attacks"].append(name)
            if reward(it, text, mode=mode) > 0:
                d["fp"].append(f"{it.rendering}: {name}")
        for name, text in forged(it, mode):
            d["attacks"].append(name)
            if reward(it, text, partial=True, mode=mode) > 0:
                d["fp"].append(f"{it.rendering}: {name} (partial)")
        for name, text in legit(it, right):
            d["legit"].append(name)
            if reward(it, text, mode=mode) < 1:
                d["fn"].append(f"{it.rendering}: {name}")
    rows = []
    for fam, d in sorted(per.items()):
        rows.append(
            {
                "family": fam,
                "attacks": len(d["attacks"]),
                "false_positive_rate": len(d["fp"]) / len(d["attacks"]),
                "legit": len(d["legit"]),
                "false_negative_rate": len(d["fn"]) / len(d["legit"]),
                "false_positives": "; ".join(sorted(set(d["fp"]))[:5]),
                "false_negatives": "; ".join(sorted(set(d["fn"]))[:5]),
            }
        )
    return rows
