# SPDX-License-Identifier: GPL-2.0-only
"""QEMU's human monitor (HMP) on a Unix socket (run-vm.sh --monitor SOCKET):
one command per connection, so that several tools of a benchmark boot
(capture-stall.py, sample-guest-pc.py) can take turns on the one socket."""
import re
import socket


def monitor(path, command, timeout=10.0):
    """One human-monitor command's answer (between the prompts)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(path)
            buf = b""
            while b"(qemu) " not in buf:
                chunk = s.recv(4096)
                if not chunk:
                    return "(monitor closed the connection)\n"
                buf += chunk
            s.sendall(command.encode() + b"\n")
            buf = b""
            # the echo of the command, its answer, then the next prompt
            while buf.count(b"(qemu) ") < 1:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
    except OSError as e:
        return f"(monitor {path}: {e.strerror or e})\n"
    text = buf.decode(errors="replace").replace("\r", "")
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)	# readline's cursor moves
    # readline echoes the command as it redraws each keystroke: the answer
    # starts after the line that ends with the whole command
    end = text.find(command + "\n")
    if end >= 0:
        text = text[end + len(command) + 1:]
    return text.replace("(qemu) ", "").strip() + "\n"


CPU_HEADER = re.compile(r"^CPU#(\d+)", re.M)
REGISTER = re.compile(r"\b(RIP|RCX|CPL|HLT)=([0-9a-fA-F]+)")


def registers(text):
    """[(cpu, {"RIP": int, "RCX": int, "CPL": int, "HLT": int})] from the answer
    to `info registers -a`."""
    out = []
    heads = list(CPU_HEADER.finditer(text))
    for i, h in enumerate(heads):
        body = text[h.end():heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        regs = {}
        for name, value in REGISTER.findall(body):
            if name not in regs:    # the first: RCX before the segment lines
                regs[name] = int(value, 16) if name in ("RIP", "RCX") else int(value)
        if "RIP" in regs:
            out.append((int(h.group(1)), regs))
    return out
