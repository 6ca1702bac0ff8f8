#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What QEMU did on the host during each test of one benchmark boot, from the
records scripts/bench keeps in the boot's log directory (issue 15, item 5:
the guest-wide stall investigation; bench/notes.md).

usage: qemu-timeline.py BOOT_DIR [--window S] [--system-map FILE]

Reads BOOT_DIR/qemu-threads.tsv (bench/sample-qemu-threads.py: every QEMU
thread's state and CPU ticks, the host's memory pressure and the swap file's
size, twice a second), BOOT_DIR/console.log (the guest kernel's log: when each
test began and ended, and its RCU stall reports) and BOOT_DIR/qemu.cmd (how
many vCPUs). Prints two tab-separated tables:

  test     per test: wall seconds; the vCPU threads' CPU-seconds per second
           over the test and over its slowest window of S seconds (default
           10); the other QEMU threads' (main loop, I/O); the host's highest
           memory PSI "full" (avg10) and the swap file's largest size.
  stall    per RCU stall report: the test it fell in, and over the 21 s
           before it (the detector's timeout) the same rates and each vCPU
           thread's share of samples in state R (running or runnable).
  profile  with BOOT_DIR/guest-pc.tsv (bench/sample-guest-pc.py) and the
           guest kernel's System.map: per test and per RCU stall (the 21 s
           before it), the vCPU samples' shares halted (idle) and in user
           space, and the kernel functions most samples of the running
           vCPUs fell in.

A guest that stops because QEMU's vCPU threads do not run shows vCPU rates
near 0 there; a guest that stops while its vCPUs run flat out (about 1 per
vCPU) is stuck inside emulated code.

The vCPU threads are the ones QEMU names "CPU n/..." when it runs with
-name debug-threads=on; otherwise the N threads (N from -smp, 1 with -icount's
thread=single) with the most CPU time over the boot, the main thread (the
process itself) excluded. Times are seconds since QEMU started: the sampler's
clock starts with QEMU and the guest's uptime with its kernel, which under TCG
follows the host's clock; the console's "setting system clock to ..." line
and the sampler file's creation time align the two to about a second.
"""
import argparse
import bisect
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bootlog import clock_offset, guest_pc_in_uptime, read_console  # noqa: E402

TICK_HZ = os.sysconf("SC_CLK_TCK")
RCU_TIMEOUT_S = 21.0


class Sample:
    __slots__ = ("t", "threads", "psi_full", "swap_bytes")

    def __init__(self, t):
        self.t, self.threads, self.psi_full, self.swap_bytes = t, {}, None, None


def read_samples(path):
    """The samples of qemu-threads.tsv in time order: per sample, each thread's
    (name, state, ticks), the host's PSI full avg10 and the swap file size."""
    samples, names = [], {}
    with open(path, errors="replace") as f:
        header = f.readline()
        if not header.startswith("t_s\t"):
            raise ValueError(f"{path}: not a qemu-threads.tsv (header {header.strip()!r})")
        for lineno, line in enumerate(f, 2):
            w = line.rstrip("\n").split("\t")
            if len(w) != 8:
                continue        # a line cut off when QEMU exited mid-write
            try:
                t = float(w[0])
            except ValueError:
                raise ValueError(f"{path}:{lineno}: bad time {w[0]!r}") from None
            if not samples or samples[-1].t != t:
                samples.append(Sample(t))
            s = samples[-1]
            if w[1] == "thread":
                try:
                    s.threads[int(w[2])] = (w[4], int(w[6]))
                except ValueError:
                    raise ValueError(f"{path}:{lineno}: bad thread row") from None
                names[int(w[2])] = w[3]
            elif w[1] == "host":
                extra = dict(x.split("=", 1) for x in w[7].split() if "=" in x)
                try:
                    s.psi_full = float(extra.get("psi_full", "-"))
                except ValueError:
                    pass
                try:
                    s.swap_bytes = int(extra.get("swap_bytes", "-"))
                except ValueError:
                    pass
    return samples, names


def vcpu_count(qemu_cmd):
    try:
        with open(qemu_cmd) as f:
            text = f.read()
    except OSError:
        return 1
    if "thread=single" in text:
        return 1
    m = re.search(r"-smp (\d+)", text)
    return int(m.group(1)) if m else 1


def vcpu_threads(samples, names, n):
    """The vCPU thread ids (see the module's doc)."""
    named = sorted(tid for tid, name in names.items() if name.startswith("CPU "))
    if named:
        return named
    if not samples:
        return []
    main_tid = min(names) if names else None
    last = {}
    for s in samples:
        for tid, (_, ticks) in s.threads.items():
            last[tid] = ticks
    ranked = sorted((tid for tid in last if tid != main_tid), key=lambda tid: -last[tid])
    return sorted(ranked[:n])


def ticks_at(sample, tids):
    return sum(sample.threads.get(tid, ("", 0))[1] for tid in tids)


def rate(samples, tids, t0, t1):
    """CPU-seconds per second of the threads TIDS between t0 and t1 (None when
    fewer than two samples fall inside)."""
    inside = [s for s in samples if t0 <= s.t <= t1]
    if len(inside) < 2 or inside[-1].t <= inside[0].t:
        return None
    return (ticks_at(inside[-1], tids) - ticks_at(inside[0], tids)) / TICK_HZ / (inside[-1].t - inside[0].t)


def slowest_window(samples, tids, t0, t1, window):
    """The lowest rate over any WINDOW seconds between t0 and t1."""
    inside = [s for s in samples if t0 <= s.t <= t1]
    best, j = None, 0
    for i, s in enumerate(inside):
        while j < len(inside) and inside[j].t < s.t + window:
            j += 1
        if j >= len(inside):
            break
        r = (ticks_at(inside[j], tids) - ticks_at(s, tids)) / TICK_HZ / (inside[j].t - s.t)
        best = r if best is None else min(best, r)
    return best


def running_share(samples, tid, t0, t1):
    inside = [s for s in samples if t0 <= s.t <= t1 and tid in s.threads]
    if not inside:
        return None
    return sum(s.threads[tid][0] == "R" for s in inside) / len(inside)


def read_system_map(path):
    """Sorted (address, name) of the kernel's text symbols."""
    syms = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3 and w[1] in "tTwW":
                syms.append((int(w[0], 16), w[2]))
    syms.sort()
    return syms


def symbol(syms, addrs, rip):
    i = bisect.bisect_right(addrs, rip) - 1
    return syms[i][1] if i >= 0 else f"{rip:x}"


def profile(pcs, syms, addrs, t0, t1, top=4):
    """(samples, halted share, user share, "fn n, ...") of the vCPU samples in [t0, t1]."""
    inside = [p for p in pcs if t0 <= p[0] <= t1]
    if not inside:
        return None
    halted = sum(p[4] == 1 for p in inside)
    user = sum(p[4] != 1 and p[3] == 3 for p in inside)
    counts = {}
    for p in inside:
        if p[4] != 1 and p[3] == 0:
            fn = symbol(syms, addrs, p[2])
            counts[fn] = counts.get(fn, 0) + 1
    best = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return (len(inside), halted / len(inside), user / len(inside),
            ", ".join(f"{fn} {n}" for fn, n in best) or "-")


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("boot_dir")
    ap.add_argument("--window", type=float, default=10.0)
    ap.add_argument("--system-map", help="the guest kernel's System.map, for the profile table")
    args = ap.parse_args()
    d = args.boot_dir
    try:
        samples, names = read_samples(os.path.join(d, "qemu-threads.tsv"))
        tests, stalls, rtc = read_console(os.path.join(d, "console.log"))
    except (OSError, ValueError) as e:
        sys.exit(f"qemu-timeline.py: {e}")
    vcpus = vcpu_threads(samples, names, vcpu_count(os.path.join(d, "qemu.cmd")))
    others = sorted(tid for tid in names if tid not in vcpus)
    off = clock_offset(rtc, os.path.join(d, "qemu-threads.tsv"))
    print(f"# {d}: vCPU threads {','.join(map(str, vcpus)) or '-'}; guest uptime + {off:.1f} s = sampler time")
    print("test\ttest_name\tbegin_s\twall_s\tvcpu_cpu_per_s\tvcpu_slowest_"
          f"{args.window:g}s\tother_threads_cpu_per_s\thost_psi_full_max\tswap_mib_max")
    for name, b, e in tests:
        if e is None:
            continue
        t0, t1 = b + off, e + off
        inside = [s for s in samples if t0 <= s.t <= t1]
        psi = max((s.psi_full for s in inside if s.psi_full is not None), default=None)
        swap = max((s.swap_bytes for s in inside if s.swap_bytes is not None), default=None)
        print(f"test\t{name}\t{b:.0f}\t{e - b:.0f}\t{fmt(rate(samples, vcpus, t0, t1))}\t"
              f"{fmt(slowest_window(samples, vcpus, t0, t1, args.window))}\t"
              f"{fmt(rate(samples, others, t0, t1))}\t{fmt(psi)}\t"
              f"{fmt(None if swap is None else swap / 2**20, 0)}")
    print("stall\ttest_name\tuptime_s\tvcpu_cpu_per_s_21s_before\tother_threads_cpu_per_s\t"
          "vcpu_running_share")
    for st in stalls:
        test = next((n for n, b, e in tests if b <= st and (e is None or st <= e)), "-")
        t1 = st + off
        t0 = t1 - RCU_TIMEOUT_S
        shares = [running_share(samples, tid, t0, t1) for tid in vcpus]
        print(f"stall\t{test}\t{st:.0f}\t{fmt(rate(samples, vcpus, t0, t1))}\t"
              f"{fmt(rate(samples, others, t0, t1))}\t{','.join(fmt(x) for x in shares)}")
    if not args.system_map:
        return
    try:
        syms = read_system_map(args.system_map)
        pcs = guest_pc_in_uptime(d, rtc)
    except (OSError, ValueError) as e:
        sys.exit(f"qemu-timeline.py: {e}")
    if pcs is None:
        return
    addrs = [a for a, _ in syms]
    print("profile\twhat\tvcpu_samples\thalted_share\tuser_share\ttop_kernel_functions")
    # the PC samples are in guest uptime, as the console's times are
    spans = [(name, b, e) for name, b, e in tests if e is not None]
    spans += [(f"stall@{st:.0f}", st - RCU_TIMEOUT_S, st) for st in stalls]
    for what, t0, t1 in spans:
        p = profile(pcs, syms, addrs, t0, t1)
        if p:
            print(f"profile\t{what}\t{p[0]}\t{p[1]:.2f}\t{p[2]:.2f}\t{p[3]}")


if __name__ == "__main__":
    main()
