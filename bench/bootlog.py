# SPDX-License-Identifier: GPL-2.0-only
"""The host-side records of one benchmark boot's log directory that need the
guest's and the host's clocks lined up: the guest console's test boundaries
and RCU stall reports (guest uptime), qemu-threads.tsv and guest-pc.tsv
(seconds since their sampler started). Shared by qemu-timeline.py (the
stall investigation's per-test view) and data.py (each run's longest time at
one guest instruction, which the report's stall rule reads).

Alignment: under TCG without icount the guest's clock is the host's. The
console's "setting system clock to ..." line gives the host time of guest
uptime 0 to the second (the RTC's resolution); each sampler file's creation
time (stat %W) gives the host time of its t_s 0 to the second.
"""
import datetime
import os
import re
import subprocess

CONSOLE_TIME = re.compile(r"^\[\s*(\d+\.\d+)\]\s*(.*)$")
TEST_LINE = re.compile(r"memcgd-vm-tests: (begin|end) (\S+)")
RCU_STALL = re.compile(r"rcu: INFO: rcu_\w+ (self-)?detected stall")
RTC_SET = re.compile(r"setting system clock to (\S+) UTC")


def read_console(path):
    """([(test, begin_s, end_s or None)], [stall uptime s]) from the guest's log."""
    tests, stalls, rtc = [], [], None
    open_tests = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = CONSOLE_TIME.match(line)
            if not m:
                continue
            t, text = float(m.group(1)), m.group(2)
            tm = TEST_LINE.search(text)
            if tm and tm.group(1) == "begin":
                open_tests[tm.group(2)] = len(tests)
                tests.append([tm.group(2), t, None])
            elif tm and tm.group(2) in open_tests:
                tests[open_tests.pop(tm.group(2))][2] = t
            elif RCU_STALL.search(text):
                stalls.append(t)
            elif rtc is None and (rm := RTC_SET.search(text)):
                try:
                    when = datetime.datetime.fromisoformat(rm.group(1)).replace(tzinfo=datetime.timezone.utc)
                    rtc = (t, when.timestamp())
                except ValueError:
                    pass
    return [tuple(x) for x in tests], stalls, rtc


def clock_offset(rtc, sampler_file):
    """Seconds to add to a guest uptime to get the sampler's t_s (0 when the two
    cannot be aligned)."""
    if rtc is None:
        return 0.0
    born = file_birth(sampler_file)
    if born is None:
        return 0.0
    uptime_at, epoch = rtc
    return (epoch - uptime_at) - born


def file_birth(path):
    """The file's creation time (epoch seconds), or None: Python 3.11's
    os.stat() does not give it on Linux."""
    try:
        out = subprocess.run(["stat", "-c", "%W", path], capture_output=True, text=True, check=True)
        born = int(out.stdout.strip())
    except (OSError, ValueError, subprocess.CalledProcessError):
        return None
    return born if born > 0 else None     # 0: the file system does not record it


def read_guest_pc(path):
    """[(t_s, cpu, rip, cpl, hlt, rcx)] of guest-pc.tsv."""
    rows = []
    with open(path, errors="replace") as f:
        f.readline()
        for line in f:
            w = line.split("\t")
            if len(w) != 6:
                continue
            try:
                rows.append((float(w[0]), int(w[1]), int(w[2], 16), int(w[3]), int(w[4]), int(w[5], 16)))
            except ValueError:
                continue
    return rows


def guest_pc_in_uptime(boot_dir, rtc):
    """guest-pc.tsv's rows with t_s turned into guest uptime (RTC: the third
    value of read_console() on the boot's console), or None when the boot has
    no such file. When the clocks cannot be aligned t_s is taken as uptime,
    which holds to a second or so when the sampler started with QEMU, as
    scripts/bench starts it."""
    path = os.path.join(boot_dir, "guest-pc.tsv")
    if not os.path.exists(path):
        return None
    off = clock_offset(rtc, path)
    return [(r[0] - off,) + r[1:] for r in read_guest_pc(path)]


def longest_same_pc(pcs, t0, t1, excursions=2):
    """The longest time (s) any vCPU was sampled at one kernel instruction
    (running, not halted) between t0 and t1, allowing up to EXCURSIONS
    consecutive samples elsewhere (an interrupt, the timer) before the
    streak ends; 0 without such a streak. At 2 Hz a vCPU on hardware is
    never found at the same instruction sample after sample except in a
    tight loop; under TCG a `rep stos`/`rep movs` that crawls
    (bench/notes.md) keeps it there for tens of seconds."""
    best = 0.0
    open_streaks = {}   # cpu -> {rip: [first t, samples elsewhere since]}
    for t, cpu, rip, cpl, hlt, _ in sorted(p for p in pcs if t0 <= p[0] <= t1):
        streaks = open_streaks.setdefault(cpu, {})
        here = rip if hlt != 1 and cpl == 0 else None
        for r in list(streaks):
            if r != here:
                streaks[r][1] += 1
                if streaks[r][1] > excursions:
                    del streaks[r]
        if here is None:
            continue
        if here in streaks:
            streaks[here][1] = 0
            best = max(best, t - streaks[here][0])
        else:
            streaks[here] = [t, 0]
    return best
