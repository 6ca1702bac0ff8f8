#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# memcgd demo (installed as /usr/libexec/memcgd/demo): starts memcgd with the example policies
# of the RFC's high/low scenario, shows `memcgctl status`, then runs a low-priority workload
# three times: while high.slice sleeps, while it faults, and after it went quiet again.
# memcgd and the two slices stay up afterwards, so `memcgctl status` keeps showing them.
set -euo pipefail

FAULTER=${E2E_FAULTER:-/usr/lib/memcgd/faulter.py}
EXAMPLES=/usr/share/doc/memcgd/examples
SECONDS_PER_PHASE=${DEMO_SECONDS:-10}
out=$(mktemp -d)

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
json() {
	memcgctl status --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
sl = {x["name"]: x for x in s["slices"]}
print(eval(sys.argv[1]))' "$1"
}
wait_for() { # wait_for SECONDS EXPR
	local end=$((SECONDS + $1))
	while ((SECONDS < end)); do
		[[ "$(json "$2" 2>/dev/null)" == True ]] && return 0
		sleep 0.3
	done
	echo "timed out waiting for: $2" >&2
	return 1
}
run_in() { # run_in UNIT SLICE ARGS...
	local unit=$1 slice=$2
	shift 2
	systemctl stop "$unit" 2>/dev/null || true
	systemctl reset-failed "$unit" 2>/dev/null || true
	systemd-run --quiet --unit="$unit" --slice="$slice" -p MemoryAccounting=yes --collect "$@"
}
low_phase() { # low_phase NAME: prints pages/s of the low workload
	run_in demo-low-work low.slice --wait python3 "$FAULTER" "$SECONDS_PER_PHASE" 32 "$out/$1" >/dev/null
	cat "$out/$1"
}
throttled() { sleep 1.2; json "sl['low.slice']['counters']['throttle_decisions']"; }

say "memcgd demo on $(uname -r)"
mkdir -p /etc/memcgd.d
for f in 50-high.conf 10-low.conf; do
	[[ -e /etc/memcgd.d/$f ]] || cp "$EXAMPLES/$f" /etc/memcgd.d/
done
memcgctl check
# the slices exist while something runs in them
run_in demo-high-idle high.slice sleep infinity
run_in demo-low-idle low.slice sleep infinity
systemctl enable memcgd.service >/dev/null 2>&1
systemctl restart memcgd.service
wait_for 10 "sl['high.slice']['attached'] and sl['low.slice']['attached']"

say "memcgctl status"
memcgctl status

say "1/3 low.slice works, high.slice sleeps (${SECONDS_PER_PHASE}s)"
t0=$(throttled)
a=$(low_phase idle)
t1=$(throttled)
echo "low.slice: $a pages/s, throttled $((t1 - t0)) times"

say "2/3 low.slice works, high.slice faults (${SECONDS_PER_PHASE}s)"
run_in demo-high-work high.slice python3 "$FAULTER" $((SECONDS_PER_PHASE + 30)) 32
wait_for 15 "sl['high.slice']['active']"
memcgctl status | sed -n '/^SLICE/,/^$/p'
b=$(low_phase busy)
t2=$(throttled)
echo "low.slice: $b pages/s, throttled $((t2 - t1)) times"
systemctl stop demo-high-work.service

say "3/3 high.slice quiet again, low.slice works (${SECONDS_PER_PHASE}s)"
wait_for 15 "not sl['high.slice']['active']"
c=$(low_phase after)
t3=$(throttled)
echo "low.slice: $c pages/s, throttled $((t3 - t2)) times"

say "summary"
printf '%-34s %14s %10s\n' "phase" "low pages/s" "throttled"
printf '%-34s %14s %10s\n' "high.slice sleeping" "$a" "$((t1 - t0))"
printf '%-34s %14s %10s\n' "high.slice faulting" "$b" "$((t2 - t1))"
printf '%-34s %14s %10s\n' "high.slice sleeping again" "$c" "$((t3 - t2))"
memcgctl status
if python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); sys.exit(0 if b < 0.2*a and c > 0.4*a else 1)" "$a" "$b" "$c" &&
	((t1 - t0 == 0 && t2 - t1 > 0 && t3 - t2 == 0)); then
	echo "low.slice was throttled only while high.slice was busy."
else
	echo "UNEXPECTED: low.slice was not throttled only while high.slice was busy" >&2
	exit 1
fi
