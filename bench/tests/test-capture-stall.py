#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of bench/capture-stall.py: a stand-in for QEMU (a process with a
human-monitor socket that prompts "(qemu) " and answers `info jit`) writes a
console log; an ordinary line captures nothing, each RCU stall line up to MAX
gives a stall-N.txt with the line, the stand-in's threads, the monitor's
answer and a gdb backtrace (or says gdb is missing); the capturer exits with
the stand-in.
usage: test-capture-stall.py CAPTURER"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

capturer = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done  # noqa: E402

STAND_IN = r"""
import os, socket, sys, threading, time
sock_path, console, lines = sys.argv[1], sys.argv[2], sys.argv[3:]
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sock_path)
srv.listen(4)
def serve():
    while True:
        c, _ = srv.accept()
        c.sendall(b"QEMU 7.2.0 monitor - type 'help' for more information\r\n(qemu) ")
        cmd = c.recv(100).decode().strip()
        answer = "Translation buffer state:\r\nTB count            4242\r\n" if cmd == "info jit" else "unknown command\r\n"
        c.sendall(b"\x1b[K" + cmd.encode() + b"\r\n" + answer.encode() + b"(qemu) ")
        c.close()
threading.Thread(target=serve, daemon=True, name="monitor").start()
def spin():     # a vCPU that runs: something for perf to sample
    while True:
        sum(range(1000))
threading.Thread(target=spin, daemon=True, name="vcpu").start()
time.sleep(1)
with open(console, "a") as f:
    for line in lines:
        f.write(line + "\n")
        f.flush()
        time.sleep(0.3)
time.sleep(float(os.environ.get("STAND_IN_LINGER", "6")))
"""

STALL_LINES = [
    "[   61.204001] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
    "[  122.500112] rcu: INFO: rcu_preempt self-detected stall on CPU",
    "[  190.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
]

with tempfile.TemporaryDirectory() as tmp:
    sock = os.path.join(tmp, "monitor.sock")
    console = os.path.join(tmp, "console.log")
    out_dir = os.path.join(tmp, "stalls")
    open(console, "w").close()
    lines = ["[    1.000000] Linux version 6.12.118", "[    2.000000] rcu: Hierarchical RCU implementation."] \
        + STALL_LINES
    # long enough for two captures of a 3-s perf profile and a gdb attach each
    qemu = subprocess.Popen([sys.executable, "-c", STAND_IN, sock, console] + lines,
                            env=dict(os.environ, STAND_IN_LINGER="14"))
    start = time.monotonic()
    p = subprocess.run([capturer, str(qemu.pid), console, sock, out_dir, "2"],
                       capture_output=True, text=True, timeout=240)
    qemu.wait()
    check(p.returncode == 0, f"the capturer ends with its process: {p.returncode} {p.stderr!r}")
    files = sorted(os.listdir(out_dir)) if os.path.isdir(out_dir) else []
    check(files == ["stall-1.txt", "stall-2.txt"],
          f"two stall lines captured, the third over MAX=2 not, the ordinary RCU line not: {files}")
    first = open(os.path.join(out_dir, "stall-1.txt")).read() if files else ""
    second = open(os.path.join(out_dir, "stall-2.txt")).read() if len(files) > 1 else ""
    check(STALL_LINES[0] in first and STALL_LINES[1] in second, "each file quotes its console line")
    check(f"\n{qemu.pid} python" in first, "the stand-in's main thread is listed")
    listed = [line for line in first.split("## info jit")[0].splitlines() if " state=" in line]
    check(len(listed) >= 2 and all(" wchan=" in line for line in listed),
          f"both its threads, with state and wait channel: {listed}")
    check("TB count            4242" in first, f"info jit from the monitor socket: {first[first.find('## info jit'):][:200]!r}")
    check("unknown command" not in first and "(qemu)" not in first.split("## info jit")[1].split("## gdb")[0],
          "only the answer, without prompt or echo")
    if shutil.which("gdb"):
        check("Thread" in first.split("## gdb")[1], "gdb's backtrace of every thread")
    else:
        check("(gdb not installed)" in first, "a missing gdb is said")

    perf_part = first.split("## perf")[1].split("## info jit, 3 s")[0] if "## perf" in first else ""
    if shutil.which("perf") and os.geteuid() == 0:
        check("python" in perf_part, f"perf's profile names the stand-in's threads: {perf_part[:300]!r}")
    else:
        check("(perf" in perf_part, f"perf missing or not permitted is said: {perf_part[:200]!r}")
    check("## info jit, 3 s after the first" in first and first.count("TB count            4242") == 2,
          "info jit again after the profile")

    bad = subprocess.run([capturer, "999999999", console, sock, out_dir], capture_output=True, text=True)
    check(bad.returncode != 0 and "no process 999999999" in bad.stderr, "a missing process is named")
done()
