"""The suite format, validated before any work (:func:`load_suite`); running it is
:mod:`.suite`, its problems :mod:`.problems`.

A suite is YAML (loaded safely; unknown keys are errors that name the key)::

    name: twosat-order
    description: construction order vs shuffled, paired per formula
    seed: 0
    problems:                    # generation blocks
      - family: 2sat/implication-cycle
        params: {imbalance: 0.5}
        grid: {n_clauses: [20, 50]}  # every combination
        sweep: [imbalance]           # or: one knob at a time over `levels`, others from params
        levels: [0, 0.2, 0.5]
        count: 10
    variants:                    # each problem is also rendered through each transform chain
      - {name: construction, transforms: []}
      - {name: shuffled, transforms: [shuffle]}
    renderers: [logic, team]
    models: [oracle, always-sat]
    sampling: {max_tokens: 1024}
    table: [family, n_clauses]   # rows of the summary table

Problems carry ``sweep_knob`` / ``sweep_level`` (sweeps), ``variant`` and ``source_problem_id``
(variants) in their metadata, so the report can test levels (Friedman + BH) and variants (paired
t-tests per formula).
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ConfigError, did_you_mean
from ..registry import FAMILIES, RENDERERS

SHIPPED = "logicforge.suites"


MAX_SUITE_BYTES = 1_000_000


class _NoAliasLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses aliases (``*name``): a few nested aliases expand a 1 KB
    file into gigabytes (the "billion laughs"), and no suite needs them."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.YAMLError(
                f"aliases (*{self.peek_event().anchor}) are not allowed in suite files "
                f"(line {mark.line + 1}); write the value out"
            )
        return super().compose_node(parent, index)


class _Strict(BaseModel):
    # strict: "false" is not False, "5" is not 5, true is not 1 (YAML already gives real types)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ProblemBlock(_Strict):
    family: str
    params: dict[str, Any] = Field(default_factory=dict)
    grid: dict[str, list[Any]] = Field(default_factory=dict)
    sweep: list[str] = Field(default_factory=list)
    levels: list[float] = Field(default_factory=lambda: [0.0, 0.2, 1 / 3, 0.5, 2 / 3, 0.8, 1.0])
    # levels of particular swept knobs, categorical ones included (orientation: [positive, negative])
    knob_levels: dict[str, list[float | str]] = Field(default_factory=dict)
    # metadata every problem of the block carries (e.g. {difficulty: 0.2}), for grouping
    tags: dict[str, float | int | str] = Field(default_factory=dict)
    # the suite variants this block's problems go through (default: every variant)
    variants: list[str] | None = None
    count: int = Field(10, ge=1, le=1_000_000)
    pair: bool = False  # add each source's minimally different twin of the opposite label
    max_candidates: int = Field(4000, ge=1)
    max_deletions: int = Field(1, ge=1)  # > 1 opts in to multi-clause deletions (tagged, counted)
    # a generated source with no twin is replaced by the point's next source (the ADR paper's
    # fixed number of pairs per N), at most replace_limit × count sources drawn per point
    replace_skipped: bool = True
    replace_limit: int = Field(20, ge=1, le=1000)
    # operator edits (ordering, folio): cumulative chains, individual preserving / altering, or all
    edits: Literal["cumulative", "individual", "all"] | None = None
    # a data file instead of a generator: family folio (FOLIO-format JSONL) or ordering
    # (LogicalDeduction questions); a relative path is read under $LOGICFORGE_DATA (default: .)
    data: str | None = None
    # AR-LSAT: questions without a valid program get one from the suite's story writer (the
    # symbolic-edits paper's translation step, up to 8 samples at temperature 0.7)
    formalise: bool = False


class Variant(_Strict):
    name: str
    transforms: list[str] = Field(default_factory=list)
    # how the variant is tested against the suite's first variant: paired per source formula
    # (the default where they share formulas) or independent (the 2-SAT paper's §5.4 tests
    # 50 clauses against each repetition variant independently)
    compare: Literal["paired", "independent"] | None = None


class StoryBlock(_Strict):
    """How story renderers write: the writer model, the checker (default: the writer), attempts
    per condition before the template, the writer's budget, the error-aware prompt."""

    writer: str
    checker: str | None = None
    attempts: int = 3
    max_tokens: int = 200
    temperature: float = 0.7
    aware: bool = False
    llm_check: bool = False  # SATBench's whole-puzzle LLM consistency check (second opinion)
    # discard (the default, as SATBench does): a story that fails validation is dropped and
    # counted; template — by name — keeps it with the template sentences (the 2-SAT paper's way)
    on_failure: Literal["template", "discard"] = "discard"
    concurrency: int = Field(4, ge=1, le=256)

    def config(self) -> Any:
        """The :class:`~logicforge.llm.story.StoryConfig` this block describes (validated)."""
        from ..llm.story import StoryConfig

        return StoryConfig(
            self.attempts,
            self.max_tokens,
            self.temperature,
            self.aware,
            self.llm_check,
            self.on_failure,
        )


class Headline(_Strict):
    """The report's first screen: a table by file name, a figure by the start of its file name,
    and the metric its sentence reads."""

    table: str | list[str] | None = None  # several: the first the report has
    figure: str | None = None
    metric: str | None = None


class Suite(_Strict):
    # the shipped suites' name pattern: the default output folder is runs/<name>
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,99}$")
    description: str = ""
    paper_scale: str = (
        ""  # the paper's own scale for what the suite reproduces (the overview says it)
    )
    seed: int = 0
    problems: list[ProblemBlock]
    variants: list[Variant] = Field(default_factory=lambda: [Variant(name="base")])
    renderers: list[str] = Field(default_factory=lambda: ["formula"])
    models: list[str] = Field(default_factory=lambda: ["oracle"])
    sampling: dict[str, Any] = Field(default_factory=dict)
    samples: int = Field(1, ge=1, le=1024)  # samples per item (pass@k, majority voting)
    # samples for the models whose spec starts with a key (the longest matching key wins), e.g.
    # {"selfverify:": 1} where the model itself runs `samples` times for best-of-n
    model_samples: dict[str, int] = Field(default_factory=dict)
    # every model (the suite's, or those given with --model) expanded through these specs, with
    # "{model}" standing for it — one command for a table whose rows wrap one model several ways
    model_templates: list[str] = Field(default_factory=list)
    table: list[str] = Field(default_factory=lambda: ["family"])
    story: StoryBlock | None = None  # needed by the story renderers (story, story-spy, …)
    # renderers added when a story writer is given (`--writer W`): a paper measured on stories
    # runs them beside its formula arms
    with_writer: list[str] = Field(default_factory=list)
    analyses: list[str] | None = None  # the report's analyses (default: all that apply)
    headline: Headline | None = None  # the report's first screen (default: reports/headline.py)

    def samples_for(self, model: str) -> int:
        """How many samples per item ``model`` runs (:attr:`model_samples`, else :attr:`samples`).

        Example:
            >>> s = Suite(name="x", problems=[], samples=8, model_samples={"selfverify:": 1})
            >>> s.samples_for("selfverify:1:none:random"), s.samples_for("random")
            (1, 8)
        """
        keys = [k for k in self.model_samples if model.startswith(k)]
        return self.model_samples[max(keys, key=len)] if keys else self.samples

    def with_blocks(self, **update: Any) -> Suite:
        """This suite with ``update`` applied to every problem block — a smaller run of the same
        design (``count``, ``grid``), as ``logicforge suite NAME --count N`` does.

        Example:
            >>> s = load_suite("twosat-table1").with_blocks(count=2)
            >>> {b.count for b in s.problems}
            {2}
        """
        return self.model_copy(
            update={"problems": [b.model_copy(update=update) for b in self.problems]}
        )

    def validate_names(self) -> None:
        """Check every family, renderer, transform, model, sampling key and analysis before any
        work."""
        from ..models.base import Sampling, load_model
        from ..transforms.base import check_spec

        if self.analyses is not None:
            from ..reports.analysis import select

            select(self.analyses)

        for b in self.problems:
            if b.data is not None:
                from ..registry import DATASETS

                if b.family not in DATASETS:
                    raise ConfigError(
                        "problems.family",
                        b.family,
                        f"data files load {', '.join(DATASETS.names())}",
                    )
                if b.formalise and not getattr(DATASETS.get(b.family), "formalisable", False):
                    raise ConfigError("problems.formalise", True,
                                      f"{b.family} data cannot be formalised by a writer")  # fmt: skip
            if b.formalise and (b.data is None or self.story is None):
                raise ConfigError(
                    "problems.formalise",
                    True,
                    "translates data questions with the `story:` block's writer: give both",
                )
            if b.data is not None:
                continue  # the file is looked up when the suite runs, before any work
            FAMILIES.get(b.family)
            names = [v.name for v in self.variants]
            for vname in b.variants or ():
                if vname not in names:
                    raise ConfigError("problems.variants", vname, f"choose from {', '.join(names)}")
            for k in b.knob_levels:
                if k not in b.sweep:
                    raise ConfigError(
                        "problems.knob_levels", k, f"is not swept; the block sweeps {b.sweep}"
                    )
        for r in self.renderers:
            if getattr(RENDERERS.get(r), "needs_writer", False) and self.story is None:
                raise ConfigError(
                    "renderers", r, "is written by an LLM: add a `story:` block with a writer model"
                )
        edits = any(b.edits and b.data for b in self.problems)  # text from data, not templates
        for r in self.renderers:
            bt = getattr(RENDERERS.get(r), "needs_backtranslation", False)
            if bt and edits and self.story is None:
                raise ConfigError(
                    "renderers",
                    r,
                    "edited sentences are back-translated by an LLM: add a `story:` block "
                    "with a writer model",
                )
        if self.story is not None:
            self.story.config()
            load_model(self.story.writer)
            if self.story.checker:
                load_model(self.story.checker)
        for v in self.variants:
            for spec in v.transforms:
                check_spec(spec, "variants.transforms")
        for m in self.models:
            load_model(m)
        try:
            Sampling(**self.sampling)
        except TypeError as e:
            raise ConfigError("sampling", self.sampling, str(e)) from None
        except ConfigError as e:
            raise ConfigError(f"sampling.{e.field}", e.value, str(e).split(" — ", 1)[-1]) from None


def list_suites() -> list[str]:
    return sorted(
        p.name[:-5] for p in resources.files(SHIPPED).iterdir() if p.name.endswith(".yaml")
    )


def _models_in(annotation: Any) -> list[Any]:
    """The pydantic models an annotation names (``Block``, ``list[Block]``, ``Block | None`` …)."""
    if hasattr(annotation, "model_fields"):
        return [annotation]
    return [m for a in getattr(annotation, "__args__", ()) for m in _models_in(a)]


def _key_hint(loc: tuple[Any, ...]) -> str:
    """For an unknown key at ``loc`` in a suite: the keys allowed there, the closest first."""
    model: Any = Suite
    for part in loc[:-1]:  # walk down to the model that holds the key
        if isinstance(part, int):
            continue
        field = getattr(model, "model_fields", {}).get(part)
        inner = _models_in(field.annotation) if field is not None else []
        if not inner:
            return ""
        model = inner[0]
    known = sorted(getattr(model, "model_fields", {}))
    return f" — {did_you_mean(str(loc[-1]), known, n=2)}allowed here: {', '.join(known)}"


def load_suite(name_or_path: str | Path, writer: str | None = None, **overrides: Any) -> Suite:
    """Load a shipped suite by name or a YAML file by path; ``overrides`` replace top-level keys
    and ``writer`` the story block's writer model (adding the block if the suite has none).

    Example:
        >>> load_suite("twosat-table1").name
        'twosat-table1'
    """
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise ConfigError("suite", str(p), f"cannot read it ({e.strerror})") from None
    else:
        f = resources.files(SHIPPED) / f"{name_or_path}.yaml"
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", str(name_or_path)) or not f.is_file():
            hint = did_you_mean(str(name_or_path), list_suites())
            raise ConfigError(
                "suite",
                str(name_or_path),
                f"no such suite; {hint}shipped: {', '.join(list_suites())}",
            )
        text = f.read_text(encoding="utf-8")
    if len(text) > MAX_SUITE_BYTES:
        raise ConfigError("suite", str(name_or_path), f"over {MAX_SUITE_BYTES:,} characters")
    try:
        data = yaml.load(text, Loader=_NoAliasLoader)  # noqa: S506 - a SafeLoader without aliases
    except yaml.YAMLError as e:
        raise ConfigError("suite", str(name_or_path), f"not valid YAML ({str(e)[:300]})") from None
    if not isinstance(data, dict):
        raise ConfigError("suite", str(name_or_path), "must be a YAML mapping")
    data.update({k: v for k, v in overrides.items() if v is not None})
    templates = data.get("model_templates")
    if templates and isinstance(templates, list) and isinstance(data.get("models"), list):
        if not all(isinstance(t, str) and "{model}" in t for t in templates):
            raise ConfigError("model_templates", templates, 'each must contain "{model}"')
        data["models"] = [t.replace("{model}", str(m)) for m in data["models"] for t in templates]
        data["model_templates"] = []  # expanded once: the suite as loaded names every model
    if writer is not None:
        data["story"] = {**(data.get("story") or {}), "writer": writer}
        if overrides.get("renderers") is None and isinstance(data.get("renderers"), list):
            extra = [r for r in data.get("with_writer") or [] if r not in data["renderers"]]
            data["renderers"] = [*data["renderers"], *extra]
    try:
        suite = Suite.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(map(str, err["loc"]))
        msg = err["msg"]
        if err.get("type") == "extra_forbidden":  # a misspelt key: name the ones it could be
            msg += _key_hint(err["loc"])
        raise ConfigError(where, err.get("input"), msg) from None
    suite.validate_names()
    return suite


def planned_size(suite: Suite) -> int | None:
    """Problems the suite's generator blocks ask for, before pairing and edits (which add twins
    and edit levels) and variants; None when a block reads a data file.

    Example:
        >>> planned_size(load_suite("twosat-order"))
        40
    """
    from ..families.base import expand_grid

    total = 0
    for b in suite.problems:
        if b.data is not None:
            return None
        points = len(expand_grid(b.params, b.grid))
        levels = sum(len(b.knob_levels.get(k, b.levels)) for k in b.sweep)
        total += b.count * points * (levels if b.sweep else 1)
    return total
