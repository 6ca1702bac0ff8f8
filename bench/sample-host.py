#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host-side load record of one benchmark boot (scripts/bench).

usage: sample-host.py RESULTS_LOG QEMU_PID OUT_TSV

Follows the harness's results stream while QEMU_PID runs. At every
"MEMCGD begin <test>" and "MEMCGD end <test>" line it reads QEMU's CPU time
(/proc/PID/stat utime+stime) and the host's busy CPU time (/proc/stat), and
writes one row per finished test:

    test  wall_s  qemu_cpu_s  other_cpu_s

other_cpu_s is the CPU time the rest of the host used meanwhile: the
benchmark rejects runs that shared the machine (see bench/report.py).
"""
import os
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def qemu_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is the state (field 3): utime and stime are fields 14 and 15
    return (int(fields[11]) + int(fields[12])) / TICK


def host_busy():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]  # idle + iowait
    return (sum(v[:8]) - idle) / TICK


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    results, pid, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    started = {}
    with open(out, "w") as tsv:
        tsv.write("test\twall_s\tqemu_cpu_s\tother_cpu_s\n")
        pos = 0
        buf = ""
        while True:
            alive = os.path.exists(f"/proc/{pid}")
            try:
                with open(results) as f:
                    f.seek(pos)
                    data = f.read()
                    pos = f.tell()
            except FileNotFoundError:
                data = ""
            buf += data
            *lines, buf = buf.split("\n")
            for line in lines:
                words = line.split()
                if len(words) < 3 or words[0] != "MEMCGD" or words[1] not in ("begin", "end"):
                    continue
                try:
                    sample = (time.monotonic(), qemu_cpu(pid), host_busy())
                except (FileNotFoundError, ProcessLookupError):
                    continue
                if words[1] == "begin":
                    started[words[2]] = sample
                elif words[2] in started:
                    t0, q0, h0 = started.pop(words[2])
                    t1, q1, h1 = sample
                    qemu = q1 - q0
                    other = max(0.0, (h1 - h0) - qemu)
                    tsv.write(f"{words[2]}\t{t1 - t0:.1f}\t{qemu:.1f}\t{other:.1f}\n")
                    tsv.flush()
            if not alive:
                break
            time.sleep(0.2)


if __name__ == "__main__":
    main()
