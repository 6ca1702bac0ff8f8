#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of bench/schedule.py (issue 32, item 1): every key pair runs as
contiguous ABBA / BAAB blocks, one per boot, alternating over its boots
(counterbalanced: as many groups with A first as with B first); each pair
gets at least the pairing groups it asks for; the extra boots run only the
blocks; the other scenarios run once per REPS boot (FIRST_ONLY ones in the
first); the plan is a function of its inputs (same seed, same plan; another
seed, another order); what the plan cannot do is refused. The properties are
computed from the plan, not compared with a stored one, except one pinned
plan: a recorded seed must keep meaning the same order.
usage: test-schedule.py SCHEDULE_PY"""
import importlib.util
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
spec = importlib.util.spec_from_file_location("schedule", sys.argv[1])
schedule = importlib.util.module_from_spec(spec)
spec.loader.exec_module(schedule)
from checks import check, done  # noqa: E402

MAIN = [schedule.Pair("L1-memcgd", "L1-low", 8), schedule.Pair("L2-memcgd", "L2-low", 8)]
SHAPES = [schedule.Pair(f"L1{s}-memcgd", f"L1{s}-low", 4) for s in ("w25", "w70", "zipf")]
SINGLES = ["L1-none", "L1-lowhigh", "L2-none", "L2-lowhigh", "footprint"]
ALL = SINGLES + [c for p in MAIN + SHAPES for c in (p.a, p.b)]


def blocks_of(boot, pair):
    """(start index, the four tests) of each block of PAIR in a boot's order."""
    names = {pair.a, pair.b, pair.a + ".2", pair.b + ".2"}
    idx = [i for i, t in enumerate(boot.tests) if t in names]
    return [(idx[k], boot.tests[idx[k]:idx[k] + 4]) for k in range(0, len(idx), 4)], idx


def pattern(tests, pair):
    if tests == [pair.a, pair.b, pair.b + ".2", pair.a + ".2"]:
        return "ABBA"
    if tests == [pair.b, pair.a, pair.a + ".2", pair.b + ".2"]:
        return "BAAB"
    return None


def check_plan(boots, pairs, reps, what):
    # one block per boot at most, contiguous, ABBA or BAAB
    for p in pairs:
        patterns = []
        for b in boots:
            blocks, idx = blocks_of(b, p)
            check(len(blocks) <= 1 and len(idx) in (0, 4) and
                  all(idx[k] == idx[0] + k for k in range(len(idx))) and
                  all(pattern(t, p) for _, t in blocks),
                  f"{what}: boot {b.number}: {p.name()} as one contiguous ABBA/BAAB block: "
                  f"{[t for _, t in blocks]}")
            patterns += [pattern(t, p) for _, t in blocks]
        # alternating over the pair's boots, in boot order
        check(all(x != y for x, y in zip(patterns, patterns[1:])),
              f"{what}: {p.name()} alternates ABBA/BAAB over its boots: {patterns}")
        groups = schedule.pairing_groups(boots, p)
        check(len(groups) >= p.groups,
              f"{what}: {p.name()} has {len(groups)} pairing groups, wants at least {p.groups}")
        check(abs(patterns.count("ABBA") - patterns.count("BAAB")) <= len(patterns) % 2,
              f"{what}: {p.name()}: {patterns.count('ABBA')} ABBA and {patterns.count('BAAB')} BAAB blocks")
        first = schedule.first_in_group(boots, p)
        a_first = sum(v == p.a for v in first.values())
        check(2 * a_first == len(first),
              f"{what}: {p.name()}: A first in {a_first} of {len(first)} groups (each block: one of each)")
    in_pair = {c for p in pairs for c in (p.a, p.b)}
    for b in boots:
        base = [schedule.split_test(t)[0] for t in b.tests]
        if b.kind == "extra":
            check(b.number > reps and set(base) <= in_pair,
                  f"{what}: extra boot {b.number} runs only the pairs' scenarios: {sorted(set(base))}")
        else:
            singles = [s for s in base if s not in in_pair]
            check(sorted(singles) == sorted(set(singles)), f"{what}: boot {b.number} runs each single once")


boots = schedule.plan(ALL, MAIN + SHAPES, seed=796493450, reps=3, first_only=["footprint"])
check([b.number for b in boots] == [1, 2, 3, 4] and [b.kind for b in boots] == ["rep", "rep", "rep", "extra"],
      f"8 groups from 3 boots of everything: one extra boot ({[(b.number, b.kind) for b in boots]})")
check_plan(boots, MAIN + SHAPES, 3, "main + shapes")
for b in boots[:3]:
    base = [schedule.split_test(t)[0] for t in b.tests]
    want = [s for s in SINGLES if b.number == 1 or s != "footprint"]
    check(all(base.count(s) == 1 for s in want) and ("footprint" in base) == (b.number == 1),
          f"boot {b.number}: every single scenario once, footprint in the first boot only")
for p in MAIN:
    check(len(schedule.pairing_groups(boots, p)) == 8 and
          len({n for n, _ in schedule.pairing_groups(boots, p)}) == 4,
          f"{p.name()}: 8 groups in 4 boots")
runs = [len(b.tests) for b in boots]
shape_boots = {p.name(): [b.number for b in boots if blocks_of(b, p)[0]] for p in SHAPES}
check(all(len(v) == 2 for v in shape_boots.values()), f"a 4-group pair runs in 2 boots: {shape_boots}")
check(max(runs) - min(runs) <= 8, f"the blocks balance the boots' lengths: {runs} runs")

# the same inputs give the same plan; another seed another order, the same blocks
again = schedule.plan(ALL, MAIN + SHAPES, seed=796493450, reps=3, first_only=["footprint"])
check([b.tests for b in again] == [b.tests for b in boots], "the same seed gives the same plan")
other = schedule.plan(ALL, MAIN + SHAPES, seed=796493451, reps=3, first_only=["footprint"])
check([b.tests for b in other] != [b.tests for b in boots] and
      [sorted(b.tests) for b in other] == [sorted(b.tests) for b in boots],
      "another seed: another order of the same runs")
check_plan(other, MAIN + SHAPES, 3, "another seed")

# the order within a boot varies with the seed: over 20 seeds the L1 block is not always first
starts = {blocks_of(schedule.plan(ALL, MAIN, seed=s, reps=3)[0], MAIN[0])[0][0][0] for s in range(20)}
check(len(starts) > 2, f"the L1 block's position in boot 1 over 20 seeds: {sorted(starts)}")

# odd group counts round up; a pair alone (--target) runs in boots of its own
odd = schedule.plan([], [schedule.Pair("L1-memcgd", "L1-low", 5)], seed=1, reps=0)
check(len(odd) == 3 and all(b.kind == "extra" and len(b.tests) == 4 for b in odd),
      f"5 groups alone: 3 boots of one block each ({[b.tests for b in odd]})")
check_plan(odd, [schedule.Pair("L1-memcgd", "L1-low", 5)], 0, "one pair alone")
# fewer groups than the reps give: no extra boot, blocks only where needed
few = schedule.plan(ALL, [schedule.Pair("L1-memcgd", "L1-low", 2)], seed=1, reps=3)
check(len(few) == 3 and sum(bool(blocks_of(b, few and schedule.Pair("L1-memcgd", "L1-low", 2))[0])
                            for b in few) == 1,
      "2 groups: one block in one of the 3 boots, no extra boot")

# refused: a scenario in two pairs, a name with the second-run suffix, no groups
for bad, text in (([schedule.Pair("L1-memcgd", "L1-low", 8), schedule.Pair("L1-memcgd", "L1-lowhigh", 8)],
                   "in two key pairs"),
                  ([schedule.Pair("L1-memcgd.2", "L1-low", 8)], "names a second run")):
    try:
        schedule.plan([], bad, seed=1, reps=1)
        ok = False
    except ValueError as e:
        ok = text in str(e)
    check(ok, f"refused: {text}")
for text in ("L1-memcgd:L1-low", "L1-memcgd:L1-low:x", "A:A:3", "A:B:0"):
    try:
        schedule.parse_pair(text)
        ok = False
    except ValueError:
        ok = True
    check(ok, f"--pair {text!r} refused")

# pinned: seed 42 must keep meaning this plan
pinned = schedule.plan(["X", "Y", "Z"], [schedule.Pair("A", "B", 4)], seed=42, reps=2)
check([b.tests for b in pinned] == [["Y", "Z", "A", "B", "B.2", "A.2", "X"], ["Y", "B", "A", "A.2", "B.2", "Z", "X"]],
      f"seed 42: {[b.tests for b in pinned]}")

# the command line: plan and pairs (from bench/targets.py)
cli = subprocess.run([sys.executable, sys.argv[1], "plan", "--seed", "42", "--reps", "2", "--pair", "A:B:4",
                      "X", "Y", "Z"], capture_output=True, text=True)
check(cli.returncode == 0 and cli.stdout == "1\trep\tY Z A B B.2 A.2 X\n2\trep\tY B A A.2 B.2 Z X\n",
      f"schedule.py plan prints the boots: {cli.stdout!r} {cli.stderr!r}")
cli = subprocess.run([sys.executable, sys.argv[1], "pairs", "--target", "L1b"], capture_output=True, text=True)
check(cli.returncode == 0 and cli.stdout == "L1-memcgd:L1-low:8\n", f"pairs --target L1b: {cli.stdout!r}")
cli = subprocess.run([sys.executable, sys.argv[1], "pairs", "--no-shapes"], capture_output=True, text=True)
check(cli.returncode == 0 and cli.stdout == "L1-memcgd:L1-low:8\nL2-memcgd:L2-low:8\n",
      f"pairs of the main shape: L1 and L2, 8 groups each: {cli.stdout!r}")
cli = subprocess.run([sys.executable, sys.argv[1], "pairs", "--shape-groups", "6"], capture_output=True, text=True)
lines = cli.stdout.split()
check(cli.returncode == 0 and len(lines) > 2 and all(x.endswith(":6") for x in lines[2:]) and
      len(set(lines)) == len(lines), f"pairs: the shapes' pairs once each, 6 groups: {lines}")
cli = subprocess.run([sys.executable, sys.argv[1], "pairs", "--target", "P3"], capture_output=True, text=True)
check(cli.returncode == 2 and "icount" in cli.stderr, f"--target P3 refused: {cli.stderr.strip()}")
cli = subprocess.run([sys.executable, sys.argv[1], "pairs", "--target", "nope"], capture_output=True, text=True)
check(cli.returncode == 2 and "not a ratio" in cli.stderr, f"--target nope refused: {cli.stderr.strip()}")

# every shape scenario of bench/targets.py is a VM test that bench/meson.build installs
import re  # noqa: E402
import targets  # noqa: E402
with open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "meson.build")) as f:
    meson = f.read()
m = re.search(r"foreach shape : \[([^]]*)\]", meson)
installed = set(re.findall(r"'([^']+)'", m.group(1))) if m else set()
wanted = {sc.rsplit("-", 1)[0] for sc in targets.shape_scenarios()}
check(installed == wanted, f"meson.build installs the shapes of targets.py: {sorted(installed)} vs {sorted(wanted)}")

done()
print("all schedule checks passed")
