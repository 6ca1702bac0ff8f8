#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of bench/sample-qemu-threads.py: a stand-in for QEMU (two
threads, a /dev/shm "swap disk" named by file= on its command line) is
sampled until it exits: one row per thread per sample with the thread's
name and state, and host rows with the file's allocated size.
usage: test-sample-threads.py SAMPLER"""
import os
import subprocess
import sys
import tempfile

sampler = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done  # noqa: E402

STAND_IN = """
import sys, threading, time
t = threading.Thread(target=time.sleep, args=(1.5,), name="worker")
t.start()
t.join()
"""

with tempfile.NamedTemporaryFile(dir="/dev/shm", prefix="memcgd-test-swap.") as swap, \
        tempfile.TemporaryDirectory() as tmp:
    swap.write(b"x" * 8192)
    swap.flush()
    qemu = subprocess.Popen([sys.executable, "-c", STAND_IN, f"file={swap.name},format=raw"])
    out = os.path.join(tmp, "threads.tsv")
    p = subprocess.run([sampler, str(qemu.pid), out, "0.2"], capture_output=True, text=True, timeout=30)
    qemu.wait()
    check(p.returncode == 0, f"the sampler ends with its process: {p.returncode} {p.stderr!r}")
    rows = [line.rstrip("\n").split("\t") for line in open(out)]
    check(rows[0] == ["t_s", "kind", "id", "name", "state", "wchan", "cpu_ticks", "extra"], "the header")
    threads = [r for r in rows[1:] if r[1] == "thread"]
    hosts = [r for r in rows[1:] if r[1] == "host"]
    check(len(hosts) >= 5, f"a host row per sample over 1.5 s at 0.2 s: {len(hosts)}")
    tids = {r[2] for r in threads}
    check(len(tids) >= 2, f"both threads of the stand-in sampled: {sorted(tids)}")
    check(any(r[4] == "S" for r in threads), "a sleeping thread shows state S")
    check(all(r[6].isdigit() for r in threads), "cpu ticks are counts")
    check(all("swap_bytes=8192" in r[7] for r in hosts),
          f"the /dev/shm file from file= is measured: {hosts[0][7] if hosts else None!r}")
    check(all("psi_some=" in r[7] and "psi_full=" in r[7] for r in hosts), "memory pressure columns")

    bad = subprocess.run([sampler, "999999999", os.path.join(tmp, "x.tsv")], capture_output=True, text=True)
    check(bad.returncode != 0 and "no process 999999999" in bad.stderr, "a missing process is named")
done()
