"""Back-translation for kinds whose data is a glossed program (:class:`GlossedProgram`: loaded
LogicalDeduction questions, AR-LSAT), and for AR-LSAT questions (kind ``lsat``): each edited constraint line's ``:::``
gloss locates its sentence in the context; the rewritten sentence is translated back into one
formula of Logic-LM's Z3 dialect, which z3 must prove equivalent to the edited line under the
program's declarations (:func:`logicforge.logic.lsat.equivalent_lsat`).

Example:
    >>> LsatBackTranslation().examples[0][2]
    'And(assigned(Fred) == 3, assigned(Juan) == 2)'
"""

from __future__ import annotations

from typing import Any

from ..schema import LabelledProblem


class GlossedProgram:
    """Kinds whose data carries a program with one ``formula ::: sentence`` line per statement
    and a context the sentences come from (loaded LogicalDeduction questions, AR-LSAT): each
    edited line's gloss locates its sentence; the rewritten sentence replaces it in the context
    and in the line's gloss. Subclasses give the examples, instructions and check."""

    def from_data(self, p: LabelledProblem) -> bool:
        return "context" in p.problem  # generated puzzles are re-rendered from their templates

    @staticmethod
    def _split(line: str) -> tuple[str, str]:
        expr, _, gloss = line.partition(":::")
        return expr.strip(), gloss.strip()

    def _locate(self, gloss: str, context: str) -> str:
        """The text of ``context`` the gloss stands for ('' when it is not there)."""
        return gloss if gloss and gloss in context else ""

    def _replace(self, context: str, located: str, new: str) -> str:
        return context.replace(located, new, 1)

    def jobs(self, p: LabelledProblem, root: LabelledProblem) -> list[tuple[int, str, str, str]]:
        old_lines = root.problem["program"].splitlines()
        new_lines = p.problem["program"].splitlines()
        out = []
        for i in p.metadata["edit_positions"]:
            old, gloss = self._split(old_lines[i])
            new, _ = self._split(new_lines[i])
            out.append((i, self._locate(gloss, root.problem["context"]), old, new))
        return out

    def apply(
        self, p: LabelledProblem, root: LabelledProblem, texts: dict[int, str]
    ) -> dict[str, Any]:
        context = root.problem["context"]
        old_lines = root.problem["program"].splitlines()
        lines = p.problem["program"].splitlines()
        for i, t in texts.items():
            located = self._locate(self._split(old_lines[i])[1], context)
            if located:
                context = self._replace(context, located, t)
            expr, _ = self._split(lines[i])
            lines[i] = f"{expr} ::: {t}"
        return p.problem | {"context": context, "program": "\n".join(lines)}


class LsatBackTranslation(GlossedProgram):
    """What back-translation needs to know about ``lsat`` problems (see ``llm.backtranslate``)."""

    examples = (
        (
            "Fred is assigned to locker 3 or Juan is assigned to locker 2.",
            "Or(assigned(Fred) == 3, assigned(Juan) == 2)",
            "And(assigned(Fred) == 3, assigned(Juan) == 2)",
            "Fred is assigned to locker 3 and Juan is assigned to locker 2.",
        ),
        (
            "The fish is not served on Tuesday.",
            "Not(served(fish, Tuesday))",
            "served(fish, Tuesday)",
            "The fish is served on Tuesday.",
        ),
        (
            "If Kim speaks first, then Lee and Mo both speak that day.",
            "Implies(first(Kim), And(speaks(Lee), speaks(Mo)))",
            "Implies(first(Kim), Or(speaks(Lee), speaks(Mo)))",
            "If Kim speaks first, then Lee or Mo speaks that day.",
        ),
        (
            "Either the oak or the elm is planted, but not both.",
            "Xor(planted(oak), planted(elm))",
            "Or(planted(oak), planted(elm))",
            "The oak or the elm is planted, or both are.",
        ),
        (
            "Ruth visits Paris or Rome.",
            "Or(visits(Ruth, Paris), visits(Ruth, Rome))",
            "Xor(visits(Ruth, Paris), visits(Ruth, Rome))",
            "Ruth visits either Paris or Rome, but not both.",
        ),
    )

    def _locate(self, gloss: str, context: str) -> str:
        """AR-LSAT glosses often drop the sentence's final period."""
        for g in (gloss, gloss.rstrip(".")):
            if g and g in context:
                return g
        return ""

    def _replace(self, context: str, located: str, new: str) -> str:
        return context.replace(located, new.rstrip(".") if located[-1:] != "." else new, 1)

    def instructions(self, root: LabelledProblem, new: str) -> str:
        decl, section = [], ""
        for line in root.problem["program"].splitlines():
            s = line.strip()
            if s.startswith("# "):
                section = s
            elif section == "# Declarations" and s:
                decl.append(s)
        return (
            "Translate the sentence into one formula in Z3's Python notation over these "
            f"declarations: {'; '.join(decl)}. Use And, Or, Xor, Not, Implies, ==, !=, <, >, "
            "ForAll([x:sort], …), Exists([x:sort], …) and Count([x:sort], …) as needed."
        )

    def check(self, root: LabelledProblem, got: str, new: str) -> str:
        from ..logic.lsat import LsatProgramError, equivalent_lsat, parse_lsat

        try:
            prog = parse_lsat(root.problem["program"])
        except LsatProgramError as e:
            return f"the program does not read: {e}"
        same = equivalent_lsat(prog, got, new)
        if same is None:
            return f"back-translation {got!r} is not a formula over the declarations"
        return "" if same else f"back-translation {got!r} is not equivalent to {new!r}"
