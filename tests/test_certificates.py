"""Certificate answer formats (MUS, MCS, MaxSAT, SAT search): render → parse → verify → reward on
hand-made formulas whose every answer's credit is worked out by hand, and on generated ones
against an independent brute-force check."""

from __future__ import annotations

import itertools
import json

import pytest

import logicforge as lf
from logicforge.kinds import answer_format, parse_answer, verify
from logicforge.logic import optimum as opt
from logicforge.metrics.reward import reward, uncertified

# C1 x1 · C2 ¬x1∨x2 · C3 ¬x2 · C4 x3 · C5 x1∨x3 · C6 x4 · C7 x5 · C8 x4∨x5: the only MUS is
# {C1, C2, C3}; the MCSs are {C1}, {C2}, {C3}; MaxSAT optimum 7 of 8; a random assignment
# satisfies 4.75 clauses on average
UNSAT = [[1], [-1, 2], [-2], [3], [1, 3], [4], [5], [4, 5]]
SAT = [[1, 2], [-1, 2], [-2, 3]]


def _item(clauses: list[list[int]], task: str, n: int = 5) -> lf.Item:
    label = lf.solve(lf.CNF(clauses, n)).label
    p = lf.LabelledProblem(
        problem_id=f"hand-{task}-{label}",
        family="hand",
        kind="cnf",
        params={},
        seed=0,
        spawn_key=[0],
        problem={"clauses": clauses, "num_vars": n},
        label=label,
    )
    return lf.render([p], f"formula-{task}")[0]


def _r(it: lf.Item, obj: dict[str, object], partial: bool = True) -> float:
    return reward(it, "Let me think.\n" + json.dumps(obj), partial=partial)


def _assign(*vals: bool) -> dict[str, bool]:
    return {f"x{i}": v for i, v in enumerate(vals, 1)}


def test_mus_credit_by_hand() -> None:
    it = _item(UNSAT, "mus")
    assert (
        "C8: (x4 ∨ x5)" in it.messages[0].content and '"mus": [1, 4, 7]' in it.messages[0].content
    )
    assert _r(it, {"answer": "UNSAT", "mus": [3, 1, 2]}) == 1.0
    assert _r(it, {"answer": "UNSAT", "mus": ["C1", "C2", "C3"]}, partial=False) == 1.0
    assert _r(it, {"answer": "UNSAT", "mus": [1, 2, 3, 4]}) == 0.5 * 3 / 4  # unsat, not minimal
    assert _r(it, {"answer": "UNSAT", "mus": [1, 2, 3, 4]}, partial=False) == 0.0
    assert _r(it, {"answer": "UNSAT", "mus": list(range(1, 9))}) == 0.5 * 3 / 8
    assert _r(it, {"answer": "UNSAT", "mus": [1, 2]}) == 0.0  # can hold together
    assert _r(it, {"answer": "UNSAT", "mus": [1, 2, 3, 9]}) == 0.0  # C9 does not exist
    assert _r(it, {"answer": "UNSAT", "mus": []}) == 0.0
    assert _r(it, {"answer": "UNSAT"}) == 0.0  # the label alone earns nothing here
    assert _r(it, {"answer": "SAT", "assignment": _assign(True, True, True, True, True)}) == 0.0
    v = verify(it, parse_answer('{"answer": "UNSAT", "mus": [1, 2, 3, 4]}', it))
    assert not v.correct and v.details["minimal_inside"] == 3 and "3 of the 4" in v.reason


def test_mcs_credit_by_hand() -> None:
    it = _item(UNSAT, "mcs")
    for one in (1, 2, 3):
        assert _r(it, {"answer": "UNSAT", "mcs": [one]}) == 1.0
    assert _r(it, {"answer": "UNSAT", "mcs": [1, 4]}) == 0.5 * 1 / 2  # C4 can be kept
    assert _r(it, {"answer": "UNSAT", "mcs": [1, 2, 3]}) == 0.5 * 1 / 3
    assert _r(it, {"answer": "UNSAT", "mcs": [4]}) == 0.0  # still unsatisfiable
    assert _r(it, {"answer": "UNSAT", "mcs": []}) == 0.0
    assert _r(it, {"answer": "UNSAT", "mcs": [0]}) == 0.0


def test_maxsat_credit_by_hand() -> None:
    it = _item(UNSAT, "maxsat")
    best = _assign(True, True, True, True, True)
    assert _r(it, {"assignment": best, "satisfied": 7}) == 1.0
    assert _r(it, {"assignment": best, "satisfied": 8}) == 0.0  # a false count
    assert _r(it, {"assignment": best}) == 0.0  # no count
    # satisfies C1 C2 C4 C5 C6 C8 = 6: ½ · (6 − 4.75) / (7 − 4.75)
    six = _assign(True, True, True, True, False)
    assert _r(it, {"assignment": six, "satisfied": 6}) == pytest.approx(0.5 * 1.25 / 2.25)
    assert _r(it, {"assignment": six, "satisfied": 6}, partial=False) == 0.0
    # satisfies C2 C3 only: below a random assignment's mean, no credit
    assert _r(it, {"assignment": _assign(False, False, False, False, False), "satisfied": 2}) == 0.0
    v = verify(it, parse_answer(json.dumps({"assignment": six, "satisfied": 6}), it))
    assert v.details == {"optimum": 7, "satisfied": 6, "claimed": 6}
    s = _item(SAT, "maxsat", 3)
    assert s.gold["label"] == "SAT"
    assert _r(s, {"assignment": _assign(True, True, True), "satisfied": 3}) == 1.0
    a = parse_answer(json.dumps({"assignment": _assign(True, True, True), "satisfied": 3}), s)
    assert a.label == "SAT"


def test_search_and_the_sat_side_of_the_set_formats() -> None:
    u, s = _item(UNSAT, "search"), _item(SAT, "search", 3)
    with pytest.raises(lf.ConfigError, match="no certificate of UNSAT"):
        _r(u, {"answer": "UNSAT"})  # a bare UNSAT: nothing to certify, the certified reward refuses
    assert reward(u, json.dumps({"answer": "UNSAT"}), mode="decision") == 1.0
    bogus = {"answer": "SAT", "assignment": _assign(True, True, True, True, True)}
    assert reward(u, json.dumps(bogus), mode="decision") == 0.0
    assert _r(s, {"answer": "SAT", "assignment": _assign(True, True, True)}) == 1.0
    assert _r(s, {"answer": "SAT", "assignment": _assign(False, False, False)}) == 0.0
    assert _r(s, {"answer": "SAT"}) == 0.0  # a bare label finds nothing
    assert _r(s, {"answer": "UNSAT"}) == 0.0
    for task in ("mus", "mcs"):
        it = _item(SAT, task, 3)
        assert _r(it, {"answer": "SAT", "assignment": _assign(True, True, True)}) == 1.0
        assert _r(it, {"answer": "UNSAT", task: [1, 2, 3]}) == 0.0


def _brute(clauses: list[list[int]], n: int) -> int:
    best = 0
    for bits in itertools.product((False, True), repeat=n):
        vals = {v: bits[v - 1] for v in range(1, n + 1)}
        best = max(best, opt.satisfied(clauses, vals))
    return best


@pytest.mark.parametrize("task", ["mus", "mcs", "maxsat", "search"])
def test_oracle_certificates_check_out_independently(task: str) -> None:
    """On generated formulas the oracle's certificate earns 1.0, and brute force over every
    assignment agrees with its MUS / MCS / optimum."""
    ps = lf.generate("ksat/random", {"n_vars": 7}, count=6, seed=3, grid={"alpha": [3.0, 7.0]})
    for it in lf.render(ps, f"formula-{task}"):
        f = answer_format(it)
        text = f.to_text(f.oracle(it), it)
        mode = "decision" if uncertified(it) else "certified"  # search: a bare UNSAT
        assert reward(it, text, mode=mode) == 1.0
        assert reward(it, text, partial=True, mode=mode) == 1.0
        clauses = [list(c) for c in it.problem["clauses"]]
        cert = parse_answer(text, it).certificate or {}

        def sat(idx: list[int], clauses: list[list[int]] = clauses) -> bool:
            sub = [clauses[i] for i in idx]
            return _brute(sub, 7) == len(sub)

        if task == "mus" and it.gold["label"] == "UNSAT":
            core = [i - 1 for i in cert["mus"]]
            assert not sat(core) and all(sat([j for j in core if j != i]) for i in core)
        if task == "mcs" and it.gold["label"] == "UNSAT":
            drop = {i - 1 for i in cert["mcs"]}
            rest = [j for j in range(len(clauses)) if j not in drop]
            assert sat(rest) and all(not sat([*rest, i]) for i in drop)
            assert len(drop) == len(clauses) - _brute(clauses, 7)  # a smallest one
        if task == "maxsat":
            assert cert["satisfied"] == _brute(clauses, 7)
