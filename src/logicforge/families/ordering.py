"""``ordering`` family: generated logical-deduction puzzles (BIG-bench LogicalDeduction's shape),
as the symbolic-edits paper uses them — N objects in a row, positional clues, and a multiple-choice
question with exactly one option true in every arrangement the clues allow.

Every clue is one constraint of the Logic-LM program format (``a < b``, ``a > b``, ``a == k``,
``a != k``) with one English template, so a program and its story always say the same thing —
also after an operator edit (back-translation is exact). Generation: a hidden arrangement; true
clues in random order are added until the whole arrangement is determined (``determine:
arrangement``, as BIG-bench's puzzles are) or only the question's answer (``question``), checked by
the CSP oracle of :mod:`logicforge.logic.csp`; then every clue not needed for that is dropped. The
asked position is never stated outright.

Problem kind ``deduction``: the answer is an option letter. Renderer ``deduction``: the paper's
chain-of-thought prompt ending in ``\\boxed{<letter>}``.

Example:
    >>> import logicforge as lf
    >>> p = lf.generate("ordering", {"n_objects": 5}, count=1, seed=0)[0]
    >>> p.label in "ABCDE", p.problem["program"].startswith("Domain:")
    (True, True)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError, certify
from ..kinds import Kind, choice_format, register_kind
from ..logic.csp import parse_program, solutions, solve_csp
from ..parse.decision import hedged
from ..registry import FAMILIES, RENDERERS
from ..schema import Answer, Item, LabelledProblem
from ._edits import require_verified_words
from .base import Built, DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels, log10_factorial
from .ordering_arrangement import ARRANGEMENT, ArrangementRenderer
from .ordering_feedback import deduction_facts
from .ordering_text import SCENES, cot_item, holds, options, sentence, story

NAME = "ordering"
KIND = "deduction"


@dataclass(frozen=True)
class OrderingParams:
    n_objects: int = 5
    scene: str = "books"
    determine: str = "arrangement"  # the clues fix the whole arrangement, or only the answer
    # clues beyond a minimal set that fixes the answer, each true and not implied by the others:
    # each can be negated (an operator edit) without a contradiction or a change of answer
    redundancy: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.redundancy, int) or not 0 <= self.redundancy <= 12:
            raise ConfigError("redundancy", self.redundancy, "must be an integer in 0..12")
        if self.determine not in ("arrangement", "question"):
            raise ConfigError("determine", self.determine, "choose arrangement or question")
        if not isinstance(self.n_objects, int) or not 3 <= self.n_objects <= 7:
            raise ConfigError("n_objects", self.n_objects, "must be an integer in 3..7")
        if self.scene not in SCENES:
            raise ConfigError("scene", self.scene, f"choose from {', '.join(SCENES)}")


def program(objects: list[str], clues: list[str], sentences: list[str], q: int, n: int) -> str:
    dom = "\n".join(["Domain:", f"1: {'leftmost'}", f"{n}: {'rightmost'}"])
    var = "\n".join(
        ["Variables:", *(f"{o} [IN] [{', '.join(map(str, range(1, n + 1)))}]" for o in objects)]
    )
    cons = "\n".join(
        ["Constraints:", *(f"{c} ::: {s}" for c, s in zip(clues, sentences, strict=True))]
        + [
            f"AllDifferentConstraint([{', '.join(objects)}]) ::: All objects have different positions."
        ]
    )
    query = "\n".join(["Query:", *(f"{chr(65 + i)}) {o} == {q}" for i, o in enumerate(objects))])
    return "\n".join([dom, var, cons, query])


def redundancy_slack(p: Any) -> float:
    """How far the editable clues may be from the requested redundancy: fewer where the puzzle
    has no room for more free clues (a 3-object puzzle has at most one), more where a clue of the
    answer core is editable too (another part of the puzzle fixes the answer as well)."""
    return float(p.redundancy)


def negate(clue: str) -> str:
    """The operator edit of one clue (``<`` ↔ ``>``, ``==`` ↔ ``!=``): its negation, since the
    objects' positions are all different."""
    from ._edits import SWAP

    a, op, b = clue.split(" ")
    return f"{a} {SWAP[op]} {b}"


class Arrangements:
    """Every arrangement of ``objects`` (one row of positions 1..n per permutation) and each
    clue's truth on them, for the fast checks of generation; the emitted puzzle is certified by
    the CSP oracle of :mod:`logicforge.logic.csp`, independently.

    Example:
        >>> a = Arrangements(["x", "y", "z"])
        >>> int(a.holds(["x < y", "y < z"]).sum()), a.implied(["x < y", "y < z"], "x < z")
        (1, True)
    """

    def __init__(self, objects: list[str]) -> None:
        import itertools

        self.index = {o: i for i, o in enumerate(objects)}
        n = len(objects)
        self.pos = np.array(list(itertools.permutations(range(1, n + 1))), dtype=np.int8)
        self._memo: dict[str, np.ndarray] = {}

    def mask(self, clue: str) -> np.ndarray:
        if clue not in self._memo:
            a, op, b = clue.split(" ")
            x = self.pos[:, self.index[a]]
            y = int(b) if b.isdigit() else self.pos[:, self.index[b]]
            self._memo[clue] = {"<": x < y, ">": x > y, "==": x == y, "!=": x != y}[op]
        return self._memo[clue]

    def holds(self, clues: list[str]) -> np.ndarray:
        m = np.ones(len(self.pos), dtype=bool)
        for c in clues:
            m &= self.mask(c)
        return m

    def implied(self, clues: list[str], c: str) -> bool:
        """True when no arrangement satisfies ``clues`` and the negation of ``c``."""
        return not bool((self.holds(clues) & ~self.mask(c)).any())

    def answer(self, clues: list[str], q: int) -> int | None:
        """The object (index) at position ``q`` in every arrangement the clues allow, if one."""
        at = np.nonzero(self.pos[self.holds(clues)] == q)[1]
        return int(at[0]) if len(at) and (at == at[0]).all() else None


def _csp(d: Mapping[str, Any], clues: list[str]) -> Any:
    n = d["n_objects"]
    sents = [sentence(d["scene"], d["objects"], n, c) for c in clues]
    return parse_program(program(d["objects"], clues, sents, d["question_position"], n))


def editable_clues(d: Mapping[str, Any]) -> int:
    """How many of the problem's clues can be negated alone with the answer unchanged (the
    puzzle's room for label-preserving operator edits; ``redundancy_actual``)."""
    clues = list(d["clues"])
    arr, q = Arrangements(list(d["objects"])), int(d["question_position"])
    label = arr.answer(clues, q)
    return sum(
        arr.answer([*clues[:i], negate(c), *clues[i + 1 :]], q) == label
        for i, c in enumerate(clues)
    )


class OrderingFamily(
    DeclaredFamily, name=NAME, kind=KIND, params=OrderingParams, example={"n_objects": 3}
):
    knobs = (
        Knob(
            "n_objects",
            lambda prob, _: len(prob["objects"]),
            exact,
            "objects to arrange",
            levels=(3, 5, 7),
        ),
        Knob(
            "redundancy",
            lambda prob, _: editable_clues(prob),
            redundancy_slack,
            "clues that can be negated alone with the answer unchanged",
            levels=(0, 2, 4),
            at={"n_objects": 7, "determine": "question"},
        ),
    )
    levels = Levels(
        lambda lv: {"n_objects": 5 + lv // 4},
        "log10 arrangements",
        lambda p: log10_factorial(len(p.problem["objects"])),
        "n_objects = 5 + ⌊level / 4⌋ (5 … 7; from 5, so that an arrangement given without "
        "reading the clues is right at most 1/120 of the time); log10 of the n! arrangements "
        "the clues must narrow to one"
        "; 7 objects at 8-11",
        highest=11,
        ceiling="LogicalDeduction's scenes hold at most seven objects (its 3-, 5- and 7-object "
        "tasks)",
    )

    def generate(self, p: OrderingParams, rng: np.random.Generator) -> Built:
        n = p.n_objects
        words = [SCENES[p.scene][2][int(i)] for i in rng.choice(7, n, replace=False)]
        objects = [w.replace(" ", "_") for w in words]
        pos = {o: int(h) + 1 for o, h in zip(objects, rng.permutation(n), strict=True)}
        q = int(rng.integers(1, n + 1))
        # no clue states the asked position outright: the answer has to be deduced
        cands = [f"{o} == {pos[o]}" for o in objects if pos[o] != q]
        for i, a in enumerate(objects):
            for b in objects[i + 1 :]:
                cands.append(f"{a} {'<' if pos[a] < pos[b] else '>'} {b}")
        order = [cands[int(i)] for i in rng.permutation(len(cands))]
        answer = chr(65 + objects.index(next(o for o in objects if pos[o] == q)))

        arr = Arrangements(objects)
        at_q = objects.index(next(o for o in objects if pos[o] == q))

        def done(clues: list[str], determine: str = p.determine) -> bool:
            if determine == "question":
                return arr.answer(clues, q) == at_q
            return int(arr.holds(clues).sum()) == 1

        def minimal(
            determine: str, keep: tuple[str, ...] = (), pool: list[str] = order
        ) -> list[str]:
            chosen = list(keep)
            for c in pool:  # add true clues until the arrangement (or answer) is determined …
                if done(chosen, determine):
                    break
                if c not in chosen and not implied(chosen, c):
                    chosen.append(c)
            for c in list(reversed(chosen[len(keep) :])):  # … then drop every clue not needed
                rest = [x for x in chosen if x != c]
                if rest and done(rest, determine):
                    chosen = rest
            return chosen

        implied = arr.implied

        if not p.redundancy:  # the plain minimal set, as generated before the knob existed
            chosen: list[str] = []
            for c in order:
                chosen.append(c)
                if done(chosen):
                    break
            for c in list(reversed(chosen)):
                rest = [x for x in chosen if x != c]
                if rest and done(rest):
                    chosen = rest
        else:  # a minimal answer core, then independent clues beyond it, then (arrangement) the rest
            # the core from relations to the asked object first: it places that object and
            # leaves the others free on either side, room for clues beyond the core
            relations = [c for c in order if "==" not in c]
            x = objects[at_q]
            around = [c for c in relations if x in c.split(" ")[::2]]
            pool = around + [c for c in relations if c not in around]
            chosen = minimal("question", pool=pool + [c for c in order if "==" in c])
            core = list(chosen)
            extras: list[str] = []

            def free(extras: list[str], others: list[str]) -> bool:
                """Every subset of the extras can be negated together without a contradiction:
                the extras are independent, so any chain of edits over them stays consistent."""
                base = arr.holds([*core, *others])
                for bits in range(1 << len(extras)):
                    m = base.copy()
                    for j, e in enumerate(extras):
                        m &= ~arr.mask(e) if bits >> j & 1 else arr.mask(e)
                    if not m.any():
                        return False
                return True

            for c in relations:  # "<"/">" clues: a "==" clue would pin an object outright
                if len(extras) == p.redundancy:
                    break
                if c not in core and not implied([*core, *extras], c) and free([*extras, c], []):
                    extras.append(c)
            chosen = core + extras
            if p.determine == "arrangement":  # complete with clues that leave every extra free
                for c in order:
                    if done(chosen):
                        break
                    rest = chosen[len(core) + len(extras) :]
                    if c not in chosen and not implied(chosen, c) and free(extras, [*rest, c]):
                        chosen.append(c)
                chosen = minimal("arrangement", tuple(core + extras), chosen[len(core) :] + order)
            chosen = [chosen[int(i)] for i in rng.permutation(len(chosen))]
        sents = [sentence(p.scene, objects, n, c) for c in chosen]
        prog = program(objects, chosen, sents, q, n)
        csp = parse_program(prog)  # independent of the arrangement table generation used
        certify(solve_csp(csp) == answer, "the clues must determine the answer")
        if p.determine == "arrangement":
            certify(len(list(solutions(csp, limit=2))) == 1, "the clues fix the arrangement")
        problem = {
            "scene": p.scene,
            "objects": objects,
            "n_objects": n,
            "clues": chosen,
            "sentences": sents,
            "question_position": q,
            "program": prog,
            "arrangement": sorted(objects, key=lambda o: pos[o]),
        }
        meta = {"n_objects": n, "n_clues": len(chosen), "scene": p.scene}
        return problem, answer, {"solver": "csp-backtracking"}, meta


class DeductionRenderer:
    """``deduction``: the symbolic-edits paper's chain-of-thought prompt, answer in ``\\boxed{}``."""

    name = "deduction"
    kind = KIND
    needs_backtranslation = True  # edited *loaded* questions only; generated clues are templates

    def render(self, problem: LabelledProblem) -> Item:
        from ..kinds.items import build_kind_item

        d = problem.problem
        if "context" in d:  # a loaded question's own words; generated clues are templates
            require_verified_words(problem, self.name, "context was")
        text, opts = (
            (d["context"], d["options"]) if "context" in d else (story(d), options(d))
        )  # loaded LogicalDeduction questions carry their own text
        prompt = (
            f"{text}\n\nQuestion: {d.get('question', 'Which of the following is true?')}\nOptions:\n"
            + "\n".join(opts)
            + "\n\nThink step by step, then give the letter of the correct option as "
            "\\boxed{<letter>} at the end of your answer."
        )
        letters = [chr(65 + i) for i in range(d["n_objects"])]
        schema = {
            "type": "object",
            "properties": {"answer": {"type": "string", "enum": letters}},
            "required": ["answer"],
        }
        return cot_item(build_kind_item(problem, self.name, prompt, schema))


class DeductionFormalRenderer:
    """``deduction-formal``: the question as its constraint program — variables, constraints and
    the options as formulas (an edited question's program as edited: no sentence to rewrite)."""

    name = "deduction-formal"
    kind = KIND

    def render(self, problem: LabelledProblem) -> Item:
        from ..errors import ConfigError
        from ..kinds.items import build_kind_item
        from .ordering_text import formal_question

        body = formal_question(problem.problem)
        if body is None:
            raise ConfigError("renderer", self.name, f"{problem.problem_id} carries no program "
                              "to state formally (load it with its programs file)")  # fmt: skip
        prompt = (
            f"Which option must hold?\n\n{body}\n\nThink step by step, then give the letter of "
            "the correct option as \\boxed{<letter>} at the end of your answer."
        )
        letters = [chr(65 + i) for i in range(problem.problem["n_objects"])]
        schema = {"type": "object", "properties": {"answer": {"type": "string", "enum": letters}},
                  "required": ["answer"]}  # fmt: skip
        return build_kind_item(problem, self.name, prompt, schema)


_BOXED = re.compile(r"\\boxed\{\s*\(?([A-G])\)?\s*\}")
_PHRASE = re.compile(
    r"(?i:answer|option)\s*(?i:is)?\s*[:=]?\s*\(?([A-G])\)(?![A-Za-z])|(?i:answer)\s*(?i:is)?\s*[:=]?\s*\(?([A-G])\b"
)


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    n = int(item.problem.get("n_options", item.problem.get("n_objects", 7)))
    ok = {chr(65 + i) for i in range(n)}
    boxed = [
        m.group(1)
        for m in _BOXED.finditer(body)
        if m.group(1) in ok and not hedged(body, m.start(), m.end())
    ]
    if boxed:
        return Answer(label=boxed[-1], rule="boxed")
    for obj in reversed(objs):
        v = obj.get("answer")
        if (
            isinstance(v, str)
            and v.strip().strip("()").upper() in ok
            and len(v.strip().strip("()")) == 1
        ):
            return Answer(label=v.strip().strip("()").upper(), rule="json")
    ph = [
        m.group(g)
        for m in _PHRASE.finditer(body)
        for g in (1, 2)
        if m.group(g) and not hedged(body, m.start(g), m.end(g))
    ]
    ph = [x for x in ph if x in ok]
    if ph:
        return Answer(label=ph[-1], rule="phrase")
    return Answer(parse_error="no answer: no option letter found")


def budgeted(item: Item, checks: int) -> Answer | None:
    """The answer a brute-force solver reaches checking at most ``checks`` arrangements (in
    lexicographic order) against the clues, or None when the budget runs out — the ``budget:N``
    reference for deduction puzzles (N counts arrangements, not conflicts). Only generated
    puzzles carry the clues it checks."""
    import itertools

    d = item.problem
    if "clues" not in d or "objects" not in d:
        raise ConfigError(
            "item", item.item_id, "budget:N solves generated ordering puzzles (their clues) only"
        )
    objs = list(d["objects"])
    index = {o: i for i, o in enumerate(objs)}
    parsed = [c.split(" ") for c in d["clues"]]
    q = int(d["question_position"])
    for pos in itertools.islice(itertools.permutations(range(1, len(objs) + 1)), checks):
        if holds(parsed, pos, index):
            return Answer(label=chr(65 + pos.index(q)))
    return None


_CHOICE = choice_format(
    parse, lambda it: [chr(65 + i) for i in range(int(it.problem.get("n_objects", 7)))]
)


RENDERERS.register("deduction-order", ArrangementRenderer())
register_kind(
    Kind(
        KIND,
        (),
        (dataclasses.replace(_CHOICE, budgeted=budgeted, feedback=deduction_facts), ARRANGEMENT),
        training_renderer="deduction-order",
        words_renderer="deduction",
        formal_renderer="deduction-formal",
    )
)
FAMILIES.register(NAME, OrderingFamily())
RENDERERS.register("deduction", DeductionRenderer())
RENDERERS.register("deduction-formal", DeductionFormalRenderer())
