"""``logicforge import``: published problem files as problems — SATLIB folders with labels that
agree with their folder names, a folder of bad files that loses nothing else, time-outs,
compression, globs; then the imported formulas through render, pairs, run and report."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import shutil
from collections import Counter
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.cli import main
from logicforge.imports.dimacs import declared_label


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_satlib_folders_import_with_the_labels_of_their_folders(shared_data, tmp_path) -> None:
    sat = shared_data / "satlib"
    folders = [str(sat / d) for d in ("uf20-91", "uf50-218", "uuf50-218", "flat30-60")]
    assert main(["import", "dimacs", *folders, "--out", str(tmp_path), "--json"]) == 0
    log = json.loads((tmp_path / "import_report.json").read_text())
    assert log["read"] == log["imported"] == 3100
    assert log["rejected"] == log["unknown"] == log["warnings"] == log["disagreements"] == []
    problems = _rows(tmp_path / "problems.jsonl")
    by = Counter((p["metadata"]["source"].split("/")[0], p["label"]) for p in problems)
    assert by == {
        ("uf20-91", "SAT"): 1000,
        ("uf50-218", "SAT"): 1000,
        ("uuf50-218", "UNSAT"): 1000,
        ("flat30-60", "SAT"): 100,
    }
    assert len({p["problem_id"] for p in problems}) == 3100
    first = problems[0]
    assert first["metadata"]["source"] == "uf20-91/uf20-01.cnf"  # natural order
    assert len(first["metadata"]["sha256"]) == 64 and first["kind"] == "cnf"
    assert len(_rows(tmp_path / "items.jsonl")) == 3100
    # byte-identical on a second import
    again = tmp_path / "again"
    assert main(["import", "dimacs", *folders, "--out", str(again)]) == 0
    assert (again / "problems.jsonl").read_bytes() == (tmp_path / "problems.jsonl").read_bytes()


def _bad_folder(shared_data: Path, root: Path) -> dict[str, str]:
    """A folder of real SATLIB files and broken ones; returns name → what must be said."""
    uf = shared_data / "satlib" / "uf20-91"
    uuf = shared_data / "satlib" / "uuf50-218"
    d = root / "mixed"
    (d / "sub").mkdir(parents=True)
    for i in (1, 2, 3):
        shutil.copy(uf / f"uf20-0{i}.cnf", d / f"good-{i}.cnf")
    text = (uuf / "uuf50-01.cnf").read_text()
    (d / "sub" / "packed.cnf.gz").write_bytes(gzip.compress(text.encode()))
    (d / "sub" / "packed.cnf.xz").write_bytes(lzma.compress((uf / "uf20-04.cnf").read_bytes()))
    (d / "sub" / "packed.cnf.bz2").write_bytes(bz2.compress((uf / "uf20-05.cnf").read_bytes()))
    (d / "mislabelled.cnf").write_text("s SATISFIABLE\n" + text)  # an UNSAT formula
    good = (uf / "uf20-06.cnf").read_text()
    body = good.split("%")[0].rstrip()
    (d / "truncated.cnf").write_text(body[: len(body) // 2].rsplit(" ", 1)[0] + "\n")
    (d / "wrong-header.cnf").write_text(good.replace("p cnf 20  91", "p cnf 20  95"))
    (d / "latin1.cnf").write_bytes(b"c caf\xe9\np cnf 1 1\n1 0\n")
    (d / "notes.cnf").write_text("these are my notes, not a formula\n")
    return {
        "mislabelled.cnf": "disagreement",
        "truncated.cnf": "rejected",
        "wrong-header.cnf": "warning",
        "latin1.cnf": "rejected",
        "notes.cnf": "rejected",
    }


def test_a_folder_with_bad_files_loses_nothing_else(shared_data, tmp_path, capsys) -> None:
    want = _bad_folder(shared_data, tmp_path)
    assert "p cnf 20  91" in (shared_data / "satlib/uf20-91/uf20-06.cnf").read_text()
    out = tmp_path / "out"
    assert main(["import", "dimacs", str(tmp_path / "mixed"), "--out", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    log = json.loads((out / "import_report.json").read_text())
    assert log["read"] == 11 and log["imported"] == 8  # 3 good, 3 compressed, 2 odd but read
    said: dict[str, list[str]] = {}
    for key, what in (("rejected", "rejected"), ("warnings", "warning")):
        for n in log[key]:
            said.setdefault(Path(n["source"]).name, []).append(what)
    for dis in log["disagreements"]:
        said.setdefault(Path(dis["source"]).name, []).append("disagreement")
        assert (dis["declared"], dis["found"]) == ("SAT", "UNSAT")
    assert {k: v[0] for k, v in said.items()} == want
    assert all(len(v) == 1 for v in said.values())  # one clear message per file
    assert len(err) == len(want)  # … also on stderr, one line each
    msgs = {Path(n["source"]).name: n["message"] for n in log["rejected"] + log["warnings"]}
    assert "truncated" in msgs["truncated.cnf"] and "not UTF-8" in msgs["latin1.cnf"]
    assert "declares 95 clauses but 91" in msgs["wrong-header.cnf"]
    problems = {Path(p["metadata"]["source"]).name: p for p in _rows(out / "problems.jsonl")}
    assert problems["packed.cnf.gz"]["label"] == "UNSAT"
    assert problems["mislabelled.cnf"]["label"] == "UNSAT"  # the solver's label is kept
    assert problems["mislabelled.cnf"]["metadata"]["declared_label"] == "SAT"
    assert problems["wrong-header.cnf"]["metadata"]["n_clauses"] == 91
    assert problems["packed.cnf.xz"]["label"] == problems["packed.cnf.bz2"]["label"] == "SAT"


def _pigeonhole(holes: int) -> str:
    """holes + 1 pigeons in ``holes`` holes: UNSAT and hard for resolution."""
    v = lambda p, h: p * holes + h + 1  # noqa: E731
    cl = [[v(p, h) for h in range(holes)] for p in range(holes + 1)]
    cl += [
        [-v(p, h), -v(q, h)]
        for h in range(holes)
        for p in range(holes + 1)
        for q in range(p + 1, holes + 1)
    ]
    return f"p cnf {(holes + 1) * holes} {len(cl)}\n" + "".join(
        " ".join(map(str, c)) + " 0\n" for c in cl
    )


def test_a_solver_time_out_is_unknown_excluded_and_counted(tmp_path) -> None:
    (tmp_path / "hard.cnf").write_text(_pigeonhole(11))
    (tmp_path / "easy.cnf").write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    problems, log = lf.import_problems("dimacs", [tmp_path], timeout=0.05)
    assert [p.label for p in problems] == ["SAT"] and log.imported == 1
    assert [Path(n.source).name for n in log.unknown] == ["hard.cnf"]
    assert "within 0.05 s" in log.unknown[0].message
    rc = main(
        [
            "import",
            "dimacs",
            str(tmp_path / "hard.cnf"),
            "--out",
            str(tmp_path / "o"),
            "--timeout",
            "0.05",
        ]
    )
    assert rc == 2 and (tmp_path / "o" / "import_report.json").exists()  # said, not silent


def test_declared_labels() -> None:
    assert declared_label("c status: UNSATISFIABLE\np cnf 1 1\n1 0") == "UNSAT"
    assert declared_label("c Expected = SAT\n") == "SAT"
    assert declared_label("s SATISFIABLE\nv 1 0\n") == "SAT"
    assert declared_label("c uf20-01: satisfiable random 3-SAT\n") is None  # no keyword


def test_globs_and_imported_formulas_through_the_pipeline(shared_data, tmp_path) -> None:
    sat = shared_data / "satlib"
    problems, log = lf.import_problems(
        "dimacs", [str(sat / "uf20-91" / "uf20-0[1-6].cnf"), sat / "uuf50-218" / "uuf50-01.cnf"]
    )
    assert log.imported == 7 and [p.label for p in problems].count("UNSAT") == 1
    pairs, skipped = lf.transforms.pair.make_pairs(problems[:2])
    assert len(pairs) == 4 and skipped == 0
    assert {p.label for p in pairs} == {"SAT", "UNSAT"}
    items = lf.render(problems, "formula") + lf.render(problems, "logic")
    items += lf.render(lf.transform(problems, "shuffle"), "formula-trace")
    lf.run(items, "noisy:p=0.7", tmp_path / "records.jsonl")
    recs = _rows(tmp_path / "records.jsonl")
    assert len(recs) == len(items) and all(r["verdict"] is not None for r in recs)
    assert 0 < sum(r["verdict"]["correct"] for r in recs) < len(recs)
    lf.report(tmp_path / "records.jsonl", tmp_path / "rep")
    assert (tmp_path / "rep" / "report.html").exists()
    table = (tmp_path / "rep" / "metrics_by_model.csv").read_text().splitlines()
    assert table[1].startswith("noisy:p=0.7,") and f",{len(items)}," in table[1]


@pytest.mark.parametrize("bad", ["missing.cnf", "nothing-*.cnf"])
def test_paths_that_name_nothing_are_errors(tmp_path, bad, capsys) -> None:
    assert main(["import", "dimacs", str(tmp_path / bad), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert ("matches no file" if "*" in bad else "no such file or folder") in err


def test_folio_and_logicaldeduction_through_the_same_verb(shared_data, tmp_path) -> None:
    lm = shared_data / "logiclm"
    out = tmp_path / "folio"
    assert (
        main(
            ["import", "folio", str(lm / "folio_v0.0_validation_gold_fol.jsonl"), "--out", str(out)]
        )
        == 0
    )
    log = json.loads((out / "import_report.json").read_text())
    assert (log["read"], log["imported"]) == (204, 190)
    assert len(log["rejected"]) == 14  # one note per row, each naming its line
    assert all(
        n["message"].startswith("its FOL annotation does not parse") for n in log["rejected"]
    )
    out = tmp_path / "ld"
    assert (
        main(["import", "ordering", str(lm / "logicaldeduction_dev.json"), "--out", str(out)]) == 0
    )
    assert len(_rows(out / "problems.jsonl")) == 300
    assert {it["rendering"] for it in _rows(out / "items.jsonl")} == {"deduction"}


@pytest.mark.parametrize("dataset,rel", [
    ("folio", "logiclm/folio_v0.0_validation_gold_fol.jsonl"),
    ("ordering", "logiclm/logicaldeduction_dev.json"),
])  # fmt: skip
def test_whole_file_readers_take_data_paths_and_count_rejected_rows(
    dataset, rel, shared_data, tmp_path, monkeypatch, capsys
) -> None:
    """`data:` paths reach every reader (FOLIO's and LogicalDeduction's read a file whole), and
    the summary counts rejected rows, one note each ("rejected 14", not "rejected 1")."""
    monkeypatch.setenv("LOGICFORGE_DATA", str(shared_data))
    assert main(["import", dataset, f"data:{rel}", "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    log = json.loads((tmp_path / "import_report.json").read_text())
    assert summary["imported"] > 0 and summary["rejected"] == len(log["rejected"])
    assert summary["read"] == summary["imported"] + summary["rejected"]
    if dataset == "folio":
        assert summary["rejected"] == 14 and all("#" in n["source"] for n in log["rejected"])
