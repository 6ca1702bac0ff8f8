#!/bin/bash
# Harness self-test in a real boot: the guest runs tests/vm/harness/, whose
# tests pass, skip, fail, time out and write a kernel WARNING. run-vm.sh
# must exit non-zero and name each failure; the passing and skipped tests
# must be reported as such.
#
# usage: vm-selftest.sh [run-vm.sh options, e.g. --kernel KDIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

rc=0
"$here/../run-vm.sh" --label selftest --no-payload --tests 'harness/*' --timeout 900 "$@" >"$out" 2>&1 || rc=$?

fail=0
expect() {	# expect DESCRIPTION EXTENDED_REGEX
	if grep -qE -- "$2" "$out"; then
		echo "ok   $1"
	else
		echo "FAIL $1: no line matching /$2/"
		fail=1
	fi
}
if ((rc == 0)); then
	echo "FAIL run-vm.sh exited 0 for a boot with failing tests and a kernel WARNING"
	fail=1
else
	echo "ok   run-vm.sh exited $rc"
fi
expect "passing test reported" '^PASS harness/pass '
expect "skipped test reported with its reason" '^SKIP harness/skip: harness self-test: skipped on purpose$'
expect "failing test named" '^FAIL harness/fail .*exit status 1'
expect "failing test output shown" '^    harness self-test: failing on purpose \(marker 5f3a\)$'
expect "timed-out test named" '^FAIL harness/timeout .*timed out after 3s'
expect "kernel WARNING fails the run" '^FAIL selftest/kernel-log: kernel error report'
expect "kernel WARNING shown" 'WARNING: memcgd harness self-test'
expect "guest kernel verified" '^PASS selftest/kernel-identity '
if ((fail)); then
	echo "--- run-vm.sh output (exit $rc) ---"
	cat "$out"
fi
exit "$fail"
