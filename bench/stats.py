#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Statistics of scripts/bench (issue 15, item 4), Python 3 standard library only.

The unit of replication is the boot: runs within one boot share its
machine load, its page cache and its emulator state, so two conditions are
compared within a boot and the boots are what vary.

- paired_ratios(): per boot, the ratio of two conditions (a condition measured
  more than once in a boot counts with its median there).
- summarize(): over boots, the median ratio (the median of the log-ratios,
  exponentiated) with a 95 % bootstrap confidence interval (boots resampled
  with replacement, seeded, so the same data give the same interval), n, and
  the verdict against a target: "met" only when the whole interval is on the
  right side of the target, "missed" when it is wholly on the wrong side,
  "inconclusive" otherwise, and also when fewer than MIN_BOOTS boots paired.
- summarize_values(): the same over boots for a value that is not a ratio
  (a share of pages, which may be 0): the median of the values themselves
  with its bootstrap interval, n and the verdict by the same rule.
- noninferiority(): the verdict of an "as good as" target (the margin
  must allow the ratio 1), and interval_is_range(): whether an interval is
  just the data's min-max (what n <= 5 gives).
- wilson(): a proportion k/n (e.g. runs with a stall) with its Wilson score
  interval.
- scenario_order(): the order of the scenarios in one boot, shuffled from a
  recorded seed (the same seed and boot number give the same order).

usage: stats.py order --seed N --boot B SCENARIO...   (prints the order)
"""
import argparse
import math
import random
import statistics
import sys

MIN_BOOTS = 3            # below this a bootstrap interval means nothing
BOOTSTRAP_REPS = 10000
LEVEL = 0.95
DIRECTIONS = ("<=", ">=", "within")


def median(xs):
    return statistics.median(xs)


def paired_ratios(records, numerator, denominator, floor=None):
    """records: iterable of (boot, condition, value). Returns [(boot, ratio)]
    in the order the boots first appear, for the boots that measured both
    conditions. A value <= 0 has no log-ratio: with floor=None it is an error
    naming the boot and condition, else it is raised to floor (the
    measurement's resolution, e.g. 0.01 MiB/s for a writer that starved)."""
    per_boot = {}
    for boot, cond, value in records:
        if cond in (numerator, denominator):
            per_boot.setdefault(boot, {}).setdefault(cond, []).append(float(value))
    out = []
    for boot, conds in per_boot.items():
        if numerator not in conds or denominator not in conds:
            continue
        vals = []
        for cond in (numerator, denominator):
            v = median(conds[cond])
            if math.isnan(v) or math.isinf(v) or v < 0 or (v == 0 and floor is None):
                raise ValueError(f"boot {boot}: {cond} = {v}: a ratio needs a positive, finite value")
            vals.append(v if floor is None else max(v, floor))
        out.append((boot, vals[0] / vals[1]))
    return out


def _quantile_sorted(xs, q):
    """The q-quantile of sorted xs by the nearest rank: the smallest value
    with at least q of the values at or below it."""
    rank = max(1, math.ceil(q * len(xs) - 1e-9))
    return xs[min(rank, len(xs)) - 1]


def bootstrap_median_ci(logs, seed, reps=BOOTSTRAP_REPS, level=LEVEL):
    """Percentile bootstrap interval of the median of logs: resample the values
    with replacement reps times, take each resample's median, and return the
    (1 - level) / 2 and (1 + level) / 2 quantiles of those medians. random.Random
    with an integer seed and its random() are the same sequence on every
    Python 3, so the interval is reproducible from the seed."""
    if not logs:
        raise ValueError("bootstrap of no values")
    rng = random.Random(seed)
    n = len(logs)
    meds = []
    for _ in range(reps):
        meds.append(median([logs[int(rng.random() * n)] for _ in range(n)]))
    meds.sort()
    return _quantile_sorted(meds, (1 - level) / 2), _quantile_sorted(meds, (1 + level) / 2)


def verdict(low, high, target, direction):
    """The verdict of an interval [low, high] of a ratio against its target.
    "<=": met when high <= target, missed when low > target; ">=": met when
    low >= target, missed when high < target; "within": the ratio must lie in
    1 +- target, met when the whole interval does, missed when none of it
    does. Anything else is inconclusive: the data cannot tell."""
    if direction == "<=":
        if high <= target:
            return "met"
        return "missed" if low > target else "inconclusive"
    if direction == ">=":
        if low >= target:
            return "met"
        return "missed" if high < target else "inconclusive"
    if direction == "within":
        lo_ok, hi_ok = 1 - target, 1 + target
        if lo_ok <= low and high <= hi_ok:
            return "met"
        return "missed" if high < lo_ok or low > hi_ok else "inconclusive"
    raise ValueError(f"unknown target direction {direction!r} (want one of {', '.join(DIRECTIONS)})")


def summarize(ratios, target=None, direction=None, seed=1, reps=BOOTSTRAP_REPS, level=LEVEL):
    """ratios: per-boot ratios (numbers, or (boot, ratio) pairs). Returns a dict
    with n, median (ratio), low and high (the bootstrap interval, ratio scale),
    and verdict: "no target" without one, "inconclusive" with fewer than
    MIN_BOOTS ratios whatever they say, else verdict()."""
    rs = [r[1] if isinstance(r, tuple) else r for r in ratios]
    for r in rs:
        if not r > 0 or math.isinf(r):
            raise ValueError(f"ratio {r}: a log-ratio needs a positive, finite ratio")
    out = {"n": len(rs), "median": None, "low": None, "high": None}
    if rs:
        logs = [math.log(r) for r in rs]
        lo, hi = bootstrap_median_ci(logs, seed, reps, level)
        out.update(median=math.exp(median(logs)), low=math.exp(lo), high=math.exp(hi))
    return _judged(out, target, direction)


def summarize_values(values, target=None, direction=None, seed=1, reps=BOOTSTRAP_REPS, level=LEVEL):
    """values: one per boot (numbers, or (boot, value) pairs), e.g. the share of a
    slice's pages on its node. As summarize(), but of the values themselves, not
    of their logarithms: the median value with its bootstrap interval, n, and the
    verdict against a target in the values' own scale (0 is a value like any
    other). "within" means 1 +- target here too."""
    xs = [v[1] if isinstance(v, tuple) else v for v in values]
    for x in xs:
        if math.isnan(x) or math.isinf(x):
            raise ValueError(f"value {x}: a median needs finite values")
    out = {"n": len(xs), "median": None, "low": None, "high": None}
    if xs:
        lo, hi = bootstrap_median_ci([float(x) for x in xs], seed, reps, level)
        out.update(median=float(median(xs)), low=lo, high=hi)
    return _judged(out, target, direction)


def interval_is_range(values, low, high, rel=1e-9):
    """Whether an interval [low, high] is the whole range of the values (min to
    max): what a 95 % percentile bootstrap of the median gives when the values
    are few (every n <= 5: the median of a resample is the smallest value with
    a probability above 2.5 %), so that "the whole interval on the target's
    side" only says every value is. The report says so beside such an interval."""
    if not values or low is None or high is None:
        return False

    def same(a, b):
        return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)
    return same(low, min(values)) and same(high, max(values))


def noninferiority(low, high, margin, direction):
    """The non-inferiority reading of an interval of a ratio: "as good as the
    reference within MARGIN" (direction "<=": a ratio where less is better,
    e.g. latency, margin >= 1; ">=": more is better, e.g. throughput, margin
    <= 1). met: the whole interval on the good side of the margin; missed:
    wholly on the other side; inconclusive otherwise. The same rule as
    verdict(), which it calls, with the margin's side checked."""
    if direction == "<=" and margin < 1 or direction == ">=" and margin > 1:
        raise ValueError(f"non-inferiority margin {margin} {direction}: the margin must allow "
                         "the reference's own value 1")
    if direction not in ("<=", ">="):
        raise ValueError(f"non-inferiority wants <= or >=, got {direction!r}")
    return verdict(low, high, margin, direction)


def _judged(out, target, direction):
    """out with its verdict: "no target" without one, "inconclusive" with fewer
    than MIN_BOOTS boots whatever they say, else verdict() of the interval."""
    if target is None:
        out["verdict"] = "no target"
    elif out["n"] < MIN_BOOTS:
        out["verdict"] = "inconclusive"
        out["why"] = f"n = {out['n']} < {MIN_BOOTS} boots"
    else:
        out["verdict"] = verdict(out["low"], out["high"], target, direction)
    return out


def wilson(k, n, level=LEVEL):
    """Wilson score interval of the proportion k/n (None when n is 0)."""
    if not 0 <= k <= n:
        raise ValueError(f"proportion {k}/{n}: want 0 <= k <= n")
    if n == 0:
        return None
    z = statistics.NormalDist().inv_cdf((1 + level) / 2)
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # exact at the ends: 0 of n cannot be less than 0, n of n not more than 1
    return (0.0 if k == 0 else center - half), (1.0 if k == n else center + half)


def scenario_order(scenarios, seed, boot):
    """The scenarios of boot number `boot` in a shuffled order. The shuffle is
    seeded by the run's seed and the boot number (random.Random with a string
    seed hashes it with SHA-512: the same order on every Python 3), so the
    order of every boot can be recomputed from the one recorded seed."""
    order = list(scenarios)
    rng = random.Random(f"memcgd-bench order {seed} {boot}")
    # Fisher-Yates on random() alone: random.shuffle's internals may change
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("order", help="print the scenario order of one boot")
    o.add_argument("--seed", type=int, required=True)
    o.add_argument("--boot", type=int, required=True)
    o.add_argument("scenarios", nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "order":
        print(" ".join(scenario_order(args.scenarios, args.seed, args.boot)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
