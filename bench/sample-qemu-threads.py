#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What QEMU's threads and the host were doing, twice a second, during one
benchmark boot (scripts/bench): the record the guest-wide stall
investigation needs (issue 15, item 5; bench/notes.md).

usage: sample-qemu-threads.py QEMU_PID OUT_TSV [INTERVAL_S]

Until QEMU_PID exits, every INTERVAL_S seconds (default 0.5) writes one row
per QEMU thread and one row for the host:

    t_s  kind    id    name        state  wchan  cpu_ticks  extra
    1.5  thread  4242  CPU 0/TCG   R      0      18231      -
    1.5  host    -     -           -      -      -          psi_some=0.12 psi_full=0.00 swap_bytes=81920

t_s is seconds since the sampler started (CLOCK_MONOTONIC); state, wchan
(the kernel function a sleeping thread waits in, "0" when running or not
readable) and cpu_ticks (utime + stime) come from /proc/PID/task/TID. The
host row holds /proc/pressure/memory's avg10 values (some, full) and the
space allocated to QEMU's swap disk (the file= of a -drive in /dev/shm, or
named memcgd-swap.* anywhere: run-vm.sh --swap-dir), in bytes.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from procfs import read, running, thread_ids, thread_row  # noqa: E402


def shm_files(pid):
    """The swap disk files QEMU opened (from its command line)."""
    args = read(f"/proc/{pid}/cmdline").split("\0")
    out = []
    for a in args:
        for part in a.split(","):
            if part.startswith("file=/dev/shm/") or \
                    (part.startswith("file=") and os.path.basename(part).startswith("memcgd-swap.")):
                out.append(part[len("file="):])
    return out


def psi_memory():
    some = full = "-"
    for line in read("/proc/pressure/memory").splitlines():
        words = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
        if line.startswith("some"):
            some = words.get("avg10", "-")
        elif line.startswith("full"):
            full = words.get("avg10", "-")
    return some, full


def allocated_bytes(paths):
    total = 0
    for p in paths:
        try:
            total += os.stat(p).st_blocks * 512
        except OSError:
            pass
    return total


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    pid, out = int(sys.argv[1]), sys.argv[2]
    interval = float(sys.argv[3]) if len(sys.argv) == 4 else 0.5
    if not running(pid):
        sys.exit(f"sample-qemu-threads.py: no process {pid}")
    swap = shm_files(pid)
    start = time.monotonic()
    with open(out, "w") as tsv:
        tsv.write("t_s\tkind\tid\tname\tstate\twchan\tcpu_ticks\textra\n")
        while running(pid):
            t = time.monotonic() - start
            tids = thread_ids(pid)
            if not tids:
                break
            for tid in tids:
                row = thread_row(pid, tid)
                if row:
                    tsv.write(f"{t:.1f}\tthread\t{tid}\t{row[0]}\t{row[1]}\t{row[2]}\t{row[3]}\t-\n")
            some, full = psi_memory()
            tsv.write(f"{t:.1f}\thost\t-\t-\t-\t-\t-\tpsi_some={some} psi_full={full} "
                      f"swap_bytes={allocated_bytes(swap)}\n")
            tsv.flush()
            time.sleep(interval)


if __name__ == "__main__":
    main()
