#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn the logs of scripts/bench into docs/benchmarks.md, its plots and its per-run data.

usage: report.py --runs LOG_DIR --out DIR [--notes FILE] [--command TEXT] [--no-plot]
       report.py --from-data DATA_DIR --out DIR [--notes FILE] [--command TEXT] [--no-plot]
       report.py --runs LOG_DIR --host-busy

--runs reads a scripts/bench log directory (boots.tsv, host.env, one
directory per boot: bench/data.py) and writes DIR/benchmarks.md, its PNGs
(gnuplot) and DIR/bench-data/ (the per-run CSVs and host.env).
--from-data regenerates benchmarks.md and the PNGs from such a bench-data
directory alone: the same text as from the raw logs.
--host-busy prints "SCENARIO<TAB>KERNEL<TAB>GROUP" for every run rejected
for host load that no later boot replaced (scripts/bench reruns them) and
writes nothing else.

A run is one scenario in one boot; which runs count: bench/judge.py; the
ratios and their verdicts: bench/targets.py and bench/stats.py; the plots:
bench/plots.py. --command (default: host.env's command, else scripts/bench)
is the command the report names as its origin.
"""
import argparse
import datetime
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as bdata  # noqa: E402  (bench/*.py beside this file)
import judge  # noqa: E402
import plots  # noqa: E402
import stats  # noqa: E402
import targets  # noqa: E402

# the progress logs the stall table reads: writers and probe (high, low), NUMA workloads
STALL_SLICES = ("high", "low", "numa", "other")
ICOUNT_QEMU = "`-accel tcg,thread=single -icount shift=0,sleep=off`, 1 vCPU"

SCENARIOS = {
    "L1-none": "latency probe in high, batch writer in low: no protection",
    "L1-low": "latency probe in high, batch writer in low: memory.low on high",
    "L1-lowhigh": "latency probe in high, batch writer in low: memory.low on high, memory.high on low",
    "L1-memcgd": "latency probe in high, batch writer in low: memcgd, shipped example policies",
    "L1-memcgdbg": "latency probe in high, batch writer in low: memcgd, background reclaim instead of Delay=",
    "L1-memcgdlat": "latency probe in high, batch writer in low: memcgd, the latency-service policy (latency/50-high.conf)",
    "L2-none": "probe idles while low does fixed work, then wakes: no protection",
    "L2-low": "probe idles while low does fixed work, then wakes: memory.low on high",
    "L2-lowhigh": "probe idles while low does fixed work, then wakes: memory.low on high, memory.high on low",
    "L2-memcgd": "probe idles while low does fixed work, then wakes: memcgd, shipped example policies",
    "L2-memcgdbg": "probe idles while low does fixed work, then wakes: memcgd, background reclaim instead of Delay=",
    "L2-memcgdlat": "probe idles while low does fixed work, then wakes: memcgd, the latency-service policy (latency/50-high.conf)",
    **{f"{sc}-{cfg}": f"{'L1' if sc.startswith('L1') else 'L2'} shape: {what}: "
       f"{'memcgd, shipped example policies' if cfg == 'memcgd' else 'memory.low on high'}"
       for _, l1, l2, what in targets.SHAPES for sc in (l1, l2) if sc for cfg in ("memcgd", "low")},
    "P3": "fault microbenchmark in low.slice: nothing attached, memcgd dry run, memcgd attached",
    "P4": "fault and tmpfs-write microbenchmarks, nothing attached",
    "P5": "fault microbenchmark with 2 and 256 managed slices",
    "footprint": "memcgd RSS, start to READY, reload latency",
    "N-memcgd": "two NUMA nodes, numa.slice used away from its pages: memcgd balances numa.slice alone",
    "N-off": "two NUMA nodes, numa.slice used away from its pages: NUMA balancing off",
    "N-global": "two NUMA nodes, numa.slice used away from its pages: global NUMA balancing",
    "S5": "each slice's writer alone",
    "S1": "memory.low on high, both busy",
    "S2": "memory.low on high, high idle (zero-filled holder)",
    "S3": "memcgd, both busy",
    "S4": "memcgd, high idle (zero-filled holder)",
    "S0": "no protection, high idle (zero-filled holder)",
    "S4f": "memcgd, high idle (pattern-filled holder)",
    "S0f": "no protection, high idle (pattern-filled holder)",
    "S4t": "memcgd, low arrives while high still counts active (no idle settle)",
    "R1": "stress-ng (RFC flags), memory.low, both busy",
    "R3": "stress-ng (RFC flags), memcgd, both busy",
}
MODE_ORDER = {"tcg": 0, "kvm": 1, "icount": 2}


def describe(scenario):
    return SCENARIOS.get(scenario, "?")


def scenario_label(scenario, kernel, mode="tcg"):
    return scenario + (" (unpatched)" if kernel == "unpatched" else "") + (" [icount]" if mode == "icount" else "")


def conditions(runs):
    """{(scenario, kernel, mode): [runs]} in the order of SCENARIOS, then of first appearance."""
    rank = {sc: i for i, sc in enumerate(SCENARIOS)}
    out = {}
    for r in runs:
        out.setdefault((r.scenario, r.kernel, r.mode), []).append(r)
    keys = sorted(out, key=lambda k: (rank.get(k[0], len(rank)), k[1], MODE_ORDER.get(k[2], 3)))
    return {k: out[k] for k in keys}


def fmt(v):
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def fmt_count(v):
    """A count (pages, faults): whole numbers as such, with thousands separators."""
    return f"{v:,.0f}" if float(v).is_integer() else fmt(v)


def fmt_ratio(v, digits=3):
    if v is None:
        return "-"
    return f"{v:.{digits}f}" if abs(v) < 10 else f"{v:.1f}"


def unit_text(unit, mode):
    """A rate's unit; in icount boots guest time is instructions (1 ns each)."""
    if mode == "icount" and unit.endswith("/s"):
        return unit[:-2] + " per 10^9 emulated instructions"
    if mode == "icount" and unit == "ns":
        return "emulated ns (= instructions)"
    return unit


def plot_md(out, p):
    if p.skip:
        out.append(f"_Plot not drawn: {p.skip}._\n")
        return
    out.append(f"![{p.alt}]({p.file})\n")
    lacking = f" No data for {', '.join(p.notes)}." if p.notes else ""
    out.append(p.caption + lacking + "\n")


# --- sections

def setup_section(data, out):
    runs = data.runs
    env = data.host_env
    meta = next((r.meta for r in runs if r.kernel == "patched" and r.mode != "icount" and r.meta),
                next((r.meta for r in runs if r.meta), {}))
    modes = {}
    for b in data.boots:
        modes[b.mode] = modes.get(b.mode, 0) + 1
    mode_text = ", ".join(f"{m} ({n} boots{': ' + ICOUNT_QEMU if m == 'icount' else ''})"
                          for m, n in sorted(modes.items(), key=lambda x: MODE_ORDER.get(x[0], 3)))
    out.append("## Setup\n")
    out.append(f"- Guest: {meta.get('cpus', '?')} vCPUs, {meta.get('mem_mib', '?')} MiB RAM, "
               f"{meta.get('swap_mib', '?')} MiB swap (virtio-blk file in the host's /dev/shm), "
               f"transparent huge pages: {meta.get('thp', '?')}; QEMU {mode_text}.")
    if env:
        mem = env.get("host_mem_total_kib", "")
        try:
            mem = f"{int(mem) / 1048576:.1f} GiB RAM"
        except ValueError:
            mem = "RAM ?"
        out.append(f"- Host: {env.get('host_cpu_model', '?')}, {mem}, transparent huge pages "
                   f"`{env.get('host_thp', '?')}`; QEMU {env.get('qemu_version', '?')}.")
        if env.get("host_cpu_flags"):
            out.append(f"- Host CPU flags: `{env['host_cpu_flags']}`.")
        known = ("host_cpu_model", "host_mem_total_kib", "host_thp", "qemu_version", "host_cpu_flags",
                 "seed", "command")
        rest = [f"{k}={v}" for k, v in env.items() if k not in known]
        if rest:
            out.append(f"- Also recorded (host.env): {', '.join(rest)}.")
    else:
        out.append("- Host: not recorded (no host.env in the log directory).")
    idents = {}
    for b in data.boots:
        if b.ident and len(b.ident) >= 3:
            idents.setdefault(b.kernel, b.ident)
    for kernel, ident in sorted(idents.items()):
        out.append(f"- Kernel ({kernel}): `{ident[0]}`, `{ident[1]}`, build id `{ident[2]}`.")
    scenarios = {r.scenario for r in runs}
    if any(sc.startswith(("L1-", "L2-")) for sc in scenarios):
        lm = next((r.meta for r in runs if r.scenario.startswith(("L1-", "L2-")) and r.meta), {})
        out.append(f"- Latency scenarios (L1, L2): an open-loop probe in high.slice, "
                   f"{lm.get('probe_rate', '?')} requests/s, each touching {lm.get('probe_pages', '?')} "
                   f"random pages of a {lm.get('probe_mib', '?')} MiB working set, timed from its "
                   f"scheduled start; low.slice's batch writer over {lm.get('buffer_mib', '?')} MiB. "
                   "Configurations: none, memory.low on high (low), plus memory.high on low "
                   "(lowhigh), memcgd with the shipped example policies (memcgd), with background "
                   "reclaim instead of Delay= (memcgdbg), and with the shipped latency-service policy "
                   "for high.slice, conf/latency/50-high.conf (memcgdlat, when run).")
    if any(sc[:2] in ("S0", "S1", "S2", "S3", "S4", "S5") for sc in scenarios):
        out.append(f"- Legacy priority scenarios (S0-S5): each slice's sequential writer "
                   f"(`memcgd-bench writer`) uses {meta.get('buffer_mib', '?')} MiB; runs last "
                   f"{meta.get('seconds', '?')} s and the rate is taken over the last "
                   f"{meta.get('window', '?')} s.")
    groups = list(dict.fromkeys(b.group for b in data.boots))
    kinds = {}
    for b in data.boots:
        key = f"{b.kernel} {b.mode}" + (" with 2 NUMA nodes" if b.numa else "")
        kinds[key] = kinds.get(key, 0) + 1
    seeds = list(dict.fromkeys(b.seed for b in data.boots if b.seed))
    if seeds and any(r.pair == 2 for r in runs):
        order = (f"the scenario order of each boot is shuffled from the recorded seed "
                 f"{', '.join(seeds)}, the two conditions of each decisive pair as one block of "
                 "four runs, ABBA or BAAB alternating over the boots (bench/schedule.py; the # "
                 "column of the last table shows the order, a second run of a block as SCENARIO.2)")
    elif seeds:
        order = (f"the scenario order of each boot is shuffled from the recorded seed "
                 f"{', '.join(seeds)} (bench/stats.py scenario_order; the # column of the last "
                 "table shows it)")
    else:
        order = "no order seed recorded (an older run: the order was rotated by one scenario per boot)"
    out.append(f"- Repetitions: {len(data.boots)} boots ("
               + ", ".join(f"{n} {k}" for k, n in kinds.items())
               + f") in {len(groups)} groups, the pairing units of the ratios; {order}.")
    secs = [r.seconds for r in runs if r.seconds is not None]
    if secs:
        out.append(f"- Time: the {len(secs)} runs took {sum(secs) / 60:.0f} min in the guests "
                   "(without booting).")
    out.append(f"- Rejection rule: a run is left out when its test failed, when it has no host load "
               f"record, or when the rest of the host used more than {judge.OTHER_CPU_MAX:.2f} "
               "CPU-seconds per wall-second during it (bench/sample-host.py); a run left out for "
               "host load is rerun in a later boot of its group, and the rerun replaces it. "
               "Runs of icount boots are not judged by host load: their clock is the instruction "
               "count. Rejected runs stay in the last table with the reason.\n")


def targets_section(rows, rows_all, plan, out):
    out.append("## Targets\n")
    out.append("Per group (the pairing unit: one repetition's boots and their reruns, one icount "
               "boot of each kernel, or one boot with two NUMA nodes), the accepted runs of the two "
               "conditions are paired and their "
               "ratio taken, a run counting with the mean of its repeats; over the groups, the median "
               "ratio with a 95 % bootstrap interval (bench/stats.py, seed "
               f"{targets.BOOTSTRAP_SEED}, {stats.BOOTSTRAP_REPS} resamples). met: the whole interval "
               "on the target's side; missed: wholly on the other side; inconclusive: otherwise, or "
               f"fewer than {stats.MIN_BOOTS} pairs; not run: a scenario of the ratio did not run. "
               "Two NUMA rows are not ratios: N1 is the median share of numa.slice's pages on its "
               "node over the boots, with its bootstrap interval, n boots; N2 is met only when "
               "other.slice had no hinting fault and no migration in every accepted run (at least "
               f"{stats.MIN_BOOTS}), missed as soon as one run had any; it shows the largest count and "
               "how many of the n runs had any, with its Wilson interval. "
               f"Rows marked \"{targets.LEGACY}\" are the first benchmark's ratios, kept for "
               "comparison: a sequential writer's pages are always hot, so they do not measure what "
               "memory priority is for.\n")
    out.append("Runs in which the guest froze (an RCU stall report, or a vCPU at one guest kernel "
               f"instruction for at least {judge.STALL_S:.0f} s: the emulation artifact of the Stall "
               "incidence section) do not decide a verdict: median, interval, n and verdict are "
               "taken without them. The last column gives the same ratio with them, for comparison; "
               "it decides nothing.\n")
    out.append("Decisive pairs (bench/schedule.py): the two conditions of a targeted latency ratio run "
               "as a block of four in a boot, ABBA or BAAB (alternating over the boots), so that one "
               "boot gives two pairing groups in opposite orders (the first A and B, the second B and "
               "A); n counts those groups, and where they are more than the boots behind them the n "
               "column says how many boots. \"As good as\" targets are read as non-inferiority: the "
               "target column states the margin (≤ 1.1: at most 10 % worse than the static "
               "configuration), met only when the whole 95 % interval is within it, missed when the "
               "whole interval is beyond it, inconclusive otherwise. With few pairs (n ≤ 5) the 95 % "
               "percentile bootstrap interval of a median is simply the smallest to the largest "
               "ratio: such an interval is marked \"= min–max\", and its \"met\" only says that "
               "every pair was on the target's side.\n")
    ratio_table(rows, rows_all, out, lambda s: s.section != "shapes")
    plot_md(out, plan["forest"])


def shapes_section(rows, rows_all, out):
    if not any(r.spec.section == "shapes" for r in rows):
        return
    out.append("## Workload shapes\n")
    out.append("The policy's targets on workloads of other shapes (issue 32, item 2), each a labelled "
               "scenario declared in bench/guest/bench-lib.sh before any run, with the same policy "
               "files as the main shape, memcgd against memory.low in decisive pairs: the working set "
               "at 25 % and at 70 % of RAM (L1w25, L2w25, L1w70, L2w70), Zipf-skewed page choice "
               "instead of uniform (L1zipf), an on/off service whose busy and idle periods are drawn "
               "from the recorded seed, idle gaps 1-60 s (L1onoff; its L3 is the first requests after "
               "each gap), low.slice's writer arriving before the service (L1lowfirst), and two "
               "latency services, high.slice and mid.slice at a lower priority (L1two). Issue 33 asks "
               "of these rows that none be missed; they are judged by the same rule as the Targets "
               "table.\n")
    ratio_table(rows, rows_all, out, lambda s: s.section == "shapes")


def ratio_table(rows, rows_all, out, want):
    out.append("| ratio | what | median | 95 % interval | n | target | verdict | with stalled runs: "
               "median (interval) n |")
    out.append("|---|---|---|---|---|---|---|---|")
    for row, row_all in zip(rows, rows_all):
        s = row.spec
        if not want(s):
            continue
        digits = 4 if s.micro() else 3
        what = s.what
        if s.micro():
            what += (" (icount boots: per 10^9 emulated instructions)" if row.source == "icount"
                     else " (TCG boots: no icount boot ran)")
        interval = row.interval_text or (
            "-" if row.low is None else f"{fmt_ratio(row.low, digits)}–{fmt_ratio(row.high, digits)}"
            + (" = min–max" if row.range_note else ""))
        n = "-" if row.verdict in ("not run", "not computed") else str(row.n)
        if n != "-" and row.boots and row.boots != row.n:
            n += f" ({row.boots} boots)"
        if row_all.verdict in ("not run", "not computed") or row_all.median is None:
            with_stalled = "-"
        elif row_all.value_text:
            with_stalled = f"{row_all.value_text}, {row_all.interval_text}"
        else:
            with_stalled = (f"{fmt_ratio(row_all.median, digits)} ({fmt_ratio(row_all.low, digits)}–"
                            f"{fmt_ratio(row_all.high, digits)}) {row_all.n}")
        if (row_all.n, row_all.median) == (row.n, row.median):
            with_stalled = "same (no stalled run)"
        out.append(f"| {s.name} | {what} | {row.value_text or fmt_ratio(row.median, digits)} | {interval} | {n} | "
                   f"{targets.target_text(s)} | {row.verdict_text()} | {with_stalled} |")
    out.append("")


def micro_section(runs, rows, out):
    micro = [r for r in rows if r.spec.micro()]
    source = micro[0].source if micro else "tcg"
    pool = [r for r in runs if r.scenario in targets.MICRO_SCENARIOS and
            ((r.mode == "icount") == (source == "icount"))]
    if not pool:
        return
    out.append("## Microbenchmarks (P3, P4, P5)\n")
    if source == "icount":
        n = len({r.boot for r in pool})
        out.append(f"From the {n} icount boots (QEMU {ICOUNT_QEMU}): guest time is the emulated "
                   "instruction count, 1 ns per instruction, so a run is deterministic. \"faults/s\" "
                   "there is page faults per 10^9 emulated instructions, \"MiB/s\" MiB per 10^9 "
                   "emulated instructions, and the BPF statistics' ns are emulated instructions: "
                   "instruction counts under emulation are not cycles on hardware; TCG has no cache or "
                   "NUMA latency. Each condition is measured several times per boot, alternating; a "
                   "boot counts with the mean of each condition.\n")
    else:
        out.append("No icount boot ran: these are from the TCG boots, in the wall-clock time of an "
                   "emulated guest, where one measurement spreads by far more than the 1 % the "
                   "targets ask for. Each condition is measured several times per boot; a boot counts "
                   "with the mean of each condition.\n")
    out.append("| scenario | condition | unit | per-boot means: median | min–max | largest spread of "
               "repeats within a boot | boots |")
    out.append("|---|---|---|---|---|---|---|")
    diag_rows = []
    for (sc, kernel, mode), rs in conditions(pool).items():
        acc = [r for r in rs if r.accepted]
        metrics = list(dict.fromkeys(m for r in rs for m in r.results))
        for m in metrics:
            unit = next((r.units[m] for r in rs if m in r.units), "")
            means = [statistics.fmean(r.results[m]) for r in acc if r.results.get(m)]
            if bdata.is_diag(m):
                if "_ns_per_" in m:
                    diag_rows.append((scenario_label(sc, kernel, mode), m, unit_text(unit, mode), means))
                continue
            spreads = [(max(v) - min(v)) / statistics.fmean(v) for r in acc
                       if len(v := r.results.get(m, [])) > 1 and statistics.fmean(v) > 0]
            label = scenario_label(sc, kernel, mode)
            if means:
                spread = f"{100 * max(spreads):.2f} %" if spreads else "-"
                out.append(f"| {label} | {m} | {unit_text(unit, mode)} | {fmt(statistics.median(means))} | "
                           f"{fmt(min(means))}–{fmt(max(means))} | {spread} | {len(means)} |")
            else:
                out.append(f"| {label} | {m} | {unit_text(unit, mode)} | - | - | - | 0 |")
    out.append("")
    if diag_rows:
        out.append("BPF run-time statistics of memcgd's programs beside P3 (kernel.bpf_stats_enabled, "
                   "over one more fault run with memcgd attached, not one of P3's measurements: the "
                   "statistics read the clock twice per call themselves).\n")
        out.append("| scenario | statistic | unit | median | min | max | boots |")
        out.append("|---|---|---|---|---|---|---|")
        for label, m, unit, means in diag_rows:
            if means:
                out.append(f"| {label} | {m} | {unit} | {fmt(statistics.median(means))} | {fmt(min(means))} | "
                           f"{fmt(max(means))} | {len(means)} |")
            else:
                out.append(f"| {label} | {m} | {unit} | - | - | - | 0 |")
        out.append("")


def latency_section(plan, out):
    out.append("## Latency of high.slice and recovery of low.slice (L1, L2)\n")
    out.append("low.slice's throughput under contention (`low_phase`, L1b) is its writer's rate from the "
               "end of its first complete pass over its buffer (when RAM is full and the contention "
               "starts) to the end of the run; a writer that never completed a pass has its whole-run "
               "rate there (bench/targets.py phase_rate, from the writer's per-second log). `low_mean` is the whole-run rate (L1b-run), `low` "
               "the last-window rate of earlier versions.\n")
    for key in ("cdf", "tradeoff", "recovery", "state"):
        plot_md(out, plan[key])


NUMA_SCENARIOS = ("N-memcgd", "N-off", "N-global")


def numa_section(runs, out):
    """N1-N3 per condition (issue 19): where numa.slice's pages ended up, how
    soon, what each slice got done, and what balancing did to other.slice."""
    pool = [r for r in runs if r.scenario in NUMA_SCENARIOS and r.kernel == "patched" and r.mode != "icount"]
    if not pool:
        return
    meta = next((r.meta for r in pool if r.meta.get("numa_mib")), {})
    out.append("## NUMA balancing per slice (N1, N2, N3)\n")
    out.append("Boots with two NUMA nodes (run-vm.sh --numa: vCPU 0 on node 0, vCPU 1 on node 1, half "
               "the RAM each). In each, numa.slice and other.slice run `memcgd-bench numa` at the same "
               f"time, over {meta.get('numa_mib', '?')} MiB each for {meta.get('seconds', '?')} s: "
               "numa.slice first touches its pages on node 0's CPU and then writes one word per page "
               "from node 1's CPU, other.slice first touches and writes on node 0's CPU, so it has "
               "nothing to gain from balancing. N-memcgd: kernel.numa_balancing=0 and memcgd with a "
               "policy declared in bench-lib.sh before the runs (numa.slice `[NUMA] Balancing=yes` "
               "alone: the kernel's default scan parameters; other.slice managed without [NUMA]; "
               "both Priority=50, so that memcgd throttles neither); N-off: balancing off, no "
               "memcgd; N-global: kernel.numa_balancing=1, no memcgd.\n")
    out.append("**Under TCG, cross-node access costs nothing**: QEMU emulates the topology, not the "
               "latency of remote memory, so a page moved next to its CPU does not make the workload "
               "faster here. The page-locality counts are the primary measure (N1: where numa.slice's "
               "pages are after the run; N2: whether other.slice was scanned at all); N3 measures "
               "only what scanning, hinting faults and migrations cost in emulated time, not the "
               "gain from local memory that balancing is for.\n")
    out.append("| scenario | numa.slice local share: median (95 % interval) | numa.slice seconds to 90 % local, "
               "per run | numa.slice pages migrated: median | numa.slice passes/s: median | other.slice "
               "passes/s: median | other.slice hinting faults + migrations: max | runs |")
    out.append("|---|---|---|---|---|---|---|---|")
    for sc in NUMA_SCENARIOS:
        rs = [r for r in pool if r.scenario == sc]
        if not rs:
            continue
        acc = [r for r in rs if r.accepted]
        share = stats.summarize_values(targets.group_medians(acc, ("patched", sc, "numa_local_share")),
                                       seed=targets.BOOTSTRAP_SEED)
        share_text = "-" if share["median"] is None else \
            f"{share['median']:.3f} ({share['low']:.3f}–{share['high']:.3f}, {share['n']} boots)"

        def med(metric, f=fmt):
            vs = [v for r in acc if (v := targets.run_value(r, metric)) is not None]
            return f(statistics.median(vs)) if vs else "-"
        to90 = [targets.run_value(r, "numa_seconds_to_90") for r in acc]
        to90_text = ", ".join("-" if t is None else "never" if t < 0 else f"{t:.0f}" for t in to90) or "-"
        other = [v for r in acc if (v := targets.run_value(r, "other_hint_faults+other_pages_migrated")) is not None]
        out.append(f"| {sc} | {share_text} | {to90_text} | {med('numa_pages_migrated', fmt_count)} | "
                   f"{med('numa_passes_per_s')} | {med('other_passes_per_s')} | "
                   f"{fmt_count(max(other)) if other else '-'} | {len(acc)} of {len(rs)} |")
    out.append("")


def longest_pause(series):
    """Longest time between two progress lines of a writer (it logs once a
    second while it writes at least 1 MiB/s)."""
    return max((t1 - t0 for (t0, _), (t1, _) in zip(series, series[1:])), default=None)


def stall_table(runs, out):
    """Stall incidence per scenario: how long each writer went without progress,
    and which runs the guest reported an RCU stall in (bench/notes.md)."""
    rows = []
    for (sc, kernel, mode), rs in conditions(runs).items():
        rs = [r for r in rs if r.accepted and (r.series or r.rcu_stalls or r.same_pc_s is not None)]
        if not rs:
            continue
        pauses, same_pc = [], []
        for r in rs:
            p = [longest_pause(r.series[sl]) for sl in STALL_SLICES if sl in r.series]
            p = [x for x in p if x is not None]
            pauses.append(f"{max(p):.0f}" if p else "-")
            same_pc.append("-" if r.same_pc_s is None else f"{r.same_pc_s:.0f}")
        stalled = sum(r.stalled for r in rs)
        stalls = [f"{r.boot} #{r.order}: {', '.join(r.rcu_stalls)}" for r in rs if r.rcu_stalls]
        lo, hi = stats.wilson(stalled, len(rs))
        rows.append(f"| {scenario_label(sc, kernel, mode)} | {describe(sc)} | {', '.join(pauses)} | "
                    f"{', '.join(same_pc)} | "
                    f"{len(stalls)} of {len(rs)}{': ' + '; '.join(stalls) if stalls else ''} | "
                    f"{stalled} of {len(rs)} ({lo:.2f}–{hi:.2f}) |")
    if not rows:
        return
    out.append("## Stall incidence\n")
    out.append("Per accepted run: the longest time without a progress line of any of its workloads "
               "(a writer logs every second while it gets at least 1 MiB written, the latency probe "
               "every second it serves, a NUMA workload every second it runs: a writer starved by "
               "reclaim pauses too, so this alone is not a stall); the longest time a vCPU was "
               "sampled at one guest kernel instruction (bench/sample-guest-pc.py at 2 Hz; \"-\": "
               "no samples covered the run), which no hardware shows and which TCG's crawling "
               "`rep stos`/`rep movs` does; and the runs during which the guest kernel reported an "
               "RCU stall (a CPU that passed no quiescent state for 21 s), with the function it was "
               f"in. Stalled: an RCU stall report or at least {judge.STALL_S:.0f} s at one "
               "instruction, k of n with the 95 % Wilson interval of that share; stalled runs are "
               "left out of the verdicts (Targets).\n")
    out.append("| scenario | what | longest pause per run (s) | longest at one instruction per run (s) | "
               "runs with an RCU stall report | stalled (95 % interval) |")
    out.append("|---|---|---|---|---|---|")
    out.extend(rows)
    out.append("")


def recovery_second(run, threshold):
    """First second of the run from which low.slice kept at least threshold
    MiB/s for 3 consecutive seconds, or None."""
    rates = plots.per_second(run.series.get("low", []))
    for i in range(len(rates) - 2):
        if all(r >= threshold for _, r in rates[i:i + 3]):
            return rates[i][0]
    return None


IDLE_SCENARIOS = ("S2", "S4", "S0", "S4f", "S0f", "S4t")


def recovery_table(runs, out):
    """When low.slice got going in each high-idle run of the legacy scenarios."""
    alone = [v for r in plots.used(runs, "S5") for v in r.results.get("low_alone", [])]
    if not alone:
        return
    threshold = statistics.median(alone) / 2
    out.append("## Recovery of low.slice while high.slice idles (legacy scenarios)\n")
    out.append(f"Second of each run from which low.slice wrote at least half its rate alone "
               f"({threshold:.0f} MiB/s, from S5) for 3 seconds in a row; \"never\" when it did not "
               "within the run (accepted runs).\n")
    out.append("| scenario | what | per run (s) | median |")
    out.append("|---|---|---|---|")
    for (sc, kernel, mode), rs in conditions(runs).items():
        if sc not in IDLE_SCENARIOS or mode == "icount":
            continue
        rs = [r for r in rs if r.accepted and r.series.get("low")]
        if not rs:
            continue
        secs = [recovery_second(r, threshold) for r in rs]
        text = ", ".join("never" if x is None else f"{x:.0f}" for x in secs)
        # "never" sorts after every second: a median that touches it is "never"
        ordered = sorted(secs, key=lambda x: float("inf") if x is None else x)
        mid = ordered[(len(ordered) - 1) // 2:len(ordered) // 2 + 1]
        med = None if None in mid else sum(mid) / len(mid)
        out.append(f"| {scenario_label(sc, kernel, mode)} | {describe(sc)} | {text} | "
                   f"{'never' if med is None else f'{med:.0f}'} |")
    out.append("")


def metric_table(runs, out, title, want):
    out.append(title)
    out.append("| scenario | what | metric | median | min | max | runs |")
    out.append("|---|---|---|---|---|---|---|")
    for (sc, kernel, mode), rs in conditions(runs).items():
        for m in dict.fromkeys(m for r in rs for m in r.results if want(m)):
            v = [x for r in rs if r.accepted for x in r.results.get(m, [])]
            n_all = sum(len(r.results.get(m, [])) for r in rs)
            unit = next((r.units[m] for r in rs if m in r.units), "")
            m_text = f"{m} ({unit_text(unit, mode)})" if unit else m
            label = scenario_label(sc, kernel, mode)
            if v:
                out.append(f"| {label} | {describe(sc)} | {m_text} | {fmt(statistics.median(v))} "
                           f"| {fmt(min(v))} | {fmt(max(v))} | {len(v)} of {n_all} |")
            else:
                out.append(f"| {label} | {describe(sc)} | {m_text} | - | - | - | 0 of {n_all} |")
    out.append("")


def raw_tables(data, out):
    out.append("## Every boot and run\n")
    out.append("| boot | group | kernel | mode | seed | runs |")
    out.append("|---|---|---|---|---|---|")
    for b in data.boots:
        n = sum(r.boot == b.label for r in data.runs)
        mode = b.mode + (", 2 NUMA nodes" if b.numa else "")
        out.append(f"| {b.label} | {b.group} | {b.kernel} | {mode} | {b.seed or '-'} | {n} |")
    out.append("")
    out.append("| boot | # | scenario | status | accepted | wall s | QEMU CPU-s/s | other CPU-s/s | results |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for r in data.runs:
        res = ", ".join(f"{m}={'/'.join(fmt(x) for x in v)}" for m, v in r.results.items()
                        if not bdata.is_diag(m))
        wall = f"{r.load[0]:.0f}" if r.load else "-"
        out.append(f"| {r.boot} | {r.order} | {r.test()} | {r.status} | "
                   f"{('yes' + (' (stalled)' if r.stalled else '')) if r.accepted else 'no: ' + r.reason} | {wall} | {fmt(r.qemu_per_s())} | "
                   f"{fmt(r.other_per_s())} | {res} |")
    out.append("")


def runs_ended(data):
    """When the last boot's results were written: the report's date, also when it is
    regenerated later (the analysis changed, say)."""
    times = [b.ended for b in data.boots if b.ended is not None]
    if not times:
        return "?"
    return datetime.datetime.fromtimestamp(max(times), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def render(data, rows, rows_all, plan, command, notes):
    runs = data.runs
    out = ["# memcgd benchmarks\n"]
    out.append(f"Generated by `{command}`, runs ended {runs_ended(data)} (bench/report.py; its per-run "
               "data are in bench-data/ beside this file, from which `bench/report.py --from-data` "
               "regenerates this page and its plots; do not edit by hand).\n")
    setup_section(data, out)
    targets_section(rows, rows_all, plan, out)
    shapes_section(rows, rows_all, out)
    micro_section(runs, rows, out)
    latency_section(plan, out)
    numa_section(runs, out)
    stall_table(runs, out)
    metric_table(runs, out, "## Scenarios (accepted runs)\n", lambda m: not bdata.is_diag(m))
    recovery_table(runs, out)
    if any(r.scenario in plots.PROGRESS for r in runs):
        out.append("## Progress over time (legacy scenarios)\n")
        plot_md(out, plan["progress"])
    if notes:
        out.append("## Analysis\n")
        out.append(notes.strip() + "\n")
    metric_table(runs, out, "## Reclaim and memcgd counters (accepted runs)\n\n"
                 "Deltas over each run: `vm_*` from /proc/vmstat, `high_*`/`low_*` from the slice's "
                 "memory.stat and memory.events; `memcgd_*` are memcgd's own counters "
                 "(`memcgctl status --json`).\n", bdata.is_diag)
    raw_tables(data, out)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--runs", metavar="LOG_DIR", help="a scripts/bench log directory")
    src.add_argument("--from-data", metavar="DATA_DIR", help="a bench-data directory written by --out")
    ap.add_argument("--out", metavar="DIR")
    ap.add_argument("--host-busy", action="store_true",
                    help="print SCENARIO<TAB>KERNEL<TAB>GROUP of each run to rerun for host load, nothing else")
    ap.add_argument("--notes")
    ap.add_argument("--command", help="the command named as the report's origin")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args()
    if args.host_busy and not args.runs:
        ap.error("--host-busy needs --runs")
    if not args.host_busy and not args.out:
        ap.error("--out is required (except with --host-busy)")

    try:
        data = bdata.load_logs(args.runs) if args.runs else bdata.load_csv(args.from_data)
    except bdata.DataError as e:
        sys.exit(f"report.py: {e}")
    judge.judge(data)
    if args.host_busy:
        for key in judge.host_busy(data):
            print("\t".join(key))
        return
    if not data.runs:
        sys.exit(f"report.py: no benchmark runs found under {args.runs or args.from_data}")
    rows = targets.compute_all(data.runs)
    rows_all = targets.compute_all(data.runs, with_stalled=True)
    plan = plots.plan(data.runs, rows, describe)
    notes = None
    if args.notes and os.path.exists(args.notes):
        with open(args.notes) as f:
            notes = f.read()
    command = args.command or data.host_env.get("command") or "scripts/bench"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "benchmarks.md"), "w") as f:
        f.write(render(data, rows, rows_all, plan, command, notes))
    if args.runs:
        bdata.write_csv(data, os.path.join(args.out, "bench-data"))
    if not args.no_plot:
        plots.draw(plan, args.out)
        for p in plan.values():     # a plot not drawn this time must not show an old run
            if p.skip and os.path.exists(os.path.join(args.out, p.file)):
                os.remove(os.path.join(args.out, p.file))
    for row in rows:
        interval = row.interval_text or (
            "-" if row.low is None else f"{fmt_ratio(row.low, 4)}-{fmt_ratio(row.high, 4)}")
        print(f"{row.spec.name:10s} {row.value_text or fmt_ratio(row.median, 4):>8s} [{interval:>15s}] n={row.n:<3d} "
              f"target {targets.target_text(row.spec):10s} {row.verdict_text()}"
              + (" [interval = min-max]" if row.range_note else ""))
    rejected = [r for r in data.runs if not r.accepted]
    print(f"{len(data.runs)} runs, {len(rejected)} rejected")
    for r in rejected:
        print(f"  rejected {r.boot} #{r.order} {r.scenario}: {r.reason}")


if __name__ == "__main__":
    main()
