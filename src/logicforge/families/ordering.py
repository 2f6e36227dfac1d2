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

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import CertificationError, ConfigError, DataFileError, LogicforgeError, certify
from ..kinds import Kind, choice_format, register_kind
from ..logic.csp import parse_program, solutions, solve_csp
from ..registry import FAMILIES, RENDERERS
from ..schema import Answer, Item, LabelledProblem
from .knobs import Knob, exact

NAME = "ordering"
KIND = "deduction"
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"]
SCENES = {
    "books": ("On a shelf, there are {n} books: {list}.", "book",
              ["green", "blue", "white", "purple", "yellow", "red", "black"], "left", "right"),
    "birds": ("On a branch, there are {n} birds: {list}.", "bird",
              ["owl", "robin", "crow", "falcon", "hawk", "quail", "cardinal"], "left", "right"),
    "vehicles": ("In an antique car show, there are {n} vehicles: {list}.", "",
                 ["sedan", "bus", "truck", "tractor", "minivan", "limousine", "convertible"],
                 "older", "newer"),
}  # fmt: skip


@dataclass(frozen=True)
class OrderingParams:
    n_objects: int = 5
    scene: str = "books"
    determine: str = "arrangement"  # the clues fix the whole arrangement, or only the answer

    def __post_init__(self) -> None:
        if self.determine not in ("arrangement", "question"):
            raise ConfigError("determine", self.determine, "choose arrangement or question")
        if not isinstance(self.n_objects, int) or not 3 <= self.n_objects <= 7:
            raise ConfigError("n_objects", self.n_objects, "must be an integer in 3..7")
        if self.scene not in SCENES:
            raise ConfigError("scene", self.scene, f"choose from {', '.join(SCENES)}")


def _noun(scene: str, word: str) -> str:
    kind = SCENES[scene][1]
    return f"the {word} {kind}".strip() if kind and scene == "books" else f"the {word}"


def sentence(scene: str, objects: list[str], n: int, clue: str) -> str:
    """The English template of one constraint (exact, so edits back-translate exactly)."""
    lo, hi = SCENES[scene][3], SCENES[scene][4]
    m = re.fullmatch(r"(\w+) (==|!=|<|>) (\w+)", clue)
    if m is None:
        raise CertificationError(
            f"certification failed: not a constraint of the form <a> <op> <b>: {clue!r}"
        )
    a, op, b = m.groups()
    who = _noun(scene, a).capitalize()
    if b.isdigit():
        k = int(b)
        first, last = ("leftmost", "rightmost") if lo == "left" else ("oldest", "newest")
        if k == 1 or k == n:
            where = f"the {first if k == 1 else last}"
        elif lo == "left":
            where = (
                f"the {ORDINALS[k - 1]} from the left"
                if k <= (n + 1) // 2
                else f"the {ORDINALS[n - k]} from the right"
            )
        else:
            where = (
                f"the {ORDINALS[k - 1]}-oldest"
                if k <= (n + 1) // 2
                else f"the {ORDINALS[n - k]}-newest"
            )
        return f"{who} is {'not ' if op == '!=' else ''}{where}."
    other = _noun(scene, b)
    rel = (
        {"<": f"to the {lo} of", ">": f"to the {hi} of"}[op]
        if lo == "left"
        else {"<": f"{lo} than", ">": f"{hi} than"}[op]
    )
    return f"{who} is {rel} {other}."


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


class OrderingFamily:
    name = NAME
    kind = KIND
    Params = OrderingParams
    knobs = (
        Knob(
            "n_objects",
            lambda prob, _: len(prob["objects"]),
            exact,
            "objects to arrange",
            levels=(3, 5, 7),
        ),
    )

    def generate(
        self, p: OrderingParams, rng: np.random.Generator
    ) -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any]]:
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

        def done(clues: list[str]) -> bool:
            sents = [sentence(p.scene, objects, n, c) for c in clues]
            csp = parse_program(program(objects, clues, sents, q, n))
            if p.determine == "question":
                return solve_csp(csp) == answer
            return len(list(solutions(csp, limit=2))) == 1

        chosen: list[str] = []
        for c in order:  # add true clues until the arrangement (or the answer) is determined …
            chosen.append(c)
            if done(chosen):
                break
        for c in list(reversed(chosen)):  # … then drop every clue that is not needed for it
            rest = [x for x in chosen if x != c]
            if rest and done(rest):
                chosen = rest
        sents = [sentence(p.scene, objects, n, c) for c in chosen]
        prog = program(objects, chosen, sents, q, n)
        certify(solve_csp(parse_program(prog)) == answer, "the clues must determine the answer")
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


def story(d: dict[str, Any]) -> str:
    scene, n = d["scene"], d["n_objects"]
    names = [
        _noun(scene, o.replace("_", " ")).replace("the ", "an " if o[0] in "aeiou" else "a ", 1)
        for o in d["objects"]
    ]
    head = SCENES[scene][0].format(
        n=["three", "four", "five", "six", "seven"][n - 3],
        list=", ".join(names[:-1]) + f", and {names[-1]}",
    )
    return (
        f"The following paragraphs each describe a set of {n} objects arranged in a fixed order. "
        "The statements are logically consistent within each paragraph.\n\n"
        + head
        + " "
        + " ".join(d["sentences"])
    )


def options(d: dict[str, Any]) -> list[str]:
    q, n, scene = d["question_position"], d["n_objects"], d["scene"]
    return [
        f"{chr(65 + i)}) " + sentence(scene, d["objects"], n, f"{o} == {q}")
        for i, o in enumerate(d["objects"])
    ]


class DeductionRenderer:
    """``deduction``: the symbolic-edits paper's chain-of-thought prompt, answer in ``\\boxed{}``."""

    name = "deduction"
    kind = KIND
    needs_backtranslation = True  # edited *loaded* questions only; generated clues are templates

    def render(self, problem: LabelledProblem) -> Item:
        from ..kinds.items import build_kind_item

        d = problem.problem
        if (
            "context" in d
            and problem.metadata.get("edit_level")
            and not problem.metadata.get("nl_verified")
        ):
            from ..errors import ConfigError

            raise ConfigError(
                "renderer",
                "deduction",
                f"{problem.problem_id} is an edited LogicalDeduction question whose context was "
                "not back-translated; run `logicforge backtranslate` (or a suite `story:` writer)",
            )
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


# the symbolic-edits paper's CoT prompts (Appendix D), shared by the deduction and fol renderers
COT_SYSTEM = (
    "You are a reasoning assistant that reasons step by step, and puts your final answer "
    "within \\boxed{}."
)
COT_USER = (
    "Solve the given logical deductive reasoning problem using only the information provided "
    "in the question. Do not use or rely on any external knowledge."
)


def cot_item(item: Item) -> Item:
    """The paper's system prompt first, its instruction before the problem."""
    from ..schema import Message

    user = item.messages[-1].content
    return item.model_copy(
        update={
            "messages": [
                Message(role="system", content=COT_SYSTEM),
                Message(role="user", content=f"{COT_USER}\n\n{user}"),
            ]
        }
    )


_BOXED = re.compile(r"\\boxed\{\s*\(?([A-G])\)?\s*\}")
_PHRASE = re.compile(
    r"(?i:answer|option)\s*(?i:is)?\s*[:=]?\s*\(?([A-G])\)(?![A-Za-z])|(?i:answer)\s*(?i:is)?\s*[:=]?\s*\(?([A-G])\b"
)


def parse(body: str, objs: list[dict[str, Any]], item: Item) -> Answer:
    n = int(item.problem.get("n_objects", 7))
    ok = {chr(65 + i) for i in range(n)}
    boxed = [m.group(1) for m in _BOXED.finditer(body) if m.group(1) in ok]
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
    ph = [(m.group(1) or m.group(2)) for m in _PHRASE.finditer(body)]
    ph = [x for x in ph if x in ok]
    if ph:
        return Answer(label=ph[-1], rule="phrase")
    return Answer(parse_error="no answer: no option letter found")


def load_logicaldeduction(
    questions: str | Path, programs: str | Path | None = None
) -> list[LabelledProblem]:
    """BIG-bench LogicalDeduction questions (Logic-LM's ``logicaldeduction_dev.json``) as
    ``deduction`` problems with the dataset's answer as label; with ``programs`` (Logic-LM's
    ``…_programs_gpt-4.json``) each problem also carries its constraint program and the CSP
    oracle's answer to it (``program_answer``) in the metadata."""
    try:
        rows = json.loads(Path(questions).read_text(encoding="utf-8"))
        progs = (
            {
                x["id"]: x["raw_logic_programs"][0]
                for x in json.loads(Path(programs).read_text(encoding="utf-8"))
            }
            if programs
            else {}
        )
    except (OSError, ValueError, KeyError) as e:
        raise DataFileError(f"cannot read LogicalDeduction files: {e}") from None
    out = []
    for i, r in enumerate(rows):
        prog = progs.get(r["id"])
        meta: dict[str, Any] = {"n_objects": len(r["options"]), "source": "logicaldeduction"}
        if prog is not None:
            try:
                meta["program_answer"] = solve_csp(parse_program(prog))
            except LogicforgeError as e:
                meta["program_answer"] = f"unparsed: {e}"
        out.append(
            LabelledProblem(
                problem_id=str(r["id"]),
                family=NAME,
                kind=KIND,
                params={"source": Path(questions).name},
                seed=0,
                spawn_key=[0, i],
                problem={
                    "context": r["context"],
                    "question": r["question"],
                    "options": r["options"],
                    "n_objects": len(r["options"]),
                    **({"program": prog} if prog else {}),
                },
                label=r["answer"].strip("()"),
                oracle={"source": "dataset answer"},
                metadata=meta,
            )
        )
    return out


register_kind(
    Kind(
        KIND,
        (),
        (
            choice_format(
                parse, lambda it: [chr(65 + i) for i in range(int(it.problem.get("n_objects", 7)))]
            ),
        ),
    )
)
FAMILIES.register(NAME, OrderingFamily())
RENDERERS.register("deduction", DeductionRenderer())
