"""Boolean circuit evaluation: a circuit of AND, OR, XOR, NAND, NOR and NOT gates over given
input values; give the value of every gate. The kind ``circuit``; the family ``circuit``.

The answer is unique by construction (a circuit has one value per gate for fixed inputs); the
generator evaluates it in topological order and proves it again from the Tseitin encoding with
a solver (the gate values as the only model once the inputs are fixed). Circuits whose gates
all carry one value are redrawn, so no constant answer is ever right. The tests re-evaluate
every circuit with an independent interpreter written over Python's own operators.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import GenerationError, certify
from ..fields import integer, params
from ..kinds.puzzle import certify_unique
from ..logic.cnf import CNF
from .base import DeclaredFamily
from .knobs import Knob, exact
from .levels import Levels
from .shape import Built, ask, register_solution_puzzle, solved

NAME = KIND = "circuit"
OPS = ("AND", "OR", "XOR", "NAND", "NOR", "NOT")


@params
class CircuitParams:
    n_inputs: int = integer(1, 64, default=3)
    n_gates: int = integer(2, 2000, default=5)
    max_attempts: int = integer(1, 100_000, default=100)


def apply(op: str, a: int, b: int | None = None) -> int:
    if op == "NOT":
        return 1 - a
    b = int(b or 0)  # two-input gates always get two arguments (the generator makes them)
    return {"AND": a & b, "OR": a | b, "XOR": a ^ b, "NAND": 1 - (a & b), "NOR": 1 - (a | b)}[op]


def evaluate(d: dict[str, Any]) -> dict[str, int]:
    """Every wire's value, inputs first, gates in their (topological) order."""
    val = {k: int(v) for k, v in d["inputs"].items()}
    for g in d["gates"]:
        val[g["name"]] = apply(g["op"], *(val[x] for x in g["args"]))
    return val


def encode(d: dict[str, Any]) -> tuple[CNF, Any]:
    """Tseitin: one variable per wire, the inputs fixed by unit clauses, each gate's truth table
    as clauses over its output and arguments."""
    import itertools

    names = list(d["inputs"]) + [g["name"] for g in d["gates"]]
    idx = {n: i + 1 for i, n in enumerate(names)}
    cl = [[idx[k] if int(v) else -idx[k]] for k, v in d["inputs"].items()]
    for g in d["gates"]:
        ws = [idx[a] for a in g["args"]]
        for vals in itertools.product((0, 1), repeat=len(ws)):
            out = apply(g["op"], *vals)
            cl.append(
                [-w if v else w for w, v in zip(ws, vals, strict=True)]
                + [idx[g["name"]] if out else -idx[g["name"]]]
            )

    def decode(model: dict[int, bool]) -> dict[str, str]:
        return {g["name"]: "1" if model.get(idx[g["name"]]) else "0" for g in d["gates"]}

    return CNF(cl, len(names)), decode


def check(d: dict[str, Any], sol: dict[str, str]) -> str:
    if any(v not in ("0", "1") for v in sol.values()):
        return "every gate is 0 or 1"
    val = evaluate(d)
    for g in d["gates"]:
        if int(sol[g["name"]]) != val[g["name"]]:
            return f"gate {g['name']} = {g['op']}({', '.join(g['args'])}) is {val[g['name']]}"
    return ""


class CircuitFamily(
    DeclaredFamily, name=NAME, params=CircuitParams, example={"n_inputs": 3, "n_gates": 4}
):
    def generate(self, p: CircuitParams, rng: np.random.Generator) -> Built:
        for attempt in range(1, p.max_attempts + 1):
            inputs = {f"i{k + 1}": int(rng.random() < 0.5) for k in range(p.n_inputs)}
            wires = list(inputs)
            gates: list[dict[str, Any]] = []
            for k in range(p.n_gates):
                op = OPS[int(rng.integers(len(OPS)))]
                near = wires[-4:]  # one argument from the latest wires keeps the circuit deep
                a = near[int(rng.integers(len(near)))]
                args = [a] if op == "NOT" else [a, wires[int(rng.integers(len(wires)))]]
                gates.append({"name": f"g{k + 1}", "op": op, "args": args})
                wires.append(f"g{k + 1}")
            data: dict[str, Any] = {"inputs": inputs, "gates": gates}
            val = evaluate(data)
            outs = [val[g["name"]] for g in gates]
            if len(set(outs)) < 2:
                continue  # every gate one value: a constant answer would be right
            data |= {
                "cells": [g["name"] for g in gates], "domain": ["0", "1"],
                "solution": {g["name"]: str(val[g["name"]]) for g in gates},
            }  # fmt: skip
            cnf, _ = encode(data)
            n_in = len(inputs)
            lits = [k + 1 if inputs[f"i{k + 1}"] else -(k + 1) for k in range(n_in)]
            lits += [n_in + k + 1 if outs[k] else -(n_in + k + 1) for k in range(len(gates))]
            certify_unique(cnf, list(range(1, cnf.num_vars + 1)), lits)
            certify(check(data, data["solution"]) == "", "the values are the circuit's")
            meta = {"n_inputs": n_in, "n_gates": len(gates), "ones": sum(outs), "attempts": attempt}
            return solved(data, "evaluation+glucose4", meta)
        raise GenerationError(f"{NAME}: every draw gave all gates one value; raise n_gates")

    knobs = (
        Knob("n_inputs", lambda prob, _: len(prob["inputs"]), exact, "inputs", levels=(2, 4)),
        Knob("n_gates", lambda prob, _: len(prob["gates"]), exact, "gates", levels=(3, 8)),
    )
    levels = Levels(
        lambda lv: {"n_inputs": 2 + lv // 2, "n_gates": 3 + 3 * lv},
        "gates",
        lambda p: float(len(p.problem["gates"])),
        "n_inputs = 2 + ⌊level / 2⌋, n_gates = 3 + 3 · level (3 … 33); the measure is the number "
        "of gates to evaluate",
    )


ASK = ask('{"solution": {"g1": 0 or 1, "g2": 0 or 1, ...}} for every gate')


def _line(g: dict[str, Any]) -> str:
    return f"{g['name']} = {g['op']}({', '.join(g['args'])})"


def words(d: dict[str, Any]) -> str:
    ins = ", ".join(f"{k} = {v}" for k, v in d["inputs"].items())
    return (
        "A Boolean circuit: the inputs are 0 or 1 and every gate computes AND, OR, XOR, NAND, NOR "
        f"or NOT of earlier wires.\n\nInputs: {ins}\n\nGates:\n"
        + "\n".join(_line(g) for g in d["gates"])
        + f"\n\nWhat is the value of every gate?\n\n{ASK}"
    )


def formal(d: dict[str, Any]) -> str:
    sym = {"AND": "∧", "OR": "∨", "XOR": "⊕"}

    def expr(g: dict[str, Any]) -> str:
        a = g["args"]
        if g["op"] == "NOT":
            return f"¬{a[0]}"
        if g["op"] in sym:
            return f"{a[0]} {sym[g['op']]} {a[1]}"
        return f"¬({a[0]} {sym[g['op'][1:] if g['op'] == 'NOR' else 'AND']} {a[1]})"

    lines = [f"{k} := {v}" for k, v in d["inputs"].items()] + [
        f"{g['name']} := {expr(g)}" for g in d["gates"]
    ]
    return "Evaluate (1 = true, 0 = false):\n\n" + "\n".join(lines) + f"\n\n{ASK}"


register_solution_puzzle(CircuitFamily(), check, encode, words, formal)
