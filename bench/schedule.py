#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The run order of scripts/bench's latency boots (issue 32, item 1: decisive pairs).

A key pair is the two conditions of a targeted ratio (A, the numerator, e.g.
L1-memcgd; B, the denominator, e.g. L1-low) with the number of pairing groups
its verdict needs. Within a boot the two conditions of a key pair run as one
block of four consecutive runs, in ABBA or BAAB order: the first A and B form
one pairing group, the second B and A the other, so one block gives two groups
in opposite orders (a drift within the boot biases them in opposite
directions). Counterbalancing across boots: a pair's blocks alternate, ABBA in
its first block, BAAB in its second, ...; pairs alternate too (the second
pair starts with BAAB), so that a boot does not run every pair in the same
order. A pair that needs G groups gets ceil(G / 2) blocks, one per boot.

The other scenarios run once in each of the REPS boots (the FIRST_ONLY ones
in the first boot only). When a pair needs more blocks than there are such
boots, extra boots run only the blocks (nothing else). A block goes to the
boot with the fewest runs among those that have none of its pair yet (ties:
the earlier boot), so that boots stay about the same length.

Within a boot the units (blocks and single scenarios) are shuffled from the
recorded seed (stats.scenario_order on the unit names), so the whole plan is
a function of its inputs: the same seed gives the same plan.

A condition's second run in a block is the VM test "SCENARIO.2" (the
harness runs each test name once; bench/meson.build installs both names,
bench/guest/scenario strips the suffix); data.py reads the suffix as the
run's pair number.

usage: schedule.py plan --seed N --reps R [--pair A:B:G]... [--first-only S,...] [SCENARIO...]
       schedule.py pairs [--target NAME] [--groups G] [--shape-groups G] [--shapes]
plan prints one line per boot: NUMBER<TAB>rep|extra<TAB>TEST... ; pairs
prints A:B:G for the key pairs of the targets (targets.decisive_pairs).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

SECOND = ".2"   # the test name of a condition's second run in a block


class Pair:
    def __init__(self, a, b, groups):
        if a == b:
            raise ValueError(f"key pair {a}:{b}: the two conditions must differ")
        if groups < 1:
            raise ValueError(f"key pair {a}:{b}: wants at least 1 pairing group, got {groups}")
        self.a, self.b, self.groups = a, b, groups

    def blocks(self):
        return (self.groups + 1) // 2

    def name(self):
        return f"{self.a}:{self.b}"

    def __repr__(self):
        return f"Pair({self.a!r}, {self.b!r}, {self.groups})"


def parse_pair(text):
    parts = text.split(":")
    if len(parts) != 3 or not parts[0] or not parts[1] or not parts[2].isdigit():
        raise ValueError(f"key pair {text!r}: want A:B:GROUPS")
    return Pair(parts[0], parts[1], int(parts[2]))


class Boot:
    def __init__(self, number, kind):
        self.number, self.kind = number, kind   # kind: "rep" or "extra"
        self.singles = []                       # scenarios run once
        self.blocks = []                        # (pair, "ABBA" | "BAAB")
        self.tests = []                         # the order, set by plan()

    def runs(self):
        return len(self.singles) + 4 * len(self.blocks)


def block_tests(pair, pattern):
    """The four test names of a block: ABBA is A, B, B.2, A.2; BAAB is B, A, A.2, B.2."""
    first, second = (pair.a, pair.b) if pattern == "ABBA" else (pair.b, pair.a)
    return [first, second, second + SECOND, first + SECOND]


def plan(scenarios, pairs, seed, reps, first_only=()):
    """The boots of a run: a list of Boot, numbered from 1, the REPS boots of
    every scenario first, then the extra boots of the blocks alone."""
    pairs = list(pairs)
    seen = {}
    for p in pairs:
        for c in (p.a, p.b):
            if c in seen:
                raise ValueError(f"scenario {c} is in two key pairs ({seen[c]}, {p.name()}): "
                                 "a block needs its own two conditions")
            if c.endswith(SECOND):
                raise ValueError(f"scenario {c}: the suffix {SECOND} names a second run")
            seen[c] = p.name()
    if reps < 0:
        raise ValueError(f"reps {reps}: want 0 or more")
    singles = [s for s in dict.fromkeys(scenarios) if s not in seen]
    needed = max((p.blocks() for p in pairs), default=0)
    boots = [Boot(k, "rep") for k in range(1, reps + 1)]
    boots += [Boot(k, "extra") for k in range(reps + 1, max(reps, needed) + 1)]
    for boot in boots[:reps]:
        boot.singles = [s for s in singles if boot.number == 1 or s not in first_only]
    # the pairs with most blocks first, so that the balancing has room for the rest
    for i, p in sorted(enumerate(pairs), key=lambda x: (-x[1].blocks(), x[0])):
        chosen = []
        for _ in range(p.blocks()):
            free = [b for b in boots if b not in chosen]
            boot = min(free, key=lambda b: (b.runs(), b.number))
            chosen.append(boot)
            boot.blocks.append([p, None])
        # the pattern by the pair's own boots in their order: ABBA, BAAB, ABBA, ...
        for j, boot in enumerate(sorted(chosen, key=lambda b: b.number)):
            block = next(x for x in boot.blocks if x[0] is p)   # one block of a pair per boot
            block[1] = "ABBA" if (i + j) % 2 == 0 else "BAAB"
    for boot in boots:
        units = {s: [s] for s in boot.singles}
        for p, pattern in boot.blocks:
            units[f"[{p.name()}]"] = block_tests(p, pattern)
        order = stats.scenario_order(list(units), seed, boot.number)
        boot.tests = [t for u in order for t in units[u]]
    return [b for b in boots if b.tests]


def split_test(test):
    """'L1-memcgd.2' -> ('L1-memcgd', 2); 'L1-memcgd' -> ('L1-memcgd', 1)."""
    if test.endswith(SECOND):
        return test[:-len(SECOND)], 2
    return test, 1


def pairing_groups(boots, pair):
    """[(boot number, pair number)] of the groups in which both A and B run:
    the pairing groups the plan gives the ratio A / B."""
    out = []
    for b in boots:
        have = {}
        for t in b.tests:
            sc, n = split_test(t)
            have.setdefault(n, set()).add(sc)
        out += [(b.number, n) for n in sorted(have) if {pair.a, pair.b} <= have[n]]
    return out


def first_in_group(boots, pair):
    """{(boot, pair number): the condition that ran first in that group}."""
    out = {}
    for b in boots:
        for t in b.tests:
            sc, n = split_test(t)
            if sc in (pair.a, pair.b):
                out.setdefault((b.number, n), sc)
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan", help="print the tests of each boot")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--reps", type=int, required=True)
    p.add_argument("--pair", action="append", default=[], help="A:B:GROUPS (repeatable)")
    p.add_argument("--first-only", default="", help="scenarios run in the first boot only")
    p.add_argument("scenarios", nargs="*")
    q = sub.add_parser("pairs", help="print the key pairs of the targets as A:B:GROUPS")
    q.add_argument("--target", help="only this target's pair (a ratio's name, e.g. L1, L2-w25)")
    q.add_argument("--groups", type=int, help="pairing groups of the main shape's pairs")
    q.add_argument("--shape-groups", type=int, help="pairing groups of the other shapes' pairs")
    q.add_argument("--no-shapes", action="store_true", help="the main shape's pairs only")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "plan":
            pairs = [parse_pair(x) for x in args.pair]
            first = [s for s in args.first_only.split(",") if s]
            for b in plan(args.scenarios, pairs, args.seed, args.reps, first):
                print(f"{b.number}\t{b.kind}\t" + " ".join(b.tests))
        else:
            import targets
            for a, b, g in targets.decisive_pairs(args.target, args.groups, args.shape_groups,
                                                  shapes=not args.no_shapes):
                print(f"{a}:{b}:{g}")
    except (ValueError, KeyError) as e:
        print(f"schedule.py: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
