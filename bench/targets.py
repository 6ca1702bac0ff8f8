# SPDX-License-Identifier: GPL-2.0-only
"""The ratios of scripts/bench and their verdicts (issue 15, items 3 and 4).

Every ratio is paired per group (the pairing unit of boots.tsv: the boots of
one repetition, its rerun boots, or one icount pair): within a group the
accepted run(s) of the numerator and of the denominator, each run counted
with the mean of its repeats of the metric (the microbenchmarks measure each
condition several times per boot); over the groups, stats.summarize(): the
median ratio with its 95 % bootstrap interval and the verdict from the whole
interval. Cross-kernel ratios (P4, K0) pair the patched and the unpatched
runs of the same group.

The microbenchmarks (P3, P4, P5) are taken from the icount boots when there
are any, else from the other boots; every other ratio from the boots that
are not icount.
"""
import statistics

import stats

BOOTSTRAP_SEED = 1
LEGACY = "legacy: ratio of a sequential writer's MiB/s"
MICRO_SCENARIOS = ("P3", "P4", "P5")


class Spec:
    def __init__(self, name, section, num, den, target, direction, floor, what):
        self.name, self.section, self.num, self.den = name, section, num, den
        self.target, self.direction, self.floor, self.what = target, direction, floor, what

    def micro(self):
        return self.num[1] in MICRO_SCENARIOS


P, U = "patched", "unpatched"
# num / den: (kernel, scenario, metric). floor: what a value of 0 counts as
# (the measurement's resolution: a starved writer's MiB/s); None: 0 is an error.
SPECS = [
    Spec("L1", "latency", (P, "L1-memcgd", "high_p99"), (P, "L1-low", "high_p99"), 0.5, "<=", None,
         "high.slice p99 latency under contention: memcgd / memory.low"),
    Spec("L1-static", "latency", (P, "L1-memcgd", "high_p99"), (P, "L1-lowhigh", "high_p99"), 0.8, "<=", None,
         "high.slice p99 latency under contention: memcgd / memory.low + memory.high on low"),
    Spec("L1b", "latency", (P, "L1-memcgd", "low"), (P, "L1-low", "low"), 1.0, ">=", 0.01,
         "low.slice throughput under contention: memcgd / memory.low"),
    Spec("L2", "latency", (P, "L2-memcgd", "low_work_seconds"), (P, "L2-low", "low_work_seconds"), 0.1, "<=",
         None, "low.slice time to finish its work while high.slice idles: memcgd / memory.low"),
    Spec("L3", "latency", (P, "L2-memcgd", "high_wake_p99"), (P, "L2-low", "high_wake_p99"), None, None, None,
         "high.slice p99 of its first requests after idling: memcgd / memory.low (reported, no target yet)"),
    # issue 20: background reclaim against the delay, both memcgd with the shipped examples
    Spec("B1", "latency", (P, "L1-memcgdbg", "high_p99"), (P, "L1-memcgd", "high_p99"), 1.0, "<=", None,
         "high.slice p99 latency under contention: background reclaim / Delay="),
    Spec("B1b", "latency", (P, "L1-memcgdbg", "low"), (P, "L1-memcgd", "low"), 2.0, ">=", 0.01,
         "low.slice throughput under contention: background reclaim / Delay="),
    Spec("P3", "micro", (P, "P3", "attached"), (P, "P3", "none"), 0.99, ">=", None,
         "page faults per time in low.slice: memcgd attached / nothing attached"),
    Spec("P3-tp", "micro", (P, "P3", "tracepoint"), (P, "P3", "none"), None, None, None,
         "page faults per time: memcgd dry run (fault-counting tracepoint only) / nothing attached"),
    Spec("P3-ops", "micro", (P, "P3", "attached"), (P, "P3", "tracepoint"), None, None, None,
         "page faults per time: memcgd attached / memcgd dry run (the memcg_bpf_ops' share)"),
    Spec("P4", "micro", (P, "P4", "faults"), (U, "P4", "faults"), 0.995, ">=", None,
         "page faults per time, nothing attached: patched / unpatched 6.12"),
    Spec("P4-charge", "micro", (P, "P4", "charge"), (U, "P4", "charge"), 0.995, ">=", None,
         "tmpfs writes (MiB) per time, nothing attached: patched / unpatched 6.12"),
    Spec("P5", "micro", (P, "P5", "slices256"), (P, "P5", "slices2"), 0.01, "within", None,
         "page faults per time: 256 managed slices / 2 managed slices"),
    Spec("P1", "legacy", (P, "S3", "high"), (P, "S1", "high"), 1.0, ">=", 0.01,
         f"{LEGACY}: high slice, both busy: memcgd / memory.low"),
    Spec("P1b", "legacy", (P, "S3", "low"), (P, "S1", "low"), 1.0, ">=", 0.01,
         f"{LEGACY}: low slice, both busy: memcgd / memory.low"),
    Spec("P2", "legacy", (P, "S4", "low"), (P, "S2", "low"), 37.0, ">=", 0.01,
         f"{LEGACY}: low slice, high idle: memcgd / memory.low"),
    Spec("P2b", "legacy", (P, "S4", "low"), (P, "S0", "low"), 0.95, ">=", 0.01,
         f"{LEGACY}: low slice, high idle: memcgd / no protection (zero-filled holder)"),
    Spec("P2b-f", "legacy", (P, "S4f", "low"), (P, "S0f", "low"), 0.95, ">=", 0.01,
         f"{LEGACY}: low slice, high idle: memcgd / no protection (pattern-filled holder)"),
    Spec("T", "legacy", (P, "S4t", "low"), (P, "S0", "low"), None, None, 0.01,
         f"{LEGACY}: low slice arriving while high still counts active (S4t) / no protection (S0)"),
    Spec("K0", "legacy", (P, "S0", "low"), (U, "S0", "low"), None, None, 0.01,
         f"{LEGACY}: low slice, high idle, no protection (zero-filled holder): patched / unpatched 6.12"),
    Spec("K0f", "legacy", (P, "S0f", "low"), (U, "S0f", "low"), None, None, 0.01,
         f"{LEGACY}: low slice, high idle, no protection (pattern-filled holder): patched / unpatched 6.12"),
]


class Row:
    def __init__(self, spec):
        self.spec = spec
        self.n, self.median, self.low, self.high = 0, None, None, None
        self.verdict, self.why = "", ""
        self.source = None     # the mode the runs came from ("icount", or "tcg" for the rest)

    def verdict_text(self):
        return self.verdict + (f" ({self.why})" if self.why else "")


def micro_uses_icount(runs):
    """The microbenchmarks come from the icount boots when there are any."""
    return any(r.mode == "icount" and r.scenario in MICRO_SCENARIOS for r in runs)


def runs_for(spec, runs):
    """The runs a spec may draw on (accepted or not), and their source."""
    if spec.micro() and micro_uses_icount(runs):
        return [r for r in runs if r.mode == "icount"], "icount"
    return [r for r in runs if r.mode != "icount"], "tcg"


def run_value(run, metric):
    """A run's value of a metric: the mean of its repeats, or None."""
    vs = run.results.get(metric)
    return statistics.fmean(vs) if vs else None


def compute(spec, runs):
    row = Row(spec)
    pool, row.source = runs_for(spec, runs)
    sides = (spec.num, spec.den)
    needed = dict.fromkeys(side[:2] for side in sides)
    missing = [sc + (" (unpatched)" if k == U else "") for k, sc in needed
               if not any((r.kernel, r.scenario) == (k, sc) for r in pool)]
    if missing:
        row.verdict = "not run"
        row.why = "no run of " + ", ".join(missing)
        return row
    num, den = ("/".join(side) for side in sides)
    records = []
    for r in pool:
        if not r.accepted:
            continue
        for side, cond in ((spec.num, num), (spec.den, den)):
            if (r.kernel, r.scenario) == side[:2]:
                v = run_value(r, side[2])
                if v is not None:
                    records.append((r.group, cond, v))
    try:
        pairs = stats.paired_ratios(records, num, den, floor=spec.floor)
    except ValueError as e:
        row.verdict = "not computed"
        row.why = str(e).replace("boot ", "group ", 1)
        return row
    s = stats.summarize(pairs, spec.target, spec.direction, seed=BOOTSTRAP_SEED)
    row.n, row.median, row.low, row.high = s["n"], s["median"], s["low"], s["high"]
    row.verdict, row.why = s["verdict"], s.get("why", "").replace("boots", "pairs")
    return row


def compute_all(runs):
    return [compute(spec, runs) for spec in SPECS]


def target_text(spec):
    if spec.target is None:
        return "-"
    if spec.direction == "within":
        return f"within {100 * spec.target:g} % ({1 - spec.target:g}–{1 + spec.target:g})"
    return f"{'≤' if spec.direction == '<=' else '≥'} {spec.target:g}"
