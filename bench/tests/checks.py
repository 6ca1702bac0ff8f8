"""The bench tests' check(): prints ok/FAIL per condition; done() exits non-zero on a failure."""
import sys

failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1


def done():
    if failures:
        sys.exit(f"{failures} failure(s)")
