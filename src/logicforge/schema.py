"""The plain-data records written between stages (one JSON object per line).

* :class:`LabelledProblem` — ``problems.jsonl`` (generate)
* :class:`Item` — ``items.jsonl`` (render)
* :class:`Record` — ``records.jsonl`` (run, score)

Every file can be opened and read by a person; the field names are the project's vocabulary.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LabelledProblem(_Frozen):
    """A generated problem with its oracle label."""

    problem_id: str
    family: str
    kind: str  # problem kind, e.g. "cnf"
    params: dict[str, Any]
    seed: int
    spawn_key: list[int]
    problem: dict[str, Any]
    label: str
    oracle: dict[str, Any] = Field(default_factory=dict)  # solver name, statistics, model
    metadata: dict[str, Any] = Field(default_factory=dict)


class Message(_Frozen):
    role: Literal["system", "user", "assistant"]
    content: str


class Item(_Frozen):
    """One prompt with its gold answer, the name mapping to read answers back, and metadata."""

    item_id: str
    problem_id: str
    pair_id: str | None = None
    family: str
    kind: str
    params: dict[str, Any]
    seed: int
    transforms: list[str] = Field(default_factory=list)
    rendering: str
    messages: list[Message]
    gold: dict[str, Any]  # {"label": "SAT" | "UNSAT"}
    mapping: dict[str, int]  # display name -> DIMACS variable
    problem: dict[str, Any]
    answer_schema: dict[str, Any] | None = None  # JSON schema for structured output
    answer_format: str = ""  # how the answer is asked for and read back ("" = the kind's default)
    value_words: dict[str, bool] = Field(default_factory=dict)  # scheme words for true / false
    metadata: dict[str, Any] = Field(default_factory=dict)


class Usage(_Frozen):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None  # hidden or visible reasoning
    reasoning_source: str | None = None  # "usage" (the API said so) or the tokenizer that counted


class Answer(_Frozen):
    """What the parser read from a response.

    ``label`` is a member of the kind's label set: ``SAT`` / ``UNSAT`` for the binary kinds (a
    YES of a reduced problem is ``SAT``), the chosen option for multiple choice (``"C"``,
    ``"True"``, ``"Unknown"`` …), ``SAT`` (a grid) or ``UNSAT`` (no solution) for logic grids.
    ``None`` means no answer could be read (``parse_error`` says why).
    """

    label: str | None = None
    assignment: dict[int, bool] | None = None
    parse_error: str | None = None
    rule: str | None = None  # which parsing rule produced the decision
    unknown_names: list[str] = Field(default_factory=list)
    certificate: dict[str, Any] | None = None  # non-CNF witnesses: a cover, a placement …
    stats: dict[str, int] | None = (
        None  # solver-style counts a model reported (branches, conflicts)
    )

    @model_validator(mode="before")
    @classmethod
    def _legacy(cls, data: Any) -> Any:
        """Records written before ``label`` existed stored ``decision`` (and, for multiple
        choice, the option under ``certificate.choice``)."""
        cert0 = data.get("certificate") if isinstance(data, dict) else None
        legacy_choice = isinstance(cert0, dict) and "choice" in cert0
        if isinstance(data, dict) and "label" not in data and ("decision" in data or legacy_choice):
            data = dict(data)
            label = data.pop("decision", None)
            cert = data.get("certificate")
            if isinstance(cert, dict) and "choice" in cert:
                label = cert["choice"]
                rest = {k: v for k, v in cert.items() if k != "choice"}
                data["certificate"] = rest or None
            data.setdefault("label", label)
        return data


def answer_label(answer: dict[str, Any] | None) -> str | None:
    """The label of an answer as stored in a record (also records written before ``label``:
    their ``decision``, or for multiple choice ``certificate.choice``).

    Example:
        >>> answer_label({"label": "C"}), answer_label({"decision": "SAT", "certificate": {"choice": "B"}})
        ('C', 'B')
    """
    if not answer:
        return None
    if "label" in answer:
        return answer["label"]
    return Answer.model_validate(answer).label


class Verdict(_Frozen):
    correct: bool
    witness_valid: bool | None = None  # None when no witness is expected
    parse_failure: bool = False
    reason: str = ""
    score: float | None = (
        None  # partial credit where a kind defines it (zebra: fraction of cells right)
    )
    excluded: bool = False  # the gold label is unknown (solver time-out): not scored
    error_type: str | None = None  # rule-decided error class (see metrics.verdict)
    details: dict[str, Any] = Field(default_factory=dict)  # kind-specific checks (cited core …)


class Record(_Frozen):
    """item × model × sample → response, parsed answer and verdict."""

    record_id: str
    item_id: str
    model: str
    sample: int
    text: str | None = None
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_s: float | None = None
    attempts: int = 1
    cached: bool = False
    error: str | None = None
    answer: Answer | None = None
    verdict: Verdict | None = None
    meta: dict[str, Any] = Field(default_factory=dict)  # item columns for grouping
    # what produced the text: the model's configuration and the sampling (None: older records)
    config: dict[str, Any] | None = None
    extra: dict[str, Any] = Field(
        default_factory=dict
    )  # backend / strategy details (turns, best-of-n)


class ImportNote(_Frozen):
    """One thing an import said about one source (a file, or a row of a file)."""

    source: str
    message: str


class ImportLog(BaseModel):
    """What ``logicforge import`` read, kept, refused and noticed (``import_report.json``):
    nothing is dropped without a note here."""

    model_config = ConfigDict(extra="forbid")

    dataset: str
    sources: list[str] = Field(default_factory=list)
    read: int = 0  # files or rows seen
    imported: int = 0
    rejected: list[ImportNote] = Field(default_factory=list)  # unreadable: not imported
    unknown: list[ImportNote] = Field(default_factory=list)  # the solver timed out: excluded
    warnings: list[ImportNote] = Field(default_factory=list)  # imported, with something odd
    disagreements: list[dict[str, Any]] = Field(default_factory=list)  # declared ≠ proven

    def reject(self, source: str, message: str) -> None:
        self.rejected.append(ImportNote(source=source, message=message))

    def warn(self, source: str, message: str) -> None:
        self.warnings.append(ImportNote(source=source, message=message))

    def lines(self) -> list[str]:
        """One line per note, then the totals."""
        out = [f"rejected {n.source}: {n.message}" for n in self.rejected]
        out += [f"unknown {n.source}: {n.message}" for n in self.unknown]
        out += [f"warning {n.source}: {n.message}" for n in self.warnings]
        out += [
            f"disagreement {d['source']}: declared {d['declared']}, {d['found_by']} says "
            f"{d['found']}"
            for d in self.disagreements
        ]
        out.append(
            f"{self.dataset}: read {self.read}, imported {self.imported}, rejected "
            f"{len(self.rejected)}, unknown {len(self.unknown)}, warnings {len(self.warnings)}, "
            f"disagreements {len(self.disagreements)}"
        )
        return out
