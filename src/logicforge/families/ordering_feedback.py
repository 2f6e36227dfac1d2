"""What a checker can tell a model about a wrong option in a generated deduction puzzle: a
minimal set of the puzzle's clues that cannot hold together with the chosen option — the
contradiction the model missed, not the right option.

Loaded LogicalDeduction questions (no structured clues) get no facts.

Example:
    >>> import logicforge as lf
    >>> it = lf.render(lf.generate("ordering", {"n_objects": 4}, count=1, seed=0), "deduction")[0]
    >>> from logicforge.schema import Answer, Verdict
    >>> wrong = next(c for c in "ABCD" if c != it.gold["label"])
    >>> deduction_facts(it, Answer(label=wrong), Verdict(correct=False))[0].startswith("if ")
    True
"""

from __future__ import annotations

import itertools

from ..schema import Answer, Item, Verdict
from .ordering_text import holds


def _consistent(objs: list[str], clues: list[list[str]], fixed: tuple[int, int]) -> bool:
    """Some arrangement puts object ``fixed[0]`` at position ``fixed[1]`` and satisfies ``clues``."""
    index = {o: i for i, o in enumerate(objs)}
    return any(
        pos[fixed[0]] == fixed[1] and holds(clues, pos, index)
        for pos in itertools.permutations(range(1, len(objs) + 1))
    )


def deduction_facts(item: Item, answer: Answer, verdict: Verdict) -> list[str]:
    """The clues that rule out the chosen option (a minimal such set, found by deletion)."""
    d = item.problem
    label = answer.label or ""
    if "clues" not in d or "objects" not in d or len(label) != 1:
        return []
    objs = list(d["objects"])
    k = ord(label) - 65
    if not 0 <= k < len(objs):
        return []
    fixed = (k, int(d["question_position"]))
    parsed = [c.split(" ") for c in d["clues"]]
    keep = list(range(len(parsed)))
    if _consistent(objs, parsed, fixed):  # the option is possible: nothing certain to say
        return []
    for i in list(keep):
        rest = [j for j in keep if j != i]
        if not _consistent(objs, [parsed[j] for j in rest], fixed):
            keep = rest
    said = " ".join(d["sentences"][j] for j in keep)
    return [f"if option {label} were true, these clues could not all hold: {said}"]
