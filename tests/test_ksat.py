from __future__ import annotations

import statistics

import numpy as np
import pytest

import logicforge as lf
from logicforge import CNF, ConfigError, GenerationError
from logicforge.families.ksat import KSATParams, random_ksat


def test_clause_shape_and_counts() -> None:
    rng = np.random.default_rng(0)
    for k in (1, 2, 3, 5):
        f = random_ksat(KSATParams(n_vars=12, k=k, n_clauses=50), rng)
        assert f.num_clauses == 50 and f.num_vars == 12
        assert all(len(c) == k and len({abs(x) for x in c}) == k for c in f.clauses)


def test_alpha_rounding_and_metadata() -> None:
    p = lf.generate("ksat/random", {"n_vars": 75, "alpha": 4.26}, count=1, seed=0)[0]
    assert p.metadata["n_clauses"] == 320 and p.metadata["alpha"] == 4.26  # as asked
    assert p.metadata["clause_ratio"] == pytest.approx(320 / 75)
    assert p.oracle["solver"] == "minisat22" and p.metadata["decisions"] is not None
    assert p.family == "ksat/random" and p.seed == 0 and p.label in ("SAT", "UNSAT")


def test_polarity_is_fair() -> None:
    f = random_ksat(KSATParams(n_vars=50, n_clauses=4000), np.random.default_rng(1))
    neg = sum(x < 0 for c in f.clauses for x in c) / (3 * 4000)
    assert 0.47 < neg < 0.53


def test_distinct_clauses() -> None:
    f = random_ksat(
        KSATParams(n_vars=5, k=3, n_clauses=70, distinct_clauses=True), np.random.default_rng(2)
    )
    assert len({frozenset(c) for c in f.clauses}) == 70
    with pytest.raises(ConfigError, match="distinct"):
        KSATParams(n_vars=4, k=3, n_clauses=33, distinct_clauses=True)  # only 4·8 = 32 exist


def test_target_label() -> None:
    ps = lf.generate(
        "ksat/random",
        {"n_vars": 20, "alpha": 3.8, "target_label": "UNSAT", "max_attempts": 500},
        count=5,
        seed=1,
    )
    for p in ps:
        assert p.label == "UNSAT"
        assert lf.solve(CNF.from_json(p.problem)).label == "UNSAT"


def test_target_label_bound_hit_is_clear() -> None:
    with pytest.raises(GenerationError, match="no UNSAT instance in 3 draws"):
        lf.generate(
            "ksat/random",
            {"n_vars": 30, "alpha": 1.0, "target_label": "UNSAT", "max_attempts": 3},
            count=1,
            seed=0,
        )


@pytest.mark.parametrize(
    "params, field",
    [
        ({"n_vars": 0, "alpha": 1.0}, "n_vars"),
        ({"n_vars": 5, "k": 6, "alpha": 1.0}, "k"),
        ({"n_vars": 5, "k": 1}, "alpha"),  # no threshold known for k = 1: a count is needed
        ({"n_vars": 5, "alpha": 1.0, "n_clauses": 3}, "alpha"),
        ({"n_vars": 5, "alpha": -1.0}, "alpha"),
        ({"n_vars": 5, "alpha": 1.0, "target_label": "MAYBE"}, "target_label"),
        ({"n_vars": 5, "alpha": 1.0, "colour": "red"}, "colour"),
    ],
)
def test_bad_params_name_the_field(params: dict, field: str) -> None:
    with pytest.raises(ConfigError) as e:
        lf.generate("ksat/random", params, count=1, seed=0)
    assert e.value.field == field and repr(field) in str(e.value)


def test_the_family_defaults_generate_at_the_threshold() -> None:
    """No clause count given: alpha is k's satisfiability threshold (``generate`` with the
    family's own defaults is valid, on the command line too)."""
    (p,) = lf.generate("ksat/random", {}, count=1, seed=0)
    assert p.params["alpha"] == 4.26 and len(p.problem["clauses"]) == round(4.26 * 20)
    (q,) = lf.generate("ksat/random", {"k": 2, "n_vars": 30}, count=1, seed=0)
    assert q.params["alpha"] == 1.0 and len(q.problem["clauses"]) == 30


def test_the_cli_generates_with_the_family_defaults(tmp_path) -> None:
    from logicforge.cli import main

    assert main(["generate", "--family", "ksat/random", "--out", str(tmp_path), "--quiet"]) == 0
    assert (tmp_path / "items.jsonl").read_text().count("\n") == 10


def test_unknown_family_lists_known() -> None:
    with pytest.raises(lf.UnknownNameError, match="ksat/random"):
        lf.generate("nosuch", {}, count=1)


def test_phase_transition_n75() -> None:
    alphas = [3.5, 3.8, 4.0, 4.2, 4.4, 4.6, 4.8, 5.0, 5.5]
    ps = lf.generate("ksat/random", {"n_vars": 75}, count=100, seed=11, grid={"alpha": alphas})
    by: dict[float, list] = {}
    for p in ps:
        by.setdefault(round(p.params["alpha"], 2), []).append(p)
    psat = {a: sum(p.label == "SAT" for p in by[a]) / len(by[a]) for a in alphas}
    dec = {a: statistics.median(p.metadata["decisions"] for p in by[a]) for a in alphas}
    assert psat[3.5] >= 0.95 and psat[5.5] <= 0.05
    crossing = [a for a, b in zip(alphas, alphas[1:], strict=False) if psat[a] >= 0.5 > psat[b]]
    assert crossing and crossing[0] >= 4.0 and crossing[0] < 4.6
    peak = max(dec, key=lambda a: dec[a])
    assert 3.9 <= peak <= 4.7, dec


def test_draw_vars_rechecks_only_redrawn_rows_with_the_same_draws() -> None:
    """The redraw loop tests only the rows it redrew; the result (and the generator's state
    after it) is that of testing the whole matrix each round, and no row repeats a variable."""
    import itertools

    import numpy as np

    from logicforge.families.ksat import _draw_vars

    def whole_matrix(rng: np.random.Generator, m: int, n: int, k: int) -> np.ndarray:
        out = rng.integers(1, n + 1, size=(m, k))
        while k > 1:
            rep = np.zeros(m, dtype=bool)
            for a, b in itertools.combinations(range(k), 2):
                rep |= out[:, a] == out[:, b]
            bad = np.flatnonzero(rep)
            if bad.size == 0:
                break
            out[bad] = rng.integers(1, n + 1, size=(bad.size, k))
        return out

    for seed, (m, n, k) in itertools.product(
        range(5), [(320, 75, 3), (40, 9, 4), (200, 12, 5), (7, 4, 2)]
    ):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        got, want = _draw_vars(a, m, n, k), whole_matrix(b, m, n, k)
        assert np.array_equal(got, want)
        assert a.random() == b.random()
        assert all(len(set(r)) == k for r in got.tolist())
