#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Host test of the benchmark workload tool and of the guest library's rate
# computation: progress logs are well formed, rates are what the log says,
# the latency generator keeps its rate and times requests from their
# scheduled start (a stopped process shows in its percentiles), the NUMA
# workload reports its placement and passes on a host run (CPU 0 only), the
# probe's Zipf page choice touches fewer distinct pages than the uniform one
# and --periods runs busy and idle periods in turn, bad
# arguments fail with a message naming the option.
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

# writer --work: stops at exactly W MiB and says so; cut off at --seconds otherwise
out=$("$bench" writer --mib 8 --work 100 --seconds 60) &&
	[[ "$out" == *"writer: 100 MiB in "* && "$out" == *"writer: work of 100 MiB finished in "* ]] &&
	ok "writer --work 100 stops at 100 MiB" || fail "writer --work 100 printed '$out'"
out=$("$bench" writer --mib 8 --work 1000000 --seconds 0.3) &&
	[[ "$out" =~ work\ of\ 1000000\ MiB\ not\ finished:\ [0-9]+\ MiB\ in\ 0\.[3-9] ]] &&
	ok "writer --work cut off at --seconds" || fail "writer --work cut off printed '$out'"

# latency: metric VALUE of a summary ("latency METRIC VALUE UNIT" lines)
metric() { awk -v m="$1" '$1 == "latency" && $2 == m { print $3 }' "$2"; }
# nearest-rank percentile NUM/DEN of the "run" latencies in a --latencies file
file_pct() { awk -v ph="$2" '$1 == ph { print $3 }' "$1" | sort -g |
	awk -v num="$3" -v den="$4" '{ v[NR] = $1 } END { r = int((NR * num + den - 1) / den); printf "%.3f\n", v[r < 1 ? 1 : r] }'; }
t0=$(date +%s%N)
"$bench" latency --mib 16 --seconds 2 --rate 200 --pages 4 --latencies "$tmp/lat.txt" --log "$tmp/lat.log" \
	>"$tmp/lat.out" || fail "latency exited $?"
t1=$(date +%s%N)
n=$(metric requests "$tmp/lat.out")
[[ "$n" == 400 ]] && ok "latency: 2 s at 200/s scheduled 400 requests" || fail "latency scheduled '$n' requests, want 400"
awk -v r="$(metric rate "$tmp/lat.out")" 'BEGIN { exit !(r >= 180 && r <= 220) }' &&
	ok "latency reports its rate as requested: $(metric rate "$tmp/lat.out") req/s" ||
	fail "latency rate '$(metric rate "$tmp/lat.out")', want 200 +- 10%"
# paced, not as fast as it can: 400 requests at 200/s take about 2 s of wall time
(( (t1 - t0) / 1000000 >= 1900 && (t1 - t0) / 1000000 < 10000 )) && ok "latency took $(( (t1 - t0) / 1000000 )) ms" ||
	fail "latency took $(( (t1 - t0) / 1000000 )) ms for a 2-s schedule"
awk -v a="$(metric p50 "$tmp/lat.out")" -v b="$(metric p99 "$tmp/lat.out")" -v c="$(metric p999 "$tmp/lat.out")" \
	-v d="$(metric max "$tmp/lat.out")" 'BEGIN { exit !(a >= 0 && a <= b && b <= c && c <= d) }' &&
	ok "latency percentiles are ordered" || fail "latency percentiles: $(cat "$tmp/lat.out")"
[[ "$(grep -c '^run ' "$tmp/lat.txt")" == 400 ]] && ok "--latencies has a line per request" ||
	fail "--latencies has $(grep -c '^run ' "$tmp/lat.txt") run lines, want 400"
awk '$1 == "run" { if ($2 != sprintf("%.6f", (NR - 1) * 0.005)) bad = 1 } END { exit bad }' "$tmp/lat.txt" &&
	ok "--latencies: request i scheduled at i / rate" || fail "--latencies schedule: $(head -3 "$tmp/lat.txt")"
for p in "p50 1 2" "p99 99 100" "p999 999 1000" "max 1 1"; do
	set -- $p
	want=$(file_pct "$tmp/lat.txt" run "$2" "$3")
	[[ "$(metric "$1" "$tmp/lat.out")" == "$want" ]] && ok "latency $1 is the nearest rank of its latencies ($want ms)" ||
		fail "latency $1 '$(metric "$1" "$tmp/lat.out")', its latencies say '$want'"
done
over=$(awk '$1 == "run" && $3 > 50 { n++ } END { print n + 0 }' "$tmp/lat.txt")
[[ "$(metric over_50ms "$tmp/lat.out")" == "$over" ]] && ok "latency over_50ms matches its latencies ($over)" ||
	fail "latency over_50ms '$(metric over_50ms "$tmp/lat.out")', its latencies say $over"
awk 'NR > 1 && ($1 < t || $2 < u) { bad = 1 } { t = $1; u = $2 } END { exit bad || u != 400 }' "$tmp/lat.log" &&
	ok "latency --log counts its requests" || fail "latency --log: $(tail -2 "$tmp/lat.log")"

# Open loop: the process stopped for 300 ms mid-run. Every request due during
# the stop is late by what was left of it (~60 requests at 200/s, 0-300 ms),
# so p99 of 600 requests is well over 100 ms. A closed-loop generator, timing
# each request from when it actually started, would see one slow request and
# a p99 of a fraction of a millisecond.
"$bench" latency --mib 16 --seconds 3 --rate 200 >"$tmp/stop.out" &
pid=$!
sleep 1
kill -STOP "$pid"
sleep 0.3
kill -CONT "$pid"
wait "$pid" || fail "latency (stopped) exited $?"
awk -v p99="$(metric p99 "$tmp/stop.out")" -v max="$(metric max "$tmp/stop.out")" -v over="$(metric over_50ms "$tmp/stop.out")" \
	'BEGIN { exit !(max >= 250 && p99 >= 100 && over >= 20) }' &&
	ok "a 300-ms stop shows: max $(metric max "$tmp/stop.out") ms, p99 $(metric p99 "$tmp/stop.out") ms, $(metric over_50ms "$tmp/stop.out") over 50 ms" ||
	fail "a 300-ms stop is hidden: $(tr '\n' ' ' <"$tmp/stop.out")"

# SIGUSR1 ends the warm-up: the measured run starts then, and lasts --seconds
t0=$(date +%s%N)
"$bench" latency --mib 4 --warm-up 100 --seconds 0.5 >"$tmp/usr1.out" &
pid=$!
sleep 0.5
kill -USR1 "$pid"
wait "$pid" && (( $(metric warm_requests "$tmp/usr1.out") > 0 )) && [[ "$(metric requests "$tmp/usr1.out")" == 100 ]] &&
	(( ($(date +%s%N) - t0) / 1000000000 < 20 )) &&
	ok "SIGUSR1 ended the warm-up after $(metric warm_requests "$tmp/usr1.out") requests, then 100 more" ||
	fail "latency after SIGUSR1: $(tr '\n' ' ' <"$tmp/usr1.out")"

# --seconds 0 runs until SIGTERM, then reports what it did
"$bench" latency --mib 4 --seconds 0 >"$tmp/term.out" &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid" && (( $(metric requests "$tmp/term.out") > 0 )) && [[ -n "$(metric p99 "$tmp/term.out")" ]] &&
	ok "latency until SIGTERM: $(metric requests "$tmp/term.out") requests" || fail "latency after SIGTERM: $(cat "$tmp/term.out")"

# the warm-up and wake-up phases: reported and logged apart from the run
"$bench" latency --mib 4 --warm-up 0.1 --seconds 0.2 --idle 0.3 --wake 20 --ready "$tmp/lat.ready" \
	--latencies "$tmp/wake.txt" >"$tmp/wake.out" || fail "latency --wake exited $?"
[[ -e "$tmp/lat.ready" && "$(metric warm_requests "$tmp/wake.out")" == 20 && "$(metric requests "$tmp/wake.out")" == 40 &&
	"$(metric wake_requests "$tmp/wake.out")" == 20 && -n "$(metric wake_p99 "$tmp/wake.out")" &&
	"$(grep -c '^warm ' "$tmp/wake.txt")" == 20 && "$(grep -c '^wake ' "$tmp/wake.txt")" == 20 ]] &&
	ok "latency --warm-up 0.1 --seconds 0.2 --wake 20: 20, 40, idle, 20 more" ||
	fail "latency --warm-up/--wake: $(tr '\n' ' ' <"$tmp/wake.out")"

# --zipf: the same requests touch far fewer distinct pages than uniform ones (4096
# pages, 2000 touches: uniform about 4096 * (1 - e^-0.49) = 1590), the same seed
# the same pages, and --zipf 0 is the uniform choice
for z in none 0 0.99; do
	zipf=()
	[[ "$z" == none ]] || zipf=(--zipf "$z")
	"$bench" latency --mib 16 --seconds 1 --rate 500 --pages 4 ${zipf[@]+"${zipf[@]}"} >"$tmp/zipf-$z.out" ||
		fail "latency --zipf $z exited $?"
done
uni=$(metric touched_pages "$tmp/zipf-none.out") zero=$(metric touched_pages "$tmp/zipf-0.out") skew=$(metric touched_pages "$tmp/zipf-0.99.out")
[[ "$(metric requests "$tmp/zipf-0.99.out")" == 500 && -n "$uni" && -n "$skew" ]] && ((uni > 1400 && uni < 1800 && skew * 3 < uni * 2)) &&
	ok "latency --zipf 0.99 touched $skew distinct pages, uniform $uni" ||
	fail "latency --zipf: touched $skew (zipf 0.99) vs $uni (uniform): $(tr '\n' ' ' <"$tmp/zipf-0.99.out")"
[[ "$zero" == "$uni" ]] && ok "latency --zipf 0 is the uniform choice ($zero pages)" || fail "latency --zipf 0 touched $zero, uniform $uni"
"$bench" latency --mib 16 --seconds 1 --rate 500 --pages 4 --zipf 0.99 >"$tmp/zipf-again.out" || fail "latency --zipf again exited $?"
[[ "$(metric touched_pages "$tmp/zipf-again.out")" == "$skew" ]] && ok "latency --zipf: the same seed, the same pages" ||
	fail "latency --zipf twice: $skew then $(metric touched_pages "$tmp/zipf-again.out") pages"

# --periods: busy 0.2 s, idle 0.3 s, repeated within 1 s: two busy periods of 40
# requests at 200/s, scheduled from 0 and 0.5 s; --wake 5 counts the first 5
# after the gap (wake_*), which are in the run's 80 too
"$bench" latency --mib 4 --seconds 1 --rate 200 --periods 0.2,0.3 --wake 5 --latencies "$tmp/onoff.txt" \
	>"$tmp/onoff.out" || fail "latency --periods exited $?"
sched=$(awk '$1 == "run" { print $2 }' "$tmp/onoff.txt" | sort -n | awk 'NR == 40 || NR == 41 { printf "%s ", $1 }')
[[ "$(metric requests "$tmp/onoff.out")" == 80 && "$(metric wake_requests "$tmp/onoff.out")" == 5 &&
	"$(grep -c '^run ' "$tmp/onoff.txt")" == 80 && "$(grep -c '^wake ' "$tmp/onoff.txt")" == 5 ]] &&
	awk -v s="$sched" 'BEGIN { split(s, a, " "); exit !(a[1] < 0.2 && a[2] >= 0.5 && a[2] < 0.51) }' &&
	ok "latency --periods 0.2,0.3 in 1 s: 40 + 40 requests, the second 40 from 0.5 s, 5 after the gap" ||
	fail "latency --periods: $(tr '\n' ' ' <"$tmp/onoff.out"), run's 40th and 41st scheduled at $sched"

# numa: first touch and run on CPU 0, so every page is local from the start
# (on a one-node host also on node 0); the log's passes grow at the rate
# reported. No BPF, no root: move_pages(2) only queries the process's own pages.
numa_metric() { awk -v m="$1" '$1 == "numa" && $2 == m { print $3 }' "$2"; }
if "$bench" numa --mib 8 --first-cpu 0 --run-cpu 0 --seconds 2 --log "$tmp/numa.log" >"$tmp/numa.out" 2>"$tmp/numa.err"; then
	[[ "$(numa_metric local_share "$tmp/numa.out")" == 1.0000 && "$(numa_metric seconds_to_90 "$tmp/numa.out")" == 0.000 ]] &&
		ok "numa on CPU 0 only: local share 1.0000 from the start" || fail "numa on CPU 0 only: $(tr '\n' ' ' <"$tmp/numa.out")"
	node0=$(numa_metric first_node "$tmp/numa.out")
	[[ "$(numa_metric "first_node${node0}_share" "$tmp/numa.out")" == 1.0000 ]] &&
		ok "numa: every page first touched on CPU 0's node $node0" || fail "numa first touch: $(tr '\n' ' ' <"$tmp/numa.out")"
	if [[ ! -e /sys/devices/system/node/node1 ]]; then
		[[ "$(numa_metric first_node0_share "$tmp/numa.out")" == 1.0000 && -z "$(numa_metric first_node1_share "$tmp/numa.out")" ]] &&
			ok "numa on a one-node host: first_node0_share 1.0000, no node 1" ||
			fail "numa on a one-node host: $(tr '\n' ' ' <"$tmp/numa.out")"
	else
		echo "note: a host with several NUMA nodes: first_node0_share not checked"
	fi
	[[ "$(numa_metric pages "$tmp/numa.out")" == $((8 * 1048576 / $(getconf PAGESIZE))) ]] &&
		ok "numa: 8 MiB are $(numa_metric pages "$tmp/numa.out") pages" || fail "numa pages: $(numa_metric pages "$tmp/numa.out")"
	# '<seconds> <share> <passes>': t = 0 first, about one line a second, the last at the end (2 s)
	awk 'NF != 3 || $2 != "1.0000" || (NR > 1 && ($1 < t || $3 < p)) { bad = 1 } { t = $1; p = $3 }
		END { exit bad || NR < 3 || NR > 5 || t < 2 || t > 3 || p <= 0 }' "$tmp/numa.log" &&
		ok "numa log: $(wc -l <"$tmp/numa.log") lines of seconds, local share, passes" || fail "numa log: $(tr '\n' ';' <"$tmp/numa.log")"
	awk -v r="$(numa_metric passes_per_s "$tmp/numa.out")" '{ t = $1; p = $3 } END { exit !(r > 0 && p / t > 0.99 * r && p / t < 1.01 * r) }' \
		"$tmp/numa.log" && ok "numa passes_per_s $(numa_metric passes_per_s "$tmp/numa.out") is what its log says" ||
		fail "numa passes_per_s '$(numa_metric passes_per_s "$tmp/numa.out")' vs log '$(tail -n 1 "$tmp/numa.log")'"
elif grep -q 'move_pages(2) query .*(a kernel without CONFIG_NUMA\|refused' "$tmp/numa.err"; then
	echo "skip: numa cannot query page placement here: $(cat "$tmp/numa.err")"
else
	fail "numa exited non-zero: $(cat "$tmp/numa.err")"
fi

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
expect_error 2 "option '--rate' does not apply to writer" writer --rate 5
expect_error 2 "option '--work' does not apply to holder" holder --work 5
expect_error 2 "--rate wants requests per second" latency --rate 0
expect_error 2 "--pages wants a whole number in 1..65536" latency --pages 0
expect_error 2 "--over-ms wants milliseconds" latency --over-ms -3
expect_error 2 "--wake wants a whole number" latency --wake x
expect_error 2 "--work wants a whole number of MiB" writer --work 0
expect_error 1 "--wake needs --seconds > 0" latency --mib 1 --seconds 0 --wake 5
expect_error 1 "--idle needs --wake" latency --mib 1 --idle 5
expect_error 2 "--zipf wants an exponent in 0..10" latency --zipf -1
expect_error 2 "option '--zipf' does not apply to writer" writer --zipf 1
expect_error 1 "--periods wants BUSY,IDLE" latency --mib 1 --seconds 1 --periods 0.2
expect_error 1 "--periods wants BUSY,IDLE" latency --mib 1 --seconds 1 --periods 0,1
expect_error 1 "--periods wants BUSY,IDLE" latency --mib 1 --seconds 1 --periods 1,2,
expect_error 1 "--periods needs --seconds > 0" latency --mib 1 --seconds 0 --periods 1,2
expect_error 1 "--idle does not apply with --periods" latency --mib 1 --seconds 1 --periods 1,1 --idle 1 --wake 2
expect_error 1 "cannot write --latencies $tmp/missing/l" latency --mib 1 --seconds 0.1 --latencies "$tmp/missing/l"
expect_error 1 "--dir is required" charge --mib 1
expect_error 1 "cannot create a file in $tmp/missing" charge --dir "$tmp/missing" --mib 1
expect_error 1 "cannot write $tmp/missing/log" writer --mib 1 --log "$tmp/missing/log"
expect_error 2 "--first-cpu wants a whole number in 0..1023" numa --first-cpu 1024
expect_error 2 "--run-cpu wants a whole number in 0..1023" numa --run-cpu -1
expect_error 2 "option '--run-cpu' does not apply to writer" writer --run-cpu 0
expect_error 1 "--run-cpu is required" numa --mib 1 --first-cpu 0
expect_error 1 "--first-cpu is required" numa --mib 1 --run-cpu 0
expect_error 1 "--seconds must be more than 0" numa --mib 1 --first-cpu 0 --run-cpu 0 --seconds 0
expect_error 1 "cannot run on CPU 1023 (--first-cpu)" numa --mib 1 --first-cpu 1023 --run-cpu 0
expect_error 1 "cannot run on CPU 1023 (--run-cpu)" numa --mib 1 --first-cpu 0 --run-cpu 1023 --seconds 1

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

# probe_histogram: log buckets (10 per decade from 0.01 ms) per phase; every
# latency in the first bucket whose upper bound is at least it
printf 'warm 0.0 0.005\nrun 0.0 0.05\nrun 0.005 1.000\nrun 0.010 1.001\nrun 0.015 1.000\n' >"$tmp/h.lat"
got=$(source "$lib"; probe_histogram L1-x "$tmp/h.lat" | tr '\n' ';')
want="BENCH hist L1-x high_run 0.0501187 1;BENCH hist L1-x high_run 1 2;BENCH hist L1-x high_run 1.25893 1;BENCH hist L1-x high_warm 0.01 1;"
[[ "$got" == "$want" ]] && ok "probe_histogram buckets" || fail "probe_histogram: '$got', want '$want'"
(source "$lib"; probe_histogram L1-x "$tmp/lat.txt") | awk -v n="$(grep -c '^run ' "$tmp/lat.txt")" \
	'$4 == "high_run" { c += $6 } END { exit c != n }' && ok "probe_histogram counts every request once" ||
	fail "probe_histogram of $tmp/lat.txt does not add up"
printf '0.000 0\n2.000 10\n4.000 30\n' >"$tmp/m.log"
got=$(source "$lib"; mean_rate "$tmp/m.log")
[[ "$got" == 7.50 ]] && ok "mean_rate 30 MiB in 4 s -> $got" || fail "mean_rate -> '$got', want 7.50"
printf 'latency requests 400 requests\nlatency p99 1.500 ms\nlatency wake_p99 30.000 ms\nnoise\n' >"$tmp/p.out"
got=$(source "$lib"; probe_results L1-x "$tmp/p.out" | tr '\n' ';')
[[ "$got" == "BENCH result L1-x high_requests 400 requests;BENCH result L1-x high_p99 1.500 ms;BENCH result L1-x high_wake_p99 30.000 ms;" ]] &&
	ok "probe_results" || fail "probe_results: '$got'"

# the per-second counters (issue 32): tick_once on files shaped like a slice's
# (the slice from the directory, the resource from the file name) and
# /proc/vmstat's (sys); ticks_stop's totals: PSI totals (us) as % of the
# sampled time, counters as deltas
mkdir -p "$tmp/cg/high.slice" "$tmp/proc"
printf 'some avg10=1.50 avg60=0.00 avg300=0.00 total=1000\nfull avg10=0.50 avg60=0.00 avg300=0.00 total=400\n' \
	>"$tmp/cg/high.slice/memory.pressure"
printf 'anon 5\nworkingset_refault_anon 7\nworkingset_refault_file 3\npgscan 11\npgsteal 9\n' >"$tmp/cg/high.slice/memory.stat"
echo 4096 >"$tmp/cg/high.slice/memory.current"
printf 'nr_free_pages 1\npgscan_kswapd 20\nallocstall_normal 2\n' >"$tmp/proc/vmstat"
got=$(source "$lib"; tick_once 2.0 "$tmp/cg/high.slice/memory.pressure" "$tmp/cg/high.slice/memory.stat" \
	"$tmp/cg/high.slice/memory.current" "$tmp/proc/vmstat" | tr '\n' ';')
[[ "$got" == "2.0 high.memory.some_avg10 1.50;2.0 high.memory.some_total 1000;2.0 high.memory.full_avg10 0.50;2.0 high.memory.full_total 400;2.0 high.stat.workingset_refault_anon 7;2.0 high.stat.workingset_refault_file 3;2.0 high.stat.pgscan 11;2.0 high.stat.pgsteal 9;2.0 high.memory.current 4096;2.0 sys.vmstat.pgscan_kswapd 20;2.0 sys.vmstat.allocstall_normal 2;" ]] &&
	ok "tick_once: PSI, memory.stat, memory.current, vmstat" || fail "tick_once: '$got'"
printf '0.0 high.memory.some_total 1000\n0.0 high.stat.pgscan 11\n0.0 sys.vmstat.pgscan_kswapd 20\n0.0 high.memory.some_avg10 0.0\n10.0 high.memory.some_total 501000\n10.0 high.stat.pgscan 111\n10.0 sys.vmstat.pgscan_kswapd 20\n10.0 high.memory.some_avg10 5.0\n' \
	>"$tmp/ticks.txt"
printf '0.0 {"slices": []}\n' >"$tmp/status.jsonl"
true &
gone=$!	# a finished sampler: ticks_stop kills and waits for it
wait "$gone"
got=$(source "$lib"; WORK=$tmp; TICKS_PID=$gone; ticks_stop L1-x 2>/dev/null | tr '\n' ';')
[[ "$got" == *"BENCH tick L1-x 10.0 high.stat.pgscan 111;"* && "$got" == *'BENCH status L1-x 0.0 {"slices": []};'* &&
	"$got" == *"BENCH result L1-x diag_psi_high_memory_some 5.00 %;"* && "$got" == *"BENCH result L1-x diag_tick_high_pgscan 100;"* &&
	"$got" == *"BENCH result L1-x diag_tick_sys_pgscan_kswapd 0;"* && "$got" != *"diag_tick_high_some_avg10"* ]] &&
	ok "ticks_stop: the series, the raw status, PSI 0.5 s of 10 s = 5 %, pgscan +100" || fail "ticks_stop: '$got'"

# the on/off service's periods: from the seed and the group, busy 5-15 s, gaps 1-60 s, covering the run
p1=$(source "$lib"; SECONDS_RUN=80; cmdline_value() { case "$1" in memcgd.bench_seed) echo 42 ;; *) echo 3 ;; esac; }; onoff_periods)
p2=$(source "$lib"; SECONDS_RUN=80; cmdline_value() { case "$1" in memcgd.bench_seed) echo 42 ;; *) echo 3 ;; esac; }; onoff_periods)
p3=$(source "$lib"; SECONDS_RUN=80; cmdline_value() { case "$1" in memcgd.bench_seed) echo 42 ;; *) echo 4 ;; esac; }; onoff_periods)
awk -v p="$p1" 'BEGIN { n = split(p, v, ","); if (n < 2 || n % 2) exit 1
	for (i = 1; i <= n; i++) { t += v[i]; if (i % 2 ? v[i] < 5 || v[i] > 15 : v[i] < 1 || v[i] > 60) exit 1 }
	exit t < 80 || t - v[n] - v[n - 1] >= 80 }' && [[ "$p1" == "$p2" && "$p1" != "$p3" ]] &&
	ok "onoff_periods: $p1 (again the same; another group, another)" || fail "onoff_periods: '$p1' '$p2' '$p3'"
got=$(source "$lib"; printf '[Slice]\nName=high.slice\nPriority=50\n[Protect]\nMode=min\n' >"$tmp/h.conf"; mid_policy "$tmp/h.conf" | tr '\n' ';')
[[ "$got" == "[Slice];Name=mid.slice;Priority=30;[Protect];Mode=min;" ]] && ok "mid_policy: the high.slice policy as mid.slice, Priority=30" ||
	fail "mid_policy: '$got'"

# the NUMA scenarios' helpers: the workload's summary as results (shares,
# passes, time to 90 %) and meta lines, its log as two series, memory.stat deltas
printf 'numa pages 2048\nnuma first_node0_share 0.9000\nnuma first_node1_share 0.1000\nnuma run_cpu 1\nnuma local_share 0.9500\nnuma passes_per_s 12.500\nnuma seconds_to_90 -1\nnoise\nnuma x\n' >"$tmp/n.out"
got=$(source "$lib"; numa_results N-x other "$tmp/n.out" | tr '\n' ';')
[[ "$got" == "BENCH meta other_pages 2048;BENCH result N-x other_first_node0_share 0.9000 share;BENCH result N-x other_first_node1_share 0.1000 share;BENCH meta other_run_cpu 1;BENCH result N-x other_local_share 0.9500 share;BENCH result N-x other_passes_per_s 12.500 passes/s;BENCH result N-x other_seconds_to_90 -1 s;" ]] &&
	ok "numa_results" || fail "numa_results: '$got'"
printf '0.000 0.0000 0.000\n1.002 0.5000 3.250\n' >"$tmp/n.log"
got=$(source "$lib"; numa_series N-x numa "$tmp/n.log" | tr '\n' ';')
[[ "$got" == "BENCH series N-x numa 0.000 0.000;BENCH series N-x numa_local 0.000 0.0000;BENCH series N-x numa 1.002 3.250;BENCH series N-x numa_local 1.002 0.5000;" ]] &&
	ok "numa_series" || fail "numa_series: '$got'"
got=$(source "$lib"; numa_stat_results N-x other "10 5 2" "25 9 2" | tr '\n' ';')
[[ "$got" == "BENCH result N-x other_pte_updates 15 pages;BENCH result N-x other_hint_faults 4 faults;BENCH result N-x other_pages_migrated 0 pages;" ]] &&
	ok "numa_stat_results" || fail "numa_stat_results: '$got'"
if [[ ! -e /sys/devices/system/node/node1 ]]; then
	(source "$lib"; ! numa_nodes && [[ "$(first_cpu_of 0)" =~ ^[0-9]+$ ]]) &&
		ok "numa_nodes: one node here, and node 0's first CPU is $(source "$lib"; first_cpu_of 0)" ||
		fail "numa_nodes on a one-node host: $(source "$lib"; numa_nodes && echo two nodes), first CPU '$(source "$lib"; first_cpu_of 0)'"
	out=$(source "$lib"; bench_require N-memcgd 2>&1)
	rc=$?
	((rc == 77)) && [[ "$(tail -n 1 <<<"$out")" == "needs two NUMA nodes with CPUs (run-vm.sh --numa)" ]] &&
		ok "an N scenario on one node skips (77) with its reason last" || fail "bench_require N-memcgd on one node: $rc, '$out'"
fi

((failures == 0)) || { echo "$failures failure(s)"; exit 1; }
echo "all workload checks passed"
