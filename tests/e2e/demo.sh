#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# memcgd demo (installed as /usr/libexec/memcgd/demo): starts memcgd with the example policies
# (50-high.conf, 10-low.conf), puts a latency service into high.slice (it answers from memory
# it already has: about 1% of a CPU, no page faults) and a batch writer that wants more memory
# than the machine has into low.slice, three times:
#   1. the service works: it keeps its memory (it refaults almost nothing), the writer's own
#      memory goes to swap, and the writer is delayed only if memcgd had to escalate
#   2. the service pauses: after its hold, memcgd gives its memory back to the writer
#   3. the service answers again: busy from its first request
# memcgd and the two slices stay up afterwards, so `memcgctl status` keeps showing them.
set -euo pipefail

SERVICE=${DEMO_SERVICE:-/usr/lib/memcgd/service.py}
EXAMPLES=/usr/share/doc/memcgd/examples
SERVICE_MIB=${DEMO_SERVICE_MIB:-256}

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
# writer UNIT MIB: touch MIB of anonymous memory in low.slice, hold it 5 s
writer() {
	run_in "$1" low.slice --wait python3 -c 'import sys, time
n = int(sys.argv[1]) << 20
b = bytearray(n)
b[::4096] = b"\x01" * (n // 4096)
time.sleep(5)' "$2"
}
refaults() { awk '$1 == "workingset_refault_anon" { print $2 }' /sys/fs/cgroup/high.slice/memory.stat; }
current() { cat /sys/fs/cgroup/high.slice/memory.current; }
engine() { json "sl['high.slice']['engine']['state'] + ', footprint ' + str(sl['high.slice']['engine']['protect_bytes'] >> 20) + 'M, escalation ' + sl['high.slice']['engine']['escalation']"; }

say "memcgd demo on $(uname -r)"
mkdir -p /etc/memcgd.d
for f in 50-high.conf 10-low.conf; do
	[[ -e /etc/memcgd.d/$f ]] || cp "$EXAMPLES/$f" /etc/memcgd.d/
done
memcgctl check
writer_mib=$(awk -v s="$SERVICE_MIB" '/^MemTotal:/ { print int($2 / 1024) - int(s / 2) }' /proc/meminfo)
run_in demo-low-idle low.slice sleep infinity
rm -f /run/demo-service.ready
run_in demo-service high.slice "$SERVICE" "$SERVICE_MIB" 200 /run/demo-service.ready
for _ in $(seq 300); do [[ -f /run/demo-service.ready ]] && break; sleep 0.2; done
systemctl enable memcgd.service >/dev/null 2>&1
systemctl restart memcgd.service
wait_for 10 "sl['high.slice']['attached'] and sl['low.slice']['attached']"
wait_for 10 "sl['high.slice']['engine']['state'] == 'busy'"

say "memcgctl status: the service (${SERVICE_MIB}M resident, ~1% CPU, no page faults) is busy"
memcgctl status

say "1/3 the service works, a writer wants ${writer_mib}M in low.slice"
r0=$(refaults) d0=$(json "sl['low.slice']['counters']['throttle_decisions']")
writer demo-writer-1 "$writer_mib"
r1=$(refaults) d1=$(json "sl['low.slice']['counters']['throttle_decisions']")
echo "high.slice: $(engine); refaulted $((r1 - r0)) pages, holds $(($(current) >> 20))M"
echo "low.slice: delayed $((d1 - d0)) times"

say "2/3 the service pauses; after its hold its memory goes to the writer"
systemctl kill --signal=SIGUSR1 demo-service.service
wait_for 60 "sl['high.slice']['engine']['state'] == 'idle'"
echo "high.slice: $(engine)"
before=$(current)
writer demo-writer-2 "$writer_mib"
after=$(current)
echo "high.slice: $((before >> 20))M -> $((after >> 20))M ($(json "sl['high.slice']['counters']['reclaimed_bytes'] >> 20")M given back in the background)"

say "3/3 the service answers again"
systemctl kill --signal=SIGUSR2 demo-service.service
wait_for 10 "sl['high.slice']['engine']['state'] == 'busy'"
echo "high.slice: $(engine)"
memcgctl status
journalctl -u memcgd --no-pager -o cat | grep -E "high.slice: (busy|holding|idle)|escalat" | tail -n 8

say "summary"
pages=$((SERVICE_MIB << 20 >> 12))
printf '%-44s %s\n' "service refaults while the writer ran" "$((r1 - r0)) of $pages pages" \
	"writer delays while the service had no pressure" "$((d1 - d0))" \
	"idle service's memory after the second writer" "$((after >> 20))M of $((before >> 20))M"
if ((20 * (r1 - r0) < pages && 2 * after < before)); then
	echo "The service kept its memory while it worked and gave it back while it idled."
else
	echo "UNEXPECTED: the service lost its memory while it worked, or kept it while it idled" >&2
	exit 1
fi
