#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of bench/stats.py with known inputs: the verdict rule at and
around its boundaries in every direction, the bootstrap interval against the
exact bootstrap distribution (all resamples enumerated) and against a known
output for a fixed seed, the median of plain values (shares, 0 allowed) with
its interval, pairing by boot, the Wilson interval's known values,
and the seeded scenario order. usage: test-stats.py STATS_PY"""
import collections
import importlib.util
import itertools
import math
import os
import subprocess
import sys

spec = importlib.util.spec_from_file_location("stats", sys.argv[1])
stats = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stats)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done  # noqa: E402


def close(a, b, tol=1e-9):
    return a is not None and b is not None and abs(a - b) <= tol * max(1.0, abs(b))


def raises(fn, *args, text=""):
    try:
        fn(*args)
    except ValueError as e:
        return text in str(e)
    return False


# --- the verdict rule on hand-made intervals: both sides, the boundary, the middle
for lo, hi, target, direction, want in [
        (0.30, 0.45, 0.5, "<=", "met"),
        (0.30, 0.50, 0.5, "<=", "met"),           # touching the target is on its side
        (0.30, 0.51, 0.5, "<=", "inconclusive"),
        (0.49, 0.90, 0.5, "<=", "inconclusive"),
        (0.50, 0.90, 0.5, "<=", "inconclusive"),  # low == target: not wholly on the wrong side
        (0.51, 0.90, 0.5, "<=", "missed"),
        (1.00, 1.30, 1.0, ">=", "met"),
        (0.99, 1.30, 1.0, ">=", "inconclusive"),
        (0.70, 1.00, 1.0, ">=", "inconclusive"),
        (0.70, 0.99, 1.0, ">=", "missed"),
        (0.995, 1.005, 0.01, "within", "met"),
        (0.985, 1.005, 0.01, "within", "inconclusive"),
        (1.005, 1.030, 0.01, "within", "inconclusive"),
        (1.011, 1.030, 0.01, "within", "missed"),
        (0.950, 0.989, 0.01, "within", "missed"),
        (0.950, 1.050, 0.01, "within", "inconclusive")]:
    got = stats.verdict(lo, hi, target, direction)
    check(got == want, f"interval [{lo}, {hi}] against {direction} {target}: {got} (want {want})")
check(raises(stats.verdict, 1, 2, 1, "<", text="unknown target direction '<'"),
      "an unknown direction is an error naming it")

# --- non-inferiority ("as good as" within a margin) on known intervals: met only when the
# whole interval is on the good side of the margin, missed when wholly beyond it
for lo, hi, margin, direction, want in [
        (0.80, 1.05, 1.1, "<=", "met"),            # worse than the reference, within 10 %
        (0.80, 1.10, 1.1, "<=", "met"),            # touching the margin
        (0.95, 1.25, 1.1, "<=", "inconclusive"),   # across the margin
        (1.11, 1.60, 1.1, "<=", "missed"),         # wholly more than 10 % worse
        (0.96, 1.40, 0.95, ">=", "met"),
        (0.90, 1.20, 0.95, ">=", "inconclusive"),
        (0.50, 0.94, 0.95, ">=", "missed")]:
    got = stats.noninferiority(lo, hi, margin, direction)
    check(got == want, f"non-inferiority [{lo}, {hi}] {direction} margin {margin}: {got} (want {want})")
check(raises(stats.noninferiority, 0.9, 1.0, 0.9, "<=", text="must allow"),
      "a latency margin below 1 is not non-inferiority")
check(raises(stats.noninferiority, 0.9, 1.0, 1.05, ">=", text="must allow"),
      "a throughput margin above 1 is not non-inferiority")
check(raises(stats.noninferiority, 0.9, 1.0, 1.0, "within", text="wants <= or >="), "within is refused")
# the same from data: eight pairs a little worse than memory.low (1.02-1.08) meet <= 1.1,
# eight pairs around 1.1 do not decide it, eight pairs 1.2-1.4 miss it
near = [1.02, 1.05, 1.03, 1.08, 1.04, 1.06, 1.02, 1.07]
across = [1.00, 1.05, 1.08, 1.12, 1.15, 1.09, 1.13, 1.18]
beyond = [1.2, 1.3, 1.25, 1.4, 1.22, 1.35, 1.28, 1.31]
for xs, want in ((near, "met"), (across, "inconclusive"), (beyond, "missed")):
    r = stats.summarize(xs, 1.1, "<=")
    got = stats.noninferiority(r["low"], r["high"], 1.1, "<=")
    check(got == want == r["verdict"],
          f"n 8, {min(xs)}-{max(xs)} against <= 1.1: {got} ({r['low']:.3f}-{r['high']:.3f}; want {want})")
    check(not stats.interval_is_range(xs, r["low"], r["high"]),
          f"n 8: the interval {r['low']:.3f}-{r['high']:.3f} is narrower than the range {min(xs)}-{max(xs)}")
# n = 3 (and up to 5): the percentile bootstrap interval of the median is the range
for xs in ([0.9, 1.0, 1.05], [0.9, 1.0, 1.05, 1.2], [0.9, 1.0, 1.05, 1.2, 0.95]):
    r = stats.summarize(xs, 1.1, "<=")
    check(stats.interval_is_range(xs, r["low"], r["high"]),
          f"n {len(xs)}: interval {r['low']:.3f}-{r['high']:.3f} = min-max {min(xs)}-{max(xs)}")
r6 = stats.summarize([0.9, 1.0, 1.05, 1.2, 0.95, 1.1], 1.1, "<=")
check(not stats.interval_is_range([0.9, 1.0, 1.05, 1.2, 0.95, 1.1], r6["low"], r6["high"]),
      f"n 6: the interval {r6['low']:.3f}-{r6['high']:.3f} is no longer the range 0.9-1.2")
check(not stats.interval_is_range([], None, None), "no values: no range")

# --- identical ratios: a zero-width interval, so the verdict is exact
same = [0.5] * 5
s = stats.summarize(same, 0.5, "<=")
check(s["n"] == 5 and close(s["median"], 0.5) and close(s["low"], 0.5) and close(s["high"], 0.5),
      f"five ratios of 0.5: median and interval 0.5 ({s})")
check(s["verdict"] == "met", "0.5 <= 0.5 is met")
check(stats.summarize(same, 0.49, "<=")["verdict"] == "missed", "0.5 <= 0.49 is missed")
check(stats.summarize(same, 0.5, ">=")["verdict"] == "met", "0.5 >= 0.5 is met")
check(stats.summarize(same, 0.51, ">=")["verdict"] == "missed", "0.5 >= 0.51 is missed")

# --- the directions on data wholly below or above the target
below = [0.30, 0.35, 0.32, 0.38, 0.31, 0.36]
above = [1.20, 1.35, 1.25, 1.40, 1.22, 1.31]
check(stats.summarize(below, 0.5, "<=")["verdict"] == "met", "ratios 0.30-0.38, target <= 0.5: met")
check(stats.summarize(below, 0.5, ">=")["verdict"] == "missed", "ratios 0.30-0.38, target >= 0.5: missed")
check(stats.summarize(above, 1.0, ">=")["verdict"] == "met", "ratios 1.20-1.40, target >= 1.0: met")
check(stats.summarize(above, 1.0, "<=")["verdict"] == "missed", "ratios 1.20-1.40, target <= 1.0: missed")

# --- a target inside the interval is inconclusive, whatever side the median is on
spread = [0.62, 0.48, 0.55, 0.71, 0.40, 0.52]
s = stats.summarize(spread, 0.5, "<=", seed=7)
check(s["low"] < 0.5 < s["high"] and s["median"] > 0.5 and s["verdict"] == "inconclusive",
      f"median {s['median']:.3f} above 0.5 but the interval spans it: inconclusive ({s})")
s2 = stats.summarize(spread, 0.6, "<=", seed=7)
check(s2["median"] < 0.6 < s2["high"] and s2["verdict"] == "inconclusive",
      f"median {s2['median']:.3f} below 0.6, interval spans it: inconclusive, not met")
check(stats.summarize(spread, 0.5, ">=", seed=7)["verdict"] == "inconclusive", "same data, >= 0.5: inconclusive")

# --- known bootstrap output for a fixed seed. With an even n the median of a
# resample is the geometric mean of its two middle ratios; for these six
# ratios and seed 7 the 95 % interval runs from the geometric mean of 0.40 and
# 0.48 to that of 0.62 and 0.71, the median is that of 0.52 and 0.55.
check(close(s["low"], math.sqrt(0.40 * 0.48)) and close(s["high"], math.sqrt(0.62 * 0.71)),
      f"seed 7: interval [{s['low']:.6f}, {s['high']:.6f}] = [sqrt(0.40*0.48), sqrt(0.62*0.71)]")
check(close(s["median"], math.sqrt(0.52 * 0.55)), f"median {s['median']:.6f} = sqrt(0.52*0.55)")
check(stats.summarize(spread, 0.5, "<=", seed=7) == s, "the same seed gives the same interval")


def exact_bootstrap(xs, level=0.95):
    """The percentile interval of the exact bootstrap distribution of the
    median: every one of the n^n resamples, equally likely."""
    n = len(xs)
    counts = collections.Counter(statistics_median(r) for r in itertools.product(xs, repeat=n))
    total = n ** n
    support = sorted(counts)

    def quantile(q):
        acc = 0
        for v in support:
            acc += counts[v]
            if acc >= q * total - 1e-9:
                return v
        return support[-1]
    return quantile((1 - level) / 2), quantile((1 + level) / 2)


def statistics_median(xs):
    ys = sorted(xs)
    n = len(ys)
    return ys[n // 2] if n % 2 else (ys[n // 2 - 1] + ys[n // 2]) / 2


for xs in ([0.5, 0.8, 1.1, 2.0], [0.9, 1.0, 1.3, 1.4, 3.0], [0.2, 0.25, 0.3, 0.9, 1.0, 1.1]):
    logs = [math.log(x) for x in xs]
    want = exact_bootstrap(logs)
    got = stats.bootstrap_median_ci(logs, seed=3, reps=20000)
    check(close(got[0], want[0]) and close(got[1], want[1]),
          f"bootstrap of {xs}: [{math.exp(got[0]):.4f}, {math.exp(got[1]):.4f}], exact "
          f"[{math.exp(want[0]):.4f}, {math.exp(want[1]):.4f}]")

# --- a single boot, or two, decide nothing however far off they are
for rs in ([0.1], [0.1, 0.12]):
    s = stats.summarize(rs, 0.5, "<=")
    check(s["verdict"] == "inconclusive" and f"n = {len(rs)}" in s.get("why", ""),
          f"{len(rs)} boot(s) at 0.1, target <= 0.5: inconclusive ({s.get('why')})")
check(stats.summarize(below, None, None)["verdict"] == "no target", "no target, no verdict")
check(close(stats.summarize([1.0, 4.0])["median"], 2.0), "median ratio of 1 and 4 is their geometric mean, 2")
check(stats.summarize([])["n"] == 0 and stats.summarize([])["median"] is None, "no ratios: n = 0, no median")
check(raises(stats.summarize, [1.0, 0.0], text="ratio 0.0"), "a zero ratio is an error, not -inf")

# --- values that are not ratios (a share of pages): their own median and interval, 0 allowed
shares = [0.97, 0.95, 0.99, 0.96, 0.98]
v = stats.summarize_values(shares, 0.90, ">=")
want = exact_bootstrap(shares)
check(v["n"] == 5 and close(v["median"], 0.97) and close(v["low"], want[0]) and close(v["high"], want[1]),
      f"shares 0.95-0.99: median 0.97, interval the exact bootstrap's {want} ({v})")
check(v["verdict"] == "met", "shares 0.95-0.99 against >= 0.90: met")
check(stats.summarize_values(shares, 0.98, ">=")["verdict"] == "inconclusive", "against >= 0.98: inconclusive")
check(stats.summarize_values(shares, 0.995, ">=")["verdict"] == "missed", "against >= 0.995: missed")
# the resample's median is 0.01 only when 3 or 4 of its 4 draws are (p = 0.051 > 0.025)
off = stats.summarize_values([0.0, 0.0, 0.01, 0.0])
check(off["verdict"] == "no target" and off["median"] == 0.0 and off["low"] == 0.0 and close(off["high"], 0.01) and
      exact_bootstrap([0.0, 0.0, 0.01, 0.0]) == (0.0, 0.01),
      f"shares of 0 are values, not errors: median 0, interval 0-0.01 ({off})")
check(stats.summarize_values([("b1", 0.2), ("b2", 0.4), ("b3", 0.3)])["median"] == 0.3,
      "(boot, value) pairs: the median of the values")
few = stats.summarize_values([0.99, 0.99], 0.9, ">=")
check(few["verdict"] == "inconclusive" and "n = 2" in few.get("why", ""), "two boots decide nothing")
check(raises(stats.summarize_values, [0.5, float("nan")], text="value nan"), "NaN is an error")
check(stats.summarize_values([])["median"] is None, "no values: no median")

# --- pairing: by boot, not by position; repeats within a boot by their median
records = [("b2", "memcgd", 30.0), ("b1", "memory.low", 100.0), ("b1", "memcgd", 40.0),
           ("b2", "memory.low", 50.0), ("b3", "memcgd", 10.0),            # b3 lacks memory.low
           ("b4", "memcgd", 1.0), ("b4", "memcgd", 9.0), ("b4", "memcgd", 2.0),
           ("b4", "memory.low", 4.0), ("b4", "none", 1000.0)]
pairs = stats.paired_ratios(records, "memcgd", "memory.low")
check(pairs == [("b2", 0.6), ("b1", 0.4), ("b4", 0.5)],
      f"paired by boot, b3 without a denominator left out, b4's repeats by their median 2: {pairs}")
check(raises(stats.paired_ratios, [("b7", "a", 0.0), ("b7", "b", 1.0)], "a", "b", text="boot b7: a = 0.0"),
      "a zero measurement is an error naming its boot and condition")
check(stats.paired_ratios([("b7", "a", 0.0), ("b7", "b", 2.0)], "a", "b", floor=0.01) == [("b7", 0.005)],
      "with floor=0.01 a starved writer's 0 counts as 0.01")
check(raises(stats.paired_ratios, [("b7", "a", float("nan")), ("b7", "b", 2.0)], "a", "b", 0.01,
             text="boot b7: a = nan"), "NaN is an error even with a floor")

# --- Wilson intervals (known values; 0 of n and n of n end exactly at 0 and 1)
for k, n, lo, hi in [(0, 10, 0.0, 0.277533), (5, 10, 0.236593, 0.763407), (10, 10, 0.722467, 1.0),
                     (1, 3, 0.061492, 0.792340), (2, 9, 0.063225, 0.547411)]:
    w = stats.wilson(k, n)
    check(abs(w[0] - lo) < 1e-6 and abs(w[1] - hi) < 1e-6, f"Wilson {k}/{n}: [{w[0]:.6f}, {w[1]:.6f}]")
check(stats.wilson(0, 0) is None, "0 of 0: no interval")
check(raises(stats.wilson, 4, 3, text="4/3"), "k > n is an error")

# --- scenario order: a permutation, reproducible from seed and boot, varying over boots
scen = ["S0", "S1", "S2", "S3", "S4", "S4f", "S0f", "L1-none", "L1-low", "L1-memcgd"]
orders = [stats.scenario_order(scen, 20261204, b) for b in range(1, 21)]
check(all(sorted(o) == sorted(scen) for o in orders), "every boot runs every scenario once")
check(orders[0] == stats.scenario_order(scen, 20261204, 1), "seed and boot give the same order again")
check(len({tuple(o) for o in orders}) == 20, "20 boots, 20 different orders")
follows = sum(o.index("S0") == o.index("S4") + 1 for o in orders)
check(follows < 10, f"S0 right after S4 in {follows} of 20 boots (it was 20 of 20 with the rotation)")
check(stats.scenario_order(scen, 20261204, 1) != stats.scenario_order(scen, 20261205, 1),
      "another seed, another order")
# a recorded seed must give the recorded order on any machine and Python 3:
# pinned (this is the order the seed has meant since stats.py was written)
pinned = stats.scenario_order(["A", "B", "C", "D", "E"], 42, 1)
check(pinned == ["C", "D", "E", "B", "A"], f"seed 42 boot 1 of A-E: {pinned}")
cli = subprocess.run([sys.executable, sys.argv[1], "order", "--seed", "42", "--boot", "1", "A", "B", "C", "D", "E"],
                     capture_output=True, text=True)
check(cli.returncode == 0 and cli.stdout.split() == pinned, f"stats.py order prints it: {cli.stdout.strip()}")

done()
print("all stats checks passed")
