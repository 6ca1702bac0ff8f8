#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of bench/sample-guest-pc.py: a stand-in for QEMU whose human
monitor answers `info registers -a` as QEMU 7.2 does for two vCPUs (the
first in user space, the second halted) is sampled until it exits: a row per
vCPU per sample with the instruction pointer, privilege level, halt flag and
count register of the answer.
usage: test-sample-guest-pc.py SAMPLER"""
import os
import subprocess
import sys
import tempfile

sampler = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done  # noqa: E402

STAND_IN = r"""
import socket, sys, threading, time
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sys.argv[1])
srv.listen(4)
REGS = ("\r\nCPU#0\r\n"
        "RAX=0000000000000000 RBX=0000000000000000 RCX=0000000000000c2b RDX=0000000000000000\r\n"
        "RIP=0000555fe76c3365 RFL=00000246 [---Z-P-] CPL=3 II=0 A20=1 SMM=0 HLT=0\r\n"
        "CS =0033 0000000000000000 ffffffff 00a0fb00 DPL=3 CS64 [-RA]\r\n"
        "\r\nCPU#1\r\n"
        "RAX=0000000000000000 RBX=0000000000000000 RCX=000000000000001f RDX=0000000000000000\r\n"
        "RIP=ffffffff814f5f0d RFL=00000246 [---Z-P-] CPL=0 II=0 A20=1 SMM=0 HLT=1\r\n")
def serve():
    while True:
        c, _ = srv.accept()
        c.sendall(b"QEMU 7.2.0 monitor - type 'help' for more information\r\n(qemu) ")
        cmd = c.recv(100).decode().strip()
        answer = REGS if cmd == "info registers -a" else "unknown command\r\n"
        # readline's redraw of the command as typed, then the answer and the prompt
        c.sendall(b"i\x1b[K\x1b[Din\x1b[K" + cmd.encode() + b"\x1b[K\r\n" + answer.encode() + b"(qemu) ")
        c.close()
threading.Thread(target=serve, daemon=True).start()
time.sleep(2)
"""

with tempfile.TemporaryDirectory() as tmp:
    sock = os.path.join(tmp, "monitor.sock")
    qemu = subprocess.Popen([sys.executable, "-c", STAND_IN, sock])
    out = os.path.join(tmp, "pc.tsv")
    p = subprocess.run([sampler, str(qemu.pid), sock, out, "0.2"], capture_output=True, text=True, timeout=30)
    qemu.wait()
    check(p.returncode == 0, f"the sampler ends with its process: {p.returncode} {p.stderr!r}")
    rows = [line.rstrip("\n").split("\t") for line in open(out)]
    check(rows[0] == ["t_s", "cpu", "rip", "cpl", "hlt", "rcx"], f"the header: {rows[0]}")
    cpu0 = [r for r in rows[1:] if r[1] == "0"]
    cpu1 = [r for r in rows[1:] if r[1] == "1"]
    check(len(cpu0) >= 5 and len(cpu0) == len(cpu1), f"a row per vCPU per sample: {len(cpu0)}, {len(cpu1)}")
    if cpu0 and cpu1:
        check(cpu0[0][2:] == ["0000555fe76c3365", "3", "0", "0000000000000c2b"],
              f"vCPU 0: user-space RIP, CPL 3, running, RCX: {cpu0[0]}")
        check(cpu1[0][2:] == ["ffffffff814f5f0d", "0", "1", "000000000000001f"],
              f"vCPU 1: kernel RIP, halted: {cpu1[0]}")
    p = subprocess.run([sampler, "999999999", sock, out], capture_output=True, text=True, timeout=30)
    check(p.returncode != 0 and "no process 999999999" in p.stderr, f"a missing QEMU is named: {p.stderr.strip()!r}")
done()
