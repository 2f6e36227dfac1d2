"""The contract every problem kind fulfils, and the answer formats it reads back.

A :class:`Kind` (``cnf``, ``coloring``, ``vc``, ``packing``, ``zebra``, ``deduction``, ``fol``)
names its label set, the report columns it is grouped by, and its answer formats. An
:class:`AnswerFormat` is how an answer is asked for and read back (``decision+assignment``,
``decision+conflict``, ``yes-no+cover``, ``choice``, ``grid`` …): ``parse(text) -> Answer``,
``to_text(answer) -> text`` (a whole reply) with ``parse(to_text(a)) == a``, ``check(item, answer) -> Verdict``
(semantic, never reads text), and the answers of the oracle, of a random guesser and a wrong
answer (used by the baselines and by the contract tests). An Item names its format
(``Item.answer_format``; empty means the kind's first one).

Nothing outside the kind modules branches on a kind's name: generic code asks the kind.

Example:
    >>> from logicforge.kinds import get_kind
    >>> k = get_kind("cnf")
    >>> k.labels, k.format("").metric_set
    (('SAT', 'UNSAT'), 'binary')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigError
from ..registry import KINDS
from ..schema import Answer, Item, Verdict

if TYPE_CHECKING:
    import numpy as np

MetricSet = Literal["binary", "choice", "grid", "certificate"]
"""Which metrics apply: ``binary`` (two labels: precision / recall / MCC / SAT-prediction rate /
witness validity / ADR), ``choice`` (one option of several: accuracy), ``grid`` (a filled grid:
accuracy and cell accuracy), ``certificate`` (a checked object — a core, a correction set, an
optimum: accuracy and the mean partial credit)."""

FINAL = "Final answer:\n"  # how the exact answers of the baselines begin

Parse = Callable[[str, list[dict[str, Any]], Item], Answer]  # (body, JSON objects, item)


def label_units(answer: Answer) -> list[Hashable]:
    """The default vote of an answer in majority voting: its label."""
    return [answer.label]


@dataclass(frozen=True)
class AnswerFormat:
    """How an answer is asked for and read back, and how it is checked.

    ``parse`` receives the reply with reasoning and echoed prompt lines removed and the JSON
    objects found in it; it returns an :class:`Answer` (``label`` None and ``parse_error`` set
    when nothing could be read). ``vote_units`` are what majority voting counts: the label, or a
    grid's cells (the answer whose units are most popular wins).
    """

    name: str
    metric_set: MetricSet
    parse: Parse
    to_text: Callable[[Answer, Item], str]
    check: Callable[[Item, Answer], Verdict]
    oracle: Callable[[Item], Answer]
    random: Callable[[Item, np.random.Generator], Answer]
    wrong: Callable[[Item], Answer]
    constant: Callable[[Item, str], Answer] | None = None  # always-<label> baselines (binary)
    vote_units: Callable[[Answer], list[Hashable]] = label_units
    # the answer a solver allowed at most N conflicts reaches, or None when the budget runs out
    # (the ``budget:N`` reference model; formats without one are refused by it)
    budgeted: Callable[[Item, int], Answer | None] | None = None
    # the training reward, when the format defines its own (partial: allow partial credit);
    # else the default rule of :func:`logicforge.metrics.reward.reward`
    reward: Callable[[Item, Answer, Verdict, bool], float] | None = None
    # what a checker can tell a model about a wrong answer (facts drawn from the solver, never
    # the solution), for multi-turn repair (:mod:`logicforge.kinds.feedback`); None: nothing
    feedback: Callable[[Item, Answer, Verdict], list[str]] | None = None
    # the gold labels an item in this format may carry, when they are the item's own (the
    # options of a multiple-choice question); None: the kind's labels
    item_labels: Callable[[Item], Sequence[str]] | None = None
    # asks a checkable justification of either answer (an assignment for SAT, cited conditions
    # or a refutation for UNSAT): the records that trace accuracy is measured over
    justified: bool = False
    # the labels whose right answers carry a certificate this format asks for and checks (an
    # assignment for SAT, a refutation or a core for UNSAT): the certified reward pays them only
    # with a checked certificate, and refuses an item whose gold label is not among them (its
    # prompt asks for no certificate). None: the answer is itself the object checked (a grid,
    # a solution, a core, one option of several) — there is nothing more to certify
    certifies: tuple[str, ...] | None = None
    # the answers of policies that ignore the problem (the board filled with one value, the
    # values in the order given), as (name, answer); None: the ``constant`` answer of each
    # label, bare and with a certificate of the right shape (binary), or each option (choice)
    constants: Callable[[Item], list[tuple[str, Answer]]] | None = None
    # certificates of the right shape that prove nothing (a refutation of tautologies, every
    # condition cited as a core), as (name, answer): the red team holds each at a reward of 0
    # even with partial credit (:func:`logicforge.metrics.redteam.forged`); None: none
    forgeries: Callable[[Item], list[tuple[str, Answer]]] | None = None
    # the probability that the ``random`` answer is right (an upper bound of its reward where a
    # certificate must check too); None: one over the number of labels
    chance: Callable[[Item], float] | None = None


@dataclass(frozen=True)
class Kind:
    """One problem kind. ``labels`` is empty when the labels are per item (the options of a
    multiple-choice question); ``default_renderer`` renders it when no renderer is named (the
    kind's name when empty); ``words_renderer`` / ``formal_renderer`` name its prompt in words
    and in formal notation; ``group_columns`` are record columns the report groups it by;
    ``exports`` maps an export format to a function of the problem data."""

    name: str
    labels: tuple[str, ...]
    formats: tuple[AnswerFormat, ...]
    default_renderer: str = ""  # what ``logicforge generate`` renders when no renderer is named
    # what the training paths render when no renderer is named: a prompt that asks for a
    # certificate of every label (the default renderer when empty)
    training_renderer: str = ""
    # the kind's prompt in words and its prompt in formal notation (a family of this kind can
    # be asked both ways; registering a family checks its kind names both)
    words_renderer: str = ""
    formal_renderer: str = ""
    group_columns: tuple[str, ...] = ()
    exports: dict[str, Callable[[dict[str, Any]], Any]] = field(default_factory=dict)
    # a key of the problem data up to the kind's symmetries (duplicates and train/test leakage);
    # kinds without one are compared by their exact data
    canonical: Callable[[dict[str, Any]], str] | None = None

    def format(self, name: str) -> AnswerFormat:
        """The answer format ``name`` ('' = the kind's default, its first)."""
        if not name:
            return self.formats[0]
        for f in self.formats:
            if f.name == name:
                return f
        raise ConfigError(
            "answer_format",
            name,
            f"kind {self.name!r} reads {', '.join(f.name for f in self.formats)}",
        )

    @property
    def renderer(self) -> str:
        return self.default_renderer or self.name

    @property
    def trainer(self) -> str:
        """The renderer training paths use when none is named."""
        return self.training_renderer or self.renderer

    @property
    def binary(self) -> bool:
        return len(self.labels) == 2


def register_kind(kind: Kind) -> Kind:
    KINDS.register(kind.name, kind)
    return kind


def get_kind(name: str) -> Kind:
    """The registered kind ``name`` (an :class:`~logicforge.errors.UnknownNameError` otherwise)."""
    k = KINDS.get(name)
    if not isinstance(k, Kind):  # pragma: no cover - a plug-in registered something else
        raise ConfigError("kind", name, "registered object is not a logicforge.kinds.Kind")
    return k


def answer_format(item: Item) -> AnswerFormat:
    """The answer format an Item asks for."""
    return get_kind(item.kind).format(item.answer_format)


def gold_labels(item: Item) -> tuple[str, ...]:
    """The gold labels ``item`` may carry: its own options for a multiple-choice format, else
    its kind's labels (empty when the kind or the format is not registered).

    Example:
        >>> import logicforge as lf
        >>> ps = lf.generate("zebra", {"n_houses": 2, "n_attributes": 2}, count=1, seed=0)
        >>> gold_labels(lf.render(ps, "zebra-mc")[0]), gold_labels(lf.render(ps, "zebra")[0])
        (('A', 'B'), ('SAT', 'UNSAT'))
    """
    f = format_of(item.kind, item.answer_format)
    if f is not None and f.item_labels is not None:
        return tuple(str(x) for x in f.item_labels(item))
    k = KINDS.find(item.kind)
    return tuple(getattr(k, "labels", ()))


def constant_answers(item: Item) -> list[tuple[str, Answer]]:
    """The answers of the policies that ignore ``item`` (see ``AnswerFormat.constants``).

    Example:
        >>> import logicforge as lf
        >>> it = lf.render(lf.generate("ksat/random", {"n_vars": 3}, count=1, seed=0))[0]
        >>> [name for name, _ in constant_answers(it)]
        ['always SAT', 'always SAT, bare', 'always UNSAT']
    """
    fmt = answer_format(item)
    if fmt.constants is not None:
        return fmt.constants(item)
    labels = gold_labels(item)
    if fmt.constant is None:
        return [(f"always {x}", Answer(label=x)) for x in labels]
    out = []
    for x in labels:
        a = fmt.constant(item, x)
        out.append((f"always {x}", a))
        if a.assignment or a.certificate:
            out.append((f"always {x}, bare", Answer(label=x)))
    return out


def chance_of(item: Item) -> float:
    """The probability that the random baseline's answer to ``item`` is right."""
    fmt = answer_format(item)
    if fmt.chance is not None:
        return float(fmt.chance(item))
    return 1.0 / max(1, len(gold_labels(item)))


def format_of(kind: str, fmt: str = "") -> AnswerFormat | None:
    """The answer format ``fmt`` of ``kind`` as named in a record's columns, or None when the
    kind or the format is not registered (records of a plug-in that is not installed)."""
    k = KINDS.find(kind)
    if not isinstance(k, Kind):
        return None
    try:
        return k.format(fmt or "")
    except ConfigError:
        return None


def metric_set(kind: str, fmt: str = "") -> MetricSet | None:
    """The metric set of (kind, format), or None when either is not registered."""
    f = format_of(kind, fmt)
    return None if f is None else f.metric_set


# -- shared pieces of the binary YES/NO formats (reductions, colouring) ------------------------


def yes_no_verdict(item: Item, answer: Answer, what: str, check: Callable[[Any], str]) -> Verdict:
    """The verdict of a YES/NO kind: the label against the gold label and, for YES, the
    certificate stored under ``what`` in ``answer.certificate``, checked by ``check`` ('' = valid)."""
    gold = item.gold.get("label")
    correct = answer.label == gold
    if answer.label != "SAT":
        return Verdict(correct=correct, reason="" if correct else f"said NO, gold {gold}")
    cert = (answer.certificate or {}).get(what)
    why = f"no {what} given" if cert is None else check(cert)
    reason = (
        ""
        if correct and not why
        else (f"{what} invalid: {why}" if correct else f"said YES, gold {gold}")
    )
    return Verdict(correct=correct, witness_valid=not why, reason=reason)


def yes_no_head(body: str, objs: list[dict[str, Any]]) -> tuple[Answer | None, str]:
    """The shared start of every YES/NO parser: the final Answer for NO or no verdict, or None
    (and the rule) when the reply says YES and its certificate still has to be read."""
    from ..parse.decision import parse_decision

    decision, rule = parse_decision(body, objs, vocab="yes-no")
    if decision is None:
        return Answer(parse_error=rule), rule
    if decision != "SAT":
        return Answer(label="UNSAT", rule=rule), rule
    return None, rule


def yes_no_format(
    name: str,
    what: str,
    parse: Parse,
    check: Callable[[Item, Answer], Verdict],
    oracle: Callable[[Item], Answer],
    empty: Callable[[Item], Any],
    budgeted: Callable[[Item, int], Answer | None] | None = None,
) -> AnswerFormat:
    """A YES/NO format with a certificate under ``what``: ``{"answer": "YES", what: …}``.
    ``empty`` gives a certificate of the right shape for the wrong and constant answers."""
    import json

    def to_text(a: Answer, item: Item) -> str:
        if a.label != "SAT":
            return FINAL + '{"answer": "NO"}'
        cert = (a.certificate or {}).get(what)
        return FINAL + json.dumps({"answer": "YES", **({what: cert} if cert is not None else {})})

    def random(item: Item, rng: np.random.Generator) -> Answer:
        return Answer(label="SAT") if rng.random() < 0.5 else Answer(label="UNSAT")

    def constant(item: Item, label: str) -> Answer:
        if label == "SAT":
            return Answer(label="SAT", certificate={what: empty(item)})
        return Answer(label="UNSAT")

    def wrong(item: Item) -> Answer:
        return constant(item, "UNSAT" if item.gold.get("label") == "SAT" else "SAT")

    return AnswerFormat(
        name, "binary", parse, to_text, check, oracle, random, wrong, constant,
        budgeted=budgeted, certifies=("SAT",),
    )  # fmt: skip


# -- the one multiple-choice format shape -------------------------------------------------------


def choice_format(
    parse: Parse,
    options: Callable[[Item], Sequence[str]],
    to_text: Callable[[Answer, Item], str] | None = None,
    name: str = "choice",
) -> AnswerFormat:
    """A multiple-choice format: the answer's label is one of ``options(item)`` and is right when
    it equals the gold label. ``to_text`` defaults to ``{"answer": label}``."""
    import json

    def check(item: Item, answer: Answer) -> Verdict:
        gold = item.gold.get("label")
        ok = answer.label == gold
        return Verdict(correct=ok, reason="" if ok else f"chose {answer.label}, gold {gold}")

    def default_text(a: Answer, item: Item) -> str:
        return FINAL + json.dumps({"answer": a.label})

    def oracle(item: Item) -> Answer:
        return Answer(label=str(item.gold["label"]))

    def random(item: Item, rng: np.random.Generator) -> Answer:
        opts = list(options(item))
        return Answer(label=opts[int(rng.integers(len(opts)))])

    def wrong(item: Item) -> Answer:
        return Answer(label=next(o for o in options(item) if o != item.gold.get("label")))

    return AnswerFormat(
        name,
        "choice",
        parse,
        to_text or default_text,
        check,
        oracle,
        random,
        wrong,
        item_labels=options,
    )
