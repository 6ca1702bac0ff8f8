# SPDX-License-Identifier: GPL-2.0-only
"""Which runs of scripts/bench count (issue 15, item 4).

A run is rejected only when its test failed (status not PASS), when it has no
host load record, or when the rest of the host used more than OTHER_CPU_MAX
CPU-seconds per wall-second while it ran (bench/sample-host.py). A run
rejected for host load is replaced by an accepted run of the same scenario,
pair number, kernel and group in a later boot (a rerun boot, scheduled by scripts/bench
from host_busy()): the replacement is what is paired, the rejected run stays
in the raw table marked "rerun in <label>". A guest-wide stall (stalled())
does not reject a run: the run is accepted and marked, and the ratios'
verdicts are taken without the stalled runs (targets.compute).

Runs of icount boots are not judged by host load: their guest clock is the
emulated instruction count, which the rest of the host cannot slow down, so
a busy host only makes them take longer.
"""
OTHER_CPU_MAX = 0.30
# A run in which the guest froze (issue 15, item 5): the guest kernel reported an RCU
# stall (a CPU without a quiescent state for 21 s), or a vCPU was sampled at one guest
# kernel instruction for at least STALL_S seconds (data.Run.same_pc_s: the emulated
# `rep stos`/`rep movs` crawl of bench/notes.md). Such runs are counted per condition
# and left out of the ratios' verdicts, which the report also shows with them.
STALL_S = 20.0


def stalled(run):
    return bool(run.rcu_stalls) or (run.same_pc_s is not None and run.same_pc_s >= STALL_S)


def judge(data):
    boot_index = {b.label: i for i, b in enumerate(data.boots)}
    for r in data.runs:
        r.accepted, r.host_busy, r.replaced_by = False, False, None
        r.stalled = stalled(r)
        if r.status != "PASS":
            r.reason = f"test {r.status}"
        elif r.mode == "icount":
            r.reason = ""
            r.accepted = True
        elif r.load is None:
            r.reason = "no host load record"
        elif r.other_per_s() is None or r.other_per_s() > OTHER_CPU_MAX:
            other = r.other_per_s()
            r.reason = ("host busy: " + (f"{other:.2f}" if other is not None else "?") +
                        " CPU-s/s besides QEMU")
            r.host_busy = True
        else:
            r.reason = ""
            r.accepted = True
    for r in data.runs:
        if not r.host_busy:
            continue
        later = [s for s in data.runs if s.accepted and
                 (s.scenario, s.pair, s.kernel, s.group) == (r.scenario, r.pair, r.kernel, r.group) and
                 boot_index[s.boot] > boot_index[r.boot]]
        if later:
            r.replaced_by = later[0].boot
            r.reason += f"; rerun in {r.replaced_by}"


def host_busy(data):
    """(test, kernel, group) of every run rejected for host load without an
    accepted replacement, each once, in the order of the runs; the test is the
    scenario, SCENARIO.2 for the second run of an ABBA block (its rerun keeps
    its pair)."""
    out = []
    for r in data.runs:
        key = (r.test(), r.kernel, r.group)
        if r.host_busy and r.replaced_by is None and key not in out:
            out.append(key)
    return out
