"""The fast construction paths give the same puzzles as the plain ones, and their proofs hold
up against independent methods: a warm solver answers as a fresh one does, the run-wise clue
removal keeps exactly the clues of the one-by-one greedy, the 4 × 4 sudoku enumeration agrees
with OR-Tools CP-SAT, and the knights truth tables agree with one-by-one enumeration and with a
SAT solver counting the models of the encoding."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from pysat.solvers import Solver

import logicforge as lf
from logicforge.errors import ConfigError
from logicforge.families import _latin, futoshiki, knights, sudoku
from logicforge.kinds.puzzle import minimal_clues
from logicforge.logic import sat
from logicforge.logic.sat import warm_solver


def _greedy(base, clues, solution, order, keep=0) -> list[int]:
    """The one-by-one greedy with a fresh solver per question (the reference)."""
    kept = list(range(len(clues)))
    for i in order:
        if len(kept) <= keep:
            break
        trial = [c for j in kept if j != i for c in clues[j]]
        with Solver(name="cadical195", bootstrap_with=[*base, *trial, [-x for x in solution]]) as s:
            if not s.solve():
                kept.remove(i)
    return kept


@pytest.mark.parametrize("warm", [False, True])
@pytest.mark.parametrize("keep", [0, 20])
def test_run_wise_removal_keeps_the_one_by_one_greedy_clues(warm: bool, keep: int) -> None:
    n = 5
    for seed in range(4):
        rng = np.random.default_rng(seed)
        sq = [[(i + j) % n + 1 for j in range(n)] for i in range(n)]
        sq = [sq[i] for i in rng.permutation(n)]
        lits = [_latin.var(n, i, j, sq[i][j] - 1) for i in range(n) for j in range(n)]
        pairs = [((i, j), (i, j + 1)) for i in range(n) for j in range(n - 1)]
        ineq = [(a, b) if sq[a[0]][a[1]] < sq[b[0]][b[1]] else (b, a) for a, b in pairs]
        clues = [((x,),) for x in lits] + [futoshiki.less(n, a, b) for a, b in ineq]
        order = np.random.default_rng(100 + seed).permutation(len(clues)).tolist()
        want = _greedy(_latin.rules(n), clues, lits, order, keep)
        got = minimal_clues(
            _latin.rules(n), n**3, clues, lits, np.random.default_rng(100 + seed), keep, warm
        )
        assert got == sorted(want)


def test_a_warm_solver_answers_as_a_fresh_one_use_after_use() -> None:
    rules = sudoku.rules(4)
    rng = np.random.default_rng(3)
    for _ in range(40):
        cells = rng.choice(64, size=int(rng.integers(1, 9)), replace=False) + 1
        extra = [[int(c) if rng.random() < 0.7 else -int(c)] for c in cells]
        with Solver(name="minisat22", bootstrap_with=[*rules, *extra]) as s:
            want = s.solve()
        with warm_solver("glucose4", rules, 64) as w:
            assert w.solve([w.guard(extra)]) == want
            assert w.solve() is True  # this use's clauses are off unless assumed


def test_a_warm_solver_takes_only_the_rules_variables_and_is_dropped_after_an_error() -> None:
    rules = sudoku.rules(4)
    with (
        pytest.raises(ConfigError, match="variables 1..64"),
        warm_solver("minisat22", rules, 64) as w,
    ):
        w.guard([[65]])
    with warm_solver("minisat22", rules, 64) as w2:
        assert w2 is not w  # a use that raised never hands its solver on
        assert w2.solve([w2.guard([[1], [2]])]) is False  # r1c1 cannot be 1 and 2


def test_a_warm_solver_is_rebuilt_after_its_uses(monkeypatch) -> None:
    monkeypatch.setattr(sat, "WARM_USES", 3)
    rules = ((1, 2), (-1, -2))
    seen = []
    for _ in range(7):
        with warm_solver("minisat22", rules, 2) as w:
            seen.append(w)  # held, so no two are the same object
            assert w.solve([w.guard([[1]])]) and not w.solve([w.guard([[1], [2]])])
    assert len({id(w) for w in seen}) == 3


def test_the_4x4_enumeration_is_every_grid_cpsat_finds() -> None:
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = [[m.new_int_var(1, 4, "") for _ in range(4)] for _ in range(4)]
    for g in sudoku.groups(4):
        m.add_all_different([x[i][j] for i, j in g])
    found = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(tuple(self.value(v) for row in x for v in row))

    s = cp_model.CpSolver()
    s.parameters.enumerate_all_solutions = True
    s.parameters.num_workers = 1
    s.solve(m, Collect())
    grids, masks = sudoku.grids4()
    assert sorted(found) == sorted(grids)
    for c, v in itertools.product(range(16), range(1, 5)):
        assert masks[c][v].bit_count() == sum(g[c] == v for g in grids) == 72


@pytest.mark.parametrize("n_givens", [0, 6, 10])
def test_4x4_sudoku_givens_are_those_the_sat_path_keeps(n_givens: int) -> None:
    fam = lf.FAMILIES.get("sudoku")
    p = sudoku.SudokuParams(4, n_givens)
    for seed in range(12):
        grid = sudoku.full_grid(4, np.random.default_rng(seed))
        rng_a, rng_b = np.random.default_rng(seed + 50), np.random.default_rng(seed + 50)
        lits = [_latin.var(4, i, j, grid[i][j] - 1) for i in range(4) for j in range(4)]
        by_sat = minimal_clues(sudoku.rules(4), 64, [[[x]] for x in lits], lits, rng_a, n_givens)
        flat = tuple(v for row in grid for v in row)
        assert sudoku._keep4(flat, rng_b, n_givens) == by_sat
    assert fam.generate(p, np.random.default_rng(0))[2]["solver"] == "enumeration"


def _sat_models(d: dict) -> list[dict[str, str]]:
    cnf, decode = knights.encode(d)
    n = len(d["cells"])
    out = []
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
        while s.solve() and len(out) < 3:
            m = s.get_model()
            out.append(decode({abs(x): x > 0 for x in m}))
            s.add_clause([-x for x in m[:n]])
    return out


@pytest.mark.parametrize("n", [2, 4, 7, 10])
def test_knights_truth_tables_agree_with_a_sat_solver_and_with_enumeration(n: int) -> None:
    for p in lf.generate("knights", {"n_people": n}, count=6, seed=8):
        d = p.problem
        assert _sat_models(d) == [d["solution"]], p.problem_id
    rng = np.random.default_rng(n)  # and on random statement sets, unique or not
    people = list(knights.NAMES[:n])
    but = {q: [x for x in people if x != q] for q in people}
    for _ in range(30):
        sts = [knights._statement(rng.random(5).tolist(), q, but) for q in people]
        fits = knights.models(people, sts)
        ones = []
        for vals in itertools.product((False, True), repeat=n):
            k = dict(zip(people, vals, strict=True))
            if all(knights.holds(st, k) == k[q] for q, st in zip(people, sts, strict=True)):
                ones.append(sum(1 << i for i, v in enumerate(vals) if v))
        assert fits == sum(1 << a for a in ones)


def test_4x4_uniqueness_tables_agree_with_the_grid_sets() -> None:
    """unique4's table (built by closing agreements under subsets) against the enumeration's
    own test — the AND of the givens' grid sets is one bit — on random clue sets of every
    size, for grids of every relabelling class."""
    grids, masks = sudoku.grids4()
    tables = sudoku.unique4()
    assert len({id(t) for t in tables.values()}) == 12  # one table per class of relabellings
    rng = np.random.default_rng(11)
    for g in rng.choice(len(grids), 40, replace=False).tolist():
        grid = list(grids)[g]
        for s in rng.integers(0, 1 << 16, 200).tolist():
            allowed = (1 << 288) - 1
            for k in range(16):
                if s >> k & 1:
                    allowed &= masks[k][grid[k]]
            assert bool(tables[grid][s]) == (allowed == 1 << g)
        assert tables[grid][(1 << 16) - 1] and not tables[grid][0]


def test_4x4_sudoku_grids_are_drawn_from_all_288() -> None:
    """Uniform over the enumeration: every grid turns up (the symmetry construction alone
    reaches 96), and no grid far more often than its share."""
    seen: dict[tuple[str, ...], int] = {}
    for p in lf.generate("sudoku", {"size": 4}, count=6000, seed=8):
        key = tuple(p.problem["solution"][c] for c in p.problem["cells"])
        seen[key] = seen.get(key, 0) + 1
    assert len(seen) == 288
    assert max(seen.values()) < 3 * 6000 / 288
