#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn the raw logs of scripts/bench into docs/benchmarks.md and its plot.

usage: report.py --runs LOG_DIR --out DIR [--notes FILE] [--command TEXT]

LOG_DIR holds one directory per boot (results.log of the harness,
host-load.tsv of bench/sample-host.py, qemu.cmd) and boots.tsv (label, kernel
directory). Writes DIR/benchmarks.md and DIR/benchmarks.png (gnuplot).

A run is one scenario in one boot. A run is rejected, and left out of the
medians, when it failed, or when the host was busy with something else while
it ran: the rest of the host used more than OTHER_CPU_MAX CPU-seconds per
wall-second, or QEMU got less than QEMU_CPU_MIN of the median CPU-seconds
per wall-second of the same scenario on the same kernel.
"""
import argparse
import datetime
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402  (bench/stats.py beside this file)

OTHER_CPU_MAX = 0.30
QEMU_CPU_MIN = 0.85
STALL_S = 20             # a pause this long counts as a stall (issue 15, item 5)

# (name, numerator, denominator, target, kind, what, rfc)
# kind ">=": value must reach target; "within": |value - 1| <= target; "info": no target
RATIOS = [
    ("P1", ("patched", "S3", "high"), ("patched", "S1", "high"), 1.00, ">=",
     "high slice, both busy: memcgd / memory.low", "0.90"),
    ("P1b", ("patched", "S3", "low"), ("patched", "S1", "low"), 1.00, ">=",
     "low slice, both busy: memcgd / memory.low", "1.01"),
    ("P2", ("patched", "S4", "low"), ("patched", "S2", "low"), 37.0, ">=",
     "low slice, high idle: memcgd / memory.low", "37"),
    ("P2b", ("patched", "S4", "low"), ("patched", "S0", "low"), 0.95, ">=",
     "low slice, high idle: memcgd / no protection (zero-filled holder)", "-"),
    ("P2b-f", ("patched", "S4f", "low"), ("patched", "S0f", "low"), 0.95, ">=",
     "low slice, high idle: memcgd / no protection (pattern-filled holder)", "-"),
    ("T", ("patched", "S4t", "low"), ("patched", "S0", "low"), None, "info",
     "low slice arriving while high still counts active (S4t) / no protection (S0)", "-"),
    ("P3", ("patched", "P3", "attached"), ("patched", "P3", "none"), 0.98, ">=",
     "page faults/s: memcgd attached / nothing attached", "-"),
    ("P3-tp", ("patched", "P3", "tracepoint"), ("patched", "P3", "none"), None, "info",
     "page faults/s: memcgd dry run (fault-counting tracepoint only) / nothing attached", "-"),
    ("P3-ops", ("patched", "P3", "attached"), ("patched", "P3", "tracepoint"), None, "info",
     "page faults/s: memcgd attached / memcgd dry run (the memcg_bpf_ops' share)", "-"),
    ("P4", ("patched", "P4", "faults"), ("unpatched", "P4", "faults"), 0.99, ">=",
     "page faults/s, nothing attached: patched / unpatched 6.12", "-"),
    ("P4-charge", ("patched", "P4", "charge"), ("unpatched", "P4", "charge"), 0.99, ">=",
     "tmpfs writes MiB/s, nothing attached: patched / unpatched 6.12", "-"),
    ("P5", ("patched", "P5", "slices256"), ("patched", "P5", "slices2"), 0.02, "within",
     "page faults/s: 256 managed slices / 2 managed slices", "-"),
    ("K0", ("patched", "S0", "low"), ("unpatched", "S0", "low"), None, "info",
     "low slice, high idle, no protection (zero-filled holder): patched / unpatched 6.12", "-"),
    ("K0f", ("patched", "S0f", "low"), ("unpatched", "S0f", "low"), None, "info",
     "low slice, high idle, no protection (pattern-filled holder): patched / unpatched 6.12", "-"),
]

# Targets of the latency scenarios (issue 15), decided per boot pair by
# bench/stats.py: (name, (scenario, metric) numerator, denominator, target,
# direction, floor, what). floor: the measurement's resolution, what a 0
# counts as (a starved writer's MiB/s); None: a 0 is an error.
PAIRED = [
    ("L1", ("L1-memcgd", "high_p99"), ("L1-low", "high_p99"), 0.5, "<=", None,
     "high.slice p99 latency under contention: memcgd / memory.low"),
    ("L1-static", ("L1-memcgd", "high_p99"), ("L1-lowhigh", "high_p99"), 0.8, "<=", None,
     "high.slice p99 latency under contention: memcgd / memory.low + memory.high on low"),
    ("L1b", ("L1-memcgd", "low"), ("L1-low", "low"), 1.0, ">=", 0.01,
     "low.slice throughput under contention: memcgd / memory.low"),
    ("L2", ("L2-memcgd", "low_work_seconds"), ("L2-low", "low_work_seconds"), 0.1, "<=", None,
     "low.slice time to finish its work while high.slice idles: memcgd / memory.low"),
    ("L3", ("L2-memcgd", "high_wake_p99"), ("L2-low", "high_wake_p99"), None, None, None,
     "high.slice p99 of its first requests after idling: memcgd / memory.low"),
    # issue 20: background reclaim against the delay, both memcgd with shipped examples
    ("B1", ("L1-memcgdbg", "high_p99"), ("L1-memcgd", "high_p99"), 1.0, "<=", None,
     "high.slice p99 latency under contention: background reclaim / Delay="),
    ("B1b", ("L1-memcgdbg", "low"), ("L1-memcgd", "low"), 2.0, ">=", 0.01,
     "low.slice throughput under contention: background reclaim / Delay="),
]
BOOTSTRAP_SEED = 1

SCENARIOS = {
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
    "P3": "fault microbenchmark in low.slice: nothing attached, memcgd dry run, memcgd attached",
    "P4": "fault and tmpfs-write microbenchmarks, nothing attached",
    "P5": "fault microbenchmark with 2 and 256 managed slices",
    "footprint": "memcgd RSS, start to READY, reload latency",
    "L1-none": "latency probe in high, batch writer in low: no protection",
    "L1-low": "latency probe in high, batch writer in low: memory.low on high",
    "L1-lowhigh": "latency probe in high, batch writer in low: memory.low on high, memory.high on low",
    "L1-memcgd": "latency probe in high, batch writer in low: memcgd, shipped example policies",
    "L2-none": "probe idles while low does fixed work, then wakes: no protection",
    "L2-low": "probe idles while low does fixed work, then wakes: memory.low on high",
    "L2-lowhigh": "probe idles while low does fixed work, then wakes: memory.low on high, memory.high on low",
    "L2-memcgd": "probe idles while low does fixed work, then wakes: memcgd, shipped example policies",
    "L1-memcgdbg": "latency probe in high, batch writer in low: memcgd, background reclaim instead of Delay=",
    "L2-memcgdbg": "probe idles while low does fixed work, then wakes: memcgd, background reclaim instead of Delay=",
}


class Run:
    def __init__(self, boot, kernel, order, scenario):
        self.boot, self.kernel, self.order, self.scenario = boot, kernel, order, scenario
        self.status = "?"
        self.results = {}      # metric -> list of values (a micro test repeats)
        self.units = {}        # metric -> unit
        self.series = {}       # slice -> [(t, units)]
        self.meta = {}
        self.load = None       # (wall_s, qemu_cpu_s, other_cpu_s)
        self.seconds = None    # the test's duration in the guest
        self.accepted = False
        self.reason = ""
        self.rcu_stalls = []   # where the guest's RCU stall reports found a CPU stuck

    def qemu_per_s(self):
        return self.load[1] / self.load[0] if self.load and self.load[0] > 0 else None

    def other_per_s(self):
        return self.load[2] / self.load[0] if self.load and self.load[0] > 0 else None


def is_diag(metric):
    return metric.startswith("diag_") or metric.startswith("memcgd_")


def metric_base(name):
    """'none_2' -> 'none': repeated measurements of one run pool together."""
    m = re.match(r"^(.*)_(\d+)$", name)
    return m.group(1) if m else name


def parse_boot(path, label, kernel):
    runs, ident = [], None
    current = None
    with open(os.path.join(path, "results.log"), errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("MEMCGD kernel "):
                ident = [x.strip() for x in line[len("MEMCGD kernel "):].split("|")]
            elif line.startswith("MEMCGD begin bench/"):
                current = Run(label, kernel, len(runs) + 1, line.split()[2].split("/", 1)[1])
                runs.append(current)
            elif line.startswith("MEMCGD end ") and current:
                w = line.split()
                current.status = w[3]
                try:
                    current.seconds = float(w[4])
                except (IndexError, ValueError):
                    pass
                current = None
            elif line.startswith("| BENCH ") and current:
                w = line[2:].split()
                if w[1] == "meta" and len(w) >= 4:
                    current.meta[w[2]] = " ".join(w[3:])
                elif w[1] == "series" and len(w) == 6:
                    current.series.setdefault(w[3], []).append((float(w[4]), float(w[5])))
                elif w[1] == "result" and len(w) >= 5:
                    try:
                        value = float(w[4])
                    except ValueError:
                        continue
                    base = metric_base(w[3])
                    current.results.setdefault(base, []).append(value)
                    if len(w) > 5:
                        current.units[base] = w[5]
    load_path = os.path.join(path, "host-load.tsv")
    if os.path.exists(load_path):
        with open(load_path) as f:
            rows = [l.rstrip("\n").split("\t") for l in f][1:]
        loads = {r[0]: tuple(float(x) for x in r[1:4]) for r in rows if len(r) == 4}
        for r in runs:
            r.load = loads.get("bench/" + r.scenario)
    read_rcu_stalls(os.path.join(path, "console.log"), runs)
    accel = "?"
    cmd = os.path.join(path, "qemu.cmd")
    if os.path.exists(cmd):
        text = open(cmd).read()
        accel = "kvm" if "-accel kvm" in text else "tcg" if "-accel tcg" in text else "?"
    return runs, ident, accel


RCU_STALL = re.compile(r"rcu: INFO: rcu_\w+ (self-)?detected stall")
RIP = re.compile(r"RIP: 0010:([\w.]+)")
TEST_BEGIN = re.compile(r"memcgd-vm-tests: begin bench/(\S+)")


def read_rcu_stalls(console, runs):
    """Attach the guest kernel's RCU stall reports (a CPU that passed no quiescent
    state for 21 s) to the run during which they were printed, each with the
    kernel function its first register dump shows, if any."""
    if not os.path.exists(console):
        return
    by_name = {}
    for r in runs:
        by_name.setdefault(r.scenario, r)
    current, pending = None, None
    with open(console, errors="replace") as f:
        for line in f:
            m = TEST_BEGIN.search(line)
            if m:
                current, pending = by_name.get(m.group(1)), None
                continue
            if current is None:
                continue
            if RCU_STALL.search(line):
                pending = len(current.rcu_stalls)
                current.rcu_stalls.append("?")
            elif pending is not None and (rip := RIP.search(line)):
                current.rcu_stalls[pending] = rip.group(1).split("+")[0]
                pending = None


def longest_pause(series):
    """Longest time between two progress lines of a writer (it logs once a
    second while it writes at least 1 MiB/s)."""
    return max((t1 - t0 for (t0, _), (t1, _) in zip(series, series[1:])), default=None)


def stall_table(runs, out):
    """How long each writer went without progress, and which runs the guest
    reported an RCU stall in: the guest-wide stalls that decide several
    scenarios (bench/notes.md)."""
    rows = []
    for kernel in ("patched", "unpatched"):
        for sc in SCENARIOS:
            rs = [r for r in accepted_runs(runs, kernel, sc) if r.series or r.rcu_stalls]
            if not rs:
                continue
            pauses, stalled = [], 0
            for r in rs:
                p = [longest_pause(r.series[sl]) for sl in ("high", "low") if sl in r.series]
                p = [x for x in p if x is not None]
                pauses.append(f"{max(p):.0f}" if p else "-")
                stalled += bool(r.rcu_stalls) or (bool(p) and max(p) >= STALL_S)
            stalls = [f"{r.boot} #{r.order}: {', '.join(r.rcu_stalls)}" for r in rs if r.rcu_stalls]
            label = scenario_label(sc, kernel)
            lo, hi = stats.wilson(stalled, len(rs))
            rows.append(f"| {label} | {SCENARIOS[sc]} | {', '.join(pauses)} | "
                        f"{len(stalls)} of {len(rs)}{': ' + '; '.join(stalls) if stalls else ''} | "
                        f"{stalled} of {len(rs)} ({lo:.2f}–{hi:.2f}) |")
    if not rows:
        return
    out.append("## Stalls\n")
    out.append("Longest time without a progress line of either writer, per accepted run (a writer "
               "logs every second while it gets at least 1 MiB written), and the runs during which "
               "the guest kernel reported an RCU stall (a CPU that passed no quiescent state for 21 s), "
               "with the function it was in. Stalled: runs with a pause of at least "
               f"{STALL_S:.0f} s or an RCU stall report, with the 95 % Wilson interval of that "
               "share.\n")
    out.append("| scenario | what | longest pause per run (s) | runs with an RCU stall report | "
               "stalled (95 % interval) |")
    out.append("|---|---|---|---|---|")
    out.extend(rows)
    out.append("")


def judge(runs):
    groups = {}
    for r in runs:
        if r.status == "PASS" and r.qemu_per_s() is not None:
            groups.setdefault((r.kernel, r.scenario), []).append(r.qemu_per_s())
    for r in runs:
        if r.status != "PASS":
            r.reason = f"test {r.status}"
            continue
        if r.load is None:
            r.reason = "no host load record"
            continue
        usual = statistics.median(groups[(r.kernel, r.scenario)])
        if r.other_per_s() > OTHER_CPU_MAX:
            r.reason = f"host busy: {r.other_per_s():.2f} CPU-s/s besides QEMU"
        elif r.qemu_per_s() < QEMU_CPU_MIN * usual:
            r.reason = f"QEMU got {r.qemu_per_s():.2f} CPU-s/s, usual {usual:.2f}"
        else:
            r.accepted = True


def scenario_label(scenario, kernel):
    return scenario + (" (unpatched)" if kernel == "unpatched" else "")


def accepted_runs(runs, kernel, scenario):
    return [r for r in runs if r.kernel == kernel and r.scenario == scenario and r.accepted]


def values(runs, kernel, scenario, metric, accepted=True):
    out = []
    for r in runs:
        if r.kernel == kernel and r.scenario == scenario and (r.accepted or not accepted):
            out.extend(r.results.get(metric, []))
    return out


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


def ratio_row(runs, spec):
    name, num, den, target, kind, what, rfc = spec
    a, b = values(runs, *num), values(runs, *den)
    if not a or not b or statistics.median(b) == 0:
        return name, what, None, None, target, kind, rfc, "not measured", (len(a), len(b))
    value = statistics.median(a) / statistics.median(b)
    low = min(a) / max(b) if max(b) else None
    high = max(a) / min(b) if min(b) else None
    if kind == "info":
        verdict = "no target"
    elif kind == ">=":
        verdict = "met" if value >= target else f"missed by {100 * (target - value) / target:.1f}%"
    else:
        dev = abs(value - 1)
        verdict = "met" if dev <= target else f"missed: {100 * dev:.1f}% apart (allowed {100 * target:.0f}%)"
    return name, what, value, (low, high), target, kind, rfc, verdict, (len(a), len(b))


def paired_row(runs, spec):
    """One PAIRED target over the accepted runs of the patched kernel: the
    per-boot ratios and their stats.summarize()."""
    name, (num_sc, num_m), (den_sc, den_m), target, direction, floor, what = spec
    records = [(r.boot, r.scenario, v) for r in runs
               if r.kernel == "patched" and r.accepted and r.scenario in (num_sc, den_sc)
               for v in r.results.get(num_m if r.scenario == num_sc else den_m, [])]
    pairs = stats.paired_ratios(records, num_sc, den_sc, floor=floor)
    return stats.summarize(pairs, target, direction, seed=BOOTSTRAP_SEED)


def paired_table(runs, out):
    """The latency targets, when their scenarios ran: median ratio over boots
    with its 95 % bootstrap interval, and the verdict from the interval."""
    if not any(r.scenario in SCENARIOS and r.scenario.startswith("L") for r in runs):
        return
    out.append("## Targets of the latency scenarios\n")
    out.append("Per boot, the two scenarios' results are paired and their ratio taken; over the boots, "
               "the median ratio with a 95 % bootstrap interval (bench/stats.py, seed "
               f"{BOOTSTRAP_SEED}). met: the whole interval on the target's side; missed: wholly on "
               f"the other side; inconclusive: otherwise, or fewer than {stats.MIN_BOOTS} boots.\n")
    out.append("| ratio | what | boots | median | 95 % interval | target | verdict |")
    out.append("|---|---|---|---|---|---|---|")
    for spec in PAIRED:
        name, what, target, direction = spec[0], spec[6], spec[3], spec[4]
        try:
            s = paired_row(runs, spec)
        except ValueError as e:
            out.append(f"| {name} | {what} | - | - | - | - | not computed: {e} |")
            continue
        interval = "-" if s["low"] is None else f"{fmt_ratio(s['low'])}–{fmt_ratio(s['high'])}"
        target_txt = "-" if target is None else (f"1 ± {target:g}" if direction == "within"
                                                 else f"{'≤' if direction == '<=' else '≥'} {target:g}")
        verdict = s["verdict"] + (f" ({s['why']})" if "why" in s else "")
        out.append(f"| {name} | {what} | {s['n']} | {fmt_ratio(s['median'])} | {interval} | "
                   f"{target_txt} | {verdict} |")
    out.append("")


def fmt_ratio(v):
    if v is None:
        return "-"
    return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"


def target_text(kind, target):
    if kind == "info":
        return "-"
    if kind == ">=":
        return f"≥ {target:.2f}" if target < 10 else f"≥ {target:g}"
    return f"1 ± {target:g}"


def representative(runs, scenario, metric):
    """The accepted run of a scenario whose metric is closest to the median."""
    cands = [r for r in runs if r.kernel == "patched" and r.scenario == scenario and r.accepted
             and r.results.get(metric) and r.series]
    if not cands:
        return None
    med = statistics.median(r.results[metric][0] for r in cands)
    return min(cands, key=lambda r: abs(r.results[metric][0] - med))


def per_second(series, offset=0.0):
    """Rate between consecutive log lines, stamped at the later one; the
    workload's closing line, a few ms after the last, is skipped."""
    out = []
    for (t0, u0), (t1, u1) in zip(series, series[1:]):
        if t1 - t0 >= 0.5:
            out.append((t1 + offset, (u1 - u0) / (t1 - t0)))
    return out


IDLE_SCENARIOS = ("S2", "S4", "S0", "S4f", "S0f", "S4t")


def recovery_second(run, threshold):
    """First second of the run from which low.slice kept at least threshold
    MiB/s for 3 consecutive seconds, or None."""
    rates = per_second(run.series.get("low", []))
    for i in range(len(rates) - 2):
        if all(r >= threshold for _, r in rates[i:i + 3]):
            return rates[i][0]
    return None


def recovery_table(runs, out):
    """When low.slice got going in each high-idle run: the window rate alone
    cannot tell a run that recovered just before the window from one that
    ran well throughout, nor a stall that struck late."""
    alone = values(runs, "patched", "S5", "low_alone")
    if not alone:
        return
    threshold = statistics.median(alone) / 2
    out.append("## Recovery of low.slice while high.slice idles\n")
    out.append(f"Second of each run from which low.slice wrote at least half its rate alone "
               f"({threshold:.0f} MiB/s, from S5) for 3 seconds in a row; \"never\" when it did not "
               "within the run (accepted runs).\n")
    out.append("| scenario | what | per run (s) | median |")
    out.append("|---|---|---|---|")
    for kernel in ("patched", "unpatched"):
        for sc in IDLE_SCENARIOS:
            rs = [r for r in accepted_runs(runs, kernel, sc) if r.series.get("low")]
            if not rs:
                continue
            secs = [recovery_second(r, threshold) for r in rs]
            text = ", ".join("never" if x is None else f"{x:.0f}" for x in secs)
            # "never" sorts after every second: a median that touches it is "never"
            ordered = sorted(secs, key=lambda x: float("inf") if x is None else x)
            mid = ordered[(len(ordered) - 1) // 2:len(ordered) // 2 + 1]
            med = None if None in mid else sum(mid) / len(mid)
            label = scenario_label(sc, kernel)
            out.append(f"| {label} | {SCENARIOS[sc]} | {text} | {'never' if med is None else f'{med:.0f}'} |")
    out.append("")


def plot(runs, png):
    panels = []
    with tempfile.TemporaryDirectory() as tmp:
        for sc in ("S1", "S2", "S3", "S4"):
            r = representative(runs, sc, "low")
            files = []
            if r:
                for sl in ("high", "low"):
                    if sl in r.series:
                        # S1/S3: low.slice's writer starts head_start seconds after high's
                        offset = float(r.meta.get("head_start", 0)) if sl == "low" and "high" in r.series else 0.0
                        path = os.path.join(tmp, f"{sc}-{sl}.dat")
                        with open(path, "w") as f:
                            for t, rate in per_second(r.series[sl], offset):
                                f.write(f"{t:.3f} {max(rate, 0.5):.3f}\n")
                        files.append((sl, path))
            panels.append((sc, r, files))
        script = ["set terminal pngcairo size 1600,480 font 'sans,10'",
                  f"set output '{png}'",
                  "set multiplot layout 1,4 title 'Per-second progress of each slice (MiB written per second, log scale; time since the first writer started); one representative run each'",
                  "set logscale y", "set yrange [0.5:20000]", "set xlabel 'seconds'",
                  "set grid", "set key top right"]
        for sc, r, files in panels:
            title = f"{sc}: {SCENARIOS[sc]}"
            if r:
                title += f"\\n({r.boot}, run {r.order})"
            script.append(f"set title \"{title}\"")
            if sc == "S1":
                script.append("set ylabel 'MiB/s'")
            else:
                script.append("unset ylabel")
            if files:
                parts = [f"'{p}' using 1:2 with lines lw 2 lc rgb '{'#c0392b' if sl == 'high' else '#2471a3'}' title '{sl}.slice'"
                         for sl, p in files]
                script.append("plot " + ", ".join(parts))
            else:
                script.append("set label 1 'no accepted run' at graph 0.3,0.5")
                script.append("plot 1/0 notitle")
                script.append("unset label 1")
        script.append("unset multiplot")
        gp = os.path.join(tmp, "plot.gp")
        with open(gp, "w") as f:
            f.write("\n".join(script) + "\n")
        subprocess.run(["gnuplot", gp], check=True)


def runs_ended(log_dir, labels):
    """When the last boot's results were written: the report's date, also when it is
    regenerated later from the same logs (the analysis changed, say)."""
    times = [os.path.getmtime(os.path.join(log_dir, l, "results.log")) for l in labels]
    return datetime.datetime.fromtimestamp(max(times), datetime.timezone.utc)


def render(runs, idents, accels, args, ended):
    out = []
    meta = next((r.meta for r in runs if r.kernel == "patched" and r.meta), {})
    now = ended.strftime("%Y-%m-%d %H:%M UTC")
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    out.append("# memcgd benchmarks\n")
    out.append(f"Generated by `{args.command}`, runs ended {now} (bench/report.py; do not edit "
               "by hand: rerun the command).\n")
    out.append("## Setup\n")
    out.append(f"- Guest: {meta.get('cpus', '?')} vCPUs, {meta.get('mem_mib', '?')} MiB RAM, "
               f"{meta.get('swap_mib', '?')} MiB swap (virtio-blk file in the host's /dev/shm), "
               f"QEMU {'/'.join(sorted(set(accels)))}; host CPU: {cpu}, {os.cpu_count()} CPUs; "
               f"transparent huge pages: {meta.get('thp', '?')}.")
    for kind, ident in sorted(idents.items()):
        if ident:
            out.append(f"- Kernel ({kind}): `{ident[0]}`, `{ident[1]}`, build id `{ident[2]}`.")
    out.append(f"- Priority scenarios: each slice's workload uses {meta.get('buffer_mib', '?')} MiB "
               f"(75% of RAM, as the RFC's 3G of 4G); runs last {meta.get('seconds', '?')} s and the "
               f"rate is taken over the last {meta.get('window', '?')} s. The slices are systemd's "
               "(`systemd-run --slice=high.slice|low.slice`), memory.low is set with "
               "`systemctl set-property`, memcgd runs as its systemd service.")
    out.append("- Primary measure: `memcgd-bench writer`, 64-bit stores over the buffer, progress "
               "counted per MiB and logged each second (bench/workload/). stress-ng counts only "
               "whole passes over its buffer, so a swapping worker reads 0 under TCG.")
    unpatched_boots = len({r.boot for r in runs if r.kernel == "unpatched"})
    unpatched_scenarios = ", ".join(dict.fromkeys(r.scenario for r in runs if r.kernel == "unpatched"))
    after = (f", each followed by a boot of the unpatched kernel for {unpatched_scenarios} "
             f"({unpatched_boots} in all)" if unpatched_boots else "")
    out.append(f"- Repetitions: {len({r.boot for r in runs if r.kernel == 'patched'})} boots of the "
               f"patched kernel with the scenarios in a rotated order{after}; the runs column of the "
               "scenario table counts the runs of each scenario (P3, P4, P5 and footprint repeat "
               "their measurement 3 times within a run, alternating the conditions).")
    secs = [r.seconds for r in runs if r.seconds is not None]
    if secs:
        out.append(f"- Time: the {len(secs)} runs took {sum(secs) / 60:.0f} min in the guests "
                   f"(without booting, about 1.5 min per boot).")
    out.append(f"- Rejection rule: a run is left out when its test failed, when the rest of the host "
               f"used more than {OTHER_CPU_MAX:.2f} CPU-seconds per wall-second during it, or when "
               f"QEMU got less than {QEMU_CPU_MIN:.0%} of the median CPU-seconds per wall-second of "
               "the same scenario. Rejected runs stay in the raw table with the reason.\n")

    out.append("## Targets\n")
    out.append("| ratio | what | measured | range | target | RFC | verdict |")
    out.append("|---|---|---|---|---|---|---|")
    for spec in RATIOS:
        name, what, value, rng, target, kind, rfc, verdict, n = ratio_row(runs, spec)
        rng_text = f"{fmt_ratio(rng[0])}–{fmt_ratio(rng[1])}" if rng and None not in rng else "-"
        out.append(f"| {name} | {what} | {fmt_ratio(value)} | {rng_text} | {target_text(kind, target)} "
                   f"| {rfc} | {verdict} |")
    out.append("\nmeasured = median / median over accepted runs; range = the extremes "
               "(smallest numerator / largest denominator and the reverse).\n")

    paired_table(runs, out)

    def metric_table(title, want):
        out.append(title)
        out.append("| scenario | what | metric | median | min | max | runs |")
        out.append("|---|---|---|---|---|---|---|")
        for sc in SCENARIOS:
            for kernel in ("patched", "unpatched"):
                metrics = []
                for r in runs:
                    if r.scenario == sc and r.kernel == kernel:
                        for m in r.results:
                            if m not in metrics and want(m):
                                metrics.append(m)
                for m in metrics:
                    v = values(runs, kernel, sc, m)
                    n_all = len(values(runs, kernel, sc, m, accepted=False))
                    unit = next((r.units[m] for r in runs if r.scenario == sc and m in r.units), "")
                    label = scenario_label(sc, kernel)
                    m_text = f"{m} ({unit})" if unit else m
                    if v:
                        out.append(f"| {label} | {SCENARIOS[sc]} | {m_text} | {fmt(statistics.median(v))} "
                                   f"| {fmt(min(v))} | {fmt(max(v))} | {len(v)} of {n_all} |")
                    else:
                        out.append(f"| {label} | {SCENARIOS[sc]} | {m_text} | - | - | - | 0 of {n_all} |")
        out.append("")

    metric_table("## Scenarios (accepted runs)\n", lambda m: not is_diag(m))
    recovery_table(runs, out)
    stall_table(runs, out)
    out.append("## Progress over time\n")
    out.append("![per-second progress of high.slice and low.slice in S1-S4](benchmarks.png)\n")
    if args.notes and os.path.exists(args.notes):
        out.append("## Analysis\n")
        out.append(open(args.notes).read().strip() + "\n")

    metric_table("## Reclaim and memcgd counters (accepted runs)\n\n"
                 "Deltas over each run: `vm_*` from /proc/vmstat, `high_*`/`low_*` from the slice's "
                 "memory.stat and memory.events; `memcgd_*` are memcgd's own counters "
                 "(`memcgctl status --json`).\n", is_diag)
    out.append("## Every run\n")
    out.append("| boot | # | scenario | status | accepted | wall s | QEMU CPU-s/s | other CPU-s/s | results |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        res = ", ".join(f"{m}={'/'.join(fmt(x) for x in v)}" for m, v in r.results.items()
                        if not is_diag(m))
        wall = f"{r.load[0]:.0f}" if r.load else "-"
        out.append(f"| {r.boot} | {r.order} | {r.scenario} | {r.status} | "
                   f"{'yes' if r.accepted else 'no: ' + r.reason} | {wall} | {fmt(r.qemu_per_s())} | "
                   f"{fmt(r.other_per_s())} | {res} |")
    out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--notes")
    ap.add_argument("--command", default="scripts/bench")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args()

    boots_file = os.path.join(args.runs, "boots.tsv")
    if not os.path.exists(boots_file):
        sys.exit(f"report.py: {boots_file} missing: not a scripts/bench log directory")
    runs, idents, accels, labels = [], {}, [], []
    for line in open(boots_file):
        label, kdir = line.rstrip("\n").split("\t")
        labels.append(label)
        kernel = "unpatched" if "unpatched" in label else "patched"
        boot_runs, ident, accel = parse_boot(os.path.join(args.runs, label), label, kernel)
        runs.extend(boot_runs)
        idents.setdefault(kernel, ident)
        accels.append(accel)
    if not runs:
        sys.exit(f"report.py: no benchmark runs found under {args.runs}")
    judge(runs)
    os.makedirs(args.out, exist_ok=True)
    if not args.no_plot:
        plot(runs, os.path.join(args.out, "benchmarks.png"))
    text = render(runs, idents, accels, args, runs_ended(args.runs, labels))
    with open(os.path.join(args.out, "benchmarks.md"), "w") as f:
        f.write(text)
    for spec in RATIOS:
        name, what, value, rng, target, kind, rfc, verdict, n = ratio_row(runs, spec)
        print(f"{name:10s} {fmt_ratio(value):>8s}  target {target_text(kind, target):8s} {verdict:28s} {what}")
    rejected = [r for r in runs if not r.accepted]
    print(f"{len(runs)} runs, {len(rejected)} rejected")
    for r in rejected:
        print(f"  rejected {r.boot} #{r.order} {r.scenario}: {r.reason}")


if __name__ == "__main__":
    main()
