#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# memcgd-metrics.service's command, run as systemd would run it (its $$ unescaped), with the
# textfile directory and the state file moved into a temporary directory: the file appears
# whole, world-readable, parseable; memcgd not running still writes memcgd_up 0; a memcgctl
# failure keeps the previous file and leaves no temporary behind.
# usage: test-metrics-unit.sh SERVICE TIMER MEMCGCTL PYTHON3
set -euo pipefail
service=$1 timer=$2 memcgctl=$3 python3=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

grep -q '^Type=oneshot$' "$service" || fail "the service is not Type=oneshot"
grep -q '^OnUnitActiveSec=' "$timer" || fail "the timer does not repeat"
grep -q '^WantedBy=timers.target$' "$timer" || fail "the timer cannot be enabled"
if command -v systemd-analyze >/dev/null; then
	# man: pages are not installed here; everything else must verify
	systemd-analyze verify "$service" "$timer" 2>&1 | grep -v "man memcgctl(1)\|man:memcgctl" >"$tmp/verify" || true
	[[ ! -s "$tmp/verify" ]] || fail "systemd-analyze verify: $(cat "$tmp/verify")"
fi

# ExecStart= with its continuation lines, as systemd reads it: "$$" is "$"
cmd=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$service" | sed 's/^ExecStart=//; s/\\$//' | tr -d '\n' | sed 's/\$\$/$/g')
[[ $cmd == "/bin/sh -c '"*"'" ]] || fail "ExecStart= is not /bin/sh -c '...': $cmd"
script=${cmd#/bin/sh -c \'}
script=${script%\'}
grep -q '/var/lib/prometheus/node-exporter' <<<"$script" || fail "not node_exporter's Debian textfile directory: $script"
script=${script//\/var\/lib\/prometheus\/node-exporter/$tmp/textfile}
[[ $script =~ ([^ ]*/memcgctl)\ status ]] || fail "no memcgctl status in $script"
script=${script//${BASH_REMATCH[1]} status/$memcgctl --state-file=$tmp/state status}

run() { /bin/sh -c "$script"; }

# memcgd running (this shell's pid)
printf 'daemon\tpid=%d\tstate=running\tmode=enforce\tupdated=%d000000\tgeneration=3\tsupported=1\n' $$ "$(date +%s)" >"$tmp/state"
printf 'slice\tname=high.slice\tpriority=50\tattach=attached\tprotect=min\tfaults=7\n' >>"$tmp/state"
run || fail "the service's command failed with memcgd running"
prom=$tmp/textfile/memcgd.prom
[[ -f $prom ]] || fail "no $prom"
[[ $(stat -c %a "$prom" 2>/dev/null) == 644 ]] || fail "$prom is not 0644"
"$python3" - "$prom" <<'PY' || fail "memcgd.prom: $(cat "$prom")"
import sys
from prometheus_client.parser import text_string_to_metric_families
s = {(x.name, tuple(sorted(x.labels.items()))): x.value
     for f in text_string_to_metric_families(open(sys.argv[1]).read()) for x in f.samples}
assert s[("memcgd_up", ())] == 1, s
assert s[("memcgd_config_generation", ())] == 3, s
assert s[("memcgd_slice_faults_total", (("slice", "high.slice"),))] == 7, s
PY
# not running: exit 3 of memcgctl is not a failure, and the file says memcgd_up 0
rm "$tmp/state"
run || fail "the service's command failed with memcgd not running"
grep -qx 'memcgd_up 0' "$prom" || fail "not running: $(cat "$prom")"
# memcgctl fails (a state file it cannot read): the command fails, the last file stays
cp "$prom" "$tmp/before"
mkdir "$tmp/state"
if run 2>/dev/null; then fail "the service's command succeeded although memcgctl failed"; fi
cmp -s "$prom" "$tmp/before" || fail "a failed run replaced the file"
leftovers=$(find "$tmp/textfile" -name '.memcgd.prom.*')
[[ -z $leftovers ]] || fail "temporary files left: $leftovers"

if ((failures)); then
	echo "$failures failures"
	exit 1
fi
echo "memcgd-metrics.service: all checks passed"
