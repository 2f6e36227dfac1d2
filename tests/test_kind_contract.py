"""One contract over every registered kind × answer format.

For each (kind, format) a few real items of both labels (or several options) are built, and:

* the oracle's answer is right, and ``parse(to_text(a)) == a``;
* the kind's wrong answer is wrong, and scores 0 where the format gives partial credit;
* random answers round-trip and their verdict agrees with the format's own ``check``;
* the oracle run as a model with 3 samples scores 1.0 in every accuracy-like column of every
  table the report writes (accuracy, majority, pass@k, cell accuracy, witness validity, ADR), and
  binary-only metrics appear only for binary formats.

A new kind that registers itself is picked up by ``test_every_registered_format_is_covered``:
it fails until the kind has items here.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import logicforge as lf
from logicforge.kinds import answer_format, get_kind, parse_answer, verify
from logicforge.kinds.base import Kind, gold_labels
from logicforge.metrics.aggregate import BINARY_ONLY, GRID_ONLY
from logicforge.registry import KINDS
from logicforge.schema import Answer, Item

FOLIO_ROWS = [
    {
        "premises-FOL": ["∀x (P(x) → Q(x))", "P(a)"],
        "premises": ["Every P is a Q.", "a is a P."],
        "conclusion": "a is a Q.",
        "conclusion-FOL": "Q(a)",
        "label": "True",
    },
    {
        "premises-FOL": ["∀x (P(x) → ¬Q(x))", "P(a)"],
        "premises": ["No P is a Q.", "a is a P."],
        "conclusion": "a is a Q.",
        "conclusion-FOL": "Q(a)",
        "label": "False",
    },
    {
        "premises-FOL": ["∀x (P(x) → Q(x))", "Q(a)"],
        "premises": ["Every P is a Q.", "a is a Q."],
        "conclusion": "a is a P.",
        "conclusion-FOL": "P(a)",
        "label": "Uncertain",
    },
]


def _folio(tmp: Path) -> list[lf.LabelledProblem]:
    from logicforge.families.folio import load_folio

    f = tmp / "folio.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in FOLIO_ROWS))
    problems, failed = load_folio(f)
    assert failed == 0 and {p.label for p in problems} == {"True", "False", "Unknown"}
    return problems


def _arlsat(tmp: Path) -> list[lf.LabelledProblem]:
    """Two AR-LSAT-shaped questions with Logic-LM-dialect programs (gold C and A)."""
    from logicforge.families.arlsat import load_arlsat

    from .fuzzing import lsat_files

    q = lsat_files(tmp)
    problems = load_arlsat(q, q.with_name("ar_programs_gpt-4.json"))
    assert all(p.metadata["formal_valid"] for p in problems)
    return problems


def _cnf(count: int = 6) -> list[lf.LabelledProblem]:
    return lf.generate(
        "ksat/random", {"n_vars": 6}, count=count, seed=4, grid={"alpha": [2.0, 7.0]}
    )


def _items(kind: str, fmt: str, tmp: Path) -> list[Item]:
    """Real items of (kind, format), with both labels wherever the kind has two."""
    from logicforge.transforms.pair import make_pairs

    if kind == "cnf":
        renderer = {
            "decision+assignment": "formula",
            "decision+stats": "formula-stats",
            "decision+conflict": "formula-trace",
            "decision+proof": "formula-proof",
            "mus": "formula-mus",
            "mcs": "formula-mcs",
            "maxsat": "formula-maxsat",
            "search": "formula-search",
        }[fmt]
        return lf.render(_cnf(), renderer)
    if kind in ("vc", "packing"):
        src = lf.generate("ksat/random", {"n_vars": 4}, count=6, seed=4, grid={"alpha": [1.5, 8.0]})
        return lf.render(lf.reduce(src, kind), kind)
    if kind == "coloring":
        src = lf.generate(
            "coloring/planted", {"n_nodes": 10, "k": 3, "edge_density": 2.2}, count=2, seed=4
        )
        pairs, _ = make_pairs(src)
        return lf.render(pairs or src, "coloring")
    if kind == "zebra" and fmt == "grid":
        src = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=3, seed=0)
        pairs, _ = make_pairs(src)
        return lf.render(src, "zebra") + lf.render(pairs, "zebra-pairs")
    if kind == "zebra" and fmt == "choice":
        src = lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=4, seed=0)
        return lf.render(src, "zebra-mc")
    if kind == "deduction":
        renderer = {"choice": "deduction", "arrangement": "deduction-order"}[fmt]
        return lf.render(lf.generate("ordering", {"n_objects": 4}, count=4, seed=0), renderer)
    if kind == "fol":
        return lf.render(_folio(tmp), "fol")
    if kind == "lsat":
        return lf.render(_arlsat(tmp), "lsat") + lf.render(_arlsat(tmp), "lsat-z3")
    from .fuzzing import _example

    if _example(kind) is not None:  # a solution puzzle: its family's example, every renderer
        fam, params = _example(kind)  # type: ignore[misc]
        src = lf.generate(fam, params, count=3, seed=0)
        rends = [
            r for r in lf.RENDERERS.names() if getattr(lf.RENDERERS.get(r), "kind", "") == kind
        ]
        return [it for r in rends for it in lf.render(src, r)]
    raise AssertionError(f"no items for kind {kind!r} format {fmt!r}: add them to this test")


def _cases() -> list[tuple[str, str]]:
    out = []
    for name in KINDS.names():
        k = get_kind(name)
        out += [(name, f.name) for f in k.formats]
    return out


CASES = _cases()


def _same(a: Answer, b: Answer) -> bool:
    """Equal as answers (the parsing rule that read one back is not part of the answer)."""
    return a.model_dump(exclude={"rule"}) == b.model_dump(exclude={"rule"})


def test_every_registered_format_is_covered(tmp_path: Path) -> None:
    assert {k for k, _ in CASES} >= {
        "cnf",
        "coloring",
        "vc",
        "packing",
        "zebra",
        "deduction",
        "fol",
        "lsat",
    }
    for kind, fmt in CASES:
        assert _items(kind, fmt, tmp_path), (kind, fmt)


@pytest.mark.parametrize("kind, fmt", CASES)
def test_oracle_wrong_and_random_answers(kind: str, fmt: str, tmp_path: Path) -> None:
    items = _items(kind, fmt, tmp_path)
    assert all(it.kind == kind and answer_format(it).name == fmt for it in items)
    labels = {it.gold["label"] for it in items}
    k: Kind = get_kind(kind)
    if k.binary and fmt != "choice":
        assert labels == set(k.labels), f"items of both labels needed, got {labels}"
    elif len(k.labels) == 1 or answer_format(items[0]).metric_set == "grid":
        # a solution puzzle or an ordering's arrangement: one label, the solution is the answer
        assert labels == set(gold_labels(items[0])) == {"SAT"}
    else:
        assert len(labels) >= 2
    for it in items:
        f = answer_format(it)
        oracle = f.oracle(it)
        v = verify(it, oracle)
        assert v.correct and v.witness_valid in (True, None) and v.score in (None, 1.0), v
        back = parse_answer(f.to_text(oracle, it), it)
        assert _same(back, oracle), (back, oracle)
        assert verify(it, back) == v
        wrong = f.wrong(it)
        w = verify(it, wrong)
        assert not w.correct and not w.parse_failure, w
        if f.metric_set in ("grid", "certificate") and w.score is not None:
            assert w.score == 0.0
        assert _same(parse_answer(f.to_text(wrong, it), it), wrong)
        for s in range(4):
            r = f.random(it, np.random.default_rng(s))
            assert _same(parse_answer(f.to_text(r, it), it), r)
            assert verify(it, r) == f.check(it, r)
            if f.metric_set == "certificate":  # right only with the certificate asked for
                vr = verify(it, r)
                assert not vr.correct or (r.label == it.gold["label"] and vr.score == 1.0)
                continue
            assert verify(it, r).correct == (
                r.label == it.gold["label"]
                and (f.metric_set != "grid" or r.label != "SAT" or verify(it, r).score == 1.0)
            )


ACCURACY_LIKE = ("accuracy", "witness_valid", "pass@", "adr")


def _tables(report: Path) -> dict[str, list[dict[str, str]]]:
    out = {}
    for f in sorted(report.glob("*.csv")):
        with f.open() as fh:
            out[f.name] = list(csv.DictReader(fh))
    return out


@pytest.mark.parametrize("kind, fmt", CASES)
def test_the_oracle_scores_one_in_every_table(kind: str, fmt: str, tmp_path: Path) -> None:
    items = _items(kind, fmt, tmp_path)
    recs_path = tmp_path / "records.jsonl"
    lf.run(items, "oracle", recs_path, samples=3)
    lf.report(recs_path, tmp_path / "report")
    tables = _tables(tmp_path / "report")
    assert "metrics_by_model.csv" in tables and "majority_vote.csv" in tables
    binary = answer_format(items[0]).metric_set == "binary"
    grid = answer_format(items[0]).metric_set == "grid"
    checked = 0
    for name, rows in tables.items():
        for col in rows[0] if rows else {}:
            if col in BINARY_ONLY:
                assert binary, f"{name}: {col} for a {fmt} format"
            if col in GRID_ONLY or col == "majority_cell_accuracy":
                assert grid or all(r[col] == "" for r in rows), f"{name}: {col} for {fmt}"
            if col.endswith(("_lo", "_hi")) or not any(a in col for a in ACCURACY_LIKE):
                continue
            for r in rows:
                if r[col] == "":  # undefined: no SAT items / no solution grid in the group
                    assert col.startswith(("witness_valid", "cell_accuracy")), f"{name}: {col}"
                    continue
                assert float(r[col]) == 1.0, f"{name}: {col} = {r[col]} in {r}"
                checked += 1
    assert checked >= 3


def test_records_of_a_legacy_decision_still_load() -> None:
    a = Answer.model_validate({"decision": "SAT", "certificate": {"choice": "C"}})
    assert a.label == "C" and a.certificate is None
    assert Answer.model_validate({"decision": "UNSAT"}).label == "UNSAT"


def test_a_verifier_bug_is_a_recorded_error_not_a_crash(tmp_path: Path) -> None:
    """A check that raises (here: a vertex-cover item whose problem data lost its edges) gives a
    verdict with error_type "verifier error"; the run goes on."""
    from logicforge.kinds.dispatch import VERIFIER_ERROR

    it = _items("vc", "yes-no+cover", tmp_path)[0]
    broken = it.model_copy(
        update={"problem": {k: v for k, v in it.problem.items() if k != "edges"}}
    )
    v = verify(broken, Answer(label="SAT", certificate={"cover": [1]}))
    assert v.error_type == VERIFIER_ERROR and not v.correct and "KeyError" in v.reason
    rec = tmp_path / "r.jsonl"
    lf.run([broken], "oracle", rec)
    line = json.loads(rec.read_text().splitlines()[0])
    assert line["verdict"]["error_type"] == VERIFIER_ERROR


def test_every_renderer_renders_a_registered_kind() -> None:
    """Every renderer names a registered format of its own kind."""
    for name in lf.RENDERERS.names():
        r = lf.RENDERERS.get(name)
        k = get_kind(r.kind)  # type: ignore[attr-defined]
        assert k.formats, name


def test_a_served_baseline_answers_plain_messages_with_a_clear_error() -> None:
    """Models answer prompts: a chat with no logicforge item reaches the oracle as plain messages
    and gets a 400 that says why (it used to crash on a forged Item with no problem)."""
    import asyncio

    import aiohttp
    from aiohttp import web

    from logicforge.serve import make_app

    async def main() -> tuple[int, dict]:
        runner = web.AppRunner(make_app(lf.load_model("oracle")), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        try:
            async with aiohttp.ClientSession() as s:
                body = {"model": "oracle", "messages": [{"role": "user", "content": "SAT?"}]}
                async with s.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=body) as r:
                    return r.status, await r.json()
        finally:
            await runner.cleanup()

    status, body = asyncio.run(main())
    assert status == 400 and "--items" in body["error"]["message"]


def test_the_noisy_baseline_is_neither_perfect_nor_constant(tmp_path) -> None:
    """`noisy:p=0.7`: right on a fixed ~70 % of items (the same ones every run), wrong on the
    rest, with a witness on about half of its right SAT answers."""
    import json

    ps = lf.generate("ksat/random", {"n_vars": 6, "alpha": 4.0}, count=300, seed=0)
    items = lf.render(ps)
    lf.run(items, "noisy:p=0.7", tmp_path / "a.jsonl")
    lf.run(items, "noisy:p=0.7", tmp_path / "b.jsonl")
    a = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text().splitlines()]
    b = [json.loads(x) for x in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert [r["verdict"] for r in a] == [r["verdict"] for r in b]
    acc = sum(r["verdict"]["correct"] for r in a) / len(a)
    assert 0.6 < acc < 0.8
    right_sat = [r for r in a if r["verdict"]["correct"] and r["meta"]["label"] == "SAT"]
    share = sum(bool(r["verdict"].get("witness_valid")) for r in right_sat) / len(right_sat)
    assert 0.35 < share < 0.65
    with pytest.raises(lf.ConfigError, match="'p'"):
        lf.load_model("noisy:p=1.5")
