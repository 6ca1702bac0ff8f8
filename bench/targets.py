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

Decisive pairs (issue 32): the two conditions of a targeted latency ratio
run twice per boot, as an ABBA or BAAB block (bench/schedule.py); their
runs carry a pair number (1: the first A and B, 2: the second). When both
conditions of a ratio have the same pair numbers, more than one, in a
group, each pair number is a pairing group of its own ("rep1.1",
"rep1.2"), so one boot gives two ratios in opposite orders; otherwise a
condition run twice in a group counts with its median there, as before.
The decisive pairs are the specs with DECISIVE set: the main shape's
targets get DECISIVE_GROUPS pairing groups, the other workload shapes
SHAPE_GROUPS (scripts/bench --groups, --shape-groups).

Non-inferiority (issue 32, item 2): a target that asks memcgd to be "as good
as" a static configuration (L1 <= 1.1, L1b >= 0.95) states its margin, and
is met only when the whole 95 % interval is on the good side of the margin,
missed when wholly on the other side, inconclusive otherwise: the same rule
as every target (stats.verdict), with the margin named on the page.

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


# pairing groups of a decisive pair: the main shape's targets, the other workload shapes
DECISIVE_GROUPS = 8
SHAPE_GROUPS = 2     # one ABBA block: what the 3-h budget allows (scripts/bench --shape-groups)
DECISIVE = ("main", "shape")


class Spec:
    def __init__(self, name, section, num, den, target, direction, floor, what, kind="ratio",
                 noninferior=False, decisive=None):
        assert kind in KINDS and (den is None) == (kind != "ratio")
        assert decisive in (None, *DECISIVE) and (not noninferior or target is not None)
        self.name, self.section, self.num, self.den = name, section, num, den
        self.target, self.direction, self.floor, self.what = target, direction, floor, what
        self.kind = kind
        # "as good as" the denominator within the margin target (a non-inferiority reading)
        self.noninferior = noninferior
        self.decisive = decisive    # "main" / "shape": its pair runs in ABBA blocks (schedule.py)

    def micro(self):
        return self.num[1] in MICRO_SCENARIOS

    def numa(self):
        return self.section == "numa"


P, U = "patched", "unpatched"


def latency_specs(config, suffix, who, decisive=None):
    """The latency targets of one memcgd configuration against the static ones
    (issue 33's: L1 <= 1.1 and L1b >= 0.95 as non-inferiority, L2 <= 0.5, L3
    <= 2.0; L1-static reported, <= 1.1 the next goal), each name with SUFFIX
    after its first part (L1-lat-static), WHO naming the configuration in the
    text. L1b is low.slice's rate over the contended phase (from the end of
    its writer's first pass over its buffer to its end: low_phase), L1b-run
    over the whole run (low_mean)."""
    l1, l2 = f"L1-{config}", f"L2-{config}"
    return [
        Spec(f"L1{suffix}", "latency", (P, l1, "high_p99"), (P, "L1-low", "high_p99"), 1.1, "<=", None,
             f"high.slice p99 latency under contention: {who} / memory.low", noninferior=True,
             decisive=decisive),
        Spec(f"L1{suffix}-static", "latency", (P, l1, "high_p99"), (P, "L1-lowhigh", "high_p99"), None, None,
             None, f"high.slice p99 latency under contention: {who} / memory.low + memory.high on low "
             "(reported; the next goal is ≤ 1.1)"),
        Spec(f"L1b{suffix}", "latency", (P, l1, "low_phase"), (P, "L1-low", "low_phase"), 0.95, ">=", 0.01,
             f"low.slice throughput under contention (from its writer's first full pass to the end): "
             f"{who} / memory.low", noninferior=True, decisive=decisive),
        Spec(f"L1b{suffix}-run", "latency", (P, l1, "low_mean"), (P, "L1-low", "low_mean"), None, None, 0.01,
             f"low.slice throughput over the whole run: {who} / memory.low (reported)"),
        Spec(f"L2{suffix}", "latency", (P, l2, "low_work_seconds"), (P, "L2-low", "low_work_seconds"), 0.5,
             "<=", None, f"low.slice time to finish its work while high.slice idles: {who} / memory.low",
             decisive=decisive),
        Spec(f"L3{suffix}", "latency", (P, l2, "high_wake_p99"), (P, "L2-low", "high_wake_p99"), 2.0, "<=",
             None, f"high.slice p99 of its first requests after idling: {who} / memory.low",
             decisive=decisive),
    ]


# The workload shapes (issue 32, item 2), each a labelled scenario with the same
# policy files as the main shape (bench-lib.sh), memcgd against memory.low:
# (shape, its L1-like scenario or None, its L2-like scenario or None, what)
SHAPES = [
    ("w25", "L1w25", "L2w25", "working set 25 % of RAM"),
    ("w70", "L1w70", "L2w70", "working set 70 % of RAM"),
    ("zipf", "L1zipf", None, "Zipf-skewed page choice (s = 0.99)"),
    ("onoff", "L1onoff", None, "on/off service, busy and idle periods from the seed (gaps 1-60 s)"),
    ("lowfirst", "L1lowfirst", None, "low.slice's writer arrives first"),
    ("two", "L1two", None, "two latency services, high.slice and mid.slice (lower priority)"),
]


def shape_specs():
    """The rows of the workload shapes: issue 33's four targets where the shape
    has them (the on/off service's L3 is its first requests after each idle
    gap; two services: L1 for each), judged like the main shape's; issue 33
    asks of them only that none is missed."""
    out = []
    for shape, l1, l2, what in SHAPES:
        if l1:
            a, b = f"{l1}-memcgd", f"{l1}-low"
            out.append(Spec(f"L1-{shape}", "shapes", (P, a, "high_p99"), (P, b, "high_p99"), 1.1, "<=", None,
                            f"{what}: high.slice p99 under contention: memcgd / memory.low",
                            noninferior=True, decisive="shape"))
            if shape == "two":
                out.append(Spec(f"L1-{shape}-mid", "shapes", (P, a, "mid_p99"), (P, b, "mid_p99"), 1.1, "<=",
                                None, f"{what}: mid.slice p99 under contention: memcgd / memory.low",
                                noninferior=True, decisive="shape"))
            out.append(Spec(f"L1b-{shape}", "shapes", (P, a, "low_phase"), (P, b, "low_phase"), 0.95, ">=",
                            0.01, f"{what}: low.slice throughput under contention: memcgd / memory.low",
                            noninferior=True, decisive="shape"))
            if shape == "onoff":
                out.append(Spec(f"L3-{shape}", "shapes", (P, a, "high_wake_p99"), (P, b, "high_wake_p99"), 2.0,
                                "<=", None, f"{what}: high.slice p99 of the first requests after each "
                                "idle gap: memcgd / memory.low", decisive="shape"))
        if l2:
            a, b = f"{l2}-memcgd", f"{l2}-low"
            out.append(Spec(f"L2-{shape}", "shapes", (P, a, "low_work_seconds"), (P, b, "low_work_seconds"),
                            0.5, "<=", None, f"{what}: low.slice time to finish while high.slice idles: "
                            "memcgd / memory.low", decisive="shape"))
            out.append(Spec(f"L3-{shape}", "shapes", (P, a, "high_wake_p99"), (P, b, "high_wake_p99"), 2.0,
                            "<=", None, f"{what}: high.slice p99 of its first requests after idling: "
                            "memcgd / memory.low", decisive="shape"))
    return out


def shape_scenarios():
    """Every scenario of the workload shapes (memcgd and memory.low of each)."""
    return [f"{sc}-{cfg}" for _, l1, l2, _ in SHAPES for sc in (l1, l2) if sc for cfg in ("memcgd", "low")]


# num / den: (kernel, scenario, metric). floor: what a value of 0 counts as
# (the measurement's resolution: a starved writer's MiB/s); None: 0 is an error.
SPECS = [
    *latency_specs("memcgd", "", "memcgd", decisive="main"),
    # issue 20: background reclaim against the delay, both memcgd with the shipped examples
    Spec("B1", "latency", (P, "L1-memcgdbg", "high_p99"), (P, "L1-memcgd", "high_p99"), 1.0, "<=", None,
         "high.slice p99 latency under contention: background reclaim / Delay="),
    Spec("B1b", "latency", (P, "L1-memcgdbg", "low"), (P, "L1-memcgd", "low"), 2.0, ">=", 0.01,
         "low.slice throughput under contention: background reclaim / Delay="),
    # the shipped latency-service policy for high.slice (conf/latency/50-high.conf), declared
    # before its first run: the same targets as memcgd's shipped example policies
    *latency_specs("memcgdlat", "-lat", "memcgd, latency policy"),
    *shape_specs(),
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


def decisive_pairs(target=None, groups=None, shape_groups=None, shapes=True):
    """[(A, B, groups)] of the decisive pairs (each pair once, in SPECS order);
    with TARGET only that ratio's (any ratio with a denominator may be named:
    a ratio without DECISIVE gets the main shape's groups)."""
    groups = DECISIVE_GROUPS if groups is None else groups
    shape_groups = SHAPE_GROUPS if shape_groups is None else shape_groups
    if target is not None:
        spec = next((s for s in SPECS if s.name == target), None)
        if spec is None or spec.kind != "ratio":
            names = ", ".join(s.name for s in SPECS if s.decisive)
            raise KeyError(f"--target {target}: not a ratio of bench/targets.py (decisive ones: {names})")
        if spec.micro() or spec.numa() or spec.num[0] != spec.den[0]:
            raise KeyError(f"--target {target}: runs in icount, NUMA or unpatched boots, not in decisive pairs")
        specs = [spec]
    else:
        specs = [s for s in SPECS if s.decisive == "main" or (shapes and s.decisive == "shape")]
    out = {}
    for s in specs:
        g = shape_groups if s.decisive == "shape" else groups
        if g > 0:
            out.setdefault((s.num[1], s.den[1]), g)
    return [(a, b, g) for (a, b), g in out.items()]


class Row:
    def __init__(self, spec):
        self.spec = spec
        self.n, self.median, self.low, self.high = 0, None, None, None
        self.boots = 0          # distinct groups of boots behind the n pairing groups
        self.range_note = ""    # set when the interval is the range of the ratios (n small)
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


# the rate of a writer once it has filled its buffer, before that the whole run's
PHASE_MIN_S = 5.0


def phase_rate(run, slice_="low"):
    """(rate, "first_pass" | "whole_run") of a writer's progress log under
    contention: MiB/s from the end of its first complete pass over its buffer
    (meta buffer_mib; the moment its buffer is as large as it gets and every
    further page it writes must come from someone's memory) to the end of the
    log, the pass's end interpolated between log lines; a writer that never
    completed a pass, or completed it less than PHASE_MIN_S before the end,
    gets its whole-run rate. None without a log or a buffer size."""
    series = [(t, u) for t, u in run.series.get(slice_, [])]
    try:
        buffer = float(run.meta.get("buffer_mib", ""))
    except ValueError:
        return None
    if len(series) < 2 or not buffer > 0:
        return None
    t_end, u_end = series[-1]
    for (t0, u0), (t1, u1) in zip(series, series[1:]):
        if u1 >= buffer:
            t_pass = t0 + (t1 - t0) * ((buffer - u0) / (u1 - u0) if u1 > u0 else 1.0)
            if t_end - t_pass >= PHASE_MIN_S:
                return (u_end - buffer) / (t_end - t_pass), "first_pass"
            break
    t_start = series[0][0]
    return ((u_end - series[0][1]) / (t_end - t_start) if t_end > t_start else None), "whole_run"


def run_value(run, metric):
    """A run's value of a metric: the mean of its repeats, or None; "a+b" is
    the sum of a and b (None when either is missing); "low_phase" is
    phase_rate() of low.slice's writer, computed from its progress log."""
    if "+" in metric:
        parts = [run_value(run, m) for m in metric.split("+")]
        return None if None in parts else sum(parts)
    if metric == "low_phase" and metric not in run.results:
        rate = phase_rate(run)
        return rate[0] if rate else None
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
                    records.append((r.group, getattr(r, "pair", 1), cond, v))
    try:
        pairs = stats.paired_ratios(pairing_records(records, num, den), num, den, floor=spec.floor)
    except ValueError as e:
        row.verdict = "not computed"
        row.why = str(e).replace("boot ", "group ", 1)
        return row
    s = stats.summarize(pairs, spec.target, spec.direction, seed=BOOTSTRAP_SEED)
    row.n, row.median, row.low, row.high = s["n"], s["median"], s["low"], s["high"]
    row.boots = len({g.rsplit(PAIR_SEP, 1)[0] if PAIR_SEP in g else g for g, _ in pairs})
    row.verdict, row.why = s["verdict"], s.get("why", "").replace("boots", "pairs")
    if spec.noninferior and row.n >= stats.MIN_BOOTS:
        row.verdict = stats.noninferiority(row.low, row.high, spec.target, spec.direction)
    if spec.decisive == "main" and stats.MIN_BOOTS <= row.n < DECISIVE_GROUPS:
        # issue 32: a targeted latency ratio is decided on at least DECISIVE_GROUPS pairs
        row.why = f"n = {row.n} < the {DECISIVE_GROUPS} pairs a targeted ratio needs"
    if stats.interval_is_range([x for _, x in pairs], row.low, row.high):
        row.range_note = (f"with n = {row.n} the 95 % percentile bootstrap interval of the median is the "
                          "range of the ratios (min–max)")
    return row


PAIR_SEP = "."      # "rep1.2": the second pair of an ABBA block in group rep1


def pairing_records(records, num, den):
    """(group, pair, condition, value) -> (key, condition, value): the key is
    GROUP.PAIR where both conditions ran with the same pair numbers, more than
    one, in that group (an ABBA block), else the group (repeats pool there)."""
    pairs = {}
    for g, p, cond, _ in records:
        pairs.setdefault(g, {}).setdefault(cond, set()).add(p)
    split = {g for g, c in pairs.items()
             if len(c.get(num, ())) > 1 and c.get(num) == c.get(den)}
    return [(f"{g}{PAIR_SEP}{p}" if g in split else g, cond, v) for g, p, cond, v in records]


def compute_all(runs, with_stalled=False):
    return [compute(spec, runs, with_stalled) for spec in SPECS]


def target_text(spec):
    if spec.target is None:
        return "-"
    if spec.noninferior:
        margin = 100 * (spec.target - 1)
        return (f"{'≤' if spec.direction == '<=' else '≥'} {spec.target:g} (as good as, "
                f"margin {margin:+g} %)")
    if spec.kind == "zero":
        return f"{spec.target:g} in every run"
    if spec.direction == "within":
        return f"within {100 * spec.target:g} % ({1 - spec.target:g}–{1 + spec.target:g})"
    return f"{'≤' if spec.direction == '<=' else '≥'} {spec.target:g}"
