"""The 2-SAT robustness paper's LLM verbaliser (§4, Appendix G.3) as a story style.

Themes ``spy``, ``heist`` and ``detective`` give each variable an entity with a true and a false
state ("the butler is guilty" / "the butler is innocent"). The writer first gets the paper's
global-introduction prompt, then — in the same conversation — one request per clause for a clue
paragraph. Each paragraph goes through the paper's two-step validator on the checker model:
(i) which entities does the clue discuss (exactly as many as the clause has), (ii) for each, which
state it gives; the recovered clause must be equivalent to the original (the solver decides). Three
attempts (``StoryConfig.attempts``), then the paper's fallback sentence
"Either {entity_1} {state_1}, or {entity_2} {state_2} (or both)."

The conversation keeps the introduction and the last two accepted clues (the paper keeps all; a
bounded window keeps long formulas inside small context windows). An introduction that already
uses a state word ("guilty", "loyal", …) could smuggle in a constraint, so it is rewritten, and
after ``attempts`` replaced by a template introduction.

Example:
    >>> VerbaliserStyle("spy").fallback_text([1, -2], ["agent Falcon", "agent Viper"])
    'Either agent Falcon is a double agent, or agent Viper is loyal (or both).'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ConfigError
from ..schema import Message
from .story_context import StoryContext, ask, usable_reply


@dataclass(frozen=True)
class Theme:
    writer: str  # "mystery story writer"
    genre: str  # "detective story"
    scene: str  # the requirement that sets the scene
    entities: tuple[str, ...]
    true_state: str
    false_state: str
    template_intro: str


THEMES = {
    "detective": Theme(
        "mystery story writer",
        "detective story",
        "Set the scene for a mystery with clues to discover",
        (
            "the butler",
            "the gardener",
            "the cook",
            "the maid",
            "the chauffeur",
            "the nephew",
            "the nurse",
            "the colonel",
            "the professor",
            "the widow",
            "the banker",
            "the painter",
            "the doctor",
            "the librarian",
            "the pianist",
            "the secretary",
            "the vicar",
            "the actress",
            "the sailor",
            "the heir",
        ),  # fmt: skip
        "is guilty",
        "is innocent",
        "A storm has cut off the manor, and the inspector gathers everyone in the library.",
    ),
    "spy": Theme(
        "spy thriller writer",
        "spy story",
        "Set the scene for an intelligence operation with clues to uncover",
        (
            "agent Falcon",
            "agent Viper",
            "agent Raven",
            "agent Cobra",
            "agent Lynx",
            "agent Otter",
            "agent Heron",
            "agent Jackal",
            "agent Mantis",
            "agent Badger",
            "agent Wolf",
            "agent Hawk",
            "agent Fox",
            "agent Crane",
            "agent Puma",
            "agent Shark",
            "agent Eagle",
            "agent Moth",
            "agent Bison",
            "agent Ibis",
        ),  # fmt: skip
        "is a double agent",
        "is loyal",
        "In a safe house in Vienna, the station chief reviews the files of the network.",
    ),
    "heist": Theme(
        "heist story writer",
        "heist story",
        "Set the scene for a daring robbery with details to work out",
        (
            "the alarm",
            "the camera",
            "the laser grid",
            "the vault door",
            "the guard post",
            "the elevator",
            "the skylight",
            "the safe",
            "the motion sensor",
            "the side gate",
            "the loading dock",
            "the keypad",
            "the floodlight",
            "the service tunnel",
            "the pressure plate",
            "the rooftop hatch",
            "the back door",
            "the display case",
            "the fire exit",
            "the server room",
        ),  # fmt: skip
        "is disabled",
        "is active",
        "At midnight the crew studies the museum's blueprints one last time.",
    ),
}


def entity_names(theme: Theme, n: int) -> list[str]:
    """``n`` distinct entity names: the theme's list, then numbered repeats of it."""
    base = theme.entities
    return [
        base[i % len(base)] + ("" if i < len(base) else f" {i // len(base) + 1}") for i in range(n)
    ]


class VerbaliserStyle:
    """A themed, multi-turn verbaliser with the two-step validator. Its items end with the same
    answer instructions as the template renderers' (decision, and an assignment when SAT), so a
    story and a template differ only in the verbalisation (the paper's Figs. 8–9)."""

    evaluation = "assignment"

    def __init__(self, theme: str) -> None:
        if theme not in THEMES:
            raise ConfigError("theme", theme, f"choose one of {', '.join(THEMES)}")
        self.theme = THEMES[theme]
        self.name = f"story-{theme}"

    def literal(self, lit: int, names: list[str]) -> str:
        t = self.theme
        return f"{names[abs(lit) - 1]} {t.true_state if lit > 0 else t.false_state}"

    def fallback_text(self, clause: list[int], names: list[str]) -> str:
        lits = [self.literal(x, names) for x in clause]
        if len(lits) == 1:
            return lits[0][0].upper() + lits[0][1:] + "."
        if len(lits) == 2:
            return f"Either {lits[0]}, or {lits[1]} (or both)."
        return "At least one of these holds: " + ", ".join(lits[:-1]) + f", or {lits[-1]}."

    def intro_prompt(self, names: list[str]) -> str:
        t = self.theme
        chars = "\n".join(f"- {n}" for n in names)
        return (
            f"You are a {t.writer}. Create a short introduction for a {t.genre}.\n\n"
            f"CHARACTERS/OBJECTS in this story:\n{chars}\n\nRequirements:\n- {t.scene}\n"
            "- Briefly introduce each character/object naturally in the narrative\n"
            "- Do NOT mention any specific rules or relationships yet\n"
            "- Keep it brief and atmospheric\n\nWrite only the introduction paragraph."
        )

    async def setup(self, ctx: StoryContext) -> None:
        t = self.theme
        ctx.names = entity_names(t, ctx.cnf.num_vars)
        ctx.legend = f" (true = {t.true_state}, false = {t.false_state})"
        ctx.value_words = {
            t.true_state.removeprefix("is ").removeprefix("a "): True,
            t.false_state.removeprefix("is ").removeprefix("a "): False,
        }
        words = {w.lower() for w in (t.true_state + " " + t.false_state).split()} - {"is", "a"}
        for a in range(ctx.cfg.attempts):
            msgs = [Message(role="user", content=self.intro_prompt(ctx.names))]
            r = await ask(
                ctx.writer,
                msgs,
                f"{ctx.key}:intro",
                max_tokens=ctx.cfg.max_tokens * 2,
                temperature=ctx.cfg.temperature,
                sample=a,
            )
            text, why = usable_reply(r, max_chars=2000)
            low = set(text.lower().replace(".", " ").replace(",", " ").split())
            if not why and re.search(r"\bUNSAT\b|\bSAT\b|[{}]", text):
                why = "introduction contains answer text"
            if not why and low & words:
                why = f"introduction already uses a state word ({sorted(low & words)[0]})"
            if not why:
                ctx.scene, ctx.scene_source = text, "llm"
                ctx.history = [*msgs, Message(role="assistant", content=text)]
                return
            ctx.scene_failures.append(why[:300])
        ctx.scene = t.template_intro
        ctx.history = [
            Message(role="user", content=self.intro_prompt(ctx.names)),
            Message(role="assistant", content=t.template_intro),
        ]

    def _clue_request(self, ctx: StoryContext, clause: list[int]) -> Message:
        rule = self.fallback_text(clause, ctx.names)
        return Message(
            role="user",
            content=(
                "Write the next clue: a short paragraph (two or three sentences) in the story "
                f"that expresses exactly this rule and nothing else:\n{rule}\n"
                "Do not reveal which possibility is true. Write only the paragraph."
            ),
        )

    def request(self, ctx: StoryContext, clause: list[int]) -> list[Message]:
        return [*ctx.history, self._clue_request(ctx, clause)]

    def accept(self, ctx: StoryContext, clause: list[int], text: str) -> None:
        """Keep the introduction and the last two accepted clues (the conversation's window)."""
        turn = [self._clue_request(ctx, clause), Message(role="assistant", content=text)]
        ctx.history = [*ctx.history[:2], *(ctx.history[2:] + turn)[-4:]]

    async def check(
        self, ctx: StoryContext, clause: list[int], text: str, key: str
    ) -> tuple[str, list[list[int]]]:
        """The two-step validator: entities, then the state of each."""
        from .judge import Judge

        k = len({abs(x) for x in clause})
        t = self.theme
        step1 = Judge(
            ctx.checker,
            {
                "type": "object",
                "properties": {
                    "entities": {"type": "array", "items": {"type": "string", "enum": ctx.names}}
                },
                "required": ["entities"],
            },
            f'From this clue, identify the {k} main entities being discussed.\nCLUE: "{text}"\n'
            f"AVAILABLE ENTITIES: {ctx.names}\nWhich {k} entities does this clue primarily "
            f"discuss? Give exactly {k} entity names.",
            retries=1,
            max_tokens=120,
        )
        res = await step1.ask("", key=f"{key}:entities")
        if res.verdict is None:
            return f"entity extraction unusable: {res.error}", []
        got = list(dict.fromkeys(res.verdict["entities"]))
        if len(got) != k:
            return f"entity extraction gave {len(got)} entities, the rule has {k}", []
        index = {n: i + 1 for i, n in enumerate(ctx.names)}
        lits = []
        for name in got:
            pos, neg = f"{name} {t.true_state}", f"{name} {t.false_state}"
            step2 = Judge(
                ctx.checker,
                {
                    "type": "object",
                    "properties": {"state": {"type": "string", "enum": [pos, neg]}},
                    "required": ["state"],
                },
                f'In this clue, which possibility does the rule name for {name}?\nCLUE: "{text}"\n'
                f'Answer "{pos}" or "{neg}".',
                retries=1,
                max_tokens=60,
            )
            r2 = await step2.ask("", key=f"{key}:state:{name}")
            if r2.verdict is None:
                return f"state extraction unusable for {name}: {r2.error}", []
            lits.append(index[name] * (1 if r2.verdict["state"] == pos else -1))
        return "", [sorted(lits, key=abs)]

    def fallback(self, ctx: StoryContext, clause: list[int]) -> str:
        return self.fallback_text(clause, ctx.names)

    def prompt(self, ctx: StoryContext, conditions: list[str]) -> str:
        t = self.theme
        body = "\n".join(f"{i}. {c}" for i, c in enumerate(conditions, start=1))
        return (
            f"{ctx.scene}\n\nEach of {_and(ctx.names)} {either(t.true_state, t.false_state)}; "
            f"nothing else is known.\n\nClues:\n{body}\n\n"
            "Can all of these clues hold at the same time?"
        )


def _and(names: list[str]) -> str:
    return names[0] if len(names) < 2 else f"{', '.join(names[:-1])} and {names[-1]}"


def either(true_state: str, false_state: str) -> str:
    """The two states as one predicate, its shared verb kept once.

    Example:
        >>> either("is guilty", "is innocent")
        'is either guilty or innocent'
        >>> either("attends the gala", "stays home")
        'either attends the gala or stays home'
    """
    a, b = true_state.split(" ", 1), false_state.split(" ", 1)
    if len(a) == 2 and len(b) == 2 and a[0] == b[0]:
        return f"{a[0]} either {a[1]} or {b[1]}"
    return f"either {true_state} or {false_state}"
