"""``serve-verify`` on 127.0.0.1: /health, /generate, batched /verify with rewards equal to
``lf.reward``, per-request errors that spare the rest, limits (batch, count, body size), the
optional API key, and a bounded concurrent load test with 0 errors."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest

import logicforge as lf
from logicforge.serve_verify import InThread


def Server(**kw: object) -> InThread:  # noqa: N802 - reads as the server it starts
    return InThread(**kw)  # type: ignore[arg-type]


async def _post(s: aiohttp.ClientSession, url: str, obj: object, **kw: object) -> tuple[int, dict]:
    async with s.post(url, data=json.dumps(obj), **kw) as r:  # type: ignore[arg-type]
        return r.status, await r.json()


def test_generate_verify_and_errors() -> None:
    async def go(url: str) -> None:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{url}/health") as r:
                h = await r.json()
            assert h["status"] == "ok" and "zebra" in h["families"]
            st, g = await _post(
                s, f"{url}/generate", {"family": "ksat/random", "level": 1, "count": 4, "seed": 3}
            )
            assert st == 200 and len(g["items"]) == 4
            items = [lf.Item.model_validate(x) for x in g["items"]]
            oracle = lf.load_model("oracle")
            texts = [
                asyncio.get_event_loop()
                and (await oracle.generate(lf.Prompt.of(it), lf.Sampling(), 0)).text
                for it in items
            ]
            texts[1] = "I think it is SAT or UNSAT."
            reqs = [
                {"item_id": it.item_id, "response": t} for it, t in zip(items, texts, strict=True)
            ]
            reqs.append({"item": g["items"][0], "response": "{}"})
            reqs.append({"item_id": "nope", "response": "SAT"})
            reqs.append({"item_id": items[0].item_id, "response": 7})
            st, v = await _post(s, f"{url}/verify", {"requests": reqs})
            assert st == 200
            res = v["results"]
            for it, t, r in zip(items, texts, res, strict=False):
                assert r["reward"] == lf.reward(it, t) and r["item_id"] == it.item_id
            assert res[1]["parse_failure"] and res[1]["reward"] == 0.0
            assert res[4]["reward"] == 0.0 and "unknown item_id" in res[5]["error"]
            assert "must be a string" in res[6]["error"]
            assert all(it.rendering == "formula-proof" for it in items)  # the training renderer
            bare = [{"item_id": it.item_id, "response": json.dumps({"answer": it.gold["label"]})}
                    for it in items]  # fmt: skip
            st, v = await _post(s, f"{url}/verify", {"requests": bare})
            assert [r["reward"] for r in v["results"]] == [0.0] * 4  # certified: no certificate
            st, v = await _post(s, f"{url}/verify", {"requests": bare, "reward_mode": "decision"})
            want = [
                lf.reward(it, b["response"], mode="decision")
                for it, b in zip(items, bare, strict=True)
            ]
            assert [r["reward"] for r in v["results"]] == want and max(want) > 0
            one = [bare[0] | {"reward_mode": "decision"}, bare[0], bare[0] | {"reward_mode": "x"}]
            st, v = await _post(s, f"{url}/verify", {"requests": one})
            assert v["results"][0]["reward"] == want[0] and v["results"][1]["reward"] == 0.0
            assert "reward_mode" in v["results"][2]["error"]
            st, e = await _post(s, f"{url}/verify", {"requests": bare, "reward_mode": "lenient"})
            assert st == 400 and "reward_mode" in e["error"]
            unsat = lf.render(
                lf.generate("2sat/implication-cycle", {"n_clauses": 8}, count=1, seed=0)
            )
            st, v = await _post(s, f"{url}/verify", {"requests": [
                {"item": json.loads(unsat[0].model_dump_json()), "response": '{"answer": "UNSAT"}'}]})  # fmt: skip
            assert "no signature" in v["results"][0]["error"]  # not this server's item
            for bad, want in (
                ({"requests": []}, "non-empty"),
                ({"requests": [{}] * 1025}, "at most 1024"),
            ):
                st, e = await _post(s, f"{url}/verify", bad)
                assert st == 400 and want in e["error"]
            st, e = await _post(s, f"{url}/generate", {"family": "ksat/random", "count": 5000})
            assert st == 400 and "count" in e["error"]
            st, e = await _post(s, f"{url}/generate", {"family": "zebar", "count": 1})
            assert st == 400 and "did you mean 'zebra'" in e["error"]
            async with s.post(f"{url}/verify", data=b"not json") as r:
                assert r.status == 400
            async with s.post(f"{url}/verify", data=b"x" * (3 << 20)) as r:
                assert r.status == 413  # over max_body_mb

    with Server(max_body_mb=2.0) as srv:
        asyncio.run(go(srv.url))


def test_api_key() -> None:
    async def go(url: str) -> None:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{url}/health") as r:
                assert r.status == 401
            async with s.get(f"{url}/health", headers={"Authorization": "Bearer wrong"}) as r:
                assert r.status == 401
            async with s.get(f"{url}/health", headers={"Authorization": "Bearer sesame"}) as r:
                assert r.status == 200

    with Server(api_key="sesame") as srv:
        asyncio.run(go(srv.url))


def test_concurrent_load_has_no_errors() -> None:
    """200 concurrent /verify calls of 8 requests each (CNF, zebra, deduction items), bounded
    in count and in time (60 s): every call answers 200 and every reward equals lf.reward."""
    items = lf.render(lf.generate("ksat/random", level=4, count=8, seed=1), "formula-proof")
    items += lf.render(lf.generate("zebra", level=6, count=8, seed=1), "zebra")
    items += lf.render(lf.generate("ordering", level=5, count=8, seed=1), "deduction")
    import numpy as np

    from logicforge.kinds import answer_format

    rng = np.random.default_rng(0)
    texts = []
    for it in items:
        fmt = answer_format(it)
        a = fmt.oracle(it) if rng.random() < 0.6 else fmt.random(it, rng)
        texts.append(fmt.to_text(a, it))
    want = {(it.item_id, t): lf.reward(it, t) for it, t in zip(items, texts, strict=True)}

    async def go(url: str) -> list[int]:
        conn = aiohttp.TCPConnector(limit=64)
        async with aiohttp.ClientSession(connector=conn) as s:

            async def one(k: int) -> int:
                batch = [
                    (items[(k * 8 + j) % len(items)], texts[(k * 8 + j) % len(items)])
                    for j in range(8)
                ]
                st, v = await _post(
                    s,
                    f"{url}/verify",
                    {"requests": [{"item_id": it.item_id, "response": t} for it, t in batch]},
                )
                assert [r["reward"] for r in v["results"]] == [
                    want[(it.item_id, t)] for it, t in batch
                ]
                return st

            return await asyncio.wait_for(asyncio.gather(*(one(k) for k in range(200))), 60)

    with Server(items=items, concurrency=4) as srv:
        t0 = time.perf_counter()
        statuses = asyncio.run(go(srv.url))
        assert time.perf_counter() - t0 < 60
    assert statuses == [200] * 200
    assert 0 < sum(want.values()) < len(want)  # neither all right nor all wrong


@pytest.mark.parametrize("argv", [["serve-verify", "--help"]])
def test_the_command_exists(argv: list[str], capsys) -> None:
    from logicforge.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 0 and "/verify" in capsys.readouterr().out


def test_verl_rows_and_compute_score_as_verl_calls_it(tmp_path) -> None:
    """verl reads its dataset from Parquet and calls the reward function with keyword
    arguments per row: the same reward as lf.reward, for every row."""
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    from logicforge.metrics.reward import compute_score, verl_rows

    decision = lf.render(lf.generate("ksat/random", level=2, count=6, seed=4))
    with pytest.raises(lf.ConfigError, match="formula-proof"):
        verl_rows(decision)  # refused before training: UNSAT asked without a certificate
    items = lf.render(lf.generate("ksat/random", level=2, count=6, seed=4), "formula-proof")
    items += lf.render(lf.generate("zebra", level=3, count=3, seed=4), "zebra")
    pq.write_table(pa.Table.from_pylist(verl_rows(items)), tmp_path / "train.parquet")
    by_name = verl_rows(decision, reward_mode="decision")
    said = json.dumps({"answer": decision[0].gold["label"]})
    got = compute_score(
        by_name[0]["data_source"], said,
        by_name[0]["reward_model"]["ground_truth"], by_name[0]["extra_info"],
    )  # fmt: skip
    assert got == lf.reward(decision[0], said, mode="decision") > 0
    rows = pq.read_table(tmp_path / "train.parquet").to_pylist()
    oracle = lf.load_model("oracle")
    for it, row in zip(items, rows, strict=True):
        text = asyncio.run(oracle.generate(lf.Prompt.of(it), lf.Sampling(), 0)).text
        for t in (text, "SAT or UNSAT", '{"answer": "UNSAT"}'):
            got = compute_score(
                data_source=row["data_source"],
                solution_str=t,
                ground_truth=row["reward_model"]["ground_truth"],
                extra_info=row["extra_info"],
            )
            assert got == lf.reward(it, t)
    with pytest.raises(lf.ConfigError, match="ground_truth"):
        compute_score(rows[0]["data_source"], "x", "WRONG", rows[0]["extra_info"])


def test_partial_per_request_is_honoured_and_a_bad_value_refused() -> None:
    """A request's own ``partial`` beats the batch's (it was silently ignored); a value that is
    not a JSON boolean (``"false"`` would read as true) is refused, per request or per batch."""
    from logicforge.kinds import answer_format

    (it,) = lf.render(lf.generate("zebra", {"n_houses": 3, "n_attributes": 3}, count=1, seed=2))
    fmt = answer_format(it)
    right = fmt.oracle(it)
    grid = {h: dict(row) for h, row in right.certificate["grid"].items()}
    attr = next(iter(grid["1"]))
    grid["1"][attr], grid["2"][attr] = grid["2"][attr], grid["1"][attr]  # two cells swapped
    wrong = right.model_copy(update={"certificate": {"grid": grid}})
    near = fmt.to_text(wrong, it)
    full, part = lf.reward(it, near), lf.reward(it, near, partial=True)
    assert full == 0.0 and 0.0 < part < 1.0
    item = json.loads(it.model_dump_json())

    async def go(url: str) -> None:
        async with aiohttp.ClientSession() as s:
            reqs = [
                {"item": item, "response": near},
                {"item": item, "response": near, "partial": True},
                {"item": item, "response": near, "partial": False},
                {"item": item, "response": near, "partial": "false"},
            ]
            st, v = await _post(s, f"{url}/verify", {"requests": reqs})
            assert st == 200
            got = [r.get("reward") for r in v["results"]]
            assert got[:3] == [full, part, full]
            assert "'partial' must be true or false" in v["results"][3]["error"]
            st, v = await _post(s, f"{url}/verify", {"requests": reqs[:3], "partial": True})
            assert [r["reward"] for r in v["results"]] == [part, part, full]
            st, v = await _post(s, f"{url}/verify", {"requests": reqs[:1], "partial": 1})
            assert st == 400 and "partial" in json.dumps(v)

    with Server(accept_unsigned=True) as srv:
        asyncio.run(go(srv.url))


def test_port_file_is_never_read_empty_or_torn(tmp_path) -> None:
    """A script polls for ``--port-file`` and reads it as soon as it exists: every read, however
    it falls against the writes, parses (a plain ``write_text`` truncates first and is read empty)."""
    import threading

    from logicforge.serve import write_port_file

    path = tmp_path / "port.json"
    write_port_file(path, 1)
    stop, bad, reads = threading.Event(), [], [0]

    def reader() -> None:
        while not stop.is_set() and reads[0] < 200_000:
            reads[0] += 1
            try:
                json.loads(path.read_text())
            except ValueError as e:
                bad.append(repr(e))

    t = threading.Thread(target=reader)
    t.start()
    try:
        for port in range(2, 3_000):
            write_port_file(path, port)
    finally:
        stop.set()
        t.join(30)
    assert json.loads(path.read_text()) == {"port": 2_999}
    assert reads[0] > 100 and not bad, bad[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["port.json"]


def test_a_tampered_or_unsigned_item_earns_nothing() -> None:
    """The swapped-item attack: an item under a known id with a trivial formula swapped in (it
    earned 1.0), the same under a new id, a forged or stale signature — each an error and no
    reward; the item as /generate gave it, with or without its signature, is paid."""
    from logicforge.kinds import answer_format

    async def go(url: str) -> None:
        async with aiohttp.ClientSession() as s:
            st, g = await _post(s, f"{url}/generate", {"family": "ksat/random", "count": 2})
            assert st == 200 and len(g["signatures"]) == 2
            item, sig = g["items"][0], g["signatures"][0]
            it = lf.Item.model_validate(item)
            good = answer_format(it).to_text(answer_format(it).oracle(it), it)
            trivial = json.loads(json.dumps(item))
            trivial["problem"]["clauses"] = [[1]]
            trivial["gold"]["label"] = "SAT"
            renamed = trivial | {"item_id": "fresh-id"}
            easy = '{"answer": "SAT", "assignment": {"x1": true}}'
            reqs = [
                {"item": item, "response": good},  # the server's own item, by content
                {"item": item, "signature": sig, "response": good},
                {"item": trivial, "response": easy},  # swapped formula under a known id
                {"item": trivial, "signature": sig, "response": easy},
                {"item": renamed, "response": easy},  # unsigned, under a new id
                {"item": renamed, "signature": sig, "response": easy},  # another item's signature
                {"item": renamed, "signature": "0" * 64, "response": easy},
            ]
            st, v = await _post(s, f"{url}/verify", {"requests": reqs, "reward_mode": "decision"})
            res = v["results"]
            assert [r.get("reward") for r in res[:2]] == [1.0, 1.0]
            for r in res[2:]:
                assert "reward" not in r and r["error"], r
            assert "differs from the item" in res[2]["error"]
            assert "no signature" in res[4]["error"] and "does not match" in res[5]["error"]

    with Server() as srv:
        asyncio.run(go(srv.url))
    with Server(accept_unsigned=True) as srv:  # still refuses a changed item under a known id

        async def known_id(url: str) -> None:
            async with aiohttp.ClientSession() as s:
                _, g = await _post(s, f"{url}/generate", {"family": "ksat/random", "count": 1})
                bad = json.loads(json.dumps(g["items"][0]))
                bad["problem"]["clauses"] = [[1]]
                _, v = await _post(
                    s, f"{url}/verify", {"requests": [{"item": bad, "response": "SAT"}]}
                )
                assert "differs" in v["results"][0]["error"]

        asyncio.run(known_id(srv.url))


def test_generate_refuses_items_verify_could_not_pay() -> None:
    """`/generate` handed out `formula` items on ksat/random whose UNSAT ones `/verify` then
    refused, while `serve-verify --items` refused the same items at start-up."""

    async def go(url: str) -> None:
        async with aiohttp.ClientSession() as s:
            ask = {"family": "ksat/random", "params": {"n_vars": 6}, "count": 4}
            st, e = await _post(s, f"{url}/generate", {**ask, "renderer": "formula"})
            assert st == 400 and "formula-proof" in e["error"] and "decision" in e["error"]
            st, ok = await _post(s, f"{url}/generate", ask)  # the training renderer
            assert st == 200 and {it["rendering"] for it in ok["items"]} == {"formula-proof"}
            st, ok = await _post(
                s, f"{url}/generate", {**ask, "renderer": "formula", "reward_mode": "decision"}
            )
            assert st == 200 and len(ok["items"]) == 4  # named: the decision reward pays them

    with InThread() as srv:
        asyncio.run(go(srv.url))
