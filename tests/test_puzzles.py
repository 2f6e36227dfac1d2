"""The solution puzzles (sudoku, futoshiki, binairo, lightsout, knights): every label and its
uniqueness re-checked by a second, independent method — OR-Tools CP-SAT on a model of its own,
or brute force — replies read the way real models write them, and rewards no constant or
shape-only answer collects."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import logicforge as lf
from logicforge.kinds import answer_format, parse_answer, verify
from logicforge.metrics.reward import reward

PUZZLES = (
    "sudoku",
    "futoshiki",
    "binairo",
    "lightsout",
    "knights",
    "xorsat",
    "minesweeper",
    "queens",
)


def _grid(d: dict) -> list[list[int]]:
    return [
        [int(d["solution"][f"r{i}c{j}"]) for j in range(1, d["cols"] + 1)]
        for i in range(1, d["rows"] + 1)
    ]


def _cpsat_latin(d: dict, boxes: tuple[int, int] | None) -> list[list[list[int]]]:
    """Every solution of a sudoku / futoshiki by CP-SAT (AllDifferent and < on integers)."""
    from ortools.sat.python import cp_model

    n = d["rows"]
    m = cp_model.CpModel()
    x = [[m.new_int_var(1, n, f"x{i}{j}") for j in range(n)] for i in range(n)]
    for k in range(n):
        m.add_all_different(x[k])
        m.add_all_different([x[i][k] for i in range(n)])
    if boxes:
        r, c = boxes
        for bi, bj in itertools.product(range(n // r), range(n // c)):
            m.add_all_different([x[bi * r + a][bj * c + b] for a in range(r) for b in range(c)])
    cell = lambda k: x[int(k[1 : k.index("c")]) - 1][int(k[k.index("c") + 1 :]) - 1]  # noqa: E731
    for k, v in d["givens"].items():
        m.add(cell(k) == int(v))
    for a, b in d.get("less", []):
        m.add(cell(a) < cell(b))
    for cage in d.get("cages", []):  # KenKen's arithmetic, stated to CP-SAT directly
        xs = [cell(k) for k in cage["cells"]]
        op, t = cage["op"], cage["target"]
        if op == "=":
            m.add(xs[0] == t)
        elif op == "+":
            m.add(sum(xs) == t)
        elif op == "*":
            prod = xs[0]
            for y in xs[1:]:
                z = m.new_int_var(1, n ** len(xs), "")
                m.add_multiplication_equality(z, [prod, y])
                prod = z
            m.add(prod == t)
        elif op == "-":
            m.add_abs_equality(t, xs[0] - xs[1])
        else:
            big, small = m.new_int_var(1, n, ""), m.new_int_var(1, n, "")
            m.add_max_equality(big, xs)
            m.add_min_equality(small, xs)
            m.add(big == t * small)
    found: list[list[list[int]]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append([[self.value(v) for v in row] for row in x])
            if len(found) >= 3:
                self.stop_search()

    s = cp_model.CpSolver()
    s.parameters.enumerate_all_solutions = True
    s.parameters.num_workers = 1
    s.solve(m, Collect())
    return found


@pytest.mark.parametrize("params", [{"size": 4}, {"size": 6}, {"size": 9, "n_givens": 30}])
def test_sudoku_has_exactly_the_stored_solution_by_cpsat(params) -> None:
    for p in lf.generate("sudoku", params, count=4, seed=5):
        sols = _cpsat_latin(p.problem, tuple(p.problem["box"]))
        assert sols == [_grid(p.problem)], p.problem_id


@pytest.mark.parametrize("size", [6, 9])
def test_sudoku_grids_reach_beyond_one_symmetry_class(size: int) -> None:
    """Relabelling digits and permuting rows, bands, columns and stacks keep which digits share
    a row within a box, so the canonical pattern under symmetries alone gives n such digit sets
    in every grid; the cycle-swap walk gives grids with other patterns, as random grids have."""
    from logicforge.families.sudoku import BOXES

    c = BOXES[size][1]
    counts = []
    for p in lf.generate("sudoku", {"size": size, "n_givens": size * size}, count=20, seed=2):
        rows = _grid(p.problem)
        counts.append(
            len({frozenset(row[s * c : (s + 1) * c]) for row in rows for s in range(size // c)})
        )
    assert len(set(counts)) >= 3, counts
    assert sum(k != size for k in counts) >= (10 if size == 9 else 4), counts  # no walk: none


@pytest.mark.parametrize("size", [3, 4, 5])
def test_futoshiki_has_exactly_the_stored_solution_by_cpsat(size: int) -> None:
    for p in lf.generate("futoshiki", {"size": size}, count=4, seed=5):
        assert _cpsat_latin(p.problem, None) == [_grid(p.problem)], p.problem_id


def _binairo_brute(d: dict) -> list[tuple[str, ...]]:
    n = d["rows"]
    rows = ["".join(b) for b in itertools.product("01", repeat=n)]
    rows = [r for r in rows if r.count("1") == n // 2 and "000" not in r and "111" not in r]
    given = {
        (int(k[1 : k.index("c")]) - 1, int(k[k.index("c") + 1 :]) - 1): str(v)
        for k, v in d["givens"].items()
    }
    out = []

    def go(acc: list[str]) -> None:
        i = len(acc)
        if i == n:
            cols = ["".join(r[j] for r in acc) for j in range(n)]
            if len(set(cols)) == n and all(
                c.count("1") == n // 2 and "000" not in c and "111" not in c for c in cols
            ):
                out.append(tuple(acc))
            return
        for r in rows:
            if r in acc or any(r[j] != v for (a, j), v in given.items() if a == i):
                continue
            go([*acc, r])

    go([])
    return out


@pytest.mark.parametrize("size", [4, 6])
def test_binairo_has_exactly_the_stored_solution_by_brute_force(size: int) -> None:
    for p in lf.generate("binairo", {"size": size}, count=4, seed=5):
        d = p.problem
        want = tuple(
            "".join(d["solution"][f"r{i}c{j}"] for j in range(1, size + 1))
            for i in range(1, size + 1)
        )
        assert _binairo_brute(d) == [want], p.problem_id


@pytest.mark.parametrize("rc", [(2, 2), (3, 3), (3, 4)])
def test_lightsout_has_exactly_the_stored_presses_by_brute_force(rc) -> None:
    r, c = rc
    for p in lf.generate("lightsout", {"rows": r, "cols": c}, count=4, seed=5):
        d = p.problem
        lights = np.array(d["lights"])
        hits = []
        for bits in itertools.product((0, 1), repeat=r * c):
            board = lights.copy()
            for k, b in enumerate(bits):
                if b:
                    i, j = divmod(k, c)
                    for di, dj in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                        if 0 <= i + di < r and 0 <= j + dj < c:
                            board[i + di, j + dj] ^= 1
            if not board.any():
                hits.append(bits)
        want = tuple(int(d["solution"][f"r{k // c + 1}c{k % c + 1}"]) for k in range(r * c))
        assert hits == [want], p.problem_id


def test_an_even_xor_width_is_refused_with_the_reason() -> None:
    with pytest.raises(lf.ConfigError, match="flipping every"):
        lf.generate("xorsat", {"n_vars": 8, "k": 2}, count=1)


def test_a_singular_lightsout_board_is_refused_with_the_reason() -> None:
    with pytest.raises(lf.ConfigError, match="singular"):
        lf.generate("lightsout", {"rows": 5, "cols": 5}, count=1)


@pytest.mark.parametrize("n", [2, 3, 5, 7])
def test_knights_have_exactly_the_stored_assignment_by_enumeration(n: int) -> None:
    from logicforge.families.knights import holds

    for p in lf.generate("knights", {"n_people": n}, count=5, seed=5):
        d = p.problem
        fits = []
        for vals in itertools.product((True, False), repeat=n):
            k = dict(zip(d["cells"], vals, strict=True))
            if all(holds(st, k) == k[q] for q, st in zip(d["cells"], d["statements"], strict=True)):
                fits.append({q: "knight" if k[q] else "knave" for q in d["cells"]})
        assert fits == [d["solution"]], p.problem_id


def _sudoku_item() -> lf.Item:
    return lf.render(lf.generate("sudoku", {"size": 4}, count=1, seed=3), "sudoku")[0]


def test_replies_in_the_layouts_real_models_write() -> None:
    it = _sudoku_item()
    rows = [[it.problem["solution"][f"r{i}c{j}"] for j in range(1, 5)] for i in range(1, 5)]
    plain = "\n".join(" ".join(r) for r in rows)
    table = "| | | | |\n|---|---|---|---|\n" + "\n".join("| " + " | ".join(r) + " |" for r in rows)
    replies = {
        "json rows of numbers": "Done.\n"
        + json.dumps({"solution": [[int(x) for x in r] for r in rows]}),
        "json rows of strings": json.dumps({"solution": ["".join(r) for r in rows]}),
        "json cell map": json.dumps(
            {
                "solution": {
                    f"R{i}C{j}": int(rows[i - 1][j - 1]) for i in range(1, 5) for j in range(1, 5)
                }
            }
        ),
        "chain of thought then a grid": "Row 1 needs a 2 and a 4, so 1 2 3 4 is not possible here.\n"
        "Checking boxes...\n\nFinal grid:\n" + plain,
        "markdown table": "Here is the solved puzzle:\n\n" + table + "\n",
        "code block": "```\n" + plain + "\n```",
    }
    for name, text in replies.items():
        a = parse_answer(text, it)
        assert not a.parse_error, (name, a)
        assert verify(it, a).correct, name
        assert reward(it, text) == 1.0, name
    for text in ("I cannot solve this puzzle.", "", "The answer is 42.", "Error: rate limited"):
        a = parse_answer(text, it)
        assert a.parse_error and reward(it, text) == 0.0


def test_knights_read_from_prose_and_bold_lines() -> None:
    it = lf.render(lf.generate("knights", {"n_people": 3}, count=1, seed=1), "knights")[0]
    sol = it.problem["solution"]
    prose = "Let us reason.\n" + "\n".join(f"**{q} is a {v}.**" for q, v in sol.items())
    assert verify(it, parse_answer(prose, it)).correct
    flipped = {q: ("knave" if v == "knight" else "knight") for q, v in sol.items()}
    text = json.dumps({"solution": flipped})
    assert not verify(it, parse_answer(text, it)).correct and reward(it, text) == 0.0


@pytest.mark.parametrize("family", PUZZLES)
def test_no_constant_or_random_answer_earns_reward(family: str) -> None:
    """Every constant fill (each domain value everywhere) earns nothing and the random baseline
    no more than chance on a level-0, -5 and -10 puzzle; the oracle earns 1; the wrong answer
    nothing, even with partial credit."""
    for level in (0, 5, 10):
        [p] = lf.generate(family, level=level, count=1, seed=4)
        it = lf.render([p])[0]
        f = answer_format(it)
        d = it.problem
        for v in d["domain"]:
            const = lf.Answer(label="SAT", certificate={"solution": {c: v for c in d["cells"]}})
            assert reward(it, f.to_text(const, it)) == 0.0, (family, level, v)
        rng = np.random.default_rng(0)
        paid = [reward(it, f.to_text(f.random(it, rng), it)) for _ in range(200)]
        chance = len(d["domain"]) ** -len(d["cells"])  # one cell map of all is right
        assert np.mean(paid) <= chance + 3 * (chance * (1 - chance) / 200) ** 0.5, (family, level)
        assert reward(it, f.to_text(f.oracle(it), it)) == 1.0
        wrong = f.to_text(f.wrong(it), it)
        assert reward(it, wrong) == 0.0 and reward(it, wrong, partial=True) == 0.0


def test_the_budgeted_solver_is_the_oracle_with_room() -> None:
    for family in PUZZLES:
        it = lf.render(lf.generate(family, level=3, count=1, seed=2))[0]
        a = answer_format(it).budgeted(it, 100_000)  # type: ignore[misc]
        assert a is not None and verify(it, a).correct, family


def test_same_seed_same_puzzle_and_level_bytes() -> None:
    for family in PUZZLES:
        a = [p.model_dump_json() for p in lf.generate(family, level=4, count=3, seed=9)]
        b = [p.model_dump_json() for p in lf.generate(family, level=4, count=3, seed=9)]
        assert a == b, family


def test_lightsout_uniqueness_by_a_sat_solver_on_larger_boards() -> None:
    from logicforge.families.lightsout import encode
    from logicforge.kinds.puzzle import certify_unique

    for p in lf.generate("lightsout", {"rows": 6, "cols": 6}, count=3, seed=5):
        cnf, _ = encode(p.problem)
        lits = [
            k + 1 if p.problem["solution"][c] == "1" else -(k + 1)
            for k, c in enumerate(p.problem["cells"])
        ]
        certify_unique(cnf, list(range(1, 37)), lits)  # raises if another pattern fits


@pytest.mark.parametrize("n", [4, 6, 10])
def test_xorsat_has_exactly_the_stored_assignment_by_brute_force(n: int) -> None:
    for p in lf.generate("xorsat", {"n_vars": n}, count=4, seed=5):
        d = p.problem
        fits = [
            bits for bits in itertools.product((0, 1), repeat=n)
            if all(sum(bits[v - 1] for v in vs) % 2 == r for vs, r in zip(d["equations"], d["rhs"], strict=True))
        ]  # fmt: skip
        assert fits == [tuple(int(d["solution"][f"x{i}"]) for i in range(1, n + 1))], p.problem_id


@pytest.mark.parametrize(
    "params", [{"rows": 3, "cols": 4, "n_mines": 3}, {"rows": 4, "cols": 4, "n_mines": 4}]
)
def test_minesweeper_has_exactly_the_stored_mines_by_enumeration(params) -> None:
    from logicforge.families.minesweeper import neighbours

    r, c = params["rows"], params["cols"]
    for p in lf.generate("minesweeper", params, count=4, seed=5):
        d = p.problem
        shown = {
            (int(k[1 : k.index("c")]) - 1, int(k[k.index("c") + 1 :]) - 1): v
            for k, v in d["revealed"].items()
        }
        fits = []
        for mines in itertools.combinations(range(r * c), d["n_mines"]):
            m = {(k // c, k % c) for k in mines}
            if all(
                s not in m and sum(x in m for x in neighbours(r, c, *s)) == v
                for s, v in shown.items()
            ):
                fits.append(m)
        want = {
            (i, j) for i in range(r) for j in range(c) if d["solution"][f"r{i + 1}c{j + 1}"] == "1"
        }
        assert fits == [want], p.problem_id


def _queens_all(d: dict) -> list[list[int]]:
    """Every placement (a column per row) keeping the rules and the given queens."""
    n = d["rows"]
    given = {(int(k[1 : k.index("c")]) - 1, int(k[k.index("c") + 1 :]) - 1) for k in d["givens"]}
    rows_given = {i for i, _ in given}
    found: list[list[int]] = []

    def go(cols: list[int]) -> None:
        i = len(cols)
        if i == n:
            regs = {d["regions"][a][b] for a, b in enumerate(cols)}
            if len(regs) == n and all((a, cols[a]) in given for a in rows_given):
                found.append(list(cols))
            return
        for j in range(n):
            if j in cols or (i and abs(cols[-1] - j) <= 1):
                continue
            go([*cols, j])

    go([])
    return found


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_queens_have_exactly_the_stored_placement_by_backtracking(n: int) -> None:
    for p in lf.generate("queens", {"size": n}, count=4, seed=5):
        d = p.problem
        want = [
            next(j for j in range(n) if d["solution"][f"r{i + 1}c{j + 1}"] == "1") for i in range(n)
        ]
        assert _queens_all(d) == [want], p.problem_id


@pytest.mark.parametrize("size", [3, 4, 5])
def test_latin_squares_complete_one_way_by_cpsat(size: int) -> None:
    for p in lf.generate("latinsquare", {"size": size}, count=4, seed=5):
        assert _cpsat_latin(p.problem, None) == [_grid(p.problem)], p.problem_id


@pytest.mark.parametrize("size", [3, 4, 5])
def test_kenken_has_exactly_the_stored_solution_by_cpsat(size: int) -> None:
    for p in lf.generate("kenken", {"size": size}, count=4, seed=5):
        assert _cpsat_latin(p.problem, None) == [_grid(p.problem)], p.problem_id


@pytest.mark.parametrize("rc", [(3, 3), (4, 4), (3, 5)])
def test_nonograms_have_exactly_the_stored_picture_by_brute_force(rc) -> None:
    from logicforge.families.nonogram import runs

    r, c = rc
    for p in lf.generate("nonogram", {"rows": r, "cols": c}, count=4, seed=5):
        d = p.problem
        given = {k: str(v) for k, v in d["givens"].items()}
        fits = []
        for bits in itertools.product((0, 1), repeat=r * c):
            g = [bits[i * c : (i + 1) * c] for i in range(r)]
            if any(
                str(g[int(k[1 : k.index("c")]) - 1][int(k[k.index("c") + 1 :]) - 1]) != v
                for k, v in given.items()
            ):
                continue
            if all(runs(g[i]) == d["row_clues"][i] for i in range(r)) and all(
                runs([g[i][j] for i in range(r)]) == d["col_clues"][j] for j in range(c)
            ):
                fits.append(bits)
        want = tuple(int(d["solution"][f"r{i + 1}c{j + 1}"]) for i in range(r) for j in range(c))
        assert fits == [want], p.problem_id


@pytest.mark.parametrize(
    "params", [{"n_elements": 6, "n_decoys": 3}, {"n_elements": 9, "n_decoys": 6}]
)
def test_exact_covers_are_unique_by_enumeration(params) -> None:
    for p in lf.generate("exactcover", params, count=4, seed=5):
        d = p.problem
        m = len(d["subsets"])
        fits = []
        for bits in itertools.product((0, 1), repeat=m):
            chosen = [s for s, b in zip(d["subsets"], bits, strict=True) if b]
            if sorted(e for s in chosen for e in s) == list(range(1, d["n_elements"] + 1)):
                fits.append(bits)
        assert fits == [tuple(int(d["solution"][f"S{k + 1}"]) for k in range(m))], p.problem_id


def test_circuits_evaluate_the_same_in_an_independent_interpreter() -> None:
    ops = {"AND": lambda a, b: a and b, "OR": lambda a, b: a or b, "XOR": lambda a, b: a != b,
           "NAND": lambda a, b: not (a and b), "NOR": lambda a, b: not (a or b)}  # fmt: skip
    for p in lf.generate("circuit", {"n_inputs": 4, "n_gates": 12}, count=10, seed=5):
        d = p.problem
        val = {k: bool(v) for k, v in d["inputs"].items()}
        for g in d["gates"]:
            xs = [val[a] for a in g["args"]]
            val[g["name"]] = (not xs[0]) if g["op"] == "NOT" else ops[g["op"]](*xs)
        assert {g["name"]: str(int(val[g["name"]])) for g in d["gates"]} == d["solution"]
        assert len(set(d["solution"].values())) == 2  # never all one value


@pytest.mark.parametrize("n", [3, 5, 7])
def test_toposort_has_exactly_the_stored_order_by_enumeration(n: int) -> None:
    for p in lf.generate("toposort", {"n_tasks": n, "n_extra": 1}, count=4, seed=5):
        d = p.problem
        fits = [
            perm for perm in itertools.permutations(d["cells"])
            if all(perm.index(a) < perm.index(b) for a, b in d["before"])
        ]  # fmt: skip
        want = tuple(sorted(d["cells"], key=lambda t: int(d["solution"][t])))
        assert fits == [want], p.problem_id


@pytest.mark.parametrize("family", ["kakurasu", "sumplete"])
@pytest.mark.parametrize("size", [3, 4])
def test_weighted_sum_grids_are_unique_by_brute_force(family: str, size: int) -> None:
    for p in lf.generate(family, {"size": size}, count=2, seed=5):
        d = p.problem
        n = d["rows"]
        w = d.get("digits") or [[j + 1 for j in range(n)] for _ in range(n)]  # kakurasu: indices
        wc = d.get("digits") or [[i + 1 for _ in range(n)] for i in range(n)]
        given = {
            (int(k[1 : k.index("c")]) - 1, int(k[k.index("c") + 1 :]) - 1): int(v)
            for k, v in d["givens"].items()
        }
        fits = []
        for bits in itertools.product((0, 1), repeat=n * n):
            g = [bits[i * n : (i + 1) * n] for i in range(n)]
            if any(g[i][j] != v for (i, j), v in given.items()):
                continue
            if all(
                sum(w[i][j] * g[i][j] for j in range(n)) == d["row_sums"][i] for i in range(n)
            ) and all(
                sum(wc[i][j] * g[i][j] for i in range(n)) == d["col_sums"][j] for j in range(n)
            ):
                fits.append(bits)
        want = tuple(int(d["solution"][f"r{i + 1}c{j + 1}"]) for i in range(n) for j in range(n))
        assert fits == [want], p.problem_id


@pytest.mark.parametrize("n", [4, 8, 12])
def test_unique_sat_formulas_have_one_model_by_brute_force(n: int) -> None:
    for p in lf.generate("uniquesat", {"n_vars": n}, count=3, seed=5):
        d = p.problem
        fits = [
            bits for bits in itertools.product((0, 1), repeat=n)
            if all(any((bits[abs(x) - 1] == 1) == (x > 0) for x in c) for c in d["clauses"])
        ]  # fmt: skip
        assert fits == [tuple(int(d["solution"][f"x{i}"]) for i in range(1, n + 1))], p.problem_id


@pytest.mark.parametrize(
    "params", [{"n_nodes": 6}, {"n_nodes": 8, "k": 3}, {"n_nodes": 7, "k": 4, "edge_density": 2.5}]
)
def test_colouring_completions_are_unique_by_brute_force(params) -> None:
    for p in lf.generate("graphcolour", params, count=3, seed=5):
        d = p.problem
        n, dom = d["n_nodes"], d["domain"]
        fits = []
        for cols in itertools.product(dom, repeat=n):
            c = dict(zip(d["cells"], cols, strict=True))
            if all(c[v] == g for v, g in d["givens"].items()) and all(
                c[f"v{u}"] != c[f"v{w}"] for u, w in d["edges"]
            ):
                fits.append(c)
        assert fits == [d["solution"]], p.problem_id


@pytest.mark.parametrize("n", [3, 4, 5])
def test_skyscrapers_have_exactly_the_stored_square_by_backtracking(n: int) -> None:
    from logicforge.families.skyscrapers import line_cells, visible

    for p in lf.generate("skyscrapers", {"size": n}, count=3, seed=5):
        d = p.problem
        given = {
            (int(k[1 : k.index("c")]) - 1, int(k[k.index("c") + 1 :]) - 1): int(v)
            for k, v in d["givens"].items()
        }
        perms = list(itertools.permutations(range(1, n + 1)))
        found = []

        def go(rows: list[tuple[int, ...]], d=d, given=given, perms=perms, found=found) -> None:
            i = len(rows)
            if i == n:
                g = rows
                if all(
                    visible([g[a][b] for a, b in line_cells(n, c["side"], c["index"])])
                    == c["count"]
                    for c in d["clues"]
                ):
                    found.append([list(r) for r in g])
                return
            for r in perms:
                if any(r[j] == rows[a][j] for a in range(i) for j in range(n)):
                    continue
                if any(r[j] != v for (a, j), v in given.items() if a == i):
                    continue
                go([*rows, r])

        go([])
        assert found == [_grid(d)], p.problem_id


@pytest.mark.parametrize("n", [3, 4])
def test_thermometers_have_exactly_the_stored_filling_by_brute_force(n: int) -> None:
    for p in lf.generate("thermometers", {"size": n}, count=3, seed=5):
        d = p.problem
        given = {
            (int(k[1 : k.index("c")]) - 1, int(k[k.index("c") + 1 :]) - 1): int(v)
            for k, v in d["givens"].items()
        }
        fits = []
        for bits in itertools.product((0, 1), repeat=n * n):
            g = [bits[i * n : (i + 1) * n] for i in range(n)]
            if any(g[i][j] != v for (i, j), v in given.items()):
                continue
            if any(
                list(lv) != sorted(lv, reverse=True)
                for lv in ([g[a][b] for a, b in t] for t in d["thermometers"])
            ):
                continue
            if [sum(r) for r in g] == d["row_counts"] and [
                sum(g[i][j] for i in range(n)) for j in range(n)
            ] == d["col_counts"]:
                fits.append(bits)
        want = tuple(int(d["solution"][f"r{i + 1}c{j + 1}"]) for i in range(n) for j in range(n))
        assert fits == [want], p.problem_id
