#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# memcgctl as a user runs it: check (files, directories, exit codes, file:line), status when
# memcgd is not running, status from a state file. usage: test-memcgctl-cli.sh MEMCGCTL CONF_DIR
set -euo pipefail
memcgctl=$1 examples=$2
tmp=$(mktemp -d)
umask 022 # files written below are not group-writable (memcgd.d(5), "Ownership and permissions")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# the shipped examples validate
"$memcgctl" check "$examples"/memcgd.conf "$examples"/*.conf >"$tmp/out" 2>&1 || fail "examples do not validate: $(cat "$tmp/out")"
grep -q "configuration OK: 3 slices" "$tmp/out" || fail "examples: $(cat "$tmp/out")"
grep -q "high.slice priority 50, busy at any page fault or at any CPU time, protect low" "$tmp/out" ||
	fail "the activity of 50-high.conf not shown: $(cat "$tmp/out")"
# the policy engine's settings of each slice on a line of their own
grep -A2 ": high.slice priority 50," "$tmp/out" |
	grep -qx "  \[Activity\] Hold=auto (learned, at most 5min), \[Protect\] Size=footprint, \[Throttle\] When=pressure" ||
	fail "the hold, size and throttle condition of 50-high.conf not shown: $(cat "$tmp/out")"
# its commented [NUMA] policy stays commented: the kernel decides
grep -A1 ": high.slice priority 50," "$tmp/out" | grep -qx "  \[NUMA\] Balancing=default (as kernel.numa_balancing)" ||
	fail "[NUMA] of 50-high.conf not shown: $(cat "$tmp/out")"
# An example kept in a subdirectory is an alternative to a top-level one for the same slice:
# it validates with the top-level example of the other slice, shows LINE (a regular expression),
# and is refused together with the file it replaces.
check_alternative() {	# check_alternative FILE PARTNER REPLACED SLICE LINE
	local file=$1 partner=$2 replaced=$3 slice=$4 line=$5
	"$memcgctl" check "$examples"/memcgd.conf "$examples/$partner" "$examples/$file" >"$tmp/out" 2>&1 ||
		fail "$file does not validate: $(cat "$tmp/out")"
	grep -q "configuration OK: 2 slices" "$tmp/out" || fail "$file: $(cat "$tmp/out")"
	grep -q "$line" "$tmp/out" || fail "$file: no line matching '$line': $(cat "$tmp/out")"
	if "$memcgctl" check "$examples/$replaced" "$examples/$file" >"$tmp/out" 2>&1; then
		fail "$replaced and $file together were accepted (both are $slice)"
	fi
}
check_alternative background/10-low.conf 50-high.conf 10-low.conf low.slice \
	"low.slice priority 10, .*, throttle never, background reclaim below 256M free, 64M/s$"
# latency/50-high.conf is kept as an alias of 50-high.conf, which is the latency-service policy now
check_alternative latency/50-high.conf 10-low.conf 50-high.conf high.slice \
	"high.slice priority 50, busy at any page fault or at any CPU time, protect low, throttle never$"

# [NUMA]: the policy of each slice on a line of its own; tuning without Balancing=yes is a note
printf '[Slice]\nName=numa.slice\nPriority=20\n[NUMA]\nBalancing=yes\nScanPeriodMin=500ms\nScanSize=256M\n' >"$tmp/numa.conf"
printf '[Slice]\nName=tuned.slice\nPriority=30\n[NUMA]\nHotThreshold=2s\n' >"$tmp/tuned.conf"
printf '[Slice]\nName=off.slice\nPriority=40\n[NUMA]\nBalancing=no\n' >"$tmp/off.conf"
"$memcgctl" check "$tmp/numa.conf" "$tmp/tuned.conf" "$tmp/off.conf" >"$tmp/out" 2>"$tmp/err" ||
	fail "[NUMA] files refused: $(cat "$tmp/out" "$tmp/err")"
grep -A1 ": numa.slice priority 20," "$tmp/out" |
	grep -qx "  \[NUMA\] Balancing=yes, ScanPeriodMin=500ms ScanSize=256M, the kernel's other parameters" ||
	fail "numa.slice's [NUMA] not shown: $(cat "$tmp/out")"
grep -A1 ": off.slice priority 40," "$tmp/out" |
	grep -qx "  \[NUMA\] Balancing=no (never NUMA balanced, whatever kernel.numa_balancing says)" ||
	fail "off.slice's [NUMA] not shown: $(cat "$tmp/out")"
grep -qx "$tmp/tuned.conf:5: note: \[NUMA\] HotThreshold= applies only with Balancing=yes; tuned.slice has Balancing=default" \
	"$tmp/out" || fail "no note for HotThreshold= without Balancing=yes: $(cat "$tmp/out")"
grep -q "configuration OK: 3 slices" "$tmp/out" || fail "[NUMA] files: $(cat "$tmp/out")"
[[ ! -s "$tmp/err" ]] || fail "a note went to stderr: $(cat "$tmp/err")"
printf '[Slice]\nName=numa.slice\nPriority=20\n[NUMA]\nScanPeriodMax=1min\nScanPeriodMin=2min\nScanSize=1G 1K\n' >"$tmp/numa.conf"
if "$memcgctl" check "$tmp/numa.conf" >"$tmp/out" 2>"$tmp/err"; then fail "check accepted ScanPeriodMin= above ScanPeriodMax="; fi
grep -q "^$tmp/numa.conf:6: ScanPeriodMin=2min is above ScanPeriodMax=1min (line 5)" "$tmp/err" ||
	fail "no file:line for ScanPeriodMin= above ScanPeriodMax=: $(cat "$tmp/err")"
grep -q "^$tmp/numa.conf:7: ScanSize='1G 1K' is not a NUMA scan size" "$tmp/err" || fail "no file:line for ScanSize=: $(cat "$tmp/err")"

# a broken file: non-zero exit, file:line on stderr
printf '[Slice]\nName=web.slice\nPriority=high\n[Throttle]\nDelay=5s\n' >"$tmp/bad.conf"
if "$memcgctl" check "$tmp/bad.conf" >"$tmp/out" 2>"$tmp/err"; then fail "check accepted a broken file"; fi
grep -q "^$tmp/bad.conf:3: Priority='high' is not a priority" "$tmp/err" || fail "no file:line for Priority: $(cat "$tmp/err")"
grep -q "^$tmp/bad.conf:5: Delay='5s' is not a throttle delay" "$tmp/err" || fail "no file:line for Delay: $(cat "$tmp/err")"

# StrictModes: a world-writable policy file is refused with a clear message
printf '[Slice]\nName=web.slice\nPriority=5\n' >"$tmp/open.conf"
chmod 0666 "$tmp/open.conf"
if "$memcgctl" check "$tmp/open.conf" >"$tmp/out" 2>"$tmp/err"; then fail "check accepted a world-writable file"; fi
grep -q "^$tmp/open.conf: refused: world-writable (mode 0666)" "$tmp/err" || fail "no StrictModes message: $(cat "$tmp/err")"
chmod 0644 "$tmp/open.conf"
"$memcgctl" check "$tmp/open.conf" >"$tmp/out" 2>&1 || fail "check refused a 0644 file: $(cat "$tmp/out")"

# the directory search below --root, with masking
mkdir -p "$tmp/root/etc/memcgd.d" "$tmp/root/usr/lib/memcgd.d"
cp "$examples/50-high.conf" "$tmp/root/usr/lib/memcgd.d/"
cp "$tmp/bad.conf" "$tmp/root/usr/lib/memcgd.d/60-bad.conf"
if "$memcgctl" --root="$tmp/root" check >/dev/null 2>"$tmp/err"; then fail "check --root accepted a broken file"; fi
grep -q "usr/lib/memcgd.d/60-bad.conf:3:" "$tmp/err" || fail "no error for 60-bad.conf: $(cat "$tmp/err")"
ln -s /dev/null "$tmp/root/etc/memcgd.d/60-bad.conf"
"$memcgctl" --root="$tmp/root" check >"$tmp/out" 2>&1 || fail "masked file still checked: $(cat "$tmp/out")"
grep -q "configuration OK: 1 slice" "$tmp/out" || fail "masking: $(cat "$tmp/out")"

# the Mode=min budget, for the nodes' memory (--memory=): two 4G ceilings fit 16G, not 8G
# (8G minus a tenth), and the lower priority is the one named
printf '[Slice]\nName=a.slice\nPriority=50\n[Protect]\nMode=min\nMaxUsage=4G\n' > "$tmp/min-a.conf"
printf '[Slice]\nName=b.slice\nPriority=40\n[Protect]\nMode=min\nMaxUsage=4G\n' > "$tmp/min-b.conf"
"$memcgctl" --memory=16G check "$tmp/min-a.conf" "$tmp/min-b.conf" >"$tmp/out" 2>&1 ||
	fail "two 4G Mode=min ceilings refused on 16G: $(cat "$tmp/out")"
if "$memcgctl" --memory=8G check "$tmp/min-a.conf" "$tmp/min-b.conf" >"$tmp/out" 2>"$tmp/err"; then
	fail "two 4G Mode=min ceilings accepted on 8G"
fi
grep -q "^$tmp/min-b.conf:2: Mode=min of b.slice does not fit the memory" "$tmp/err" ||
	fail "the budget error does not name b.slice's file:line: $(cat "$tmp/err")"
if "$memcgctl" --memory=lots check "$tmp/min-a.conf" >/dev/null 2>"$tmp/err"; then fail "--memory=lots accepted"; fi
grep -q "memcgctl: --memory='lots' is not a memory size" "$tmp/err" || fail "--memory=lots: $(cat "$tmp/err")"

# not running: exit 3 and a clear message, text and JSON
set +e
"$memcgctl" --state-file="$tmp/none" status >"$tmp/out" 2>&1
rc=$?
set -e
[[ $rc == 3 ]] || fail "status without memcgd: exit $rc"
grep -q "memcgd is not running" "$tmp/out" || fail "no 'not running' message: $(cat "$tmp/out")"
set +e
"$memcgctl" --state-file="$tmp/none" status --json >"$tmp/out" 2>&1
set -e
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["daemon"]["running"] is False else 1)' "$tmp/out" ||
	fail "JSON when not running: $(cat "$tmp/out")"

# a state file of a dead process counts as not running
printf 'daemon\tpid=999999999\tstate=running\n' >"$tmp/state"
set +e
"$memcgctl" --state-file="$tmp/state" status >"$tmp/out" 2>&1
rc=$?
set -e
[[ $rc == 3 ]] || fail "stale state file: exit $rc"

# a live state file (this shell's pid) is shown, one slice or all, text and JSON
printf 'daemon\tpid=%d\tstate=running\tmode=enforce\tupdated=%d000000\tgeneration=1\tsupported=1\thooks=below_low below_min\n' $$ "$(date +%s)" >"$tmp/state"
printf 'slice\tname=high.slice\tpriority=50\tattach=attached\tcgroup=/high.slice\tcgroup_id=42\tprotect=min\trate=1234.5\tactive=1\n' >>"$tmp/state"
printf 'slice\tname=low.slice\tpriority=10\tattach=not-running\treason=slice is inactive\tprotect=none\tdelay_ms=100\n' >>"$tmp/state"
"$memcgctl" --state-file="$tmp/state" status >"$tmp/out" 2>&1 || fail "status: $(cat "$tmp/out")"
grep -Eq '^high\.slice +50 attached +1234\.5 yes +protect-min' "$tmp/out" || fail "status table: $(cat "$tmp/out")"
grep -q 'Attached:     no: not-running, slice is inactive' "$tmp/out" || fail "status reason: $(cat "$tmp/out")"
"$memcgctl" --state-file="$tmp/state" status --json low.slice >"$tmp/out" 2>&1 || fail "status --json SLICE"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [s["name"] for s in d["slices"]] == ["low.slice"], d
assert d["slices"][0]["reason"] == "slice is inactive", d
assert d["kernel"]["hooks"] == ["below_low", "below_min"], d
' "$tmp/out" || fail "JSON status: $(cat "$tmp/out")"
# NUMA: the policy in force from the state file, memory.stat's numa_* items from the slice's cgroup
mkdir -p "$tmp/cg/high.slice"
echo 1048576 >"$tmp/cg/high.slice/memory.current"
printf 'anon 1048576\nnuma_pages_migrated 15900\nnuma_pte_updates 16384\nnuma_hint_faults 16000\n' >"$tmp/cg/high.slice/memory.stat"
printf 'daemon\tpid=%d\tstate=running\tmode=enforce\tupdated=%d000000\tgeneration=1\tsupported=1\tnuma_hook=1\tnuma_loaded=1\n' $$ "$(date +%s)" >"$tmp/state"
printf 'slice\tname=high.slice\tpriority=50\tattach=attached\tcgroup=/high.slice\tprotect=min\tnuma=yes\tnuma_scan_min=500000\tnuma_on=7\n' >>"$tmp/state"
"$memcgctl" --state-file="$tmp/state" --cgroup-root="$tmp/cg" status >"$tmp/out" 2>&1 || fail "status with NUMA: $(cat "$tmp/out")"
grep -Eq '^NUMA: +memcg_bpf_ops::numa_balancing loaded: \[NUMA\] Balancing= decides per slice, kernel\.numa_balancing(=[0-9])? for the others$' "$tmp/out" ||
	fail "no daemon NUMA line: $(cat "$tmp/out")"
grep -Eq '^  NUMA: +on \(Balancing=yes, whatever kernel\.numa_balancing(=[0-9])? says\): ScanPeriodMin=500ms, the kernel.s other parameters; 7 on, 0 off decisions$' "$tmp/out" ||
	fail "no slice NUMA line: $(cat "$tmp/out")"
grep -q '^  NUMA stat:    16384 PTE updates, 16000 hinting faults, 15900 pages migrated (memory.stat)$' "$tmp/out" ||
	fail "memory.stat's numa_* items not shown: $(cat "$tmp/out")"
"$memcgctl" --state-file="$tmp/state" --cgroup-root="$tmp/cg" status --json >"$tmp/out" 2>&1 || fail "status --json with NUMA"
python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
s = d["slices"][0]
assert s["numa"] == "on", s
assert s["policy"]["numa_balancing"] == "yes" and s["policy"]["numa_scan_period_min_usec"] == 500000, s
assert s["policy"]["numa_scan_size"] is None, s
assert s["counters"]["numa_on_decisions"] == 7, s
assert s["memory_stat"] == {"numa_pte_updates": 16384, "numa_hint_faults": 16000, "numa_pages_migrated": 15900}, s
assert d["daemon"]["numa_hook"] is True and d["daemon"]["numa_loaded"] is True, d
# memcgctl reads the switch itself
want = int(open("/proc/sys/kernel/numa_balancing").read()) if os.path.exists("/proc/sys/kernel/numa_balancing") else None
assert d["kernel"]["numa_balancing"] == want, d
' "$tmp/out" || fail "JSON NUMA status: $(cat "$tmp/out")"
if "$memcgctl" --state-file="$tmp/state" status nosuch.slice >/dev/null 2>"$tmp/err"; then fail "unknown slice accepted"; fi
grep -q "nosuch.slice is not managed" "$tmp/err" || fail "unknown slice message: $(cat "$tmp/err")"

# reload: SIGHUP to the daemon, then wait for its reload counter and report the outcome
fake_daemon() { # fake_daemon ERROR [SKIPPED]: a stand-in memcgd answering SIGHUP like the real one;
	# SKIPPED: a file:line:message it left out of the reload
	# python, not bash: a shell cannot trap a signal that was ignored when it
	# started (e.g. under nohup), python resets the disposition explicitly.
	python3 - "$tmp/rstate" "$1" "${2:-}" <<'PY' &
import ctypes, os, signal, sys, time
state, err, skipped = sys.argv[1], sys.argv[2], sys.argv[3]
# memcgctl reload signals a process only if it is memcgd (its comm): PR_SET_NAME
ctypes.CDLL(None).prctl(15, b"memcgd", 0, 0, 0)
def write(reloads, generation, error=None):
    line = "daemon\tpid=%d\treloads=%d\tgeneration=%d" % (os.getpid(), reloads, generation)
    if error is not None:
        line += "\treload_error=" + error
    if reloads and skipped:
        file, lineno, message = skipped.split(":", 2)
        line += "\nskipped\tfile=%s\tline=%s\tmessage=%s" % (file, lineno, message)
    with open(state + ".tmp", "w") as f:
        f.write(line + "\n")
    os.rename(state + ".tmp", state)
signal.signal(signal.SIGHUP, lambda *_: write(1, 2, err))
write(0, 1)
time.sleep(30)
PY
	fake_pid=$!
	for _ in $(seq 50); do [[ -s "$tmp/rstate" ]] && break; sleep 0.1; done
}
fake_daemon ""
"$memcgctl" --state-file="$tmp/rstate" reload >"$tmp/out" 2>&1 || fail "reload: $(cat "$tmp/out")"
grep -q "memcgd reloaded: configuration generation 2" "$tmp/out" || fail "reload output: $(cat "$tmp/out")"
kill "$fake_pid" 2>/dev/null || true
wait "$fake_pid" 2>/dev/null || true
rm -f "$tmp/rstate"
fake_daemon "/etc/memcgd.d/x.conf:3: Mode='max' is not a protection mode"
if "$memcgctl" --state-file="$tmp/rstate" reload >"$tmp/out" 2>&1; then fail "failed reload reported success"; fi
grep -q "reload failed, previous policy (generation 2) kept: /etc/memcgd.d/x.conf:3:" "$tmp/out" || fail "failed reload output: $(cat "$tmp/out")"
kill "$fake_pid" 2>/dev/null || true
wait "$fake_pid" 2>/dev/null || true
rm -f "$tmp/rstate"
# a reload that applied the valid files and left one out: a success (the valid files apply),
# with the left-out file named
fake_daemon "" "/etc/memcgd.d/60-c.conf:2:Mode=min of c.slice does not fit the memory"
"$memcgctl" --state-file="$tmp/rstate" reload >"$tmp/out" 2>"$tmp/err" || fail "a partial reload failed: $(cat "$tmp/err")"
grep -q "memcgd reloaded: configuration generation 2" "$tmp/out" || fail "partial reload output: $(cat "$tmp/out")"
grep -qx "/etc/memcgd.d/60-c.conf:2: Mode=min of c.slice does not fit the memory" "$tmp/err" ||
	fail "the left-out file is not named: $(cat "$tmp/err")"
grep -q "those files were left out" "$tmp/err" || fail "partial reload: $(cat "$tmp/err")"
# a user who is neither root nor memcgd's user may read the status but not reload
if [[ $EUID == 0 ]] && command -v setpriv >/dev/null; then
	chmod 755 "$tmp"
	chmod 644 "$tmp/rstate"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$memcgctl" --state-file="$tmp/rstate" status >"$tmp/out" 2>&1 ||
		fail "status as an unprivileged user: $(cat "$tmp/out")"
	if setpriv --reuid=65534 --regid=65534 --clear-groups "$memcgctl" --state-file="$tmp/rstate" reload >"$tmp/out" 2>&1; then
		fail "reload by an unprivileged user succeeded"
	fi
	grep -q "permission denied: only root can reload memcgd" "$tmp/out" || fail "unprivileged reload message: $(cat "$tmp/out")"
else
	echo "SKIP: unprivileged reload check (needs root and setpriv)"
fi
kill "$fake_pid" 2>/dev/null || true
wait "$fake_pid" 2>/dev/null || true
# a pid that is not memcgd (pid reuse after a SIGKILL left the state file behind) gets no signal
printf 'daemon\tpid=%d\treloads=0\n' $$ >"$tmp/rstate"
set +e
"$memcgctl" --state-file="$tmp/rstate" reload >"$tmp/out" 2>&1
rc=$?
set -e
[[ $rc == 3 ]] || fail "reload of a non-memcgd pid: exit $rc"
grep -q "is '.*', not memcgd (a stale pid?)" "$tmp/out" || fail "stale pid message: $(cat "$tmp/out")"
set +e
"$memcgctl" --state-file="$tmp/none" reload >/dev/null 2>&1
rc=$?
set -e
[[ $rc == 3 ]] || fail "reload without memcgd: exit $rc"

# bad usage
if "$memcgctl" frobnicate >/dev/null 2>&1; then fail "unknown command accepted"; fi

if ((failures)); then
	echo "$failures failures"
	exit 1
fi
echo "memcgctl CLI: all checks passed"
