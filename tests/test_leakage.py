"""Duplicates up to symmetry and train/test leakage: a renamed-and-shuffled CNF (literal order
too) and a relabelled zebra puzzle are found; unrelated problems are not; a sealed test set's
revealed seed regenerates exactly the committed hash."""

from __future__ import annotations

import json

import numpy as np

import logicforge as lf
from logicforge.cli import main
from logicforge.leakage import canonical_key, check_leakage, check_seal, exact_key, exclude, seal
from logicforge.runner.store import write_jsonl


def _scramble(p: lf.LabelledProblem, seed: int) -> lf.LabelledProblem:
    """Rename the variables, reorder the clauses and the literals inside each clause."""
    rng = np.random.default_rng(seed)
    n = p.problem["num_vars"]
    perm = rng.permutation(n) + 1
    cl = [[int(np.sign(x)) * int(perm[abs(x) - 1]) for x in c] for c in p.problem["clauses"]]
    cl = [list(rng.permutation(c)) for c in cl]
    cl = [cl[i] for i in rng.permutation(len(cl))]
    prob = {**p.problem, "clauses": [[int(x) for x in c] for c in cl]}
    return p.model_copy(update={"problem": prob, "problem_id": p.problem_id + "-scrambled"})


def test_cnf_copies_up_to_renaming_and_order() -> None:
    train = lf.generate("ksat/random", {"n_vars": 20, "alpha": 4.26}, count=40, seed=1)
    test = [_scramble(train[3], 0), _scramble(train[7], 1)]
    test += lf.transform(train[10:11], "shuffle")  # the same clauses in another order: exact
    fresh = lf.generate("ksat/random", {"n_vars": 20, "alpha": 4.26}, count=40, seed=2)
    r = check_leakage(train, test + fresh)
    assert r["symmetric"] == 2 and r["exact"] == 1
    assert {p["train"][0] for p in r["symmetric_pairs"]} == {
        train[3].problem_id,
        train[7].problem_id,
    }
    assert r["duplicates_within_train"] == 0
    assert exact_key(test[0]) != exact_key(train[3]) and canonical_key(test[0]) == canonical_key(
        train[3]
    )
    flipped = train[3].model_copy(
        update={
            "problem": {
                **train[3].problem,
                "clauses": [[-x for x in c] for c in train[3].problem["clauses"]],
            }
        }
    )
    assert canonical_key(flipped) != canonical_key(
        train[3]
    )  # polarity flips are a different formula
    assert len(exclude(test + fresh, train)) == len(fresh)


def test_zebra_relabelled_puzzles() -> None:
    train = lf.generate("zebra", {"n_houses": 4, "n_attributes": 4}, count=30, seed=5)
    test = lf.transform(train[:2], "zebra-rename") + lf.transform(train[2:3], "zebra-shuffle")
    fresh = lf.generate("zebra", {"n_houses": 4, "n_attributes": 4}, count=30, seed=6)
    r = check_leakage(train, test + fresh)
    assert r["exact"] + r["symmetric"] == 3
    assert {p["train"][0] for p in r["exact_pairs"] + r["symmetric_pairs"]} == {
        p.problem_id for p in train[:3]
    }
    assert len({canonical_key(p) for p in train}) == 30


def test_the_command_and_a_sealed_set(tmp_path, capsys) -> None:
    train = lf.generate("ksat/random", {"n_vars": 12, "alpha": 4.0}, count=10, seed=1)
    test = [
        _scramble(train[0], 3),
        *lf.generate("ksat/random", {"n_vars": 12, "alpha": 4.0}, count=5, seed=8),
    ]
    write_jsonl(tmp_path / "train.jsonl", train)
    write_jsonl(tmp_path / "test.jsonl", test)
    args = ["check-leakage", str(tmp_path / "train.jsonl"), str(tmp_path / "test.jsonl")]
    assert main([*args, "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert (r["exact"], r["symmetric"]) == (0, 1)
    assert main([*args, "--fail"]) == 1
    s = seal("ksat/random", {"n_vars": 12, "alpha": 4.0}, 5, seed=8)
    assert check_seal(s, "ksat/random", {"n_vars": 12, "alpha": 4.0}, 5, seed=8)
    assert not check_seal(s, "ksat/random", {"n_vars": 12, "alpha": 4.0}, 5, seed=9)
