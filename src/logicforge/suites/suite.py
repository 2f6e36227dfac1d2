"""The suite format and runner.

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

import functools
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import CertificationError, ConfigError, did_you_mean
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


def _count_discards(out: Path, renderer: str, asked: int, kept: int) -> None:
    """Stories that failed validation and were discarded: ``story-discards-<renderer>.json``
    and a line on stderr (never silent)."""
    import json
    import sys

    dropped = asked - kept
    (out / f"story-discards-{renderer}.json").write_text(
        json.dumps(
            {
                "renderer": renderer,
                "problems": asked,
                "kept": kept,
                "discarded": dropped,
                "discard_rate": round(dropped / asked, 4) if asked else None,
            },
            indent=1,
        )
        + "\n"
    )
    if dropped:
        print(
            f"logicforge: {dropped} of {asked} stories for renderer {renderer!r} discarded: they "
            f"failed validation (story-discards-{renderer}.json)",
            file=sys.stderr,
        )


def empty_story_arms(out: str | Path) -> list[str]:
    """What a finished suite lacks because every story of a renderer was discarded (its
    comparison of formulas and stories has no stories): one line per such renderer."""
    import json

    lines = []
    for f in sorted(Path(out).glob("story-discards-*.json")):
        d = json.loads(f.read_text(encoding="utf-8"))
        if d.get("problems") and not d.get("kept"):
            lines.append(
                f"all {d['problems']} stories for renderer {d['renderer']!r} failed validation "
                f"and were discarded ({f.name}): no story item was run, so nothing compares "
                "formulas with stories — use a stronger --writer, or on_failure: template"
            )
    return lines


def _write_label_disagreements(out: Path, problems: list[Any]) -> None:
    """``label-disagreements.json``: the data rows whose gold (the dataset's label) a solver
    re-labels otherwise (``metadata["z3_label"]``), once per row; nothing when none does."""
    import json

    rows = {
        p.problem_id: {"problem_id": p.problem_id, "dataset_label": p.label,
                       "z3_label": p.metadata["z3_label"]}
        for p in problems
        if p.metadata.get("z3_label") not in (None, p.label) and not p.metadata.get("edit_level")
    }  # fmt: skip
    path = out / "label-disagreements.json"
    if rows:
        path.write_text(json.dumps(list(rows.values()), indent=1) + "\n", encoding="utf-8")
    elif path.exists():
        path.unlink()


def _tagged(b: ProblemBlock, probs: list[Any]) -> list[Any]:
    if not b.tags:
        return probs
    return [p.model_copy(update={"metadata": p.metadata | b.tags}) for p in probs]


def _paired(b: ProblemBlock, bi: int, probs: list[Any], notes: list[dict[str, Any]]) -> list[Any]:
    """With ``pair: true``, each source and its minimally different twin (sources without one
    are skipped and counted in ``notes``)."""
    if not b.pair:
        return probs
    from ..transforms.pair import make_pairs

    out, skipped = make_pairs(probs, max_candidates=b.max_candidates, max_deletions=b.max_deletions)
    notes.append({"block": bi, "family": b.family, "pairs": len(out) // 2, "skipped": skipped})
    return out


def _annotated(tags: list[dict[str, Any]], p: Any, extra: dict[str, Any] | None = None) -> Any:
    """A generated problem with its point's sweep tags and its place in the point's stream (the
    block's first sources and their replacements alike)."""
    meta = p.metadata | tags[p.spawn_key[0]] | {"formula_index": p.spawn_key[1]}
    return p.model_copy(update={"metadata": meta | (extra or {})})


def _paired_replaced(
    b: ProblemBlock,
    bi: int,
    probs: list[Any],
    points: list[dict[str, Any]],
    count: int,
    seed: int,
    notes: list[dict[str, Any]],
    annotate: Any,
) -> list[Any]:
    """With ``pair: true`` on a generated block, each point's sources and their twins; a source
    without a twin is replaced by the point's next source (items ``count``, ``count + 1``, … of
    its stream) until the point has ``count`` pairs or ``replace_limit`` × ``count`` sources
    were drawn — so every point has the pairs asked for and the kept pairs are not a selection
    of the sources that happened to have a twin. ``notes`` gets one entry per point: pairs,
    skipped sources and replacements drawn. ``annotate(problem, extra)`` gives a replacement
    the metadata the block's first sources have."""
    from ..families.base import generate_range
    from ..transforms.pair import make_pairs

    kw = {"max_candidates": b.max_candidates, "max_deletions": b.max_deletions}
    by_point: dict[int, list[Any]] = {}
    for p in probs:
        by_point.setdefault(p.spawn_key[0], []).append(p)
    out: list[Any] = []
    for j, pt in enumerate(points):
        pairs, skipped = make_pairs(by_point.get(j, []), **kw)
        drawn = count
        while b.replace_skipped and len(pairs) < 2 * count and drawn < b.replace_limit * count:
            more = generate_range(b.family, pt, j, drawn, drawn + 1, seed)
            drawn += 1
            got, miss = make_pairs([annotate(q, {"replacement": True}) for q in more], **kw)
            pairs += got
            skipped += miss
        where = {k: pt[k] for k in b.grid} if b.grid else {}
        notes.append(
            {"block": bi, "family": b.family, "point": where, "pairs": len(pairs) // 2,
             "skipped": skipped, "replacements": drawn - count}
        )  # fmt: skip
        out += pairs
    return out


def expand_problems(
    suite: Suite,
    notes: list[dict[str, Any]] | None = None,
    *,
    sample: int | None = None,
    weights: list[float] | None = None,
    workers: int = 1,
) -> list[Any]:
    """Generate every problem of the suite (sweeps annotated, pairs made) and apply each variant;
    pairing counts (pairs, skipped sources) are appended to ``notes``.

    With ``sample`` (a dry run), each block makes at most ``sample`` problems per parameter
    point (a data block its first ``sample`` rows) and skips the family's measurement-only
    parameters (:attr:`Family.measures`); ``weights`` then receives, per returned problem, how
    many problems of the full suite it stands for. The sampled problems are those the full
    suite makes first, so their text is the text a run sends. ``workers`` processes generate
    the problems (the same ones as a single process makes)."""
    from ..families.base import expand_grid, generate_problems
    from ..rng import child_seed

    base: list[Any] = []
    only: list[list[str] | None] = []  # per problem: the variants its block allows
    stands: list[float] = []  # per problem: the problems of the full suite it stands for
    notes = [] if notes is None else notes
    for bi, b in enumerate(suite.problems):
        before = len(base)
        seed = child_seed(
            suite.seed, 0x5B1, bi
        )  # each block its own root, stable under edits elsewhere
        if b.data is not None:
            probs, w = _data_block(b, sample, suite)
            base += _tagged(b, _paired(b, bi, probs, notes))
            only += [b.variants] * (len(base) - before)
            stands += [w] * (len(base) - before)
            continue
        count, params = b.count, dict(b.params)
        if sample is not None:
            count = min(b.count, sample)
            fam = FAMILIES.get(b.family)
            for m in getattr(fam, "measures", ()):
                params.pop(m, None)
        if b.sweep:
            points, tags = [], []
            for knob in b.sweep:
                for lv in b.knob_levels.get(knob, b.levels):
                    for pt in expand_grid({**params, knob: lv}, b.grid):
                        points.append(pt)
                        where = ", ".join(f"{k}={pt[k]}" for k in b.grid)  # the grid point
                        level = lv if isinstance(lv, str) else round(float(lv), 6)
                        tags.append(
                            {"sweep_knob": knob, "sweep_level": level}
                            | ({"sweep_point": where} if where else {})
                        )
        else:
            points = expand_grid(params, b.grid)
            tags = [{} for _ in points]

        annotate = functools.partial(_annotated, tags)
        probs = [
            annotate(p) for p in generate_problems(b.family, points, count, seed, workers=workers)
        ]
        if b.pair:
            probs = _paired_replaced(b, bi, probs, points, count, seed, notes, annotate)
        if b.edits:
            from ..transforms.edits import cumulative, expand, individual

            probs = [q for p in probs for q in expand(p, b.edits, cumulative, individual)]
        base += _tagged(b, probs)
        only += [b.variants] * (len(base) - before)
        stands += [b.count / count if count else 0.0] * (len(base) - before)
    from ..transforms.base import apply_spec, parse_transform_spec

    out = []
    for v in suite.variants:
        for p, allowed, w in zip(base, only, stands, strict=True):
            if allowed is not None and v.name not in allowed:
                continue
            if weights is not None:
                weights.append(w)
            q = p
            for spec in v.transforms:
                # reduce changes representation: cnf → vc / packing, coloring → cnf
                q = apply_spec(q, *parse_transform_spec(spec))
            meta = q.metadata | {"variant": v.name, "source_problem_id": p.problem_id}
            if v.compare is not None:
                meta["variant_test"] = v.compare
            pid = (
                q.problem_id
                if v.transforms
                else f"{p.problem_id}@{v.name}"
                if len(suite.variants) > 1
                else p.problem_id
            )
            out.append(q.model_copy(update={"metadata": meta, "problem_id": pid}))
    return out


def data_path(p: str) -> Path:
    """A data file or folder named in a suite: absolute, or relative to the data folder
    (:mod:`logicforge.datadir`: ``$LOGICFORGE_DATA``, else ``~/.local/share/logicforge``)."""
    from ..datadir import LAYOUT, data_root, resolve

    if p.startswith("data:"):
        return resolve(p)
    path = Path(p) if Path(p).is_absolute() else data_root() / p
    if not path.exists():
        raise ConfigError(
            "problems.data",
            p,
            f"no such file ({path}); put the public benchmark files in the data folder "
            f"({LAYOUT}) or set LOGICFORGE_DATA to the folder that holds them",
        )
    return path


def translation_requests(suite: Suite) -> list[str]:
    """The writer's translation prompts for the suite's ``formalise`` blocks, each sent at most
    :class:`~logicforge.llm.formalise_lsat.FormaliseConfig` ``attempts`` times: one per
    question without a valid program among each block's first ``count`` (a dry run's count is
    exact: reading the questions sends nothing)."""
    from ..families.base import Dataset
    from ..llm.formalise_lsat import requests_planned
    from ..registry import DATASETS

    out: list[str] = []
    for b in suite.problems:
        ds = DATASETS.get(b.family)
        if b.formalise and b.data is not None and isinstance(ds, Dataset):
            out += requests_planned(ds.load(data_path(str(b.data)))[: b.count])
    return out


def _data_block(
    b: ProblemBlock, sample: int | None = None, suite: Suite | None = None
) -> tuple[list[Any], float]:
    """The problems of a data block (first ``count``; with ``sample``, only the first
    ``sample`` of those), formalised by the suite's writer where the block asks (not in a dry
    run), expanded by its edits, and how many rows each row read stands for."""
    from ..families.base import Dataset
    from ..registry import DATASETS

    ds = DATASETS.get(b.family)
    if not isinstance(ds, Dataset):
        raise ConfigError("problems.family", b.family, "is not a dataset reader")
    probs = ds.load(data_path(str(b.data)))[: b.count]
    w = 1.0
    if sample is not None and len(probs) > sample:
        w, probs = len(probs) / sample, probs[:sample]
    if b.formalise and sample is None and suite is not None and suite.story is not None:
        import sys

        from ..llm.formalise_lsat import formalise

        probs, st = formalise(probs, suite.story.writer)
        print(
            f"logicforge: {st.valid} of {st.asked} questions without a valid program got one "
            f"from {suite.story.writer} ({st.samples} samples)",
            file=sys.stderr,
        )
    if not b.edits:
        return list(probs), w
    if ds.cumulative is None:
        raise ConfigError("problems.edits", b.edits, f"{b.family} data has no operator edits")
    from ..transforms.edits import expand

    return [q for p in probs for q in expand(p, b.edits, ds.cumulative, ds.individual)], w


def _backtranslated(suite: Suite, problems: list[Any], out: Path) -> list[Any]:
    """Edited data-backed problems with verified sentences (``backtranslated-<kind>.jsonl``,
    reused on a rerun; statistics in ``backtranslation-<kind>.json``)."""
    import json

    from ..api import load_problems
    from ..llm.backtranslate import BackTranslateConfig, backtranslate
    from ..runner.store import write_jsonl

    kind = problems[0].kind
    path = out / f"backtranslated-{kind}.jsonl"
    if path.exists():
        return load_problems(path)
    st = suite.story
    if st is None:
        raise CertificationError(
            "certification failed: validated before work: back-translation needs a writer"
        )
    kept, stats = backtranslate(
        problems,
        st.writer,
        st.checker,
        BackTranslateConfig(st.attempts, st.max_tokens, st.temperature, st.concurrency),
    )
    (out / f"backtranslation-{kind}.json").write_text(json.dumps(stats.to_json(), indent=1) + "\n")
    write_jsonl(path, kept)
    if stats.dropped:  # never silent: say how many edited problems did not survive
        import sys

        print(
            f"logicforge: {stats.dropped} of {len(problems)} edited {kind} problems dropped: no "
            f"sentence passed the back-translation check (see backtranslation-{kind}.json)",
            file=sys.stderr,
        )
    return kept


def _no_backtranslation(problems: list[Any], out: Path) -> None:
    """``backtranslation-<kind>.json`` for a run whose data gave no edited problem."""
    import json

    from ..llm.backtranslate import BackTranslateStats

    path = out / f"backtranslation-{problems[0].kind}.json"
    if not path.exists():
        path.write_text(json.dumps(BackTranslateStats().to_json(), indent=1) + "\n")


def _held(out: Path) -> list[dict[str, Any]]:
    """The records already in ``out`` (a torn last line, from a killed run, is resumed)."""
    from ..runner.store import read_jsonl

    path = out / "records.jsonl"
    return list(read_jsonl(path, allow_torn_tail=True)) if path.is_file() else []


def _check_models_in(out: Path, suite: Suite, held: list[dict[str, Any]]) -> None:
    """Refuse an ``--out`` whose records include models this invocation does not run: every
    table, the headline and the report's "Reproduce" line would mix them in."""
    from ..models.base import load_model

    ours = {load_model(m).name for m in suite.models}
    other = sorted({str(r.get("model")) for r in held} - ours)
    if other:
        raise ConfigError(
            "--out",
            str(out),
            f"holds records of {', '.join(map(repr, other))}, which this run does not name; "
            "its report would mix them in — use another --out, or name "
            f"{'them' if len(other) > 1 else 'it'} too ({' '.join('--model ' + m for m in other)})",
        )


def _check_records_in(
    out: Path, suite: Suite, problems: Sequence[Any], held: list[dict[str, Any]]
) -> None:
    """Refuse an ``--out`` whose records answer problems or renderings this suite does not make
    (another suite, count, seed or parameters wrote them): resuming would mix two runs."""
    if not held:
        return
    ids = {p.problem_id for p in problems}
    renderings = set(suite.renderers)
    foreign = [
        r
        for r in held
        if (r.get("meta") or {}).get("problem_id") not in ids
        or (r.get("meta") or {}).get("rendering") not in renderings
    ]
    if foreign:
        m = foreign[0].get("meta") or {}
        raise ConfigError(
            "--out",
            str(out),
            f"holds {len(foreign)} of its {len(held)} records for problems or renderings this "
            f"run of {suite.name!r} does not make (e.g. {m.get('problem_id')} as "
            f"{m.get('rendering')}): another suite or configuration wrote them, and resuming "
            "would mix the two — use another --out (a larger --count of the same suite resumes)",
        )


def run_suite(
    suite: Suite,
    out: str | Path,
    *,
    concurrency: int = 8,
    progress: bool = True,
    cache: bool = True,
    command: str | None = None,
    summary: dict[str, Any] | None = None,
    workers: int = 1,
) -> Path:
    """Generate, render, run every model and write the report; resumable (rerun to continue).

    ``command`` is the report's "Reproduce" line (default: the suite by name); ``summary``, when
    given, receives each model's run counts (done, errors, their first messages, cached);
    ``workers`` processes generate the problems (the same problems as one, faster)."""
    from .. import api
    from ..models.base import Sampling
    from ..runner.store import write_jsonl

    out = Path(out)
    held = _held(out)  # the records already there, read once for both checks
    _check_models_in(out, suite, held)  # before any work
    notes: list[dict[str, Any]] = []
    problems = expand_problems(suite, notes, workers=workers)
    _check_records_in(out, suite, problems, held)  # before anything in the folder is rewritten
    before = (out / "problems.jsonl").read_bytes() if (out / "problems.jsonl").is_file() else None
    write_jsonl(out / "problems.jsonl", problems)
    if progress:  # say whether this run works on the problems already there
        import sys

        same = before == (out / "problems.jsonl").read_bytes()
        what = (
            "generated"
            if before is None
            else "regenerated, identical to those on disk (same seed): finished records are reused"
            if same
            else "regenerated and DIFFERENT from those on disk (the suite changed): items that "
            "are unchanged keep their records, the others are run"
        )
        print(f"{suite.name}: {len(problems)} problems {what}", file=sys.stderr)
    if notes:
        import json

        (out / "pairing.json").write_text(json.dumps(notes, indent=1) + "\n")
    _write_label_disagreements(out, problems)
    from ..llm.backtranslate import needs_backtranslation
    from ..renderers.base import get_renderer

    items = []
    for r in suite.renderers:  # each renderer renders the problems of its own kind
        kind = get_renderer(r).kind
        ps = [p for p in problems if p.kind == kind]
        if getattr(RENDERERS.get(r), "needs_writer", False) and suite.story is not None:
            from ..runner.narrate import narrate

            st = suite.story
            written = narrate(
                ps,
                r,
                writer=st.writer,
                checker=st.checker,
                cfg=st.config(),
                out=out / f"stories-{r}.jsonl",  # resumable: a rerun keeps finished stories
                concurrency=st.concurrency,
                progress=progress,
            )
            items += written
            if st.on_failure == "discard":
                _count_discards(out, r, len(ps), len(written))
        elif getattr(RENDERERS.get(r), "needs_backtranslation", False) and any(
            needs_backtranslation(p) for p in ps
        ):
            items += api.render(_backtranslated(suite, ps, out), r)
        elif getattr(RENDERERS.get(r), "needs_backtranslation", False) and any(
            p.metadata.get("edit_level") == 0 for p in ps
        ):  # edits asked for, none found: say so (0 sentences) rather than write nothing
            _no_backtranslation(ps, out)
            items += api.render(ps, r)
        else:
            items += api.render(ps, r)
    write_jsonl(out / "items.jsonl", items)
    sampling = Sampling(**suite.sampling)
    for m in suite.models:
        counts = api.run(
            items,
            m,
            out / "records.jsonl",
            sampling=sampling,
            samples=suite.samples_for(m),
            concurrency=concurrency,
            progress=progress,
            cache_path=(out / "cache.sqlite") if cache else None,
            manifest=False,  # the suite's own manifest (written by `logicforge suite`)
        )
        if summary is not None:
            summary[m] = counts
    return api.report(
        out / "records.jsonl",
        out / "report",
        out / "problems.jsonl",
        title=f"logicforge suite: {suite.name}",
        command=command or f"logicforge suite {suite.name} --out {out}",
        table=suite.table,
        items=out / "items.jsonl",
        analyses=suite.analyses,
        headline=suite.headline.model_dump() if suite.headline else None,
        scale=suite.paper_scale or None,
    )
