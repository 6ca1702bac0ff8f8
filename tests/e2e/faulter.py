#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Page-fault workload for memcgd tests: touch every page of an anonymous mapping, drop it with
MADV_DONTNEED, repeat. Each touch is a page fault and a memory charge.

usage: faulter.py SECONDS [MIB] [REPORT_FILE]
Prints (and writes to REPORT_FILE) the pages touched per second. SECONDS may be 'inf'."""
import mmap
import sys
import time

seconds = float(sys.argv[1])
size = int(sys.argv[2] if len(sys.argv) > 2 else 64) << 20
report = sys.argv[3] if len(sys.argv) > 3 else None
page = mmap.PAGESIZE
m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
# one fault per 4 KiB page: with transparent huge pages a fault would map 2 MiB at once
m.madvise(mmap.MADV_NOHUGEPAGE)
start = time.monotonic()
end = start + seconds
touched = 0
chunk = 8 * page  # check the clock every 8 pages: stays on time even when throttled
while time.monotonic() < end:
    for base in range(0, size, chunk):
        for off in range(base, min(base + chunk, size), page):
            m[off] = 1
        touched += min(chunk, size - base) // page
        if time.monotonic() >= end:
            break
    m.madvise(mmap.MADV_DONTNEED)
elapsed = time.monotonic() - start
rate = touched / elapsed
print(f"{rate:.0f}")
if report:
    with open(report, "w") as f:
        f.write(f"{rate:.0f}\n")
