# SPDX-License-Identifier: GPL-2.0-only
# Helpers of memcgd's benchmark scenarios (sourced by bench/guest/scenario, in
# the guest, as root). Workloads run as transient services in high.slice and
# low.slice, exactly as an operator's would.
set -euo pipefail

BENCH=${BENCH_TOOL:-/usr/lib/memcgd/bench/memcgd-bench}
WORK=/var/tmp/memcgd-bench
UNITS=()

cmdline_value() {	# cmdline_value KEY DEFAULT
	local word
	for word in $(</proc/cmdline); do
		[[ "$word" == "$1="* ]] && { printf '%s\n' "${word#*=}"; return 0; }
	done
	printf '%s\n' "$2"
}

BENCH_DEBUG=$(cmdline_value memcgd.bench_debug "")
mem_total_mib=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
SECONDS_RUN=$(cmdline_value memcgd.bench_seconds 50)
WINDOW=$(cmdline_value memcgd.bench_window 20)
# each slice's buffer: 75% of the guest's RAM, as the RFC's 3G of 4G
MIB=$(cmdline_value memcgd.bench_mib $((mem_total_mib * 3 / 4)))
MICRO_SECONDS=$(cmdline_value memcgd.bench_micro_seconds 8)
# measurements of each condition per microbenchmark run, in ABBA order
# (A B, B A, A B, ...: a drift within the run hits both alike); even
MICRO_REPEATS=$(cmdline_value memcgd.bench_micro_repeats 4)

say() { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }
die() { say "FAIL: $*"; exit 1; }
result() { echo "BENCH result $*"; }

bench_require() {
	# before any output: the harness takes the last line as the reason
	[[ "$1" != N-* ]] || numa_nodes ||
		{ echo "needs two NUMA nodes with CPUs (run-vm.sh --numa)"; exit 77; }
	[[ $EUID -eq 0 ]] || die "needs root"
	[[ -x "$BENCH" ]] || die "$BENCH is not installed"
	[[ "$(swapon --noheadings --show=NAME | wc -l)" -gt 0 ]] || die "no swap: boot with --swap"
	case "$1" in
	S3|S4|S4f|S4t|R3|P3|P5|footprint|L1-memcgd*|L2-memcgd*|N-memcgd|L1*-memcgd|L2*-memcgd)
		command -v memcgd >/dev/null || die "memcgd is not installed"
		grep -q memcg_bpf_ops /sys/kernel/btf/vmlinux ||
			die "kernel $(uname -r) has no memcg_bpf_ops: scenario $1 needs the patched kernel" ;;
	esac
	((SECONDS_RUN > WINDOW)) || die "memcgd.bench_seconds ($SECONDS_RUN) must exceed memcgd.bench_window ($WINDOW)"
	if [[ "$1" == N-* ]]; then
		[[ -w /proc/sys/kernel/numa_balancing ]] ||
			die "no kernel.numa_balancing to set: kernel $(uname -r) without CONFIG_NUMA_BALANCING"
	fi
}

bench_meta() {
	echo "BENCH meta kernel $(uname -r)"
	echo "BENCH meta kernel_version $(uname -v | tr ' ' '_')"
	echo "BENCH meta cpus $(nproc)"
	echo "BENCH meta mem_mib $mem_total_mib"
	echo "BENCH meta swap_mib $(awk '/^SwapTotal:/ { print int($2 / 1024) }' /proc/meminfo)"
	echo "BENCH meta buffer_mib $MIB"
	echo "BENCH meta seconds $SECONDS_RUN"
	echo "BENCH meta window $WINDOW"
	echo "BENCH meta thp $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
}

stop_units() {
	local u
	for u in ${UNITS[@]+"${UNITS[@]}"}; do
		systemctl stop "$u" 2>/dev/null || true
	done
	UNITS=()
}

# seconds since the guest booted (for the reset's timing)
uptime_s() { cut -d' ' -f1 /proc/uptime; }

bench_reset() {
	local t0 t1 t2 t3 t4
	t0=$(uptime_s)
	systemctl stop memcgd.service 2>/dev/null || true
	systemctl reset-failed memcgd.service 2>/dev/null || true
	systemctl stop 'bench-*.service' 2>/dev/null || true
	# systemd tearing down units (P5 leaves 254) must not overlap the next run.
	# Only the bench's own units: the test runner's oneshot service has a job
	# for as long as the tests run, which made every reset wait the full 30 s
	# (the 2026-12-06 05:15 run: 42 s of each scenario's set-up)
	local i
	for i in $(seq 150); do
		# (systemd 252 prints "No jobs running." even with --no-legend)
		systemctl list-jobs --no-legend 'bench-*' 2>/dev/null | grep -qv '^No jobs' || break
		sleep 0.2
	done
	t1=$(uptime_s)
	rm -rf /etc/memcgd.d "$WORK"
	mkdir -p /etc/memcgd.d "$WORK"
	sync
	t2=$(uptime_s)
	echo 3 >/proc/sys/vm/drop_caches
	t3=$(uptime_s)
	# the previous scenario's swap must be gone before this one starts
	local used
	for i in $(seq 100); do
		used=$(awk '/^SwapTotal:/ { t = $2 } /^SwapFree:/ { f = $2 } END { print int((t - f) / 1024) }' /proc/meminfo)
		((used < 16)) && break
		sleep 0.2
	done
	t4=$(uptime_s)
	echo "BENCH meta swap_used_at_start_mib $used"
	# where a scenario's set-up time goes (seconds): its start (uptime, as on the
	# console), stopping units, rm + sync, drop_caches, waiting for swap to drain
	echo "BENCH meta reset_s $(awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" \
		'BEGIN { printf "at=%.1f,stop=%.1f,sync=%.1f,drop=%.1f,swap=%.1f", a, b - a, c - b, d - c, e - d }')"
}

bench_cleanup() {
	[[ -z "${TICKS_PID:-}" ]] || kill "$TICKS_PID" 2>/dev/null || true
	stop_units
	systemctl stop memcgd.service 2>/dev/null || true
	systemctl stop 'bench-*.service' 2>/dev/null || true
	rm -rf /etc/memcgd.d
	# a runtime property outlives the scenario: the next one starts without
	systemctl set-property --runtime low.slice MemoryHigh=infinity 2>/dev/null || true
	# the NUMA scenarios set kernel.numa_balancing: the next scenario gets the boot's value
	[[ -z "$NUMA_SAVED" ]] || echo "$NUMA_SAVED" >/proc/sys/kernel/numa_balancing || true
}

# start_unit NAME SLICE COMMAND...: a transient service (memory accounting on)
start_unit() {
	local name=$1 slice=$2
	shift 2
	UNITS+=("$name.service")
	systemctl reset-failed "$name.service" 2>/dev/null || true
	systemd-run --quiet --unit="$name" --slice="$slice" -p MemoryAccounting=yes --collect "$@"
}

# run_unit NAME SLICE COMMAND...: runs to completion, output on stdout
run_unit() {
	local name=$1 slice=$2
	shift 2
	systemctl reset-failed "$name.service" 2>/dev/null || true
	systemd-run --quiet --unit="$name" --slice="$slice" -p MemoryAccounting=yes --collect \
		--wait --pipe "$@" </dev/null
}

# The slices exist while something runs in them: anchor both, so that the
# slice properties and memcgd's links are in place before any workload starts.
anchor_slices() {
	start_unit bench-anchor-high high.slice sleep infinity
	start_unit bench-anchor-low low.slice sleep infinity
}

set_memory_low() {	# set_memory_low SLICE VALUE
	systemctl set-property --runtime "$1" "MemoryLow=$2"
	echo "BENCH meta $1.memory.low $(cat "/sys/fs/cgroup/$1/memory.low")"
}

# The benchmark's policy: the RFC's (below_min for the active high slice,
# activity threshold of one page fault per window) plus memcgd's CPU activity
# for high.slice (CPUUsage=, memcgd.bench_high_cpu, default 50%; "off" for
# the RFC's policy alone: a writer busy on a resident buffer takes no faults);
# low.slice's throttle delay while high.slice is active from
# memcgd.bench_low_delay (default 10ms: the third follow-up's choice, P1 and
# P1b both met; bench/notes.md), high.slice's protection from
# memcgd.bench_high_mode (default min).
write_policies() {
	local delay mode cpu
	delay=$(cmdline_value memcgd.bench_low_delay 10ms)
	mode=$(cmdline_value memcgd.bench_high_mode min)
	cpu=$(cmdline_value memcgd.bench_high_cpu 50%)
	cat >/etc/memcgd.d/50-high.conf <<-EOF
	[Slice]
	Name=high.slice
	Priority=50
	[Activity]
	PageFaultRate=1
	Window=1s
	Hold=5s
	CPUUsage=$cpu
	[Protect]
	Mode=$mode
	[Throttle]
	Delay=0
	EOF
	cat >/etc/memcgd.d/10-low.conf <<-EOF
	[Slice]
	Name=low.slice
	Priority=10
	[Activity]
	PageFaultRate=1
	Window=1s
	[Protect]
	Mode=none
	[Throttle]
	Delay=$delay
	MaxContinuous=infinity
	EOF
	echo "BENCH meta policy_low_delay $delay"
	echo "BENCH meta policy_high_mode $mode"
	echo "BENCH meta policy_high_cpu $cpu"
}

attached() {	# attached SLICE...: every slice has its link (one status read for all)
	memcgctl status --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
linked = {x["name"] for x in s["slices"] if x["attached"]}
sys.exit(0 if set(sys.argv[1:]) <= linked else 1)' "$@"
}

measured() {	# measured SLICE...: memcgd in dry-run mode measures every slice
	memcgctl status --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
seen = {x["name"] for x in s["slices"] if x["attach_state"] == "dry-run" and x["cgroup"]}
sys.exit(0 if s["daemon"]["mode"] == "dry-run" and set(sys.argv[1:]) <= seen else 1)' "$@"
}

wait_for() {	# wait_for SECONDS WHAT COMMAND...
	local end=$((SECONDS + $1)) what=$2
	shift 2
	while ((SECONDS < end)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	die "timed out after ${end}s waiting for $what"
}

start_memcgd() {	# start_memcgd SLICE...: wait until each slice is attached
	rm -f /etc/memcgd.conf	# enforcing, whatever a failed dry-run scenario left
	systemctl start memcgd.service || { journalctl -u memcgd --no-pager -n 30 >&2; die "memcgd did not start"; }
	wait_for 30 "memcgd to attach $*" attached "$@"
}

# start_memcgd_dry_run SLICE...: memcgd with [Daemon] DryRun=yes (the fault
# counting tracepoint program only, no memcg_bpf_ops); stop_memcgd undoes it.
start_memcgd_dry_run() {
	printf '[Daemon]\nDryRun=yes\n' >/etc/memcgd.conf
	systemctl start memcgd.service || { journalctl -u memcgd --no-pager -n 30 >&2; die "memcgd did not start"; }
	wait_for 30 "memcgd (dry run) to measure $*" measured "$@"
}

stop_memcgd() {
	systemctl stop memcgd.service 2>/dev/null || true
	rm -f /etc/memcgd.conf
}

# protection MODE: memory.low | memcgd | none, with both slices anchored
protection() {
	anchor_slices
	case "$1" in
	memory.low)
		set_memory_low high.slice "${MIB}M"
		set_memory_low low.slice 0 ;;
	memcgd|none)
		set_memory_low high.slice 0
		set_memory_low low.slice 0 ;;
	esac
	if [[ "$1" == memcgd ]]; then
		write_policies
		start_memcgd high.slice low.slice
	fi
	echo "BENCH meta protection $1"
}

# Rate (units/s) over the whole of a progress log (the parentheses matter: a
# bare ">" among printf's arguments is awk's output redirection).
mean_rate() {	# mean_rate LOG
	awk 'END { printf "%.2f\n", ($1 > 0 ? $2 / $1 : 0) }' "$1"
}

# Rate (units/s) over the last WINDOW seconds of a progress log.
window_rate() {	# window_rate LOG
	awk -v w="$WINDOW" '
		{ t[NR] = $1; u[NR] = $2 }
		END {
			if (NR < 2) { print 0; exit }
			end = t[NR]; from = end - w; i = 1
			while (i < NR && t[i + 1] <= from) i++
			# interpolate the count at "from" between lines i and i+1
			if (t[i] >= from || i == NR) { ustart = u[i]; tstart = t[i] }
			else { f = (from - t[i]) / (t[i + 1] - t[i]); ustart = u[i] + f * (u[i + 1] - u[i]); tstart = from }
			printf "%.2f\n", (u[NR] - ustart) / (end - tstart)
		}' "$1"
}

emit_series() {	# emit_series SCENARIO SLICE LOG
	awk -v s="$1" -v sl="$2" '{ printf "BENCH series %s %s %s %s\n", s, sl, $1, $2 }' "$3"
}

cgroup_mib() {	# cgroup_mib SLICE FILE
	awk '{ printf "%.1f\n", $1 / 1048576 }' "/sys/fs/cgroup/$1/$2" 2>/dev/null || echo nan
}

writer_unit() {	# writer_unit NAME SLICE LOG
	run_unit "$1" "$2" "$BENCH" writer --mib "$MIB" --seconds "$SECONDS_RUN" --log "$3"
}

run_writer_alone() {	# run_writer_alone SLICE
	local short=${1%.slice}
	protection none
	say "S5: writer alone in $1 (${SECONDS_RUN}s, $MIB MiB)"
	writer_unit "bench-writer-$short" "$1" "$WORK/$short.log" >&2
	emit_series S5 "$short" "$WORK/$short.log"
	result S5 "${short}_alone" "$(window_rate "$WORK/$short.log")" MiB/s
	stop_units
	bench_reset
}

# Both slices busy. high.slice's writer starts HEAD_START seconds first and
# runs that much longer, so that its buffer is in memory when low.slice's
# writer arrives (a service already running when a batch job starts); two
# writers faulting in their first pass at the same moment can stall each
# other in reclaim for tens of seconds in this guest, with memory.low as with
# memcgd (bench/notes.md). Both rates are over the last WINDOW seconds.
run_both_busy() {	# run_both_busy SCENARIO PROTECTION
	local sc=$1 pids=() i head
	head=$(cmdline_value memcgd.bench_head_start 20)
	protection "$2"
	echo "BENCH meta head_start $head"
	say "$sc: high.slice writes $MIB MiB for $((SECONDS_RUN + head))s, low.slice from ${head}s on for ${SECONDS_RUN}s ($2)"
	diag_snapshot "$WORK/diag.before"
	watch_memcgd &
	local watcher=$!
	run_unit bench-writer-high high.slice "$BENCH" writer --mib "$MIB" \
		--seconds $((SECONDS_RUN + head)) --log "$WORK/high.log" >&2 &
	pids+=($!)
	sleep "$head"
	writer_unit bench-writer-low low.slice "$WORK/low.log" >&2 &
	pids+=($!)
	for i in "${pids[@]}"; do wait "$i" || die "a writer failed"; done
	kill "$watcher" 2>/dev/null || true
	diag_snapshot "$WORK/diag.after"
	diag_delta "$sc" "$WORK/diag.before" "$WORK/diag.after"
	emit_series "$sc" high "$WORK/high.log"
	emit_series "$sc" low "$WORK/low.log"
	result "$sc" high "$(window_rate "$WORK/high.log")" MiB/s
	result "$sc" low "$(window_rate "$WORK/low.log")" MiB/s
	memcgd_counters "$sc"
}

slice_active() {	# slice_active SLICE: memcgd counts SLICE active now
	memcgctl status --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
sys.exit(0 if any(x["name"] == sys.argv[1] and x["active"] for x in s["slices"]) else 1)' "$1"
}

# High idle: high.slice's holder fills its buffer, then sleeps; low.slice's
# writer starts IDLE_SETTLE seconds later in every protection mode, so that it
# runs while high.slice is idle by memcgd's definition too (the benchmark
# policy's Window=1s and Hold=5s: inactive 6-7 s after the last fault). What
# low.slice loses when it arrives while high.slice still counts as active is
# the transition scenario's question (memcgd.bench_idle_settle=0; notes).
run_high_idle() {	# run_high_idle SCENARIO PROTECTION FILL [SETTLE]
	local sc=$1 fill=$3 settle=${4:-}
	[[ -n "$settle" ]] || settle=$(cmdline_value memcgd.bench_idle_settle 8)
	protection "$2"
	say "$sc: high.slice holds $MIB MiB ($fill fill) and sleeps; low.slice writes after ${settle}s ($2)"
	rm -f "$WORK/ready"
	start_unit bench-holder-high high.slice "$BENCH" holder --mib "$MIB" --fill "$fill" --ready "$WORK/ready"
	wait_for 300 "the holder to fill its buffer" test -e "$WORK/ready"
	sleep "$settle"
	echo "BENCH meta idle_settle_s $settle"
	if [[ "$2" == memcgd ]]; then
		if slice_active high.slice; then
			echo "BENCH meta high_active_at_low_start yes"
		else
			echo "BENCH meta high_active_at_low_start no"
		fi
	fi
	echo "BENCH meta high_memory_current_before_mib $(cgroup_mib high.slice memory.current)"
	diag_snapshot "$WORK/diag.before"
	watch_memcgd &
	local watcher=$!
	writer_unit bench-writer-low low.slice "$WORK/low.log" >&2
	kill "$watcher" 2>/dev/null || true
	diag_snapshot "$WORK/diag.after"
	diag_delta "$sc" "$WORK/diag.before" "$WORK/diag.after"
	result "$sc" high_resident_after "$(cgroup_mib high.slice memory.current)" MiB
	result "$sc" high_swapped_after "$(cgroup_mib high.slice memory.swap.current)" MiB
	emit_series "$sc" low "$WORK/low.log"
	result "$sc" low "$(window_rate "$WORK/low.log")" MiB/s
	memcgd_counters "$sc"
}

# Reclaim diagnostics of a run: deltas of /proc/vmstat and of each slice's
# memory.stat and memory.events, printed as diag_* results.
VMSTAT_KEYS="pgscan_kswapd pgscan_direct pgsteal_kswapd pgsteal_direct pgscan_anon pgscan_file pgsteal_anon pgsteal_file pgmajfault pswpin pswpout allocstall_movable allocstall_normal workingset_refault_anon workingset_refault_file thp_fault_alloc thp_split_pmd oom_kill"
SLICE_STAT_KEYS="pgscan pgsteal pgmajfault workingset_refault_anon workingset_refault_file"
SLICE_EVENT_KEYS="low min high oom"
pick_keys() {	# pick_keys "KEY..." PREFIX FILE: the "key value" lines of FILE for KEYs, prefixed
	awk -v keys="$1" -v p="$2" 'BEGIN { n = split(keys, k); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		($1 in want) { print p $1, $2 }' "$3"
}
diag_snapshot() {	# diag_snapshot FILE
	{
		pick_keys "$VMSTAT_KEYS" vm_ /proc/vmstat
		local sl
		for sl in high mid low; do
			[[ -r /sys/fs/cgroup/$sl.slice/memory.stat ]] || continue
			pick_keys "$SLICE_STAT_KEYS" "${sl}_" "/sys/fs/cgroup/$sl.slice/memory.stat"
			pick_keys "$SLICE_EVENT_KEYS" "${sl}_events_" "/sys/fs/cgroup/$sl.slice/memory.events"
		done
	} >"$1"
}
diag_delta() {	# diag_delta SCENARIO BEFORE AFTER
	awk -v sc="$1" 'NR == FNR { before[$1] = $2; next }
		{ printf "BENCH result %s diag_%s %d\n", sc, $1, $2 - before[$1] }' "$2" "$3"
}

# While memcgd runs: its view of the slices every 5 s (test output only).
# With memcgd.bench_debug=1 on the kernel command line, also every second:
# the slices' LRU sizes and reclaim counters, memory pressure, the writers'
# and kswapd's kernel stacks, and how often reclaim throttled (tracepoint
# vmscan:mm_vmscan_throttled).
TRACEFS=/sys/kernel/tracing
debug_tick() {
	local sl
	for sl in high low; do
		[[ -r /sys/fs/cgroup/$sl.slice/memory.stat ]] || continue
		echo "$sl $(pick_keys "anon active_anon inactive_anon pgscan pgsteal pgactivate pgdeactivate pgrefill workingset_refault_anon workingset_activate_anon" "" \
			"/sys/fs/cgroup/$sl.slice/memory.stat" | paste -sd' ')"
	done
	grep -E '^(MemFree|SwapFree|Active\(file\)|Inactive\(file\)):' /proc/meminfo | tr -s ' ' | paste -sd' '
	pick_keys "pgscan_kswapd pgscan_direct pgsteal_kswapd pgsteal_direct pgscan_anon pgscan_file pgsteal_anon pgsteal_file pgmajfault workingset_refault_file allocstall_movable pswpin pswpout" "" /proc/vmstat | paste -sd' '
	if [[ -r $TRACEFS/trace ]]; then
		echo "throttled: $(grep -o 'reason=[A-Z_]*' $TRACEFS/trace | sort | uniq -c | paste -sd' ')"
		: >$TRACEFS/trace
	fi
	grep -E '^(some|full)' /proc/pressure/memory | cut -d' ' -f1-2 | paste -sd' '
	local p
	for p in $(pgrep -f 'memcgd-bench writer') $(pgrep -x kswapd0); do
		echo "pid $p $(awk '{print $2, $3}' "/proc/$p/stat") $(tr '\n' ' ' <"/proc/$p/stack" 2>/dev/null | cut -c1-400)"
	done
}
watch_memcgd() {
	local n=0
	if [[ -n "${BENCH_DEBUG:-}" && -w $TRACEFS/events/vmscan/mm_vmscan_throttled/enable ]]; then
		: >$TRACEFS/trace
		echo 1 >$TRACEFS/events/vmscan/mm_vmscan_throttled/enable
	fi
	systemctl -q is-active memcgd.service || [[ -n "${BENCH_DEBUG:-}" ]] || return 0
	while sleep 1; do
		if ((n++ % 5 == 0)) && systemctl -q is-active memcgd.service; then
			echo "--- $(date +%T) memcgctl status"
			memcgctl status 2>&1 | sed -n '/^SLICE/,/^$/p'
		fi
		[[ -n "${BENCH_DEBUG:-}" ]] && { echo "--- $(date +%T.%N | cut -c1-12) debug"; debug_tick; }
	done >&2
}

memcgd_counters() {	# memcgd_counters SCENARIO: what memcgd did, when it ran
	systemctl -q is-active memcgd.service || return 0
	memcgctl status --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
for x in s["slices"]:
    c = x.get("counters", {})
    for k in ("protect_decisions", "throttle_decisions", "throttle_ms", "guard_trips",
              "numa_on_decisions", "numa_off_decisions"):
        if k in c:
            print("BENCH result %s memcgd_%s_%s %s" % (sys.argv[1], x["name"].split(".")[0], k, c[k]))' "$1"
}

# --- Per-second counters and memcgd's state (issue 32, item 3)
#
# ticks_start samples once a second, from the start of a run's measured part
# until ticks_stop: per slice (high, mid, low, where they exist) its memory
# PSI some/full avg10 and cpu PSI some avg10 (%), its memory.stat's
# workingset_refault_anon/_file, pgscan and pgsteal (cumulative) and
# memory.current; system-wide the same PSI from /proc/pressure and
# /proc/vmstat's pgscan_kswapd, pgscan_direct and allocstall_* (absent from
# a kernel without CONFIG_VM_EVENT_COUNTERS: then they are simply not
# sampled). Each as "T KEY VALUE" (KEY: SRC.memory.some_avg10,
# SRC.stat.pgscan, sys.vmstat.pgscan_kswapd, ...; SRC high, mid, low or sys),
# emitted as "BENCH tick SCENARIO T KEY VALUE". With memcgd running, also
# `memcgctl status --json` once a second, raw (its schema is memcgd's), as
# "BENCH status SCENARIO T JSON". ticks_stop also emits, per source, the
# run's PSI totals as the share of the time stalled (diag_psi_SRC_RES_KIND,
# %) and the counters' deltas (diag_tick_SRC_KEY).
TICK_STAT_KEYS="workingset_refault_anon workingset_refault_file pgscan pgsteal"
TICK_VMSTAT_KEYS="pgscan_kswapd pgscan_direct allocstall_dma allocstall_dma32 allocstall_normal allocstall_movable workingset_refault_anon workingset_refault_file"
TICKS_PID=""

tick_files() {	# the files sampled, one a line
	local sl f
	for sl in high mid low; do
		for f in memory.pressure cpu.pressure memory.stat memory.current; do
			[[ -r /sys/fs/cgroup/$sl.slice/$f ]] && echo "/sys/fs/cgroup/$sl.slice/$f"
		done
	done
	for f in /proc/pressure/memory /proc/pressure/cpu /proc/vmstat; do
		[[ -r $f ]] && echo "$f"
	done
	return 0
}

tick_once() {	# tick_once T FILE...: "T KEY VALUE" per counter
	awk -v t="$1" -v stat="$TICK_STAT_KEYS" -v vm="$TICK_VMSTAT_KEYS" '
		BEGIN { n = split(stat, a); for (i = 1; i <= n; i++) want_stat[a[i]] = 1
			n = split(vm, a); for (i = 1; i <= n; i++) want_vm[a[i]] = 1 }
		FNR == 1 {
			n = split(FILENAME, p, "/"); file = p[n]
			src = FILENAME ~ /^\/proc\// ? "sys" : p[n - 1]; sub(/\.slice$/, "", src)
			res = file; sub(/\.pressure$/, "", res)
		}
		FILENAME ~ /pressure/ {
			for (i = 2; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == "avg10" || kv[1] == "total") printf "%s %s.%s.%s_%s %s\n", t, src, res, $1, kv[1], kv[2]
			}
			next
		}
		file == "memory.current" { printf "%s %s.memory.current %s\n", t, src, $1; next }
		file == "memory.stat" && ($1 in want_stat) { printf "%s %s.stat.%s %s\n", t, src, $1, $2; next }
		file == "vmstat" && ($1 in want_vm) { printf "%s sys.vmstat.%s %s\n", t, $1, $2 }
	' "${@:2}" 2>/dev/null
}

ticks_loop() {	# ticks_loop MEMCGD(0|1): until killed, on whole seconds from its start
	local start next now t files
	mapfile -t files < <(tick_files)
	# microseconds from bash itself: under TCG every process spawned costs time
	start=${EPOCHREALTIME/./}
	next=$start
	while :; do
		now=${EPOCHREALTIME/./}
		t=$(((now - start) / 100000))
		t="$((t / 10)).$((t % 10))"
		if ((${#files[@]})); then tick_once "$t" "${files[@]}" >>"$WORK/ticks.txt"; fi
		if (($1)); then
			{ printf '%s ' "$t"; memcgctl status --json 2>/dev/null | tr -d '\n'; echo; } >>"$WORK/status.jsonl"
		fi
		next=$((next + 1000000))
		now=${EPOCHREALTIME/./}
		# behind by a second or more (the guest stalled): the next whole second from now
		((next > now)) || next=$((now + 1000000 - (now - start) % 1000000))
		sleep "$(printf '%d.%06d' $(((next - now) / 1000000)) $(((next - now) % 1000000)))"
	done
}

ticks_start() {	# ticks_start: from now on, once a second (memcgd's status while it runs)
	local with_memcgd=0
	rm -f "$WORK/ticks.txt" "$WORK/status.jsonl"
	systemctl -q is-active memcgd.service && with_memcgd=1
	ticks_loop "$with_memcgd" &
	TICKS_PID=$!
}

ticks_stop() {	# ticks_stop SCENARIO: stop sampling, emit the series and the run's totals
	[[ -n "$TICKS_PID" ]] || return 0
	kill "$TICKS_PID" 2>/dev/null || true
	wait "$TICKS_PID" 2>/dev/null || true
	TICKS_PID=""
	[[ -s "$WORK/ticks.txt" ]] || { say "$1: no per-second counters sampled"; return 0; }
	awk -v sc="$1" 'NF == 3 { printf "BENCH tick %s %s %s %s\n", sc, $1, $2, $3 }' "$WORK/ticks.txt"
	[[ -s "$WORK/status.jsonl" ]] && awk -v sc="$1" 'NF >= 2 && $2 != "" { print "BENCH status " sc " " $0 }' "$WORK/status.jsonl"
	# totals: a PSI total (us) over the sampled time as % stalled; a counter's delta
	awk -v sc="$1" 'NF == 3 {
			if (!($2 in first)) { first[$2] = $3; t0[$2] = $1 }
			last[$2] = $3; t1[$2] = $1
		}
		END {
			for (k in first) {
				split(k, p, ".")
				if (p[3] ~ /_total$/ && t1[k] > t0[k]) {
					kind = p[3]; sub(/_total$/, "", kind)
					printf "BENCH result %s diag_psi_%s_%s_%s %.2f %%\n", sc, p[1], p[2], kind,
						(last[k] - first[k]) / 1e4 / (t1[k] - t0[k])
				} else if (p[2] == "stat" || p[2] == "vmstat")
					printf "BENCH result %s diag_tick_%s_%s %d\n", sc, p[1], p[3], last[k] - first[k]
			}
		}' "$WORK/ticks.txt" | sort
}

# stress-ng with the RFC's flags in both slices; bogo-ops/s (real time) each
run_stress_ng() {	# run_stress_ng SCENARIO PROTECTION
	local sc=$1 s i pids=()
	command -v stress-ng >/dev/null || die "stress-ng is not installed"
	protection "$2"
	say "$sc: stress-ng --vm 4 --vm-keep --vm-bytes ${MIB}M --vm-method all in both slices ($2)"
	for s in high low; do
		run_unit "bench-stress-$s" "$s.slice" stress-ng --vm 4 --vm-keep --vm-bytes "${MIB}M" \
			--vm-method all --timeout "${SECONDS_RUN}s" --metrics-brief >"$WORK/stress-$s.log" 2>&1 &
		pids+=($!)
	done
	for i in "${pids[@]}"; do
		wait "$i" || { cat "$WORK"/stress-*.log >&2; die "stress-ng failed"; }
	done
	for s in high low; do
		sed 's/^/  /' "$WORK/stress-$s.log" >&2
		# "... vm <bogo ops> <real s> <usr s> <sys s> <ops/s real> <ops/s usr+sys>"
		result "$sc" "$s" "$(awk '{ for (i = 1; i < NF; i++) if ($i == "vm" && $(i + 1) ~ /^[0-9]+$/) { print $(i + 5); exit } }' \
			"$WORK/stress-$s.log")" bogo-ops/s
	done
}

faults_rate() {	# faults_rate SLICE: faults/s of one microbenchmark run
	run_unit bench-faults "$1" "$BENCH" faults --mib 64 --seconds "$MICRO_SECONDS" |
		awk '/^faults:/ { print $(NF - 1) }'
}

charge_rate() {	# charge_rate SLICE: MiB/s written to tmpfs
	run_unit bench-charge "$1" "$BENCH" charge --dir /dev/shm --mib 64 --seconds "$MICRO_SECONDS" |
		awk '/^charge:/ { print $(NF - 1) }'
}

# The first microbenchmark run after boot or after a priority scenario is
# slower than the rest (cold caches, leftover swap-in): one unrecorded run
# first, so that it does not land on whichever condition happens to go first.
micro_warm_up() {	# micro_warm_up SLICE
	faults_rate "$1" >/dev/null
}

# P3: the fault microbenchmark in low.slice with nothing attached, with
# memcgd in dry-run mode (its fault-counting tracepoint program alone) and
# with memcgd attached (tracepoint and memcg_bpf_ops; high.slice idle), in
# ABBA order (none tracepoint attached, attached tracepoint none, ...). The
# middle condition splits P3's cost between the two.
p3_condition() {	# p3_condition none|tracepoint|attached REPEAT
	stop_memcgd
	case "$1" in
	tracepoint) start_memcgd_dry_run high.slice low.slice ;;
	attached) start_memcgd high.slice low.slice ;;
	esac
	result P3 "$1_$2" "$(faults_rate low.slice)" faults/s
}

run_p3() {
	local i c
	protection none
	write_policies >/dev/null
	micro_warm_up low.slice
	for ((i = 1; i <= MICRO_REPEATS; i++)); do
		for c in $(abba "$i" none tracepoint attached); do
			p3_condition "$c" "$i"
		done
	done
	stop_memcgd
	start_memcgd high.slice low.slice
	p3_program_cost
	stop_memcgd
}

# abba REPEAT CONDITION...: the conditions in order on odd repeats, reversed
# on even ones
abba() {
	local i=$1
	shift
	if ((i % 2)); then
		printf '%s\n' "$@"
	else
		printf '%s\n' "$@" | tac
	fi
}

# prog_stats PID TYPE: "CALLS NS" summed over the BPF programs of type TYPE
# (enum bpf_prog_type) that PID holds, from their fdinfo's run-time statistics.
prog_stats() {
	local f
	for f in /proc/"$1"/fdinfo/*; do
		awk -v want="$2" '/^prog_type:/ { t = $2 } /^run_cnt:/ { c = $2 } /^run_time_ns:/ { n = $2 }
			END { if (t == want) print c + 0, n + 0 }' "$f" 2>/dev/null
	done | awk '{ c += $1; n += $2 } END { print c + 0, n + 0 }'
}

# What memcgd's programs cost per call, from the kernel's BPF run-time
# statistics (kernel.bpf_stats_enabled) over one more fault run, with memcgd
# attached. The statistics read the clock twice per call themselves, so that
# run is not one of P3's measurements. Tracing (26) is the fault-counting
# program, called for every memcg event; struct_ops (27) are the hooks.
p3_program_cost() {
	local pid tc0 tn0 tc1 tn1 oc0 on0 oc1 on1 rate
	pid="$(systemctl show -P MainPID memcgd.service)"
	sysctl -q -w kernel.bpf_stats_enabled=1 || { say "P3: no BPF run-time statistics"; return 0; }
	read -r tc0 tn0 < <(prog_stats "$pid" 26)
	read -r oc0 on0 < <(prog_stats "$pid" 27)
	rate="$(faults_rate low.slice)"
	read -r tc1 tn1 < <(prog_stats "$pid" 26)
	read -r oc1 on1 < <(prog_stats "$pid" 27)
	sysctl -q -w kernel.bpf_stats_enabled=0
	result P3 diag_stats_run_faults_per_s "$rate" faults/s
	result P3 diag_tracepoint_calls "$((tc1 - tc0))" calls
	result P3 diag_tracepoint_ns_per_call "$(per $((tn1 - tn0)) $((tc1 - tc0)))" ns
	result P3 diag_tracepoint_ns_per_fault "$(per $((tn1 - tn0)) "$rate * $MICRO_SECONDS")" ns
	result P3 diag_ops_calls "$((oc1 - oc0))" calls
	result P3 diag_ops_ns_per_call "$(per $((on1 - on0)) $((oc1 - oc0)))" ns
}

per() {	# per N D: N / D to one decimal (D an awk expression), 0 when D is not positive
	awk "BEGIN { d = $2; printf \"%.1f\", (d > 0 ? $1 / d : 0) }"
}

# P4: nothing attached, the fault and the charge microbenchmark, in ABBA
# order (the ratio pairs each with the same on the other kernel).
run_p4() {
	local i c
	protection none
	micro_warm_up low.slice
	for ((i = 1; i <= MICRO_REPEATS; i++)); do
		for c in $(abba "$i" faults charge); do
			case "$c" in
			faults) result P4 "faults_$i" "$(faults_rate low.slice)" faults/s ;;
			charge) result P4 "charge_$i" "$(charge_rate low.slice)" MiB/s ;;
			esac
		done
	done
}

# P5: memcgd managing 2 slices (high, low) or 256 (plus 254 more, each with a
# sleeping process); the fault microbenchmark in low.slice, in ABBA order.
P5_EXTRA=()
p5_manage() {	# p5_manage 2|256: memcgd manages that many slices
	local s
	if (($1 == 256)); then
		for s in "${P5_EXTRA[@]}"; do
			printf '[Slice]\nName=%s\nPriority=20\n[Throttle]\nDelay=10ms\n' "$s" >"/etc/memcgd.d/30-$s.conf"
		done
	else
		rm -f /etc/memcgd.d/30-bench-s*.conf
	fi
	memcgctl reload >/dev/null
	wait_for 120 "memcgd to manage $1 slices" memcgd_manages "$1"
}

attached_count() {	# the number of slices memcgd has attached
	memcgctl status --json | python3 -c 'import json,sys; print(sum(1 for x in json.load(sys.stdin)["slices"] if x["attached"]))'
}

memcgd_manages() {	# memcgd_manages N: exactly N slices attached
	(($(attached_count) == $1))
}

run_p5() {
	local i c n=254
	protection none
	say "P5: starting $n more slices"
	P5_EXTRA=()
	for ((i = 1; i <= n; i++)); do
		P5_EXTRA+=("$(printf 'bench-s%03d.slice' "$i")")
		start_unit "$(printf 'bench-s%03d' "$i")" "${P5_EXTRA[-1]}" sleep infinity
	done
	write_policies >/dev/null
	start_memcgd high.slice low.slice
	micro_warm_up low.slice
	for ((i = 1; i <= MICRO_REPEATS; i++)); do
		for c in $(abba "$i" 2 256); do
			p5_manage "$c"
			if ((c == 256)); then
				result P5 managed_slices "$(attached_count)" slices
				result P5 "rss_kib_256slices_$i" "$(awk '/^VmRSS:/ { print $2 }' "/proc/$(systemctl show -P MainPID memcgd.service)/status")" KiB
			fi
			result P5 "slices${c}_$i" "$(faults_rate low.slice)" faults/s
		done
	done
	p5_manage 2
}

# footprint: RSS of memcgd with 2 and with 256 slices, start to READY,
# reload latency (memcgctl reload waits for the daemon's answer).
run_footprint() {
	local i t0 t1 pid
	protection none
	write_policies >/dev/null
	for ((i = 1; i <= MICRO_REPEATS; i++)); do
		systemctl stop memcgd.service 2>/dev/null || true
		t0=$(date +%s%N)
		systemctl start memcgd.service	# Type=notify: returns at READY=1
		t1=$(date +%s%N)
		result footprint "start_to_ready_ms_$i" "$(((t1 - t0) / 1000000))" ms
		wait_for 30 "memcgd to attach" attached high.slice low.slice
		pid=$(systemctl show -P MainPID memcgd.service)
		result footprint "rss_kib_2slices_$i" "$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")" KiB
		t0=$(date +%s%N)
		memcgctl reload >/dev/null
		t1=$(date +%s%N)
		result footprint "reload_ms_$i" "$(((t1 - t0) / 1000000))" ms
	done
}

# --- Latency scenarios (issue 15): L1 (contention), L2/L3 (high.slice idles)
#
# high.slice runs the open-loop latency probe (memcgd-bench latency): a
# working set of PROBE_MIB (default half of RAM), PROBE_RATE requests/s
# (default 200), each updating PROBE_PAGES random pages (default 4), timed
# from their scheduled start. low.slice runs the batch writer over MIB (75%
# of RAM): together they overflow RAM.
PROBE_MIB=$(cmdline_value memcgd.bench_probe_mib $((mem_total_mib / 2)))
PROBE_RATE=$(cmdline_value memcgd.bench_probe_rate 200)
PROBE_PAGES=$(cmdline_value memcgd.bench_probe_pages 4)
# seconds the probe serves alone before low.slice starts (its warm_* reference)
LAT_WARM=$(cmdline_value memcgd.bench_lat_warm 10)
# L3: requests measured after the idle period
WAKE_REQUESTS=$(cmdline_value memcgd.bench_wake 100)
# L2: low.slice's fixed amount of work (two passes over its buffer), cut off
# after SECONDS_RUN
WORK_MIB=$(cmdline_value memcgd.bench_work_mib $((MIB * 2)))
EXAMPLES=/usr/share/doc/memcgd/examples

# The configurations compared (issue 15, item 2), fixed before any run:
#   none     no protection
#   low      memory.low on high.slice: the probe's working set + 64 MiB for
#            the process itself
#   lowhigh  as low, plus memory.high on low.slice at what is left of RAM
#            after that and 256 MiB for the system: the strongest static
#            configuration a sysadmin would write without memcgd
#   memcgd   memcgd with the example policies shipped in conf/
#            (50-high.conf, 10-low.conf), unchanged
#   memcgdbg memcgd with the shipped 50-high.conf and background/10-low.conf
#            (low.slice: Delay=0, [Reclaim] Background=yes, Headroom=256M,
#            Rate=64M), unchanged: background reclaim instead of the delay
#   memcgdlat memcgd with the shipped latency/50-high.conf (high.slice active
#            at 1% CPU or 10 faults/s, Hold=10s) and 10-low.conf, unchanged:
#            the policy for a latency service, declared before its first run
protection_latency() {	# protection_latency CONFIG
	local protect=$((PROBE_MIB + 64)) f
	anchor_slices
	if ((TWO_SERVICES)); then start_unit bench-anchor-mid mid.slice sleep infinity; fi
	case "$1" in
	none|memcgd|memcgdbg|memcgdlat)
		set_memory_low high.slice 0
		if ((TWO_SERVICES)); then set_memory_low mid.slice 0; fi ;;
	low|lowhigh)
		set_memory_low high.slice "${protect}M"
		if ((TWO_SERVICES)); then set_memory_low mid.slice "${protect}M"; fi ;;
	*)	die "unknown latency configuration '$1'" ;;
	esac
	# lowhigh's memory.high on low.slice leaves room for both services
	if ((TWO_SERVICES)); then protect=$((2 * protect)); fi
	set_memory_low low.slice 0
	if [[ "$1" == lowhigh ]]; then
		set_memory_high low.slice "$((mem_total_mib - protect - 256))M"
	else
		set_memory_high low.slice infinity
	fi
	if [[ "$1" == memcgd* ]]; then
		local high=50-high.conf low=10-low.conf
		[[ "$1" == memcgdbg ]] && low=background/10-low.conf
		[[ "$1" == memcgdlat ]] && high=latency/50-high.conf
		for f in "$high" "$low"; do
			[[ -r "$EXAMPLES/$f" ]] || die "$EXAMPLES/$f is not installed (meson installs conf/ there)"
			cp "$EXAMPLES/$f" /etc/memcgd.d/
			echo "BENCH meta policy_$f $(sha256sum "$EXAMPLES/$f" | cut -c1-16) (shipped example)"
		done
		if ((TWO_SERVICES)); then
			mid_policy "$EXAMPLES/$high" >/etc/memcgd.d/30-mid.conf
			echo "BENCH meta policy_30-mid.conf $(sha256sum /etc/memcgd.d/30-mid.conf | cut -c1-16) (the shipped $high as mid.slice, Priority=30)"
			start_memcgd high.slice mid.slice low.slice
		else
			start_memcgd high.slice low.slice
		fi
	fi
	echo "BENCH meta protection $1"
}

set_memory_high() {	# set_memory_high SLICE VALUE
	systemctl set-property --runtime "$1" "MemoryHigh=$2"
	echo "BENCH meta $1.memory.high $(cat "/sys/fs/cgroup/$1/memory.high")"
}

latency_meta() {
	echo "BENCH meta probe_mib $PROBE_MIB"
	echo "BENCH meta probe_rate $PROBE_RATE"
	echo "BENCH meta probe_pages $PROBE_PAGES"
	echo "BENCH meta probe_warm_s $LAT_WARM"
}

# The probe's summary ("latency METRIC VALUE UNIT") as results high_METRIC
probe_results() {	# probe_results SCENARIO FILE [SLICE]: as results SLICE_METRIC (default high)
	awk -v sc="$1" -v sl="${3:-high}" '$1 == "latency" && NF >= 3 { printf "BENCH result %s %s_%s %s %s\n", sc, sl, $2, $3, $4 }' "$2"
}

# Latency histogram per phase of the probe, for the report's CDFs: 10
# log-spaced buckets per decade from 0.01 ms, "BENCH hist SCENARIO
# high_PHASE UPPER_MS COUNT" (non-empty buckets; a latency is counted in
# the first bucket whose upper bound is at least it).
probe_histogram() {	# probe_histogram SCENARIO FILE
	awk -v sc="$1" '{
		b = $3 <= 0.01 ? 0 : int(10 * log($3 / 0.01) / log(10) - 1e-9) + 1
		n[$1 " " b]++
	} END {
		for (k in n) {
			split(k, a, " ")
			printf "BENCH hist %s high_%s %.6g %d\n", sc, a[1], 0.01 * 10 ^ (a[2] / 10), n[k]
		}
	}' "$2" | sort -k4,4 -k5,5g
}

# a slice's CPU time in microseconds (cpu.stat's usage_usec, which cgroup v2
# keeps without the cpu controller)
cpu_usec() {	# cpu_usec SLICE
	awk '$1 == "usage_usec" { print $2 }' "/sys/fs/cgroup/$1/cpu.stat"
}

# high.slice's memory pressure stall time, "some" and "full" (us, cumulative)
psi_totals() {
	awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^total=/) printf "%s ", substr($i, 7) } END { print "" }' \
		/sys/fs/cgroup/high.slice/memory.pressure 2>/dev/null
}

psi_results() {	# psi_results SCENARIO "SOME FULL" "SOME FULL" SECONDS
	local b a
	read -r -a b <<<"$2"
	read -r -a a <<<"$3"
	((${#b[@]} == 2 && ${#a[@]} == 2)) || { say "no memory.pressure in high.slice (CONFIG_PSI?)"; return 0; }
	result "$1" high_psi_some "$(awk -v d=$((a[0] - b[0])) -v s="$4" 'BEGIN { printf "%.2f", d / 1e4 / s }')" %
	result "$1" high_psi_full "$(awk -v d=$((a[1] - b[1])) -v s="$4" 'BEGIN { printf "%.2f", d / 1e4 / s }')" %
}

refaults() {	# refaults SLICE: workingset_refault_anon + _file of its memory.stat
	awk '$1 ~ /^workingset_refault_(anon|file)$/ { n += $2 } END { print n + 0 }' "/sys/fs/cgroup/$1/memory.stat"
}

# start_probe ARGS...: the probe in high.slice in the background (PROBE_PID),
# returns once it has filled its working set
start_probe() {
	start_probe_in high "$@"
	PROBE_PID=$PROBE_IN_PID
}

# start_probe_in SHORT ARGS...: the probe in SHORT.slice (unit bench-probe-SHORT,
# files $WORK/probe[-SHORT].*; PROBE_IN_PID), with the shape's LAT_PROBE_ARGS;
# returns once it has filled its working set
LAT_PROBE_ARGS=()
# seconds a probe may take to fill its working set (L1lowfirst: against the writer)
PROBE_FILL_TIMEOUT=300
start_probe_in() {
	local sl=$1 end=$((SECONDS + PROBE_FILL_TIMEOUT)) f pid
	shift
	f="$WORK/probe"
	[[ "$sl" == high ]] || f="$WORK/probe-$sl"
	rm -f "$f.ready"
	run_unit "bench-probe-$sl" "$sl.slice" "$BENCH" latency --mib "$PROBE_MIB" --rate "$PROBE_RATE" \
		--pages "$PROBE_PAGES" --ready "$f.ready" --latencies "$f.lat" \
		--log "$f.log" ${LAT_PROBE_ARGS[@]+"${LAT_PROBE_ARGS[@]}"} "$@" >"$f.out" &
	pid=$!
	while [[ ! -e "$f.ready" ]]; do
		kill -0 "$pid" 2>/dev/null || { wait "$pid"; die "the latency probe in $sl.slice exited (status $?) before it was ready"; }
		((SECONDS < end)) || die "the latency probe in $sl.slice did not fill its $PROBE_MIB MiB in $PROBE_FILL_TIMEOUT s"
		sleep 0.2
	done
	PROBE_IN_PID=$pid
}

# L1: high.slice serves requests while low.slice's batch writer overflows
# RAM. The probe serves LAT_WARM seconds alone (warm_*), then low.slice
# writes for SECONDS_RUN and the probe measures the same SECONDS_RUN from
# the writer's first log line on (SIGUSR1 ends its warm-up: the first smoke
# run, timed from the writer's unit start, saw the probe finish before the
# writer, which took seconds to start in the guest)
# (high_p50/p99/p999/max, high_over_50ms_share); high.slice's memory PSI
# and refaults over that time; low.slice's rate over the last WINDOW
# seconds and over the whole run.
run_latency_contention() {	# run_latency_contention SCENARIO CONFIG
	local sc=$1 watcher writer psi0 psi1 ref0 cpu0 cpu1 t0 t1 mid_pid=""
	protection_latency "$2"
	latency_meta
	say "$sc: probe $PROBE_MIB MiB at $PROBE_RATE/s in high.slice$( ((TWO_SERVICES)) && echo " and in mid.slice"), ${LAT_WARM}s alone, then low.slice writes $MIB MiB for ${SECONDS_RUN}s ($2)"
	# a warm-up as long as the test may run: SIGUSR1 ends it when the writer starts
	start_probe --warm-up 3600 --seconds "$SECONDS_RUN"
	if ((TWO_SERVICES)); then
		start_probe_in mid --warm-up 3600 --seconds "$SECONDS_RUN" --seed 2
		mid_pid=$PROBE_IN_PID
	fi
	sleep "$LAT_WARM"
	diag_snapshot "$WORK/diag.before"
	psi0=$(psi_totals) ref0=$(refaults high.slice) cpu0=$(cpu_usec high.slice) t0=$(date +%s.%N)
	watch_memcgd &
	watcher=$!
	rm -f "$WORK/low.log"
	writer_unit bench-writer-low low.slice "$WORK/low.log" >&2 &
	writer=$!
	# the writer's first log line is its start: the probe's measured run starts with it
	while [[ ! -s "$WORK/low.log" ]]; do
		kill -0 "$writer" 2>/dev/null || { wait "$writer"; die "low.slice's writer exited (status $?) before it started"; }
		sleep 0.1
	done
	systemctl kill --signal=SIGUSR1 --kill-whom=main bench-probe-high.service ||
		die "could not end the latency probe's warm-up (SIGUSR1 to bench-probe-high.service)"
	if ((TWO_SERVICES)); then
		systemctl kill --signal=SIGUSR1 --kill-whom=main bench-probe-mid.service ||
			die "could not end mid.slice's probe's warm-up"
	fi
	ticks_start
	wait "$writer" || die "low.slice's writer failed"
	wait "$PROBE_PID" || die "the latency probe failed"
	[[ -z "$mid_pid" ]] || wait "$mid_pid" || die "mid.slice's latency probe failed"
	ticks_stop "$sc"
	kill "$watcher" 2>/dev/null || true
	psi1=$(psi_totals) cpu1=$(cpu_usec high.slice) t1=$(date +%s.%N)
	diag_snapshot "$WORK/diag.after"
	diag_delta "$sc" "$WORK/diag.before" "$WORK/diag.after"
	sed 's/^/  probe: /' "$WORK/probe.out" >&2
	probe_results "$sc" "$WORK/probe.out"
	probe_histogram "$sc" "$WORK/probe.lat"
	if ((TWO_SERVICES)); then
		sed 's/^/  mid probe: /' "$WORK/probe-mid.out" >&2
		probe_results "$sc" "$WORK/probe-mid.out" mid
		emit_series "$sc" mid "$WORK/probe-mid.log"
	fi
	psi_results "$sc" "$psi0" "$psi1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
	result "$sc" high_refaults "$(($(refaults high.slice) - ref0))" pages
	# what memcgd's CPUUsage= sees of the probe (latency/50-high.conf counts it active at 1%)
	result "$sc" high_cpu_share "$(awk -v d=$((cpu1 - cpu0)) -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.2f", d / 1e4 / (b - a) }')" %
	emit_series "$sc" high "$WORK/probe.log"
	emit_series "$sc" low "$WORK/low.log"
	result "$sc" low "$(window_rate "$WORK/low.log")" MiB/s
	result "$sc" low_mean "$(mean_rate "$WORK/low.log")" MiB/s
	memcgd_counters "$sc"
}

# L1lowfirst: low.slice's writer starts first (memcgd.bench_head_start
# seconds, default 20: RAM is full of its pages), then high.slice's probe
# starts, fills its working set against the writer (high_fill_s) and
# measures SECONDS_RUN; the writer is stopped when the probe is done (its log
# ends there: bench/targets.py takes low.slice's rate from the end of its
# first pass over its buffer to the end of the log).
run_latency_lowfirst() {	# run_latency_lowfirst SCENARIO CONFIG
	local sc=$1 head writer watcher psi0 psi1 ref0 cpu0 cpu1 t0 t1 f0 f1
	head=$(cmdline_value memcgd.bench_head_start 20)
	protection_latency "$2"
	latency_meta
	echo "BENCH meta head_start $head"
	say "$sc: low.slice writes $MIB MiB from the start, high.slice's probe ($PROBE_MIB MiB at $PROBE_RATE/s) starts ${head}s later and measures ${SECONDS_RUN}s ($2)"
	diag_snapshot "$WORK/diag.before"
	watch_memcgd &
	watcher=$!
	rm -f "$WORK/low.log"
	# long enough for any fill: stopped when the probe is done
	run_unit bench-writer-low low.slice "$BENCH" writer --mib "$MIB" --seconds $((head + SECONDS_RUN + 900)) \
		--log "$WORK/low.log" >&2 &
	writer=$!
	sleep "$head"
	kill -0 "$writer" 2>/dev/null || die "low.slice's writer exited before the probe started"
	ref0=$(refaults high.slice) f0=$(date +%s.%N)
	PROBE_FILL_TIMEOUT=900 start_probe --seconds "$SECONDS_RUN"
	f1=$(date +%s.%N)
	result "$sc" high_fill_s "$(awk -v a="$f0" -v b="$f1" 'BEGIN { printf "%.1f", b - a }')" s
	psi0=$(psi_totals) cpu0=$(cpu_usec high.slice) t0=$f1
	ticks_start
	wait "$PROBE_PID" || die "the latency probe failed"
	ticks_stop "$sc"
	psi1=$(psi_totals) cpu1=$(cpu_usec high.slice) t1=$(date +%s.%N)
	systemctl stop bench-writer-low.service 2>/dev/null || true
	wait "$writer" || true	# stopped: its log is complete to its last second
	kill "$watcher" 2>/dev/null || true
	diag_snapshot "$WORK/diag.after"
	diag_delta "$sc" "$WORK/diag.before" "$WORK/diag.after"
	sed 's/^/  probe: /' "$WORK/probe.out" >&2
	probe_results "$sc" "$WORK/probe.out"
	probe_histogram "$sc" "$WORK/probe.lat"
	psi_results "$sc" "$psi0" "$psi1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
	result "$sc" high_refaults "$(($(refaults high.slice) - ref0))" pages
	result "$sc" high_cpu_share "$(awk -v d=$((cpu1 - cpu0)) -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.2f", d / 1e4 / (b - a) }')" %
	emit_series "$sc" high "$WORK/probe.log"
	emit_series "$sc" low "$WORK/low.log"
	result "$sc" low "$(window_rate "$WORK/low.log")" MiB/s
	result "$sc" low_mean "$(mean_rate "$WORK/low.log")" MiB/s
	memcgd_counters "$sc"
}

# L2 and L3: high.slice serves LAT_WARM seconds (high_p99 and the rest: the
# service before it idles), then idles; IDLE_SETTLE
# seconds into the idle period low.slice's writer starts a fixed amount of
# work (WORK_MIB), cut off after SECONDS_RUN (L2: low_work_seconds, the time
# to finish it); 10 s after that cut-off the probe serves WAKE_REQUESTS more
# requests (L3: high_wake_p99, the price of having let its memory go).
run_latency_idle() {	# run_latency_idle SCENARIO CONFIG
	local sc=$1 settle idle out cpu0 cpu1 t0 t1
	settle=$(cmdline_value memcgd.bench_idle_settle 8)
	idle=$((settle + SECONDS_RUN + 10))
	protection_latency "$2"
	latency_meta
	echo "BENCH meta idle_settle_s $settle"
	echo "BENCH meta work_mib $WORK_MIB"
	say "$sc: probe $PROBE_MIB MiB at $PROBE_RATE/s for ${LAT_WARM}s, idle ${idle}s, $WAKE_REQUESTS requests; low.slice writes $WORK_MIB MiB from ${settle}s into the idle time, cut off at ${SECONDS_RUN}s ($2)"
	start_probe --seconds "$LAT_WARM" --idle "$idle" --wake "$WAKE_REQUESTS"
	sleep $((LAT_WARM + settle))
	if [[ "$2" == memcgd ]]; then
		slice_active high.slice && echo "BENCH meta high_active_at_low_start yes" ||
			echo "BENCH meta high_active_at_low_start no"
	fi
	echo "BENCH meta high_memory_current_before_mib $(cgroup_mib high.slice memory.current)"
	diag_snapshot "$WORK/diag.before"
	cpu0=$(cpu_usec high.slice) t0=$(date +%s.%N)
	ticks_start
	out=$(run_unit bench-writer-low low.slice "$BENCH" writer --mib "$MIB" --work "$WORK_MIB" \
		--seconds "$SECONDS_RUN" --log "$WORK/low.log") || die "low.slice's writer failed"
	cpu1=$(cpu_usec high.slice) t1=$(date +%s.%N)
	# what memcgd's CPUUsage= sees of the idle probe while low.slice works
	result "$sc" high_cpu_share "$(awk -v d=$((cpu1 - cpu0)) -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.2f", d / 1e4 / (b - a) }')" %
	printf '%s\n' "$out" >&2
	result "$sc" high_resident_at_work_end "$(cgroup_mib high.slice memory.current)" MiB
	result "$sc" high_swapped_at_work_end "$(cgroup_mib high.slice memory.swap.current)" MiB
	if [[ "$out" =~ work\ of\ [0-9]+\ MiB\ finished\ in\ ([0-9.]+)\ s ]]; then
		result "$sc" low_work_seconds "${BASH_REMATCH[1]}" s
		result "$sc" low_work_finished 1
	elif [[ "$out" =~ not\ finished:\ ([0-9]+)\ MiB\ in\ ([0-9.]+)\ s ]]; then
		result "$sc" low_work_seconds "${BASH_REMATCH[2]}" s
		result "$sc" low_work_finished 0
		result "$sc" low_work_done "${BASH_REMATCH[1]}" MiB
	else
		die "the writer printed no --work line: $out"
	fi
	wait "$PROBE_PID" || die "the latency probe failed"
	ticks_stop "$sc"
	diag_snapshot "$WORK/diag.after"
	diag_delta "$sc" "$WORK/diag.before" "$WORK/diag.after"
	sed 's/^/  probe: /' "$WORK/probe.out" >&2
	probe_results "$sc" "$WORK/probe.out"
	probe_histogram "$sc" "$WORK/probe.lat"
	emit_series "$sc" low "$WORK/low.log"
	memcgd_counters "$sc"
}

# --- Workload shapes (issue 32, item 2): labelled scenarios SHAPE-CONFIG,
# CONFIG memcgd (the shipped example policies, as L1-memcgd) or low
# (memory.low on the service, sized to its working set + 64 MiB, as L1-low),
# declared here before any run; the main shape (L1-*, L2-*) is unchanged:
#   L1w25, L2w25   the probe's working set 25 % of RAM (main: 50 %)
#   L1w70, L2w70   70 % of RAM
#   L1zipf         pages chosen Zipf-skewed, exponent ZIPF_S (0.99, as YCSB's
#                  default) instead of uniformly
#   L1onoff        an on/off service: after its warm-up the probe is busy 5-15 s
#                  (uniform) and idle 1-60 s (log-uniform) in turn, the periods
#                  drawn from the run's recorded seed and the boot's group
#                  (memcgd.bench_seed, memcgd.bench_group: both conditions of a
#                  pairing group see the same), meta onoff_periods; high_wake_p99
#                  is the first ONOFF_WAKE requests after each idle gap
#   L1lowfirst     low.slice's writer arrives first (run_latency_lowfirst)
#   L1two          two latency services, high.slice and mid.slice, each 25 % of
#                  RAM; memcgd: the shipped high.slice policy and the same as
#                  mid.slice with Priority=30 (mid_policy); low: memory.low on
#                  both; results high_* and mid_*
ZIPF_S=0.99
ONOFF_WAKE=20
TWO_SERVICES=0

mid_policy() {	# mid_policy HIGH_CONF: the shipped high.slice policy as mid.slice, Priority=30
	sed -e 's/^Name=high\.slice$/Name=mid.slice/' -e 's/^Priority=.*/Priority=30/' "$1"
}

onoff_periods() {	# "BUSY,IDLE,..." seconds covering SECONDS_RUN, from the seed and the group
	python3 - "$(cmdline_value memcgd.bench_seed 0)" "$(cmdline_value memcgd.bench_group 0)" "$SECONDS_RUN" <<-'PY'
	import math, random, sys
	seed, group, total = sys.argv[1], sys.argv[2], float(sys.argv[3])
	rng = random.Random(f"memcgd-bench onoff {seed} {group}")
	out, t = [], 0.0
	while t < total:
	    busy = 5 + 10 * rng.random()
	    gap = math.exp(rng.random() * math.log(60))
	    out += [busy, gap]
	    t += busy + gap
	print(",".join(f"{x:.1f}" for x in out))
	PY
}

run_shape() {	# run_shape SCENARIO: SHAPE-CONFIG
	local sc=$1 shape=${1%-*} config=${1##*-} periods
	[[ "$config" == memcgd || "$config" == low ]] || die "shape $shape: configuration '$config', want memcgd or low"
	echo "BENCH meta shape $shape"
	case "$shape" in
	L1w25|L2w25) PROBE_MIB=$((mem_total_mib * 25 / 100)) ;;
	L1w70|L2w70) PROBE_MIB=$((mem_total_mib * 70 / 100)) ;;
	L1zipf) LAT_PROBE_ARGS=(--zipf "$ZIPF_S"); echo "BENCH meta zipf_s $ZIPF_S" ;;
	L1onoff)
		periods=$(onoff_periods) || die "could not draw the on/off periods"
		echo "BENCH meta onoff_periods $periods"
		LAT_PROBE_ARGS=(--periods "$periods" --wake "$ONOFF_WAKE") ;;
	L1two) PROBE_MIB=$((mem_total_mib / 4)); TWO_SERVICES=1 ;;
	L1lowfirst) ;;
	*) die "unknown workload shape '$shape'" ;;
	esac
	case "$shape" in
	L2*) run_latency_idle "$sc" "$config" ;;
	L1lowfirst) run_latency_lowfirst "$sc" "$config" ;;
	*) run_latency_contention "$sc" "$config" ;;
	esac
}

# --- NUMA scenarios (issue 19, "Measure"): N-memcgd, N-off, N-global
#
# On a guest with two NUMA nodes (run-vm.sh --numa: vCPU 0 on node 0, vCPU 1
# on node 1, half the RAM each), numa.slice and other.slice each run
# memcgd-bench numa over NUMA_MIB MiB (memcgd.bench_numa_mib, default 256:
# both buffers, first touched on node 0, fit in its half of 2 GiB) for
# SECONDS_RUN seconds, at the same time:
#   numa.slice   first touch on node 0's CPU, then runs on node 1's CPU: its
#                pages are all remote until NUMA balancing moves them (the
#                workload that benefits)
#   other.slice  first touch and run on node 0's CPU: nothing to move, so
#                whatever balancing does to it is pure overhead
# The configurations, fixed before any run:
#   N-memcgd  kernel.numa_balancing=0, memcgd with the policy declared in
#             numa_policies (numa.slice: [NUMA] Balancing=yes and nothing else,
#             the kernel's default scan parameters; other.slice: no [NUMA])
#   N-off     kernel.numa_balancing=0, no memcgd (balancing off everywhere)
#   N-global  kernel.numa_balancing=1, no memcgd (balancing on everywhere)
# kernel.numa_balancing is restored by bench_cleanup. Results, per slice
# (prefix numa_ or other_): local_share (pages on the node of the CPU it runs
# on, at the end), seconds_to_90 (first second with >= 90 % local, -1:
# never), passes_per_s (passes over the buffer per second), first_node0_share
# (after the first touch), and the slice's memory.stat deltas over the run:
# pte_updates, hint_faults, pages_migrated (of numa_pte_updates,
# numa_hint_faults, numa_pages_migrated).
NUMA_MIB=$(cmdline_value memcgd.bench_numa_mib 256)
NUMA_SAVED=""
NUMA_VMSTAT_KEYS="numa_pte_updates numa_huge_pte_updates numa_hint_faults numa_hint_faults_local numa_pages_migrated"

numa_cpus() {	# numa_cpus NODE: the node's CPU list ("" when it has none)
	tr -d '[:space:]' 2>/dev/null <"/sys/devices/system/node/node$1/cpulist" || true
}

# Two nodes with CPUs (a node with memory only has a cpulist too, empty; and
# test -s is no test on sysfs, whose files all have a size)
numa_nodes() {
	[[ -n "$(numa_cpus 0)" && -n "$(numa_cpus 1)" ]]
}

first_cpu_of() {	# first_cpu_of NODE
	numa_cpus "$1" | cut -d, -f1 | cut -d- -f1
}

# The policy of N-memcgd, declared here before any run. Both slices have the
# same priority, so that neither throttles the other: [NUMA] is the only
# difference between them.
numa_policies() {
	cat >/etc/memcgd.d/50-numa.conf <<-EOT
	[Slice]
	Name=numa.slice
	Priority=50
	[NUMA]
	Balancing=yes
	EOT
	cat >/etc/memcgd.d/50-other.conf <<-EOT
	[Slice]
	Name=other.slice
	Priority=50
	EOT
	local f
	for f in 50-numa.conf 50-other.conf; do
		echo "BENCH meta policy_$f $(sha256sum "/etc/memcgd.d/$f" | cut -c1-16) (declared in bench-lib.sh)"
	done
}

numa_memcgd_on() {	# memcgd's program balances numa.slice and leaves other.slice to the kernel
	memcgctl status --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
numa = {x["name"]: x.get("numa") for x in s["slices"]}
sys.exit(0 if s["daemon"].get("numa_loaded") and numa.get("numa.slice") == "on"
         and numa.get("other.slice") == "kernel" else 1)'
}

# "PTE_UPDATES HINT_FAULTS PAGES_MIGRATED" of SLICE's memory.stat
numa_stat() {	# numa_stat SLICE
	awk '$1 == "numa_pte_updates" { a = $2 } $1 == "numa_hint_faults" { b = $2 }
		$1 == "numa_pages_migrated" { c = $2 }
		END { if (a == "" || b == "" || c == "") exit 1; print a, b, c }' "/sys/fs/cgroup/$1/memory.stat" ||
		die "$1's memory.stat has no numa_pte_updates/numa_hint_faults/numa_pages_migrated (CONFIG_NUMA_BALANCING?)"
}

numa_stat_results() {	# numa_stat_results SCENARIO SHORT "BEFORE" "AFTER"
	local b a
	read -r -a b <<<"$3"
	read -r -a a <<<"$4"
	result "$1" "$2_pte_updates" $((a[0] - b[0])) pages
	result "$1" "$2_hint_faults" $((a[1] - b[1])) faults
	result "$1" "$2_pages_migrated" $((a[2] - b[2])) pages
}

# The workload's "numa METRIC VALUE" lines: shares, passes and time to 90 %
# as results SHORT_METRIC, where it ran as meta lines SHORT_METRIC
numa_results() {	# numa_results SCENARIO SHORT FILE
	awk -v sc="$1" -v sl="$2" '$1 != "numa" || NF != 3 { next }
		$2 ~ /_share$/ { printf "BENCH result %s %s_%s %s share\n", sc, sl, $2, $3; next }
		$2 == "passes_per_s" { printf "BENCH result %s %s_%s %s passes/s\n", sc, sl, $2, $3; next }
		$2 == "seconds_to_90" { printf "BENCH result %s %s_%s %s s\n", sc, sl, $2, $3; next }
		{ printf "BENCH meta %s_%s %s\n", sl, $2, $3 }' "$3"
}

# Its log ("<s> <local share> <passes>") as two series: SHORT (passes, a
# progress count like the writers') and SHORT_local (the share)
numa_series() {	# numa_series SCENARIO SHORT LOG
	awk -v sc="$1" -v sl="$2" '{ printf "BENCH series %s %s %s %s\nBENCH series %s %s_local %s %s\n",
		sc, sl, $1, $3, sc, sl, $1, $2 }' "$3"
}

run_numa() {	# run_numa SCENARIO memcgd|off|global
	local sc=$1 cpu0 cpu1 before_numa before_other after_numa after_other pids=() i sl watcher
	cpu0=$(first_cpu_of 0)
	cpu1=$(first_cpu_of 1)
	NUMA_SAVED=$(cat /proc/sys/kernel/numa_balancing)
	echo "BENCH meta numa_balancing_at_start $NUMA_SAVED"
	case "$2" in
	memcgd|off) echo 0 >/proc/sys/kernel/numa_balancing ;;
	global) echo 1 >/proc/sys/kernel/numa_balancing ;;
	*) die "unknown NUMA configuration '$2'" ;;
	esac
	echo "BENCH meta numa_balancing $(cat /proc/sys/kernel/numa_balancing)"
	echo "BENCH meta numa_mib $NUMA_MIB"
	echo "BENCH meta numa_node0_cpus $(numa_cpus 0)"
	echo "BENCH meta numa_node1_cpus $(numa_cpus 1)"
	# the kernel's scan parameters (debugfs), which N-memcgd's policy leaves as they are
	for i in /sys/kernel/debug/sched/numa_balancing/*; do
		if [[ -f "$i" ]]; then echo "BENCH meta numa_$(basename "$i") $(cat "$i" 2>/dev/null)"; fi
	done
	start_unit bench-anchor-numa numa.slice sleep infinity
	start_unit bench-anchor-other other.slice sleep infinity
	if [[ "$2" == memcgd ]]; then
		numa_policies
		start_memcgd numa.slice other.slice
		wait_for 30 "memcgd's NUMA program to balance numa.slice (memcg_bpf_ops::numa_balancing)" numa_memcgd_on
	fi
	echo "BENCH meta protection numa-$2"
	say "$sc: numa.slice touches $NUMA_MIB MiB on CPU $cpu0 (node 0) and runs on CPU $cpu1 (node 1), other.slice touches and runs on CPU $cpu0, ${SECONDS_RUN}s ($2)"
	pick_keys "$NUMA_VMSTAT_KEYS" vm_ /proc/vmstat >"$WORK/diag.before"
	before_numa=$(numa_stat numa.slice)
	before_other=$(numa_stat other.slice)
	watch_memcgd &
	watcher=$!
	run_unit bench-numa-numa numa.slice "$BENCH" numa --mib "$NUMA_MIB" --first-cpu "$cpu0" \
		--run-cpu "$cpu1" --seconds "$SECONDS_RUN" --log "$WORK/numa.log" >"$WORK/numa.out" &
	pids+=($!)
	run_unit bench-numa-other other.slice "$BENCH" numa --mib "$NUMA_MIB" --first-cpu "$cpu0" \
		--run-cpu "$cpu0" --seconds "$SECONDS_RUN" --log "$WORK/other.log" >"$WORK/other.out" &
	pids+=($!)
	for i in "${pids[@]}"; do wait "$i" || die "a NUMA workload failed"; done
	after_numa=$(numa_stat numa.slice)
	after_other=$(numa_stat other.slice)
	pick_keys "$NUMA_VMSTAT_KEYS" vm_ /proc/vmstat >"$WORK/diag.after"
	kill "$watcher" 2>/dev/null || true
	numa_stat_results "$sc" numa "$before_numa" "$after_numa"
	numa_stat_results "$sc" other "$before_other" "$after_other"
	diag_delta "$sc" "$WORK/diag.before" "$WORK/diag.after"
	for sl in numa other; do
		sed "s/^/  $sl: /" "$WORK/$sl.out" >&2
		numa_results "$sc" "$sl" "$WORK/$sl.out"
		numa_series "$sc" "$sl" "$WORK/$sl.log"
	done
	memcgd_counters "$sc"
}
