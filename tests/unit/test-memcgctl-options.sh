#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# memcgctl's systemctl-like options: --format=, --no-legend, --no-pager, before or after the
# command and the slice. usage: test-memcgctl-options.sh MEMCGCTL
set -euo pipefail
memcgctl=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# a live state file (this shell's pid): two slices
printf 'daemon\tpid=%d\tstate=running\tmode=enforce\tupdated=%d000000\tgeneration=1\tsupported=1\thooks=below_low below_min\n' $$ "$(date +%s)" >"$tmp/state"
printf 'slice\tname=high.slice\tpriority=50\tattach=attached\tcgroup=/high.slice\tcgroup_id=42\tprotect=min\trate=1234.5\tactive=1\n' >>"$tmp/state"
printf 'slice\tname=low.slice\tpriority=10\tattach=not-running\treason=slice is inactive\tprotect=none\tdelay_ms=100\n' >>"$tmp/state"
st=(--state-file="$tmp/state" --cgroup-root="$tmp/none")

# --no-legend: the rows alone, one per slice, in either place
for args in "--no-legend status" "status --no-legend" "status --no-pager --no-legend"; do
	# shellcheck disable=SC2086
	"$memcgctl" "${st[@]}" $args >"$tmp/out" 2>&1 || fail "$args: exit $?: $(cat "$tmp/out")"
	[[ $(wc -l <"$tmp/out") == 2 ]] || fail "$args: not two rows: $(cat "$tmp/out")"
	grep -Eq '^high\.slice +50 attached +1234\.5 yes +protect-min +-$' "$tmp/out" || fail "$args: high.slice row: $(cat "$tmp/out")"
	grep -Eq '^low\.slice +10 not-running +0\.0 no +- +-$' "$tmp/out" || fail "$args: low.slice row: $(cat "$tmp/out")"
	! grep -q 'SLICE\|memcgd:\|Kernel:\|Config:' "$tmp/out" || fail "$args: legend shown: $(cat "$tmp/out")"
done
"$memcgctl" "${st[@]}" status low.slice --no-legend >"$tmp/out" 2>&1 || fail "status low.slice --no-legend"
[[ $(cat "$tmp/out") == low.slice* && $(wc -l <"$tmp/out") == 1 ]] || fail "one slice, no legend: $(cat "$tmp/out")"
# with the legend: the column headers and the overview are there
"$memcgctl" "${st[@]}" status >"$tmp/out" 2>&1 || fail "status"
grep -Eq '^SLICE +PRIO +STATE +FAULTS/S +ACTIVE +ACTION +MEMORY$' "$tmp/out" || fail "no column headers: $(cat "$tmp/out")"
grep -q '^memcgd: ' "$tmp/out" || fail "no overview: $(cat "$tmp/out")"
# --no-pager changes nothing: memcgctl never pages
"$memcgctl" "${st[@]}" --no-pager status >"$tmp/out2" 2>&1 || fail "--no-pager status"
cmp -s <(grep -v '^memcgd:\|Warning:' "$tmp/out") <(grep -v '^memcgd:\|Warning:' "$tmp/out2") || fail "--no-pager changed the output"
# not running with --no-legend: nothing on stdout, the reason on stderr, exit 3
set +e
"$memcgctl" --state-file="$tmp/gone" status --no-legend >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[[ $rc == 3 ]] || fail "not running, --no-legend: exit $rc"
[[ ! -s "$tmp/out" ]] || fail "not running, --no-legend: stdout: $(cat "$tmp/out")"
grep -q "memcgd is not running" "$tmp/err" || fail "not running, --no-legend: no reason: $(cat "$tmp/err")"

# --format: table is the default, json is --json, the last one given wins
"$memcgctl" "${st[@]}" status --format=table >"$tmp/out" 2>&1 || fail "--format=table"
grep -q '^SLICE' "$tmp/out" || fail "--format=table is not the table: $(cat "$tmp/out")"
"$memcgctl" "${st[@]}" status --format=json high.slice >"$tmp/out" 2>&1 || fail "--format=json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [s["name"] for s in d["slices"]] == ["high.slice"], d' "$tmp/out" ||
	fail "--format=json high.slice: $(cat "$tmp/out")"
"$memcgctl" "${st[@]}" --json status --format=table >"$tmp/out" 2>&1 || fail "--json then --format=table"
grep -q '^SLICE' "$tmp/out" || fail "--format=table after --json did not win: $(cat "$tmp/out")"
"$memcgctl" "${st[@]}" --format openmetrics status >"$tmp/out" 2>&1 || fail "--format openmetrics (two words)"
[[ $(tail -n1 "$tmp/out") == "# EOF" ]] || fail "--format openmetrics: $(tail -n3 "$tmp/out")"
if "$memcgctl" "${st[@]}" status --format=yaml >"$tmp/out" 2>"$tmp/err"; then fail "--format=yaml accepted"; fi
grep -q "unknown --format 'yaml' (table, json, openmetrics or prometheus)" "$tmp/err" || fail "--format=yaml: $(cat "$tmp/err")"
if "$memcgctl" "${st[@]}" status --no-such-option >/dev/null 2>&1; then fail "an unknown option after status was accepted"; fi
if "$memcgctl" "${st[@]}" status high.slice low.slice >/dev/null 2>"$tmp/err"; then fail "two slices accepted"; fi
grep -q "unexpected argument 'low.slice'" "$tmp/err" || fail "two slices: $(cat "$tmp/err")"
# --help names the options
"$memcgctl" --help >"$tmp/out"
for o in --format= --json --no-legend --no-pager --root= --state-file= --cgroup-root= --version; do
	grep -q -- "$o" "$tmp/out" || fail "--help does not mention $o"
done

if ((failures)); then
	echo "$failures failures"
	exit 1
fi
echo "memcgctl options: all checks passed"
