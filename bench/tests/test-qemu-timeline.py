#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of bench/qemu-timeline.py on a made-up boot directory: two vCPU
threads that run flat out in test A, one of them alone in test B with a 20-s
window in which neither runs, an RCU stall report in B, and a guest PC
profile that puts B's running samples in one kernel function.
usage: test-qemu-timeline.py TIMELINE"""
import os
import subprocess
import sys
import tempfile

timeline = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")

with tempfile.TemporaryDirectory() as d:
    # QEMU's main thread 100, vCPUs 101 and 102, an I/O thread 103; 0.5-s samples over 0-120 s.
    # Test A (10-50 s): both vCPUs run. Test B (50-110 s): vCPU 101 alone, except 70-90 s: nobody.
    ticks = {100: 0, 101: 0, 102: 0, 103: 0}
    with open(os.path.join(d, "qemu-threads.tsv"), "w") as f:
        f.write("t_s\tkind\tid\tname\tstate\twchan\tcpu_ticks\textra\n")
        for i in range(241):
            t = i * 0.5
            if i:
                if 10 < t <= 50:
                    ticks[101] += HZ // 2
                    ticks[102] += HZ // 2
                elif 50 < t <= 110 and not 70 < t <= 90:
                    ticks[101] += HZ // 2
                ticks[103] += HZ // 20
            for tid in (100, 101, 102, 103):
                state = "R" if tid == 101 and 50 < t <= 110 and not 70 < t <= 90 else "S"
                f.write(f"{t:.1f}\tthread\t{tid}\tqemu-system-x86\t{state}\tfutex_do_wait\t{ticks[tid]}\t-\n")
            f.write(f"{t:.1f}\thost\t-\t-\t-\t-\t-\tpsi_some=0.00 psi_full={'3.50' if 60 < t < 70 else '0.00'} "
                    f"swap_bytes={int(t) * 2**20}\n")
    with open(os.path.join(d, "console.log"), "w") as f:
        f.write("[   10.000000] memcgd-vm-tests: begin bench/A (timeout 1800s)\n"
                "[   50.000000] memcgd-vm-tests: end bench/A PASS\n"
                "[   50.000000] memcgd-vm-tests: begin bench/B (timeout 1800s)\n"
                "[  105.000000] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
                "[  110.000000] memcgd-vm-tests: end bench/B PASS\n")
    with open(os.path.join(d, "qemu.cmd"), "w") as f:
        f.write("qemu-system-x86_64 -accel tcg\\,thread=multi -smp 2 -m 2048\n")
    with open(os.path.join(d, "System.map"), "w") as f:
        f.write("ffffffff81000000 T _stext\nffffffff81001000 t clear_page_erms\n"
                "ffffffff81002000 T shrink_folio_list\nffffffff81003000 D some_data\n")
    with open(os.path.join(d, "guest-pc.tsv"), "w") as f:
        f.write("t_s\tcpu\trip\tcpl\thlt\trcx\n")
        for i in range(241):
            t = i * 0.5
            if 50 < t <= 110:
                f.write(f"{t:.1f}\t0\tffffffff81001010\t0\t0\t0000000000000c2b\n"
                        f"{t:.1f}\t1\tffffffff81000500\t0\t1\t0000000000000000\n")
            else:
                f.write(f"{t:.1f}\t0\t0000555500001000\t3\t0\t0000000000000000\n"
                        f"{t:.1f}\t1\tffffffff81002100\t0\t0\t0000000000000000\n")

    p = subprocess.run([timeline, d, "--system-map", os.path.join(d, "System.map")],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"exits 0: {p.returncode} {p.stderr!r}")
    rows = [line.split("\t") for line in p.stdout.splitlines() if not line.startswith("#")]
    tests = {r[1]: r for r in rows if r[0] == "test" and r[1] != "test_name"}
    check("vCPU threads 101,102" in p.stdout, "the two busiest threads besides the main one are the vCPUs")
    a, b = tests.get("bench/A"), tests.get("bench/B")
    check(a is not None and b is not None, f"a row per finished test: {sorted(tests)}")
    if a and b:
        check(abs(float(a[4]) - 2.0) < 0.1, f"test A: both vCPUs flat out, 2 CPU-s/s: {a[4]}")
        check(abs(float(b[4]) - 2 / 3) < 0.1, f"test B: one vCPU for 40 of 60 s: {b[4]}")
        check(float(b[5]) < 0.05, f"test B's slowest 10 s: nothing ran: {b[5]}")
        check(float(a[5]) > 1.9, f"test A's slowest 10 s is still flat out: {a[5]}")
        check(abs(float(a[6]) - 0.1) < 0.02, f"the I/O thread's 0.1 CPU-s/s is the other threads': {a[6]}")
        check(b[7] == "3.50" and a[7] == "0.00", f"the host's highest PSI full per test: {a[7]}, {b[7]}")
        check(b[8] == "110", f"the swap file's largest size in MiB: {b[8]}")
    stalls = [r for r in rows if r[0] == "stall" and r[1] != "test_name"]
    check(len(stalls) == 1 and stalls[0][1] == "bench/B", f"the stall falls in test B: {stalls}")
    if stalls:
        # the 21 s before 105 s: 84-105, vCPU 101 ran 90-105 (15 of 21 s)
        check(abs(float(stalls[0][3]) - 15 / 21) < 0.1, f"vCPU rate over the 21 s before it: {stalls[0][3]}")
        shares = [float(x) for x in stalls[0][5].split(",")]
        check(shares[1] == 0.0 and 0.6 < shares[0] < 0.8, f"per-vCPU share of samples running: {shares}")
    prof = {r[1]: r for r in rows if r[0] == "profile" and r[1] != "what"}
    check("bench/B" in prof and prof["bench/B"][5].startswith("clear_page_erms "),
          f"test B's running kernel samples are in clear_page_erms: {prof.get('bench/B')}")
    if "bench/A" in prof:
        pa = prof["bench/A"]
        check(pa[4] == "0.50" and pa[5].startswith("shrink_folio_list "),
              f"test A: half the samples in user space, the kernel's in shrink_folio_list: {pa}")
        check(prof["bench/B"][3] == "0.50", f"test B: one vCPU halted, half the samples: {prof['bench/B']}")
    check(any(k.startswith("stall@105") for k in prof), f"a profile of the 21 s before the stall: {sorted(prof)}")

    # The guest's clock set from the RTC 10 s after the sampler file was created, at
    # uptime 0.9: guest uptime + 9.1 s is the sampler's time (where the file system
    # records creation times)
    born = subprocess.run(["stat", "-c", "%W", os.path.join(d, "qemu-threads.tsv")],
                          capture_output=True, text=True).stdout.strip()
    if born.isdigit() and int(born) > 0:
        import datetime
        when = datetime.datetime.fromtimestamp(int(born) + 10, datetime.timezone.utc)
        with open(os.path.join(d, "console.log"), "a") as f:
            f.write(f"[    0.900000] rtc_cmos 00:03: setting system clock to "
                    f"{when.strftime('%Y-%m-%dT%H:%M:%S')} UTC ({int(born) + 10})\n")
        p = subprocess.run([timeline, d], capture_output=True, text=True, timeout=60)
        check("guest uptime + 9.1 s" in p.stdout, f"the RTC line aligns the clocks: {p.stdout.splitlines()[:1]}")
    else:
        print("note: this file system does not record creation times; the clock alignment is not checked")

    os.remove(os.path.join(d, "qemu-threads.tsv"))
    p = subprocess.run([timeline, d], capture_output=True, text=True, timeout=60)
    check(p.returncode != 0 and "qemu-threads.tsv" in p.stderr,
          f"a boot without the thread record is refused, naming the file: {p.stderr.strip()!r}")
done()
