#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Host test of the benchmark workload tool and of the guest library's rate
# computation: progress logs are well formed, rates are what the log says,
# bad arguments fail with a message naming the option.
# usage: test-workload.sh MEMCGD_BENCH BENCH_LIB
set -uo pipefail
bench=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# writer: a line per second, time and MiB never decrease, ends at --seconds
out=$("$bench" writer --mib 8 --seconds 2.5 --log "$tmp/w.log") || fail "writer exited $?"
lines=$(wc -l <"$tmp/w.log")
((lines >= 4)) && ok "writer logged $lines lines" || fail "writer logged $lines lines, want >= 4"
awk 'NR > 1 && ($1 < t || $2 < u) { bad = 1 } { t = $1; u = $2 } END { exit bad }' "$tmp/w.log" &&
	ok "writer log is monotonic" || fail "writer log goes backwards: $(cat "$tmp/w.log")"
last=$(tail -n 1 "$tmp/w.log")
awk -v l="$last" 'BEGIN { split(l, a, " "); exit !(a[1] >= 2.5 && a[1] < 3.5 && a[2] > 0) }' &&
	ok "writer ran 2.5 s and wrote MiB ($last)" || fail "writer's last line '$last'"
[[ "$out" =~ ^writer:\ ([0-9]+)\ MiB ]] && [[ "${BASH_REMATCH[1]}" == "$(awk '{ u = $2 } END { print u }' "$tmp/w.log")" ]] &&
	ok "writer summary matches its log" || fail "writer summary '$out' vs log '$last'"

# holder: fills, creates the ready file, exits after --seconds
"$bench" holder --mib 4 --fill pattern --ready "$tmp/ready" --seconds 0.2 >/dev/null &&
	[[ -e "$tmp/ready" ]] && ok "holder announced ready" || fail "holder did not create its ready file"

# faults and charge report positive rates; charge leaves no file behind
out=$("$bench" faults --mib 4 --seconds 0.5) && [[ "$out" =~ ([0-9]+)\ faults/s$ ]] && ((BASH_REMATCH[1] > 0)) &&
	ok "faults: $out" || fail "faults printed '$out'"
mkdir "$tmp/shm"
out=$("$bench" charge --dir "$tmp/shm" --mib 4 --seconds 0.5) && [[ "$out" =~ ([0-9.]+)\ MiB/s$ ]] &&
	[[ -z "$(ls -A "$tmp/shm")" ]] && ok "charge: $out" || fail "charge printed '$out' or left files: $(ls -A "$tmp/shm")"

# bad arguments: exit 2 (1 for a runtime failure) and name what is wrong
expect_error() {	# expect_error STATUS PATTERN ARGS...
	local want=$1 pattern=$2 rc
	shift 2
	err=$("$bench" "$@" 2>&1 >/dev/null)
	rc=$?
	if ((rc == want)) && [[ "$err" == *"$pattern"* ]]; then
		ok "'$*' -> $rc: $err"
	else
		fail "'$*' -> exit $rc, message '$err' (want $want and '$pattern')"
	fi
}
expect_error 2 "--mib wants" writer --mib 0
expect_error 2 "--mib wants" writer --mib 12abc
expect_error 2 "--mib wants" writer --mib -5
expect_error 2 "--seconds wants" faults --seconds -1
expect_error 2 "--seconds wants" faults --seconds nan
expect_error 2 "--fill wants" holder --fill ones
expect_error 2 "unknown or incomplete option '--bogus'" writer --bogus
expect_error 2 "unexpected argument 'extra'" writer extra
expect_error 2 "unknown command 'spin'" spin
expect_error 1 "--dir is required" charge --mib 1
expect_error 1 "cannot create a file in $tmp/missing" charge --dir "$tmp/missing" --mib 1
expect_error 1 "cannot write $tmp/missing/log" writer --mib 1 --log "$tmp/missing/log"

# window_rate of the guest library: the rate over the last WINDOW seconds,
# interpolated where the window starts between two log lines
# shellcheck source=../guest/bench-lib.sh
rate_of() {	# rate_of WINDOW <<< log
	cat >"$tmp/rate.log"
	(source "$lib"; WINDOW=$1; window_rate "$tmp/rate.log")
}
check_rate() {	# check_rate WANT WINDOW <<< log
	local got
	got=$(rate_of "$2")
	[[ "$got" == "$1" ]] && ok "window_rate $2 s -> $got" || fail "window_rate $2 s -> '$got', want $1"
}
seq 0 50 | awk '{ print $1 ".000", 10 * $1 }' | check_rate 10.00 20
# a stall from 10 s to 40 s: the window 30-50 starts inside it
printf '0.000 0\n10.000 100\n40.000 100\n50.000 200\n' | check_rate 5.00 20
# the window covers the whole run
printf '0.000 0\n1.000 30\n2.000 60\n' | check_rate 30.00 20
printf '0.000 0\n' | check_rate 0 20

((failures == 0)) || { echo "$failures failure(s)"; exit 1; }
echo "all workload checks passed"
