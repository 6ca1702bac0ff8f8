# SPDX-License-Identifier: GPL-2.0-only
"""What /proc says about a process and its threads: shared by the samplers
of a benchmark boot (sample-qemu-threads.py, capture-stall.py)."""
import os


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def running(pid):
    """The process exists and has not exited (a zombie waiting to be reaped has)."""
    stat = read(f"/proc/{pid}/stat")
    return bool(stat) and stat[stat.rindex(")") + 2:].split()[0] not in ("Z", "X")


def thread_ids(pid):
    """The process's thread ids, ascending ([] once it is gone)."""
    try:
        return sorted(os.listdir(f"/proc/{pid}/task"), key=int)
    except OSError:
        return []


def thread_row(pid, tid):
    """(name, state, wchan, cpu_ticks) of one thread, or None once it is gone."""
    stat = read(f"/proc/{pid}/task/{tid}/stat")
    if not stat:
        return None
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2:].split()
    # fields[0] is the state (field 3); utime and stime are fields 14 and 15
    ticks = int(fields[11]) + int(fields[12])
    wchan = read(f"/proc/{pid}/task/{tid}/wchan", "0").strip() or "0"
    return name.replace("\t", " "), fields[0], wchan, ticks
