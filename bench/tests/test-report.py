#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of bench/report.py on synthetic harness logs: ratios are medians
of accepted runs, disturbed and failed runs are rejected with their reason and
kept in the raw table, verdicts say by how much a target is missed, and the
plot is a PNG. usage: test-report.py REPORT_PY"""
import os
import re
import subprocess
import sys
import tempfile

report = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done  # noqa: E402


def boot(root, label, kernel_line, tests, loads, console=""):
    d = os.path.join(root, label)
    os.makedirs(d)
    with open(os.path.join(d, "console.log"), "w") as f:
        f.write(console)
    with open(os.path.join(d, "results.log"), "w") as f:
        f.write(f"MEMCGD kernel {kernel_line}\n")
        for name, status, lines in tests:
            f.write(f"MEMCGD begin bench/{name}\n")
            f.write("| BENCH meta cpus 2\n| BENCH meta mem_mib 1987\n| BENCH meta buffer_mib 1490\n")
            for l in lines:
                f.write(f"| BENCH {l}\n")
            f.write(f"MEMCGD end bench/{name} {status} 60.0\n")
        f.write("MEMCGD done\n")
    with open(os.path.join(d, "host-load.tsv"), "w") as f:
        f.write("test\twall_s\tqemu_cpu_s\tother_cpu_s\n")
        for name, (wall, qemu, other) in loads.items():
            f.write(f"bench/{name}\t{wall}\t{qemu}\t{other}\n")
    with open(os.path.join(d, "qemu.cmd"), "w") as f:
        f.write("qemu-system-x86_64 -accel tcg,thread=multi -cpu max\n")
    with open(os.path.join(root, "boots.tsv"), "a") as f:
        f.write(f"{label}\t/nonexistent/{label}\n")


def series(sc, sl, rate):
    return [f"series {sc} {sl} {t}.000 {rate * t}" for t in range(0, 51)]


def stalled_series(sc, sl, rate, stall_until):
    """1 MiB/s until stall_until, then rate."""
    return [f"series {sc} {sl} {t}.000 {t if t <= stall_until else stall_until + rate * (t - stall_until)}"
            for t in range(0, 51)]


with tempfile.TemporaryDirectory() as root:
    runs = os.path.join(root, "runs")
    out = os.path.join(root, "out")
    os.makedirs(runs)
    normal = (60, 120, 3)        # 2.0 QEMU CPU-s/s, 0.05 other
    s1_high, s3_high = [100, 110, 120], [110, 121, 132]
    s1_low, s3_low = [50, 50, 50], [40, 45, 50]
    s2_low, s4_low, s0_low = [10, 12, 11], [500, 520, 510], [530, 540, 550]
    for i in range(3):
        tests = [
            ("S1", "PASS", series("S1", "high", s1_high[i]) + series("S1", "low", s1_low[i]) +
             [f"result S1 high {s1_high[i]} MiB/s", f"result S1 low {s1_low[i]} MiB/s"]),
            ("S3", "PASS", series("S3", "high", s3_high[i]) + series("S3", "low", s3_low[i]) +
             [f"result S3 high {s3_high[i]} MiB/s", f"result S3 low {s3_low[i]} MiB/s"]),
            ("S2", "PASS", series("S2", "low", s2_low[i]) + [f"result S2 low {s2_low[i]} MiB/s"]),
            ("S4", "PASS", series("S4", "low", s4_low[i]) + [f"result S4 low {s4_low[i]} MiB/s"]),
            ("S5", "PASS", [f"result S5 low_alone 1000 MiB/s"]),
            ("S0", "PASS", stalled_series("S0", "low", 1000, [10, 20, 49][i]) + [f"result S0 low {s0_low[i]} MiB/s"]),
            ("S4t", "PASS", [l for l in series("S4t", "low", 100) if not 10 < float(l.split()[3]) < 40] +
             [f"result S4t low {s0_low[i] // 2} MiB/s"]),
            ("P3", "PASS", [f"result P3 none_1 1000 faults/s", f"result P3 tracepoint_1 995 faults/s",
                            f"result P3 attached_1 990 faults/s",
                            f"result P3 none_2 1010 faults/s", f"result P3 tracepoint_2 1000 faults/s",
                            f"result P3 attached_2 985 faults/s"]),
            ("P5", "PASS", ["result P5 slices2_1 1000 faults/s", "result P5 slices256_1 950 faults/s"]),
            ("P4", "PASS", ["result P4 faults_1 1000 faults/s", "result P4 charge_1 300 MiB/s"]),
            ("L1-memcgd", "PASS", [f"result L1-memcgd high_p99 {[2.5, 3.5, 4.5][i]} ms",
                                   "hist L1-memcgd high_run 1.25893 3", "result L1-memcgd low 20 MiB/s"]),
            ("L1-low", "PASS", ["result L1-low high_p99 10 ms", f"result L1-low low {[0, 10, 10][i]} MiB/s"]),
            ("L1-lowhigh", "PASS", ["result L1-lowhigh high_p99 5 ms", "result L1-lowhigh low 5 MiB/s"]),
        ]
        loads = {t[0]: normal for t in tests}
        # the guest's RCU stall report during S0 of the second boot, with its register dump
        console = ("[ 10.0] memcgd-vm-tests: begin bench/S1 (timeout 900s)\n"
                   "[ 20.0] memcgd-vm-tests: begin bench/S0 (timeout 900s)\n"
                   "[ 50.0] rcu: INFO: rcu_sched self-detected stall on CPU\n"
                   "[ 50.1] RIP: 0010:copy_mc_enhanced_fast_string+0x6/0xb\n"
                   "[ 90.0] memcgd-vm-tests: begin bench/S4 (timeout 900s)\n") if i == 1 else ""
        boot(runs, f"rep{i + 1}-patched", "6.12.118-memcgd-default | #key SMP | abc123", tests, loads,
             console)
        boot(runs, f"rep{i + 1}-unpatched", "6.12.118-memcgd-pristine | #key2 SMP | def456",
             [("P4", "PASS", ["result P4 faults_1 1000 faults/s", "result P4 charge_1 400 MiB/s"]),
              ("S0", "PASS", stalled_series("S0", "low", 1000, [5, 49, 49][i]) +
               [f"result S0 low {[1000, 20, 30][i]} MiB/s"])],
             {"P4": normal, "S0": normal})
    # a disturbed run (the host was busy) with an absurd S3 high, a starved one,
    # and a failed one: all three must stay out of the medians
    boot(runs, "rep4-patched", "6.12.118-memcgd-default | #key SMP | abc123",
         [("S3", "PASS", ["result S3 high 99999 MiB/s", "result S3 low 99999 MiB/s"]),
          ("S1", "PASS", ["result S1 high 1 MiB/s", "result S1 low 1 MiB/s"]),
          ("S4", "FAIL", ["result S4 low 1 MiB/s"])],
         {"S3": (60, 120, 30), "S1": (60, 60, 3), "S4": normal})
    with open(os.path.join(root, "notes.md"), "w") as f:
        f.write("Synthetic notes paragraph.\n")

    # the report is dated by its runs, not by when it is written
    for label in os.listdir(runs):
        if os.path.isdir(os.path.join(runs, label)):
            os.utime(os.path.join(runs, label, "results.log"), (1764806400, 1764806400))
    p = subprocess.run([sys.executable, report, "--runs", runs, "--out", out, "--notes",
                        os.path.join(root, "notes.md"), "--command", "scripts/bench --test"],
                       capture_output=True, text=True)
    print(p.stdout, p.stderr)
    check(p.returncode == 0, "report.py exits 0")
    md = open(os.path.join(out, "benchmarks.md")).read() if p.returncode == 0 else ""

    def row(name):
        m = re.search(rf"^\| {re.escape(name)} \|.*$", md, re.M)
        return m.group(0) if m else ""

    check("| 1.100 |" in row("P1") and "| met |" in row("P1"), "P1 = median 121 / median 110 = 1.10, met: " + row("P1"))
    check("| 0.900 |" in row("P1b") and "missed by 10.0%" in row("P1b"), "P1b = 45/50 missed by 10%: " + row("P1b"))
    check("| 46.4 |" in row("P2") and "| met |" in row("P2"), "P2 = 510/11 = 46.4 met: " + row("P2"))
    check("| 0.944 |" in row("P2b") and "missed by" in row("P2b"), "P2b = 510/540 = 0.944, missed: " + row("P2b"))
    check("| 0.500 |" in row("T") and "| no target |" in row("T") and "| - |" in row("T"),
          "T = 270/540 = 0.5, informational: " + row("T"))
    check(re.search(r"^\| S0 \|[^|]*\| 11, 21, never \| 21 \|$", md, re.M) is not None,
          "S0 recovery: at 11, 21 s, and a run stalled past its end (rate 500 needs 3 s in a row)")
    check(re.search(r"^\| S4 \|[^|]*\| 1, 1, 1 \| 1 \|$", md, re.M) is not None, "S4 ran at 500+ MiB/s throughout")
    check(re.search(r"^\| S2 \|[^|]*\| never, never, never \| never \|$", md, re.M) is not None,
          "S2 at 10-12 MiB/s never recovers")
    check(re.search(r"^\| S0 \|[^|]*\| 1, 1, 1 \| 1 of 3: rep2-patched #6: copy_mc_enhanced_fast_string \| "
                    r"1 of 3 \(0\.06–0\.79\) \|$",
                    md, re.M) is not None, "S0's RCU stall report is named with its run and function")
    check(re.search(r"^\| S4 \|[^|]*\| 1, 1, 1 \| 0 of 3 \| 0 of 3 \(0\.00–0\.56\) \|$", md, re.M) is not None,
          "S4: no pause, no stall report (the report before it belongs to S0)")
    check(re.search(r"^\| S4t \|[^|]*\| 30, 30, 30 \| 0 of 3 \| 3 of 3 \(0\.44–1\.00\) \|$", md, re.M) is not None,
          "S4t's writer logged nothing from 10 to 40 s: a 30-s pause, a stall in each run")
    check("not measured" in row("P2b-f"), "P2b-f without S4f/S0f is not measured: " + row("P2b-f"))
    check("| 0.983 |" in row("P3") and "| met |" in row("P3"), "P3 = 987.5/1005 = 0.983 met: " + row("P3"))
    check("| 0.993 |" in row("P3-tp") and "| no target |" in row("P3-tp"),
          "P3-tp = 997.5/1005 = 0.993, informational: " + row("P3-tp"))
    check("| 0.990 |" in row("P3-ops") and "| no target |" in row("P3-ops"),
          "P3-ops = 987.5/997.5 = 0.990, informational: " + row("P3-ops"))
    check("| 1.000 |" in row("P4") and "| met |" in row("P4"), "P4 faults = 1.00: " + row("P4"))
    check("| 0.750 |" in row("P4-charge") and "missed by 24.2%" in row("P4-charge"), "P4-charge 300/400: " + row("P4-charge"))
    check("| 0.950 |" in row("P5") and "5.0% apart" in row("P5"), "P5 0.95 outside 1 ± 0.02: " + row("P5"))
    check(re.search(r"\| rep4-patched \| 1 \| S3 \| PASS \| no: host busy: 0\.50 CPU-s/s", md) is not None,
          "busy host run rejected with its reason")
    check(re.search(r"\| rep4-patched \| 2 \| S1 \| PASS \| no: QEMU got 1\.00 CPU-s/s, usual 2\.00", md) is not None,
          "starved QEMU run rejected with its reason")
    check(re.search(r"\| rep4-patched \| 3 \| S4 \| FAIL \| no: test FAIL", md) is not None, "failed run rejected")
    check("| 3 of 4 |" in md, "scenario table counts accepted of all runs")
    check("Synthetic notes paragraph." in md, "notes are included")
    check("runs ended 2025-12-04 00:00 UTC" in md, "dated by the last results.log")
    n_runs = len(re.findall(r"^\| rep\d-", md, re.M))
    check(f"the {n_runs} runs took {n_runs} min in the guests" in md, f"guest time of {n_runs} runs of 60 s each")
    check("build id `abc123`" in md and "build id `def456`" in md, "both kernels' build ids are named")
    check("3 rejected" in p.stdout, "summary counts rejected runs")
    check("each followed by a boot of the unpatched kernel for P4, S0 (3 in all)" in md,
          "the unpatched boots and their scenarios are counted")
    check("| 18.0 |" in row("K0") and "| no target |" in row("K0"),
          "K0 = S0 patched / unpatched = 540/30 = 18.0, informational: " + row("K0"))
    check("not measured" in row("K0f"), "K0f without S0f runs is not measured: " + row("K0f"))
    check(re.search(r"^\| S0 \(unpatched\) \|[^|]*\| 6, never, never \| never \|$", md, re.M) is not None,
          "the unpatched kernel's S0 runs have their own recovery row")
    check(re.search(r"^\| L1-memcgd \| latency probe in high, batch writer in low: memcgd, shipped example "
                    r"policies \| high_p99 \(ms\) \| 3.50 \| 2.50 \| 4.50 \| 3 of 3 \|$", md, re.M) is not None,
          "the latency scenario's p99 is in the scenario table")
    # latency targets, per boot pair: L1 = 2.5/10, 3.5/10, 4.5/10; with three
    # boots the bootstrap interval of the median spans the smallest to the largest
    check("| L1 | high.slice p99 latency under contention: memcgd / memory.low | 3 | 0.350 | 0.250–0.450 | ≤ 0.5 | met |"
          in md, "L1: ratios 0.25, 0.35, 0.45, interval below 0.5: met")
    check("| L1-static | high.slice p99 latency under contention: memcgd / memory.low + memory.high on low | 3 | "
          "0.700 | 0.500–0.900 | ≤ 0.8 | inconclusive |" in md, "L1-static: interval 0.5-0.9 spans 0.8: inconclusive")
    check("| L1b | low.slice throughput under contention: memcgd / memory.low | 3 | 2.000 | 2.000–2000.0 | ≥ 1 | met |"
          in md, "L1b: a starved memory.low run (0 MiB/s) counts as 0.01, ratio 2000")
    check(re.search(r"^\| L2 \|[^|]*\| 0 \| - \| - \| ≤ 0.1 \| inconclusive \(n = 0 < 3 boots\) \|$", md, re.M)
          is not None, "L2 without its scenarios: n = 0, inconclusive")
    check(re.search(r"^\| L3 \|[^|]*\| 0 \| - \| - \| - \| no target \|$", md, re.M) is not None,
          "L3 has no target")
    png = os.path.join(out, "benchmarks.png")
    check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "plot is a PNG")

    # a run without P4 boots no unpatched kernel, and the report does not say it did
    runs2, out2 = os.path.join(root, "runs2"), os.path.join(root, "out2")
    os.makedirs(runs2)
    boot(runs2, "rep1-patched", "6.12.118-memcgd-default | #key SMP | abc123",
         [("S1", "PASS", series("S1", "high", 100) + ["result S1 high 100 MiB/s", "result S1 low 5 MiB/s"])],
         {"S1": normal})
    p2 = subprocess.run([sys.executable, report, "--runs", runs2, "--out", out2, "--command", "scripts/bench --test"],
                        capture_output=True, text=True)
    md2 = open(os.path.join(out2, "benchmarks.md")).read() if p2.returncode == 0 else ""
    check("Targets of the latency scenarios" not in md2, "no latency targets table without latency runs")
    check(p2.returncode == 0 and "1 boots of the patched kernel with the scenarios in a rotated order;" in md2
          and "unpatched kernel for" not in md2, "no unpatched boot is claimed without P4: " + p2.stderr.strip())

    bad = subprocess.run([sys.executable, report, "--runs", root + "/nothing", "--out", out],
                         capture_output=True, text=True)
    check(bad.returncode != 0 and "boots.tsv missing" in bad.stderr, "a wrong log directory is named: " + bad.stderr.strip())

done()
print("all report checks passed")
