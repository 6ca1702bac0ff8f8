#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What QEMU was doing when the guest reported an RCU stall: the evidence of
the guest-wide stall investigation (issue 15, item 5; bench/notes.md) that
the 2 Hz thread sampler (sample-qemu-threads.py) cannot give.

usage: capture-stall.py QEMU_PID CONSOLE MONITOR_SOCKET OUT_DIR [MAX]

Follows the guest's console log until QEMU_PID exits. On each line that
reports an RCU stall (the first MAX of them, default 3) it writes
OUT_DIR/stall-N.txt with, in this order:
  - the console line and the host time (CLOCK_MONOTONIC seconds since start);
  - every QEMU thread's state, wait channel and kernel stack
    (/proc/PID/task/TID/stack: root only);
  - `info jit` from QEMU's human monitor (run-vm.sh --monitor SOCKET):
    translation-block counts and the code buffer's use, to tell a flush
    storm or a full code buffer from something else;
  - where QEMU spends its host CPU over the next 3 s (perf record, by
    thread and function), then `info jit` again: which translation counters
    move while the guest crawls;
  - a backtrace of every QEMU thread (gdb -batch 'thread apply all bt').
The first four do not stop QEMU; gdb does, for the second or so it takes to
attach, which lengthens the stall the guest measures afterwards: count
stalls, not their reported length, in a boot with a capture. Exits 0 when
QEMU exits; a part that cannot be had (no gdb, no socket) is written as such.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hmp import monitor  # noqa: E402
from procfs import read, running, thread_ids, thread_row  # noqa: E402

STALL = re.compile(r"rcu: INFO: \S+ (detected stalls|self-detected stall)|"
                   r"rcu_\w+ kthread starved|detected stall on CPU|self-detected stall on CPU")


def threads(pid):
    """Every thread's name, state, wait channel and kernel stack."""
    out = []
    for tid in thread_ids(pid):
        row = thread_row(pid, tid)
        if not row:
            continue
        stack = read(f"/proc/{pid}/task/{tid}/stack", "(unreadable)\n")
        out.append(f"{tid} {row[0]} state={row[1]} wchan={row[2]}\n" +
                   "".join(f"    {line}\n" for line in stack.splitlines()))
    return "".join(out) or "(process gone)\n"


def backtrace(pid):
    gdb = shutil.which("gdb")
    if not gdb:
        return "(gdb not installed)\n"
    p = subprocess.run([gdb, "-p", str(pid), "-batch", "-nx", "-ex", "set pagination off",
                        "-ex", "thread apply all bt"],
                       capture_output=True, text=True, timeout=120)
    return p.stdout + (f"(gdb exit {p.returncode}: {p.stderr.strip()[-500:]})\n" if p.returncode else "")


def profile(pid, seconds):
    """Where QEMU's threads spend the host CPU for SECONDS: perf's software
    clock at 499 Hz, by function (QEMU's exported symbols; the translated
    guest code shows as addresses)."""
    perf = shutil.which("perf")
    if not perf:
        return "(perf not installed)\n"
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        p = subprocess.run([perf, "record", "-q", "-e", "cpu-clock", "-F", "499", "-p", str(pid), "-o", data,
                            "--", "sleep", str(seconds)], capture_output=True, text=True, timeout=seconds + 60)
        if p.returncode or not os.path.exists(data):
            return f"(perf record exit {p.returncode}: {p.stderr.strip()[-300:]})\n"
        p = subprocess.run([perf, "report", "-i", data, "--stdio", "--no-children", "--sort", "pid,sym"],
                           capture_output=True, text=True, timeout=120)
    rows = [line for line in p.stdout.splitlines() if line.strip() and not line.startswith("#")]
    return "\n".join(rows[:40]) + "\n" if rows else f"(perf report: {p.stderr.strip()[-300:]})\n"


def capture(n, t, line, pid, sock, out_dir, perf_seconds=3):
    path = os.path.join(out_dir, f"stall-{n}.txt")
    with open(path, "w") as f:
        f.write(f"# stall {n} at t={t:.1f} s\n{line}\n\n## QEMU threads (state, wait channel, kernel stack)\n")
        f.write(threads(pid))
        f.write("\n## info jit\n")
        f.flush()
        f.write(monitor(sock, "info jit"))
        # what QEMU does meanwhile, and how the translation counters move over it
        f.write(f"\n## perf: QEMU's host CPU by thread and function over {perf_seconds} s\n")
        f.flush()
        f.write(profile(pid, perf_seconds))
        f.write(f"\n## info jit, {perf_seconds} s after the first\n")
        f.flush()
        f.write(monitor(sock, "info jit"))
        f.write("\n## gdb: thread apply all bt (QEMU stopped while gdb is attached)\n")
        f.flush()
        f.write(backtrace(pid))
    return path


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    pid, console, sock, out_dir = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    most = int(sys.argv[5]) if len(sys.argv) == 6 else 3
    if not running(pid):
        sys.exit(f"capture-stall.py: no process {pid}")
    os.makedirs(out_dir, exist_ok=True)
    start, n, pos, partial = time.monotonic(), 0, 0, ""
    while True:
        alive = running(pid)
        try:
            with open(console, errors="replace") as f:
                f.seek(pos)
                data = f.read()
                pos = f.tell()
        except OSError:
            data = ""
        lines = (partial + data).split("\n")
        partial = lines.pop()
        for line in lines:
            if n < most and STALL.search(line):
                n += 1
                print(f"capture-stall.py: {capture(n, time.monotonic() - start, line, pid, sock, out_dir)}",
                      file=sys.stderr)
        if not alive:
            return
        time.sleep(0.5)


if __name__ == "__main__":
    main()
