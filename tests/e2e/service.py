#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""A latency service for memcgd's tests: it makes MIB of anonymous memory resident, then serves
"requests" by reading RATE random pages of it per second (a sliver of CPU, no page faults while
the memory stays resident). SIGUSR1 pauses it (idle: no CPU, no faults), SIGUSR2 resumes it.

usage: service.py MIB RATE READY_FILE
READY_FILE is written once the memory is resident."""
import mmap
import random
import signal
import sys
import time

size = int(sys.argv[1]) << 20
rate = int(sys.argv[2])
ready = sys.argv[3]
page = mmap.PAGESIZE
m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
m.madvise(mmap.MADV_NOHUGEPAGE)
for off in range(0, size, page):
    m[off] = 1
with open(ready, "w") as f:
    f.write("ready\n")
paused = False


def pause(_sig, _frame):
    global paused
    paused = True


def resume(_sig, _frame):
    global paused
    paused = False


signal.signal(signal.SIGUSR1, pause)
signal.signal(signal.SIGUSR2, resume)
pages = size // page
rng = random.Random(1)
tick = 0.1
while True:
    if paused:
        signal.pause()
        continue
    start = time.monotonic()
    for _ in range(max(1, int(rate * tick))):
        _ = m[rng.randrange(pages) * page]
    time.sleep(max(0.0, tick - (time.monotonic() - start)))
