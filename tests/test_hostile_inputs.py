"""Hostile input files and parameters: one clear error before any work, nothing evaluated;
solver time-outs give UNKNOWN labels that are counted, never guessed, never scored."""

from __future__ import annotations

import json
import time

import pytest

import logicforge as lf
from logicforge.metrics.aggregate import aggregate
from logicforge.models.base import Sampling
from logicforge.suites import load_suite

HUGE = [
    ("ksat/random", {"n_vars": 10**9, "alpha": 4.26}, "n_vars"),
    ("ksat/random", {"n_vars": 10**7, "alpha": 10_000}, "alpha"),
    ("ksat/random", {"n_vars": 10, "n_clauses": 10**9}, "n_clauses"),
    ("2sat/implication-cycle", {"n_clauses": 10**9}, "n_clauses"),
    ("2sat/equivalence-core", {"n_clauses": 10**9}, "n_clauses"),
    ("2sat/backbone", {"n_clauses": 10**9}, "n_clauses"),
    ("2sat/mono-bridge", {"n_clauses": 10**9}, "n_clauses"),
    ("2sat/symmetry", {"base_family": "2sat/backbone", "base_params": {"n_clauses": 10**9}}, "n_clauses"),
    ("coloring/planted", {"n_nodes": 10**9, "k": 3}, "n_nodes"),
    ("zebra", {"n_houses": 10**9}, "n_houses"),
    ("ordering", {"n_objects": 10**9}, "n_objects"),
    ("satbench", {"n_clauses": 10**9}, "n_clauses"),
    ("ksat/random", {"n_vars": "10; import os"}, "n_vars"),
    ("sudoku", {"size": 10**9}, "size"),
    ("futoshiki", {"size": 10**9}, "size"),
    ("binairo", {"size": 10**9}, "size"),
    ("lightsout", {"rows": 10**9}, "rows"),
    ("lightsout", {"rows": 5, "cols": 5}, "rows"),  # singular: several answers, refused
    ("knights", {"n_people": 10**9}, "n_people"),
    ("xorsat", {"n_vars": 10**9}, "n_vars"),
    ("xorsat", {"n_vars": 10, "n_equations": 5}, "n_equations"),
    ("minesweeper", {"rows": 10**9}, "rows"),
    ("minesweeper", {"rows": 3, "cols": 3, "n_mines": 9}, "n_mines"),
    ("queens", {"size": 10**9}, "size"),
    ("latinsquare", {"size": 10**9}, "size"),
    ("kenken", {"size": 10**9}, "size"),
    ("kenken", {"size": 5, "max_cage": 9}, "max_cage"),
    ("nonogram", {"rows": 10**9}, "rows"),
    ("exactcover", {"n_elements": 10**9}, "n_elements"),
    ("circuit", {"n_gates": 10**9}, "n_gates"),
    ("toposort", {"n_tasks": 10**9}, "n_tasks"),
    ("toposort", {"n_tasks": 4, "n_extra": 9}, "n_extra"),
    ("kakurasu", {"size": 10**9}, "size"),
    ("sumplete", {"size": 10**9}, "size"),
    ("uniquesat", {"n_vars": 10**9}, "n_vars"),
    ("graphcolour", {"n_nodes": 10**9}, "n_nodes"),
    ("skyscrapers", {"size": 10**9}, "size"),
    ("thermometers", {"size": 10**9}, "size"),
]  # fmt: skip


@pytest.mark.parametrize("family, params, field", HUGE)
def test_huge_or_wrong_parameters_fail_before_work(family: str, params: dict, field: str) -> None:
    t0 = time.monotonic()
    with pytest.raises(lf.ConfigError, match=field):
        lf.generate(family, params, count=1)
    assert time.monotonic() - t0 < 5  # refused, not attempted


def test_every_family_is_covered_by_a_huge_case() -> None:
    assert {f for f, _, _ in HUGE} >= set(lf.FAMILIES.names())


@pytest.mark.parametrize(
    "text, line",
    [
        ("p cnf 3 2\n1 -2 0\n1 x 0\n", 3),
        ("p cnf 3 1\n1 4 0\n", 2),
        ("p cnf -1 1\n", 1),
        ("p cnf 3 1\n1 2 0\n3 0\n", None),
        ("p cnf 999999999999 1\n1 0\n", 1),
    ],
)
def test_malformed_dimacs_names_the_line(text: str, line: int | None) -> None:
    with pytest.raises(lf.DimacsError) as e:
        lf.parse_dimacs(text)
    if line is not None:
        assert f"line {line}" in str(e.value)


def test_items_file_with_the_wrong_schema_names_the_line(tmp_path) -> None:
    good = lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=2))
    bad = json.loads(good[1].model_dump_json())
    bad["messages"] = "not a list"
    p = tmp_path / "items.jsonl"
    p.write_text(good[0].model_dump_json() + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(lf.DataFileError, match=r"line 2.*messages"):
        lf.load_items(p)
    p.write_text('{"__import__": "os"}\n[1, 2]\n')
    with pytest.raises(lf.DataFileError, match="line 1"):
        lf.load_items(p)


_OK = "name: x\nproblems: [{family: 2sat/backbone, count: 1}]\nmodels: [random]\n"


@pytest.mark.parametrize(
    "yaml_text, field",
    [
        ("name: x\nproblems: []\nmodels: [random]\nbogus: 1\n", "bogus"),
        ("name: x\nproblems: 3\nmodels: [random]\n", "problems"),
        ("name: x\nproblems: []\nmodels: [random]\nsamples: many\n", "samples"),
        ("!!python/object/apply:os.system ['echo pwned']\n", "suite"),
        ("name: x\nmodels: !!python/name:os.system\nproblems: []\n", "suite"),
        ("- just\n- a list\n", "suite"),
        # settings that used to be silently wrong: strict types, named fields
        (f"{_OK}sampling: {{structured: 'false'}}\n", "sampling.structured"),
        (f"{_OK}sampling: {{seed: abc}}\n", "sampling.seed"),
        (f"{_OK}sampling: {{temperature: true}}\n", "sampling.temperature"),
        (f"{_OK}sampling: {{max_tokens: 1.5}}\n", "sampling.max_tokens"),
        (f"{_OK}sampling: {{stop: [1, 2]}}\n", "sampling.stop"),
        (f"{_OK}sampling: {{top_p: .nan}}\n", "sampling.top_p"),
        (f"{_OK}seed: '7'\n", "seed"),
        (f"{_OK}samples: true\n", "samples"),
        ("name: x\nproblems: [{family: 2sat/backbone, count: '5'}]\n", "problems.0.count"),
        ("name: x\nproblems: [{family: 2sat/backbone, pair: 'yes'}]\n", "problems.0.pair"),
        # the billion laughs: aliases are refused before anything expands
        (
            "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
            "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e]\n"
            "g: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nname: x\nproblems: []\n",
            "aliases",
        ),
        (f"{_OK}description: &d hello\ntable: [*d]\n", "aliases"),
    ],  # fmt: skip
)
def test_hostile_suite_files_are_refused(tmp_path, yaml_text: str, field: str) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(yaml_text)
    with pytest.raises(lf.ConfigError, match=field) as e:
        load_suite(p)
    assert len(str(e.value)) < 1000  # the offending input is named, not printed whole


def test_a_stop_string_is_one_stop_sequence(tmp_path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(f"{_OK}sampling: {{stop: 'Answer:'}}\n")
    assert Sampling(**load_suite(p).sampling).stop == ("Answer:",)


def test_a_huge_value_is_named_not_printed(tmp_path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(f"{_OK}samples: '{'9' * 300_000}'\n")
    with pytest.raises(lf.ConfigError, match="samples") as e:
        load_suite(p)
    assert len(str(e.value)) < 1000 and "characters" in str(e.value)


@pytest.mark.parametrize("name", ["../../../etc/passwd", "twosat-table1/../../x", "/etc/hosts"])
def test_suite_names_cannot_escape_the_shipped_folder(name: str) -> None:
    with pytest.raises(lf.ConfigError, match="suite"):
        load_suite(name)


def test_a_timed_out_label_is_unknown_counted_and_not_scored(tmp_path) -> None:
    ps = lf.generate(
        "ksat/random", {"n_vars": 400, "alpha": 4.26, "solver_timeout": 0.02}, count=2, seed=0
    )
    easy = lf.generate("ksat/random", {"n_vars": 8, "alpha": 2.0}, count=3, seed=0)
    assert [p.label for p in ps] == ["UNKNOWN", "UNKNOWN"]
    assert all(p.metadata["label_timed_out"] for p in ps)
    lf.run(lf.render(ps + easy), "always-sat", tmp_path / "r.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    row = aggregate(recs, ("model",))[0]
    assert row["n"] == 3 and row["unlabelled"] == 2 and row["accuracy"] == 1.0
    assert sum(r["verdict"]["excluded"] for r in recs) == 2


@pytest.mark.parametrize("name", ["../escape", "/abs/path", "a/b", "", "UP per"])
def test_a_suite_name_cannot_leave_the_runs_folder(name: str, tmp_path) -> None:
    import yaml

    from logicforge.suites import load_suite

    f = tmp_path / "s.yaml"
    f.write_text(
        yaml.safe_dump(
            {
                "name": name,
                "problems": [{"family": "ksat/random", "params": {"n_vars": 4}, "count": 1}],
            }
        )
    )
    with pytest.raises(lf.ConfigError, match="name"):
        load_suite(str(f))


def _cli_error(argv: list[str], capsys) -> str:
    """Run the CLI in-process; it must exit 2 with one ``logicforge <verb>: error:`` line."""
    from logicforge.cli import main

    try:
        rc = main(argv)
    except SystemExit as e:  # argparse's usage errors
        rc = e.code
    err = capsys.readouterr().err
    assert rc == 2, (argv, rc, err)
    assert "Traceback" not in err and f"logicforge {argv[0]}: error:" in err, err
    return err


@pytest.fixture
def cli_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from logicforge.cli import main

    gen = ["generate", "--family", "ksat/random", "--set", "n_vars=5", "--set", "alpha=3"]
    assert main([*gen, "--count", "3", "--out", "d", "--quiet"]) == 0
    assert main(["run", "--items", "d/items.jsonl", "--model", "random", "--records", "ok.jsonl",
                 "--quiet"]) == 0  # fmt: skip
    (tmp_path / "notgguf.gguf").write_text("hello")
    (tmp_path / "badrec.jsonl").write_text('{"record_id": "x", "model": 5, "meta": 3}\n')
    (tmp_path / "badprob.jsonl").write_text('{"problem_id": 1}\n')
    item = json.loads((tmp_path / "d" / "items.jsonl").read_text().splitlines()[0])
    maybe = {**item, "gold": {"label": "MAYBE"}}
    (tmp_path / "maybe.jsonl").write_text(json.dumps(maybe) + "\n")
    nowhere = {**item, "mapping": {**item["mapping"], next(iter(item["mapping"])): 999}}
    (tmp_path / "nowhere.jsonl").write_text(json.dumps(nowhere) + "\n")
    return tmp_path


GEN = ["generate", "--family", "ksat/random", "--set", "n_vars=5", "--set", "alpha=3"]
RUN = ["run", "--items", "d/items.jsonl", "--model", "random"]
CLI_CASES = [
    ([*RUN, "--records", "r.jsonl", "--limit", "-1"], "--limit"),
    ([*RUN, "--records", "r.jsonl", "--samples", "x"], "--samples"),
    ([*GEN, "--seed", "-1", "--out", "g"], "--seed"),
    ([*GEN, "--count", "-3", "--out", "g"], "--count"),
    ([*GEN, "--count", "1000000000000", "--out", "g"], "count"),
    ([*GEN, "--out", "d/items.jsonl"], "d/items.jsonl"),
    (["run", "--items", "d", "--model", "random", "--records", "r.jsonl"], "d"),
    ([*RUN, "--records", "d"], "directory"),
    (["report", "--records", "d", "--out", "rep"], "d"),
    (["report", "--records", "badrec.jsonl", "--out", "rep"], "record 1"),
    (["report", "--records", "ok.jsonl", "--problems", "badprob.jsonl", "--out", "rep"], "problem 1"),
    (["run", "--items", "d/items.jsonl", "--model", "local:notgguf.gguf", "--records", "r.jsonl"],
     "GGUF"),
    (["run", "--items", "maybe.jsonl", "--model", "random", "--records", "r.jsonl"], "MAYBE"),
    (["run", "--items", "nowhere.jsonl", "--model", "random", "--records", "r.jsonl"], "999"),
    (["score", "--records", "d", "--items", "d/items.jsonl", "--out", "s.jsonl"], "d"),
    (["export", "sft", "--items", "d/items.jsonl", "--records", "badrec.jsonl", "--out", "e"],
     "record 1"),
    (["export", "dimacs", "--problems", "badprob.jsonl", "--out", "e"], "problem 1"),
    ([*RUN[:-1], "openai-compatible:http://127.0.0.1:8000/v1", "--records", "r.jsonl"],
     "<model name>"),
    ([*RUN, "--records", "r.jsonl", "--concurrency", "0"], "concurrency"),
    ([*RUN, "--records", "r.jsonl", "--samples", "0"], "samples"),
    ([*RUN, "--records", "r.jsonl", "--max-tokens", "0"], "max_tokens"),
    ([*RUN, "--records", "r.jsonl", "--temperature", "nan"], "temperature"),
    ([*RUN, "--records", "r.jsonl", "--truncation", "maybe"], "--truncation"),
    ([*RUN[:-1], "nosuch", "--records", "r.jsonl"], "unknown model"),
    (["run", "--items", "missing.jsonl", "--model", "random", "--records", "r.jsonl"], "not found"),
    ([*GEN, "--workers", "0", "--out", "g"], "workers"),
    ([*GEN, "--set", "bogus=1", "--out", "g"], "bogus"),
    (["generate", "--family", "nosuch", "--out", "g"], "known families"),
    (["generate", "--family", "zebra", "--set", "n_houses=100", "--out", "g"], "n_houses"),
    (["report", "--records", "missing.jsonl", "--out", "rep"], "not found"),
    (["report", "--records", "ok.jsonl", "--out", "rep", "--prices", "no.yaml"], "prices"),
    (["suite", "nosuch"], "no such suite"),
    (["suite", "twosat-table1", "--count", "-1"], "--count"),
    (["suite", "twosat-table1", "--model", "nosuch", "--count", "1", "--out", "s"], "unknown"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "names"), CLI_CASES)
def test_bad_cli_input_is_one_error_line_and_exit_2(argv, names: str, cli_dir, capsys) -> None:
    assert names in _cli_error(argv, capsys)


def test_a_huge_count_is_refused_before_any_work() -> None:
    with pytest.raises(lf.ConfigError, match="count"):
        lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=10**12)


def test_report_tables_and_drill_down_treat_model_text_as_data(tmp_path) -> None:
    """Markdown tables used to carry raw HTML and `|` from model names; a 15 MiB reply was
    embedded whole in report.html."""
    items = lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=2, seed=0))
    model = lf.load_model("random")
    recs = lf.run(items, model, tmp_path / "r.jsonl")
    assert recs["done"] == 2
    rows = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    rows[0]["model"] = "<img src=x onerror=alert(1)>|evil\nname"
    rows[1]["text"] = "SAT " + "x" * (15 << 20)
    out = lf.report(rows, tmp_path / "rep", items=items)
    for md in (tmp_path / "rep").glob("*.md"):
        text = md.read_text()
        assert "<img" not in text and "evil\nname" not in text, md
        for line in text.splitlines():
            if line.startswith("| ") and "evil" in line:
                head = (tmp_path / "rep" / md.name).read_text().splitlines()[0]
                assert line.count(" | ") - line.count("\\|") <= head.count(" | "), line
    page = out.read_text()
    assert len(page) < 5 << 20 and "more characters in records.jsonl" in page


def test_a_hosted_endpoint_without_its_key_fails_before_work(monkeypatch) -> None:
    monkeypatch.delenv("LF_NO_SUCH_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(lf.ConfigError, match="OPENAI_API_KEY.*hosted"):
        lf.load_model("openai-compatible:https://api.example.com/v1:m")
    # no key named: a local server gets no key, and that is fine
    lf.load_model("openai-compatible:http://127.0.0.1:8000/v1:m")
    lf.load_model("openai-compatible:http://10.0.0.5:8000/v1:m")
    # a key named but unset: refused before work, wherever the server is (never sent keyless)
    for url in ("https://api.example.com/v1", "http://127.0.0.1:8000/v1"):
        with pytest.raises(lf.ConfigError, match="'api_key_env'.*LF_NO_SUCH_KEY.*not set"):
            lf.load_model(f"openai-compatible:{url}:m;api_key_env=LF_NO_SUCH_KEY")
    monkeypatch.setenv("LF_NO_SUCH_KEY", "")
    with pytest.raises(lf.ConfigError, match="not set"):
        lf.load_model("openai-compatible:http://127.0.0.1:8000/v1:m;api_key_env=LF_NO_SUCH_KEY")
    monkeypatch.setenv("LF_NO_SUCH_KEY", "k")
    lf.load_model("openai-compatible:http://127.0.0.1:8000/v1:m;api_key_env=LF_NO_SUCH_KEY")
    lf.load_model("openai-compatible:https://api.example.com/v1:m;api_key_env=LF_NO_SUCH_KEY")


@pytest.mark.parametrize("read_ahead", [1, 4, 64])
def test_a_bad_item_line_stops_the_stream_only_where_it_stands(tmp_path, read_ahead) -> None:
    """Items are parsed a block at a time, yet every item before a bad line is yielded first,
    the error names the bad line, and a stop before it (a ``--limit``) never sees it."""
    import itertools

    good = lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=9, seed=3))
    lines = [it.model_dump_json() for it in good]
    lines.insert(6, '{"item_id": "broken"}')  # line 7
    lines.insert(3, "   ")  # a blank line 4: skipped, still counted
    p = tmp_path / "items.jsonl"
    p.write_text("\n".join(lines) + "\n")
    seen: list[str] = []
    with pytest.raises(lf.DataFileError, match=r"line 8: "):
        for it in lf.iter_items(p, read_ahead=read_ahead):
            seen.append(it.item_id)
    assert seen == [it.item_id for it in good[:6]]
    first = list(itertools.islice(lf.iter_items(p, read_ahead=read_ahead), 6))
    assert [it.item_id for it in first] == seen  # the bad line is past the stop: no error
    wrong_gold = json.loads(lines[0])
    wrong_gold["gold"] = {"label": "MAYBE"}
    p.write_text(lines[1] + "\n" + json.dumps(wrong_gold) + "\n" + lines[2] + "\n")
    seen = []
    with pytest.raises(lf.DataFileError, match=r"line 2: gold.label: 'MAYBE'"):
        for it in lf.iter_items(p, read_ahead=read_ahead):
            seen.append(it.item_id)
    assert seen == [good[1].item_id]


_ODD_LINES = [
    "{not json",  # not JSON at all
    "[1, 2]",  # JSON, not an object
    '"a string"',
    "null",
    '{"item_id": "broken"}',  # an object missing fields
    '{"seed": 123456789012345678901234567890}',  # an integer past 64 bits
    "{}\x00",  # trailing garbage
]


@pytest.mark.parametrize("line", _ODD_LINES)
def test_items_read_through_orjson_or_pydantic_alike(tmp_path, monkeypatch, line) -> None:
    """Items lines read by orjson (then validated as Python data) give the same Items, and odd
    lines the same line-naming error, as pydantic reading the JSON itself."""
    from logicforge import jsonfast

    pytest.importorskip("orjson")
    good = lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=3, seed=5))
    edited = json.loads(good[1].model_dump_json())
    edited["seed"] = 2**70  # orjson would read it as a float: pydantic must read this line
    edited["messages"][0]["content"] = '¬x1 ∨ x2 \\ "quoted" \u2028 é'
    edited["metadata"] = {"z": 2**63 - 1}
    again = json.loads(good[2].model_dump_json()) | {"metadata": {"id": "1234567890123456789"}}
    floats = json.loads(good[0].model_dump_json())
    floats["metadata"] = {"x": 0.1, "y": -1.5e-300, "w": [True, None, 1e300, 2**53], "s": "é"}
    lines = [
        json.dumps(floats, ensure_ascii=False),
        json.dumps(edited, ensure_ascii=False),
        json.dumps(again),
        line,
    ]
    p = tmp_path / "items.jsonl"
    p.write_text("\n".join(lines) + "\n")

    def read() -> tuple[list[str], str]:
        seen: list[str] = []
        with pytest.raises(lf.DataFileError) as e:
            for it in lf.iter_items(p, read_ahead=2):
                seen.append(it.model_dump_json())
        return seen, str(e.value)

    real = jsonfast._orjson
    given: list[bytes] = []

    class Spy:
        def loads(self, b: bytes):
            given.append(b)
            return real.loads(b)

    monkeypatch.setattr(jsonfast, "_orjson", Spy())
    fast = read()
    assert given[0] == lines[0].encode() + b"\n"  # plain lines go through orjson, lines
    assert len(given) == 1 + ("1234567890" not in line)  # with 19 digits in a row do not
    monkeypatch.setattr(jsonfast, "_orjson", None)
    assert read() == fast
    assert len(fast[0]) == 3 and "line 4" in fast[1]
    assert lf.Item.model_validate_json(fast[0][0]).metadata == floats["metadata"]
    back = lf.Item.model_validate_json(fast[0][1])
    assert back.seed == 2**70 and back.metadata == edited["metadata"]
    assert lf.Item.model_validate_json(fast[0][2]).metadata == {"id": "1234567890123456789"}


def test_an_item_mapping_a_name_past_the_problems_variables_names_the_line(tmp_path) -> None:
    good = lf.render(lf.generate("ksat/random", {"n_vars": 4, "alpha": 2.0}, count=3, seed=4))
    bad = json.loads(good[1].model_dump_json())
    name = next(iter(bad["mapping"]))
    bad["mapping"][name] = 9  # the problem declares 4 variables
    zebra = lf.render(lf.generate("zebra", {"n_houses": 2, "n_attributes": 2}, count=1))
    p = tmp_path / "items.jsonl"
    lines = [zebra[0].model_dump_json(), good[0].model_dump_json(), json.dumps(bad)]
    p.write_text("\n".join(lines) + "\n")
    seen = []
    with pytest.raises(lf.DataFileError, match=rf"line 3: mapping: '{name}' names variable 9"):
        for it in lf.iter_items(p):
            seen.append(it.kind)
    assert seen == [zebra[0].kind, "cnf"]  # two kinds, each looked up once, both valid
