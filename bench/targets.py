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

Two NUMA rows are not ratios (issue 19): N1 ("share") is the median over the
groups of one condition's value (the share of numa.slice's pages on its
node; per group the median of its accepted runs) with its bootstrap
interval, by stats.summarize_values(); N2 ("zero") asks for 0 in every
accepted run (other.slice's hinting faults plus migrations): its point is
the share k/n of runs with any, with the Wilson interval, and it is met
only when k = 0 in at least MIN_BOOTS runs, missed as soon as one run has
any. A metric "a+b" is the sum of both.
"""
import statistics

import stats

BOOTSTRAP_SEED = 1
LEGACY = "legacy: ratio of a sequential writer's MiB/s"
MICRO_SCENARIOS = ("P3", "P4", "P5")


KINDS = ("ratio", "share", "zero")


class Spec:
    def __init__(self, name, section, num, den, target, direction, floor, what, kind="ratio"):
        assert kind in KINDS and (den is None) == (kind != "ratio")
        self.name, self.section, self.num, self.den = name, section, num, den
        self.target, self.direction, self.floor, self.what = target, direction, floor, what
        self.kind = kind

    def micro(self):
        return self.num[1] in MICRO_SCENARIOS

    def numa(self):
        return self.section == "numa"


P, U = "patched", "unpatched"


def latency_specs(config, suffix, who):
    """The latency targets (issue 15) of one memcgd configuration against the
    static ones: L1, L1-static, L1b, L2, L3, each name with SUFFIX after its
    first part (L1-lat-static), WHO naming the configuration in the text."""
    l1, l2 = f"L1-{config}", f"L2-{config}"
    return [
        Spec(f"L1{suffix}", "latency", (P, l1, "high_p99"), (P, "L1-low", "high_p99"), 0.5, "<=", None,
             f"high.slice p99 latency under contention: {who} / memory.low"),
        Spec(f"L1{suffix}-static", "latency", (P, l1, "high_p99"), (P, "L1-lowhigh", "high_p99"), 0.8, "<=",
             None, f"high.slice p99 latency under contention: {who} / memory.low + memory.high on low"),
        Spec(f"L1b{suffix}", "latency", (P, l1, "low"), (P, "L1-low", "low"), 1.0, ">=", 0.01,
             f"low.slice throughput under contention: {who} / memory.low"),
        Spec(f"L2{suffix}", "latency", (P, l2, "low_work_seconds"), (P, "L2-low", "low_work_seconds"), 0.1,
             "<=", None, f"low.slice time to finish its work while high.slice idles: {who} / memory.low"),
        Spec(f"L3{suffix}", "latency", (P, l2, "high_wake_p99"), (P, "L2-low", "high_wake_p99"), None, None,
             None, f"high.slice p99 of its first requests after idling: {who} / memory.low "
             "(reported, no target yet)"),
    ]


# num / den: (kernel, scenario, metric). floor: what a value of 0 counts as
# (the measurement's resolution: a starved writer's MiB/s); None: 0 is an error.
SPECS = [
    *latency_specs("memcgd", "", "memcgd"),
    # issue 20: background reclaim against the delay, both memcgd with the shipped examples
    Spec("B1", "latency", (P, "L1-memcgdbg", "high_p99"), (P, "L1-memcgd", "high_p99"), 1.0, "<=", None,
         "high.slice p99 latency under contention: background reclaim / Delay="),
    Spec("B1b", "latency", (P, "L1-memcgdbg", "low"), (P, "L1-memcgd", "low"), 2.0, ">=", 0.01,
         "low.slice throughput under contention: background reclaim / Delay="),
    # the shipped latency-service policy for high.slice (conf/latency/50-high.conf), declared
    # before its first run: the same targets as memcgd's shipped example policies
    *latency_specs("memcgdlat", "-lat", "memcgd, latency policy"),
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
    # issue 19: NUMA balancing per slice (N-*: boots with two NUMA nodes)
    Spec("N1", "numa", (P, "N-memcgd", "numa_local_share"), None, 0.90, ">=", None,
         "share of numa.slice's pages on the node it runs on after the run: memcgd balancing "
         "numa.slice alone (median over boots)", kind="share"),
    Spec("N1-off", "numa", (P, "N-off", "numa_local_share"), None, None, None, None,
         "the same with NUMA balancing off (expected about 0)", kind="share"),
    Spec("N1-global", "numa", (P, "N-global", "numa_local_share"), None, None, None, None,
         "the same with global NUMA balancing (kernel.numa_balancing=1)", kind="share"),
    Spec("N2", "numa", (P, "N-memcgd", "other_hint_faults+other_pages_migrated"), None, 0, "<=", None,
         "other.slice's NUMA hinting faults + page migrations while memcgd balances numa.slice alone "
         "(max over runs; share of runs with any)", kind="zero"),
    Spec("N3a", "numa", (P, "N-memcgd", "numa_passes_per_s"), (P, "N-global", "numa_passes_per_s"), 0.05,
         "within", None, "numa.slice passes over its buffer per second: memcgd / global balancing "
         "(TCG: the scanning's CPU cost only)"),
    Spec("N3b", "numa", (P, "N-memcgd", "other_passes_per_s"), (P, "N-off", "other_passes_per_s"), 0.02,
         "within", None, "other.slice passes over its buffer per second: memcgd (numa.slice balanced) / "
         "balancing off (TCG: CPU cost only)"),
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
        # what the table shows instead of the median and interval (N2: a count and k of n)
        self.value_text, self.interval_text = None, None

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
    """A run's value of a metric: the mean of its repeats, or None; "a+b" is
    the sum of a and b (None when either is missing)."""
    if "+" in metric:
        parts = [run_value(run, m) for m in metric.split("+")]
        return None if None in parts else sum(parts)
    vs = run.results.get(metric)
    return statistics.fmean(vs) if vs else None


def values_by_group(runs, side):
    """{group: [value of each accepted run]} of one side (kernel, scenario,
    metric), groups in the order of the runs."""
    out = {}
    for r in runs:
        if r.accepted and (r.kernel, r.scenario) == side[:2]:
            v = run_value(r, side[2])
            if v is not None:
                out.setdefault(r.group, []).append(v)
    return out


def group_medians(runs, side):
    """One value per group (the unit of replication): the median of its runs."""
    return [(g, statistics.median(vs)) for g, vs in values_by_group(runs, side).items()]


def compute_share(spec, row, pool):
    s = stats.summarize_values(group_medians(pool, spec.num), spec.target, spec.direction,
                               seed=BOOTSTRAP_SEED)
    row.n, row.median, row.low, row.high = s["n"], s["median"], s["low"], s["high"]
    row.verdict, row.why = s["verdict"], s.get("why", "")
    return row


def compute_zero(spec, row, pool):
    """0 in every accepted run: the max, k of n runs with any and its Wilson interval."""
    vals = [v for vs in values_by_group(pool, spec.num).values() for v in vs]
    row.n = len(vals)
    if not vals:
        row.verdict, row.why = "inconclusive", "no accepted run"
        return row
    k = sum(v > 0 for v in vals)
    row.median = k / len(vals)
    row.low, row.high = stats.wilson(k, len(vals))
    row.value_text = f"max {max(vals):g}"
    row.interval_text = f"{k} of {len(vals)} runs with any ({row.low:.2f}–{row.high:.2f})"
    if k:
        row.verdict = "missed"
    elif len(vals) < stats.MIN_BOOTS:
        row.verdict, row.why = "inconclusive", f"n = {len(vals)} < {stats.MIN_BOOTS} runs"
    else:
        row.verdict = "met"
    return row


def compute(spec, runs, with_stalled=False):
    """The row of one spec; without WITH_STALLED the runs in which the guest
    froze (judge.stalled) are left out, so that no verdict rests on them."""
    row = Row(spec)
    full_pool, row.source = runs_for(spec, runs)
    pool = full_pool if with_stalled else [r for r in full_pool if not r.stalled]
    sides = (spec.num, spec.den) if spec.kind == "ratio" else (spec.num,)
    needed = dict.fromkeys(side[:2] for side in sides)
    missing = [sc + (" (unpatched)" if k == U else "") for k, sc in needed
               if not any((r.kernel, r.scenario) == (k, sc) for r in full_pool)]
    if missing:
        row.verdict = "not run"
        row.why = "no run of " + ", ".join(missing)
        return row
    if spec.kind == "share":
        return compute_share(spec, row, pool)
    if spec.kind == "zero":
        return compute_zero(spec, row, pool)
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


def compute_all(runs, with_stalled=False):
    return [compute(spec, runs, with_stalled) for spec in SPECS]


def target_text(spec):
    if spec.target is None:
        return "-"
    if spec.kind == "zero":
        return f"{spec.target:g} in every run"
    if spec.direction == "within":
        return f"within {100 * spec.target:g} % ({1 - spec.target:g}–{1 + spec.target:g})"
    return f"{'≤' if spec.direction == '<=' else '≥'} {spec.target:g}"
