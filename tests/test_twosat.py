from __future__ import annotations

import numpy as np
import pytest

import logicforge as lf
from logicforge import CNF
from logicforge.families._twosat import brute_force_count
from logicforge.logic.sat import count_models, solve
from logicforge.logic.twosat import check_certificate, forced_literals, free_variables, solve_2sat


def random_2cnf(rng: np.random.Generator, n: int, m: int, unit_rate: float = 0.1) -> CNF:
    cl = []
    for _ in range(m):
        w = 1 if (rng.random() < unit_rate or n == 1) else 2
        vs = rng.choice(n, w, replace=False) + 1
        cl.append([int(v) * (1 if rng.random() < 0.5 else -1) for v in vs])
    return CNF(cl, n)


def test_scc_oracle_matches_cdcl_and_certificates_check() -> None:
    rng = np.random.default_rng(0)
    seen = {"SAT": 0, "UNSAT": 0}
    for _ in range(1500):
        n = int(rng.integers(1, 40))
        f = random_2cnf(rng, n, int(rng.integers(0, 3 * n + 2)))
        r = solve_2sat(f)
        assert r.label == solve(f).label
        seen[r.label] += 1
        if r.label == "SAT":
            assert f.evaluate(dict((abs(x), x > 0) for x in r.model or ()))
        else:
            assert check_certificate(f, r.witness_var, r.path_pos_to_neg, r.path_neg_to_pos)
    assert min(seen.values()) > 300


def test_certificate_checker_rejects_wrong_paths() -> None:
    f = CNF([[1, 2], [-1, 2], [1, -2], [-1, -2]])
    r = solve_2sat(f)
    assert check_certificate(f, r.witness_var, r.path_pos_to_neg, r.path_neg_to_pos)
    assert not check_certificate(f, r.witness_var, r.path_neg_to_pos, r.path_pos_to_neg)
    assert not check_certificate(f, r.witness_var, [], [])


def test_backbone_and_free_variables_against_enumeration() -> None:
    rng = np.random.default_rng(1)
    for _ in range(150):
        n = int(rng.integers(1, 10))
        f = random_2cnf(rng, n, int(rng.integers(0, 2 * n + 1)), unit_rate=0.15)
        if solve(f).label != "SAT":
            with pytest.raises(lf.LogicforgeError):
                forced_literals(f)
            continue
        models = []
        bits = [[(i >> (v - 1)) & 1 == 1 for v in range(1, n + 1)] for i in range(1 << n)]
        for b in bits:
            a = {v: b[v - 1] for v in range(1, n + 1)}
            if f.evaluate(a):
                models.append(a)
        truth = {v: {m[v] for m in models} for v in range(1, n + 1)}
        expect = {v: next(iter(s)) for v, s in truth.items() if len(s) == 1}
        assert forced_literals(f) == expect
        assert free_variables(f) == [v for v in range(1, n + 1) if v not in expect]


def test_width_three_is_rejected() -> None:
    with pytest.raises(lf.LogicforgeError, match="2-CNF"):
        solve_2sat(CNF([[1, 2, 3]]))


def test_large_instance_is_fast_enough_to_run() -> None:
    rng = np.random.default_rng(2)
    n, m = 50_000, 100_000
    a = rng.integers(1, n + 1, (m, 2)) * np.where(rng.random((m, 2)) < 0.5, -1, 1)
    f = CNF.trusted(tuple(map(tuple, a.tolist())), n)
    assert solve_2sat(f).label == solve(f).label


TWOSAT = ["2sat/implication-cycle", "2sat/equivalence-core", "2sat/backbone", "2sat/mono-bridge"]


@pytest.mark.parametrize("family", TWOSAT)
@pytest.mark.parametrize("target", [5, 10, 15, 20, 50])
def test_family_labels_counts_and_sizes(family: str, target: int) -> None:
    rng = np.random.default_rng(target)
    for knobs in [
        {},
        *({k: float(rng.choice([0, 0.2, 1 / 3, 0.5, 2 / 3, 0.8, 1]))} for k in _knobs(family)),
    ]:
        for p in lf.generate(family, {"n_clauses": target, **knobs}, count=4, seed=target):
            f = CNF.from_json(p.problem)
            assert abs(f.num_clauses - target) <= 1
            assert p.label == solve(f).label == solve_2sat(f).label
            if family == "2sat/implication-cycle":
                assert (
                    p.label == "UNSAT"
                    and p.metadata["core_size"] + p.metadata["filler_count"] == f.num_clauses
                )
            else:
                assert p.label == "SAT"
            if f.num_vars <= 14 and p.label == "SAT":
                exact, done = count_models(f, limit=1 << 15)
                assert done and p.metadata["model_count"] == exact == brute_force_count(
                    f.clauses, f.num_vars
                )
            if family == "2sat/equivalence-core" and f.num_vars <= 14:
                assert p.metadata["model_count"] == 2 ** p.metadata["free_vars"]
            if family == "2sat/backbone":
                bb = forced_literals(f)
                assert sorted(bb) == p.metadata["backbone"]
                assert [bb[v] for v in p.metadata["backbone"]] == p.metadata["backbone_values"]


def _knobs(family: str) -> list[str]:
    return {
        "2sat/implication-cycle": ["imbalance", "filler_ratio", "extra_vars"],
        "2sat/equivalence-core": ["free_ratio", "negation"],
        "2sat/backbone": ["backbone_fraction", "mono_density"],
        "2sat/mono-bridge": ["var_density", "positive_ratio", "bridge_position"],
    }[family]


def test_implication_cycle_twist_extremes() -> None:
    for imb, k_expected in [(0.0, 1), (1.0, None)]:
        p = lf.generate(
            "2sat/implication-cycle",
            {"n_clauses": 12, "filler_ratio": 0.0, "imbalance": imb},
            count=1,
            seed=0,
        )[0]
        L = p.metadata["cycle_length"]
        assert L == 11 and p.metadata["twist"] == (k_expected or L)


@pytest.mark.parametrize(
    "base", ["2sat/implication-cycle", "2sat/mono-bridge", "2sat/equivalence-core"]
)
@pytest.mark.parametrize("layout", ["grouped", "interleaved"])
def test_symmetry_label_and_model_count(base: str, layout: str) -> None:
    for d in (2, 3):
        ps = lf.generate(
            "2sat/symmetry",
            {
                "base_family": base,
                "base_params": {"n_clauses": 5},
                "copies": d,
                "layout": layout,
                "shuffle_copies": True,
                "trigger": "first",
            },
            count=3,
            seed=d,
        )
        for p in ps:
            f = CNF.from_json(p.problem)
            base_label = "UNSAT" if base == "2sat/implication-cycle" else "SAT"
            assert p.label == base_label == solve(f).label
            assert f.num_clauses == d * p.metadata["base_n_clauses"]
            bm = p.metadata["base_metadata"].get("model_count")
            if bm is not None and f.num_vars <= 16:
                assert brute_force_count(f.clauses, f.num_vars) == bm**d


def test_bad_knob_names_field() -> None:
    with pytest.raises(lf.ConfigError, match="'imbalance'"):
        lf.generate("2sat/implication-cycle", {"imbalance": 1.5}, count=1)
    with pytest.raises(lf.ConfigError, match="'order'"):
        lf.generate("2sat/mono-bridge", {"order": "sideways"}, count=1)
    with pytest.raises(lf.ConfigError, match="'copies'"):
        lf.generate("2sat/symmetry", {"copies": 1}, count=1)


def test_mono_bridge_records_the_realised_variable_density() -> None:
    """``var_density_actual`` is computed from the emitted formula: occurring variables / 2|C|,
    and every declared variable occurs (each part is covered before random pairs are added)."""
    ps = lf.generate("2sat/mono-bridge", {"n_clauses": 150, "var_density": 1.0}, count=3, seed=0)
    for p in ps:
        occurring = {abs(x) for c in p.problem["clauses"] for x in c}
        assert p.metadata["var_density_actual"] == round(len(occurring) / 300, 6)
        assert len(occurring) == p.problem["num_vars"]
        assert p.metadata["var_density_actual"] >= 0.99


def test_backbone_in_construction_order_is_the_same_formula_in_pairs() -> None:
    """§5.3 needs Backbone in construction order (it used to be always permuted): the same
    clauses as the shuffled default, each backbone pair adjacent, then the monotone part."""
    for seed in range(3):
        a = lf.generate("2sat/backbone", {"n_clauses": 30, "order": "construction"}, 1, seed)[0]
        b = lf.generate("2sat/backbone", {"n_clauses": 30}, 1, seed)[0]
        ca, cb = [tuple(c) for c in a.problem["clauses"]], [tuple(c) for c in b.problem["clauses"]]
        assert sorted(ca) == sorted(cb) and ca != cb and a.label == b.label == "SAT"
        nb = a.metadata["backbone_size"]
        pairs = ca[: 2 * nb]
        assert all(pairs[i][0] == pairs[i + 1][0] for i in range(0, 2 * nb, 2))
        assert {abs(p[0]) for p in pairs} == set(a.metadata["backbone"])


def test_implication_cycle_core_share_is_the_papers_L_over_n() -> None:
    """§3.1 (iv): n ≥ L variables, those outside the core only in fillers, controlling L/n. Set,
    ``core_share`` gives L/n (within rounding); unset, problems keep their bytes and ids."""
    import logicforge as lf

    base = lf.generate("2sat/implication-cycle", {"n_clauses": 75}, count=2, seed=3)
    assert all("core_share" not in p.params and "core_share_actual" not in p.metadata for p in base)
    for share in (0.4, 0.6, 0.8):
        ps = lf.generate(
            "2sat/implication-cycle", {"n_clauses": 75, "core_share": share}, count=3, seed=3
        )
        for p in ps:
            L, n = p.metadata["core_vars"], p.problem["num_vars"]
            assert p.label == "UNSAT" and abs(L / n - share) <= 0.5 * L / (n * (n - 0.5)) + 1e-6
            assert p.metadata["core_share_actual"] == round(L / n, 6)
            core = {abs(x) for i in p.metadata["core_clauses"] for x in p.problem["clauses"][i]}
            rest = [
                c for i, c in enumerate(p.problem["clauses"]) if i not in p.metadata["core_clauses"]
            ]
            assert len(core) == L and not core & {abs(x) for c in rest for x in c}
    with pytest.raises(lf.ConfigError, match="core_share"):
        lf.generate("2sat/implication-cycle", {"n_clauses": 75, "core_share": 0.0}, count=1)
