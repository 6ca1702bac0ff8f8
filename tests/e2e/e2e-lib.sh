# SPDX-License-Identifier: GPL-2.0-only
# Helpers for memcgd's VM end-to-end tests (sourced, not run). Runs inside the guest as root.
set -euo pipefail

E2E_FAULTER=${E2E_FAULTER:-/usr/lib/memcgd/faulter.py}
E2E_UNITS=()

log() { printf '[%s] %s\n' "$(date +%T)" "$*"; }
fail() { log "FAIL: $*"; exit 1; }
skip() { log "SKIP: $*"; exit 77; }

e2e_require() {
	[[ $EUID -eq 0 ]] || skip "needs root"
	command -v memcgd >/dev/null || fail "memcgd is not installed"
	command -v memcgctl >/dev/null || fail "memcgctl is not installed"
	[[ -f /sys/fs/cgroup/cgroup.controllers ]] || fail "cgroup v2 is not mounted at /sys/fs/cgroup"
	grep -qw memory /sys/fs/cgroup/cgroup.controllers || fail "no memory controller"
	command -v python3 >/dev/null || fail "python3 is missing"
	# the project's kernel must offer the hooks; a kernel without them is a failure, not a skip
	# (grep, not Python: each test starts with this, and Python's start costs seconds under TCG)
	grep -qaF memcg_bpf_ops /sys/kernel/btf/vmlinux ||
		fail "kernel $(uname -r) has no memcg_bpf_ops in its BTF"
}

# Fresh configuration and a stopped daemon.
e2e_reset() {
	systemctl stop memcgd.service 2>/dev/null || true
	systemctl reset-failed memcgd.service 2>/dev/null || true
	rm -rf /etc/memcgd.d /etc/memcgd.conf
	mkdir -p /etc/memcgd.d
}

e2e_cleanup() {
	local u
	# one systemctl for all (each systemctl costs about a second of guest CPU on the debug
	# kernel); units that are not loaded are ignored, as the loop of single stops did
	systemctl stop "${E2E_UNITS[@]}" memcgd.service 2>/dev/null || true
	systemctl stop high.slice low.slice late.slice e2e-a.slice e2e-b.slice e2e.slice 2>/dev/null || true
	rm -rf /etc/memcgd.d /etc/memcgd.conf
}

# e2e_policy FILE NAME PRIORITY [extra lines...]
e2e_policy() {
	local file=$1 name=$2 prio=$3
	shift 3
	{
		printf '[Slice]\nName=%s\nPriority=%s\n' "$name" "$prio"
		local l
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"/etc/memcgd.d/$file"
}

# The RFC's scenario with thresholds a TCG guest reaches easily, as memcgd 2 ran it: active by a
# fault rate alone (CPUUsage=off), a fixed hold, all-or-nothing protection (Size=all), and a delay
# whenever the higher slice is active (When=active). The policy engine's defaults have tests of
# their own (78-policy-engine).
e2e_high_low_policies() {
	e2e_policy 50-high.conf high.slice 50 '[Activity]' 'PageFaultRate=200' 'Window=500ms' 'Hold=500ms' \
		'CPUUsage=off' '[Protect]' 'Mode=min' 'Size=all' '[Throttle]' 'Delay=0'
	e2e_policy 10-low.conf low.slice 10 '[Activity]' 'PageFaultRate=200' 'Window=500ms' 'Hold=500ms' \
		'CPUUsage=off' '[Protect]' 'Mode=none' '[Throttle]' 'Delay=100ms' 'When=active' 'MaxContinuous=10min'
}

# e2e_run UNIT SLICE COMMAND...: a transient service in SLICE (memory accounting on)
e2e_run() {
	local unit=$1 slice=$2
	shift 2
	E2E_UNITS+=("$unit.service")
	systemd-run --quiet --unit="$unit" --slice="$slice" -p MemoryAccounting=yes --collect "$@"
}

e2e_start_memcgd() {
	systemctl start memcgd.service || { journalctl -u memcgd --no-pager -n 50; fail "memcgd did not start"; }
}

# e2e_wait SECONDS DESCRIPTION COMMAND...: poll every 0.2 s. `e2e_wait ... e2e_true EXPR` polls
# in one Python process (e2e_poll_json): on the debug kernel under TCG every process started costs
# 0.3-1 s of guest CPU, and a Python start per poll took CPU from what the test waits for.
e2e_wait() {
	local timeout=$1 what=$2
	shift 2
	if [[ $1 == e2e_true && $# == 2 ]]; then
		e2e_poll_json "$timeout" "$2" && return 0
	else
		local end=$((SECONDS + timeout))
		while ((SECONDS < end)); do
			if "$@" >/dev/null 2>&1; then return 0; fi
			sleep 0.2
		done
	fi
	log "timed out after ${timeout}s waiting for: $what"
	memcgctl status || true
	journalctl -u memcgd --no-pager -n 40 || true
	fail "$what"
}

# e2e_poll_json SECONDS EXPR: succeeds as soon as e2e_true EXPR would (EXPR evaluated on
# `memcgctl status --json` every 0.2 s), fails after SECONDS
e2e_poll_json() {
	python3 -c '
import json, subprocess, sys, time
end = time.monotonic() + float(sys.argv[1])
def slice(name):
    for x in s["slices"]:
        if x["name"] == name:
            return x
    raise LookupError("no slice " + name + " in status")
while True:
    out = subprocess.run(["memcgctl", "status", "--json"], capture_output=True, text=True)
    if out.returncode == 0:
        try:
            s = json.loads(out.stdout)
            if eval(sys.argv[2]) is True:
                sys.exit(0)
        except (ValueError, LookupError, TypeError):
            pass
    if time.monotonic() >= end:
        sys.exit(1)
    time.sleep(0.2)
' "$1" "$2"
}

# e2e_json EXPR: evaluates a python expression on `memcgctl status --json` as `s`,
# with slice(name) returning that slice's object; prints the result.
e2e_json() {
	memcgctl status --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
def slice(name):
    for x in s["slices"]:
        if x["name"] == name:
            return x
    raise SystemExit("no slice " + name + " in status")
r = eval(sys.argv[1])
print(json.dumps(r) if not isinstance(r, str) else r)
' "$1"
}

# e2e_true EXPR: succeeds when the expression is true
e2e_true() {
	[[ "$(e2e_json "$1")" == "true" ]]
}

e2e_attached() { e2e_true "slice('$1')['attached']"; }
e2e_not_running() { e2e_true "slice('$1')['attach_state'] == 'not-running'"; }

e2e_memcgd_pid() { systemctl show -P MainPID memcgd.service; }

# The cgroup ids in memcgd's slice_of map, one per line (bpftool prints BTF-formatted keys, or
# raw little-endian bytes without BTF).
e2e_slice_of_ids() {
	bpftool -j map dump name slice_of | python3 -c '
import json, sys
for e in json.load(sys.stdin):
    k = e["formatted"]["key"] if "formatted" in e else e["key"]
    if isinstance(k, list):
        k = int.from_bytes(bytes(int(x, 16) for x in k), "little")
    print(k)
'
}

# e2e_in_slice_of ID: succeeds when cgroup id ID (stat -c %i of its directory) is in slice_of
e2e_in_slice_of() {
	local ids
	ids=$(e2e_slice_of_ids) && grep -qx "$1" <<<"$ids"
}
# e2e_not_in_slice_of ID: the map could be read and ID is not in it
e2e_not_in_slice_of() {
	local ids
	ids=$(e2e_slice_of_ids) && ! grep -qx "$1" <<<"$ids"
}

# The kernel's view, not memcgd's: is a memcg_bpf_ops link attached to cgroup ID now? A link's
# fdinfo (kernel-patches 0007) has link_type struct_ops, map_id while it is attached and its
# cgroup_id; its holders are memcgd and, through the file descriptor store, PID 1. (Debian's
# bpftool in the guest predates struct_ops links on cgroups and shows no cgroup id.)
E2E_LINK_PROBE='
import glob, os, subprocess, sys
def attached(cgid):
    pids = ["1"] + subprocess.run(["pgrep", "-x", "memcgd"], capture_output=True, text=True).stdout.split()
    for pid in pids:
        for f in glob.glob(f"/proc/{pid}/fdinfo/*"):
            try:
                with open(f) as fd:
                    info = fd.read()
            except OSError:
                continue
            if ("link_type:\tstruct_ops" in info and "\nmap_id:" in info
                    and f"\ncgroup_id:\t{cgid}\n" in info):
                return True
    return False
'
e2e_link_on() {	# e2e_link_on CGROUP_ID
	python3 -c "$E2E_LINK_PROBE
sys.exit(0 if attached(int(sys.argv[1])) else 1)" "$1"
}
# Samples every 0.1 s whether a memcg_bpf_ops link is attached to cgroup ID, into FILE as
# "monotonic-seconds 0|1" lines, until killed: the window without ops across a restart.
e2e_link_sampler() {	# e2e_link_sampler CGROUP_ID FILE &
	python3 -c "$E2E_LINK_PROBE
import time
cgid = int(sys.argv[1])
with open(sys.argv[2], 'w', buffering=1) as out:
    while True:
        out.write(f'{time.monotonic():.3f} {int(attached(cgid))}\\n')
        time.sleep(0.1)" "$1" "$2"
}
# The longest time the samples of e2e_link_sampler saw no link, in seconds, and how many samples
# there were: "GAP N". Fails when there are fewer than 3 samples.
e2e_link_gap() {	# e2e_link_gap FILE
	python3 - "$1" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
if len(rows) < 3:
    sys.exit(f"only {len(rows)} samples")
longest, start = 0.0, None
for t, on in rows:
    t = float(t)
    if on == "0" and start is None:
        start = t
    elif on == "1" and start is not None:
        longest, start = max(longest, t - start), None
if start is not None:
    longest = max(longest, float(rows[-1][0]) - start)
print(f"{longest:.2f} {len(rows)}")
PY
}
