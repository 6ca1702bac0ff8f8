#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where each of the guest's vCPUs is, twice a second, during one benchmark
boot: a sampling profile of the guest taken from outside, through QEMU's
human monitor (issue 15, item 5: what the guest runs while it crawls without
an RCU stall report, which capture-stall.py waits for; bench/notes.md).

usage: sample-guest-pc.py QEMU_PID MONITOR_SOCKET OUT_TSV [INTERVAL_S]

Until QEMU_PID exits, every INTERVAL_S seconds (default 0.5) asks the monitor
(run-vm.sh --monitor SOCKET) for `info registers -a` and writes one row per
vCPU:

    t_s  cpu  rip               cpl  hlt  rcx
    1.5  0    ffffffff81a2c3d0  0    0    0000000000000c2b

t_s is seconds since the sampler started (CLOCK_MONOTONIC, as in
qemu-threads.tsv); cpl 0 is the guest kernel, 3 user space; hlt 1 a halted
(idle) vCPU; rcx the count register (a `rep stos`/`rep movs` in progress
counts down in it). bench/qemu-timeline.py --system-map turns the kernel
addresses into functions.

Under TCG QEMU updates a vCPU's instruction pointer when it leaves a
translation block or calls a helper, and the monitor reads it without
stopping the vCPU: a sample is where the vCPU was recently, to within a
block, which is what a profile of many samples needs. Each sample costs the
monitor a few milliseconds of QEMU's main thread; the vCPUs are not stopped.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hmp import monitor, registers  # noqa: E402
from procfs import running  # noqa: E402


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    pid, sock, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    interval = float(sys.argv[4]) if len(sys.argv) == 5 else 0.5
    if not running(pid):
        sys.exit(f"sample-guest-pc.py: no process {pid}")
    start = time.monotonic()
    failures = 0
    with open(out, "w") as tsv:
        tsv.write("t_s\tcpu\trip\tcpl\thlt\trcx\n")
        while running(pid):
            t = time.monotonic() - start
            regs = registers(monitor(sock, "info registers -a", timeout=5.0))
            if not regs:
                failures += 1   # QEMU not listening yet, or exiting
            for cpu, r in regs:
                tsv.write(f"{t:.1f}\t{cpu}\t{r['RIP']:016x}\t{r.get('CPL', -1)}\t{r.get('HLT', -1)}\t"
                          f"{r.get('RCX', 0):016x}\n")
            tsv.flush()
            time.sleep(interval)
    if failures:
        print(f"sample-guest-pc.py: {failures} samples without an answer from {sock}", file=sys.stderr)


if __name__ == "__main__":
    main()
