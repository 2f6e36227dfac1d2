"""Reward benchmark: what a policy that ignores the problem earns. Prints figures; asserts nothing
(the exit code is 0 either way; the last lines say which targets hold).

For every registered family at levels 0, 5 and 10 and every renderer a training path uses (the
kind's training renderer, and the other renderers of the kind whose every item the certified
reward can pay), over ``--count`` problems: the mean reward of each constant answer (every label
bare and with a certificate of the right shape; a board filled with one value; values in the
order given), of the random baseline beside its stated chance rate, and the red team's false
positives (an attack that earned anything) and false negatives (a right answer in another layout
that earned less than 1). Rewards are the default (``certified``); ``--mode decision`` shows what
the decision-only reward pays the same answers.

Targets (issue "Breadth for training"): every constant ≤ 0.05 on every family at levels 0, 5 and
10 on its training renderer; the random baseline at or below its chance rate (or above it by
no more than luck explains: binomial tail ≥ 1 %); red team 0 false positives and 0 false negatives everywhere.

Usage: python benchmarks/bench_rewards.py [--count 24] [--levels 0,5,10] [--mode certified]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import logicforge as lf
from logicforge.errors import LogicforgeError
from logicforge.kinds import answer_format, chance_of, constant_answers, get_kind
from logicforge.metrics.redteam import attacks, forged, legit
from logicforge.metrics.reward import reward, uncertified
from logicforge.registry import FAMILIES, RENDERERS

LIMIT = 0.05


def renderers(family: str, problems: list[lf.LabelledProblem], mode: str) -> list[str]:
    """The training renderer first, then, for every other answer format of the kind, the first
    renderer of it that renders these problems without a writer and whose items the reward mode
    can pay (renderers of one format share its reward rule; the tests red-team every renderer)."""
    kind = get_kind(problems[0].kind)
    names = [kind.trainer]
    seen = {answer_format(lf.render(problems[:1], kind.trainer)[0]).name}
    for r in RENDERERS.names():
        if r == kind.trainer or getattr(RENDERERS.get(r), "kind", None) != kind.name:
            continue
        try:
            items = lf.render(problems, r)
        except LogicforgeError:  # needs a writer, or asks what these problems lack
            continue
        fmt = answer_format(items[0]).name
        if fmt in seen:
            continue
        if mode == "decision" or not any(uncertified(it) for it in items):
            names.append(r)
            seen.add(fmt)
    return names


def consistent(rewards: list[float], p: float, alpha: float = 0.01) -> bool:
    """The random baseline's mean is at or below its chance ``p``, or above it by no more than
    luck explains: the binomial chance of at least as many full rewards in as many tries is
    ≥ ``alpha`` (one lucky hit in 24 at p = 1/512 is 4.6 % likely, not a leak)."""
    n = len(rewards)
    if sum(rewards) / n <= p:
        return True
    hits = sum(1 for r in rewards if r > 0)
    tail = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(hits, n + 1))
    return tail >= alpha


def cell(items: list[lf.Item], mode: str) -> dict[str, object]:
    consts: dict[str, list[float]] = {}
    rand, chance, fp, fn, tried = [], [], [], [], 0
    forged_seen: list[str] = []
    forged_paid: list[str] = []
    for i, it in enumerate(items):
        fmt = answer_format(it)
        for name, a in constant_answers(it):
            consts.setdefault(name, []).append(reward(it, fmt.to_text(a, it), mode=mode))
        r = fmt.random(it, np.random.default_rng(i))
        rand.append(reward(it, fmt.to_text(r, it), mode=mode))
        chance.append(chance_of(it))
        for name, text in attacks(it, mode):
            tried += 1
            if reward(it, text, mode=mode) > 0:
                fp.append(name)
        for name, text in forged(it, mode):  # must earn 0 even with partial credit
            tried += 1
            if reward(it, text, partial=True, mode=mode) > 0:
                fp.append(name + " (partial)")
                forged_paid.append(name)
            forged_seen.append(name)
        for name, text in legit(it):
            tried += 1
            if reward(it, text, mode=mode) < 1:
                fn.append(name)
    means = {k: sum(v) / len(v) for k, v in consts.items()}
    p = sum(chance) / len(chance)
    return {
        "constants": means,
        "worst": max(means.values()),
        "random": sum(rand) / len(rand),
        "chance": p,
        "random_ok": consistent(rand, p),
        "fp": sorted(set(fp)),
        "fn": sorted(set(fn)),
        "tried": tried,
        "forged": forged_seen,
        "forged_paid": forged_paid,
    }


def swapped_item_attack() -> dict[str, float | None]:
    """The attacks on ``serve-verify``'s trust in the item a request carries: an item from
    /generate with a trivial formula swapped in (under its own id, under a new id, with a forged
    signature), answered with the trivial formula's model. The reward each earned (None: refused
    with an error, which pays nothing)."""
    import asyncio
    import json

    import aiohttp

    from logicforge.serve_verify import InThread

    async def go(url: str) -> dict[str, float | None]:
        async with aiohttp.ClientSession() as s:
            async with s.post(f"{url}/generate", json={"family": "ksat/random", "count": 1}) as r:
                g = await r.json()
            item = g["items"][0]
            swapped = json.loads(json.dumps(item))
            swapped["problem"]["clauses"], swapped["gold"]["label"] = [[1]], "SAT"
            easy = '{"answer": "SAT", "assignment": {"x1": true}}'
            tries = {
                "swapped formula, same id": {"item": swapped, "response": easy},
                "swapped formula, new id": {"item": swapped | {"item_id": "z"}, "response": easy},
                "swapped formula, forged signature": {
                    "item": swapped | {"item_id": "z"},
                    "signature": g["signatures"][0],
                    "response": easy,
                },
            }
            async with s.post(
                f"{url}/verify",
                json={"requests": list(tries.values()), "reward_mode": "decision"},
            ) as r:
                res = (await r.json())["results"]
            return {k: x.get("reward") for k, x in zip(tries, res, strict=True)}

    with InThread() as srv:
        return asyncio.run(go(srv.url))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--levels", default="0,5,10")
    ap.add_argument("--mode", default="certified", choices=("certified", "decision"))
    ap.add_argument("--family", action="append", help="only these families (repeatable)")
    a = ap.parse_args()
    levels = [int(x) for x in a.levels.split(",")]
    t0 = time.perf_counter()
    print(
        f"logicforge {lf.__version__}; reward mode {a.mode}; {a.count} problems per family × "
        f"level × renderer; levels {levels}"
    )
    head = f"  {'renderer':<22} {'lvl':>3}  {'worst constant':<34} {'random':>6} {'chance':>8}  red team"
    bad_const, bad_rand, bad_team, cells = [], [], [], 0
    forged_seen: dict[str, int] = {}
    forged_paid: dict[str, int] = {}
    for family in a.family or FAMILIES.names():
        print(f"\n{family}  ({time.perf_counter() - t0:.0f} s)\n{head}", flush=True)
        for level in levels:
            ps = lf.generate(family, level=level, count=a.count, seed=100 + level)
            for j, r in enumerate(renderers(family, ps, a.mode)):
                got = cell(lf.render(ps, r), a.mode)
                cells += 1
                for n in got["forged"]:  # type: ignore[attr-defined]
                    forged_seen[n] = forged_seen.get(n, 0) + 1
                for n in got["forged_paid"]:  # type: ignore[attr-defined]
                    forged_paid[n] = forged_paid.get(n, 0) + 1
                name, worst = max(got["constants"].items(), key=lambda kv: kv[1])
                team = (
                    f"0 FP / 0 FN of {got['tried']}"
                    if not got["fp"] and not got["fn"]
                    else f"FP {got['fp'][:3]} FN {got['fn'][:3]}"
                )
                trainer = j == 0
                mark = "" if worst <= LIMIT else "  ✗ constant" if trainer else "  (constant)"
                print(
                    f"  {r + (' *' if trainer else ''):<22} {level:>3}  "
                    f"{f'{name} {worst:.3f}':<34} {got['random']:>6.3f} {got['chance']:>8.2g}  "
                    f"{team}{mark}"
                )
                if trainer and worst > LIMIT:
                    bad_const.append(f"{family}@{level} {r}: {name} {worst:.3f}")
                if not got["random_ok"]:
                    bad_rand.append(
                        f"{family}@{level} {r}: {got['random']:.3f} > {got['chance']:.3g}"
                    )
                if got["fp"] or got["fn"]:
                    bad_team.append(f"{family}@{level} {r}")
    print("\nforged certificates, rewarded with partial credit on (must all be 0):")
    for n in sorted(forged_seen):
        print(f"  {n:<48} paid on {forged_paid.get(n, 0)} of {forged_seen[n]} items")
    print("items tampered with on the way to serve-verify's /verify (must all be 0 / refused):")
    swapped = swapped_item_attack()
    for n, got in swapped.items():
        print(f"  {n:<48} {'refused' if got is None else f'reward {got}'}")
    if forged_paid or any(x for x in swapped.values()):
        bad_team.append("forged certificates or tampered items")
    n_fam = len(a.family or FAMILIES.names())
    print("\n* the training renderer (what lf.render(..., training=True), serve-verify, the")
    print("  TRL / verl / verifiers adapters and the curriculum render when none is named)")
    print(
        f"\n{n_fam} families × {len(levels)} levels, {cells} cells, {time.perf_counter() - t0:.0f} s"
    )
    print(
        f"target: every constant ≤ {LIMIT} on the training renderer — "
        + ("met" if not bad_const else f"NOT met on {len(bad_const)}: {bad_const[:8]}")
    )
    print(
        "target: random baseline ≤ its chance rate (binomial tail ≥ 1 %) — "
        + ("met" if not bad_rand else f"NOT met on {len(bad_rand)}: {bad_rand[:8]}")
    )
    print(
        "target: red team 0 false positives / 0 false negatives — "
        + ("met" if not bad_team else f"NOT met on {len(bad_team)}: {bad_team[:8]}")
    )


if __name__ == "__main__":
    main()
