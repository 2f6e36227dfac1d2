"""Running a suite: its problems generated or read (:mod:`.problems`), rendered through every
variant and renderer, stories and back-translations written, every model run, records checked
against the suite's plan, and the report built. The format is :mod:`.spec`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import CertificationError, ConfigError
from ..registry import RENDERERS
from .problems import data_path, expand_problems, translation_requests
from .spec import Suite, list_suites, load_suite, planned_size

__all__ = [
    "Suite",
    "data_path",
    "empty_story_arms",
    "expand_problems",
    "list_suites",
    "load_suite",
    "planned_size",
    "run_suite",
    "translation_requests",
]


def _count_discards(out: Path, renderer: str, asked: int, kept: int) -> None:
    """Stories that failed validation and were discarded: ``story-discards-<renderer>.json``
    and a line on stderr (never silent)."""
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


def _backtranslated(suite: Suite, problems: list[Any], out: Path) -> list[Any]:
    """Edited data-backed problems with verified sentences (``backtranslated-<kind>.jsonl``,
    reused on a rerun; statistics in ``backtranslation-<kind>.json``)."""

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
