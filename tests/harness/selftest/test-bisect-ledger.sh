#!/bin/bash
# Host unit test of bisect-build.sh's ledger (--plan, which builds nothing):
# a step counts as built only when the ledger holds an "ok" row with its
# config and key; --resume builds from the first step that is not recorded
# (and every later one); changing a patch invalidates its step and the later
# ones, not the earlier; nobpf/nomemcg rebuild their base when the series step
# is missing; bad options are refused with a message naming them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bisect="$here/../bisect-build.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
series="$tmp/series" ledger="$tmp/bisect.tsv"
mkdir "$series"
for i in 1 2 3; do
	printf 'From: test\nSubject: [PATCH %s/3] step %s\n\n---\n' "$i" "$i" >"$series/000$i-step-$i.patch"
done

plan() {	# plan CONFIG: "STATUS KEY" per step
	"$bisect" --plan --series "$series" --ledger "$ledger" --config "$1" |
		awk '{ for (i = 1; i <= NF; i++) if ($i == "build" || $i == "recorded") { print $i, $(i + 1); break } }'
}
statuses() { plan "$1" | cut -d' ' -f1 | paste -sd' '; }
key() {	# key CONFIG STEP (nobpf and nomemcg: steps 0 and 3 are lines 1 and 2)
	local line=$(($2 + 1))
	[[ "$1" == default ]] || (($2 == 0)) || line=2
	plan "$1" | sed -n "${line}p" | cut -d' ' -f2
}
record() {	# record CONFIG STEP RESULT [KEY]
	printf '2026-12-05T00:00Z\t%s\t%s\tname\t%s\t%s\t1\tgcc\t\n' "$1" "$2" "${4:-$(key "$1" "$2")}" "$3" >>"$ledger"
}
expect() {	# expect WHAT GOT WANTED
	if [[ "$2" == "$3" ]]; then
		echo "ok   $1"
	else
		echo "FAIL $1: got '$2', expected '$3'"
		fail=1
	fi
}

expect "no ledger: every step is built" "$(statuses default)" "build build build build"
expect "nobpf steps: base and whole series" "$(statuses nobpf)" "build build"
keys="$(plan default | cut -d' ' -f2 | sort -u | wc -l)"
expect "every prefix has its own key" "$keys" 4
expect "the key is stable" "$(key default 2)" "$(key default 2)"
[[ "$(key default 0)" != "$(key nobpf 0)" ]] && echo "ok   the config is part of the key" ||
	{ echo "FAIL the config is not part of the key"; fail=1; }

record default 0 ok
record default 1 ok
record default 2 FAIL
record default 3 ok
expect "a FAIL row does not count; --resume builds from the gap on" \
	"$(statuses default)" "recorded recorded build build"
record default 2 ok 0123456789abcdef
expect "an ok row with another key does not count" "$(statuses default)" "recorded recorded build build"
record nobpf 2 ok "$(key default 2)"
expect "a row of another config does not count" "$(statuses default)" "recorded recorded build build"
record default 2 ok
expect "every step recorded: nothing to build" "$(statuses default)" "recorded recorded recorded recorded"

printf 'changed\n' >>"$series/0002-step-2.patch"
expect "a changed patch 2 invalidates steps 2 and 3 only" "$(statuses default)" "recorded recorded build build"
printf 'changed\n' >>"$series/0001-step-1.patch"
expect "a changed patch 1 invalidates steps 1-3" "$(statuses default)" "recorded build build build"

record nobpf 0 ok
expect "nobpf without its series step rebuilds the base" "$(statuses nobpf)" "build build"
record nobpf 3 ok
expect "nobpf with both steps recorded" "$(statuses nobpf)" "recorded recorded"

rc=0; err="$("$bisect" --plan --config nosuch 2>&1)" || rc=$?
((rc != 0)) && grep -qF "'nosuch'" <<<"$err" && echo "ok   a bad --config is named" ||
	{ echo "FAIL bad --config: exit $rc, '$err'"; fail=1; }
rc=0; err="$("$bisect" --plan --series "$tmp/none" 2>&1)" || rc=$?
((rc != 0)) && grep -qF "$tmp/none" <<<"$err" && echo "ok   a missing --series is named" ||
	{ echo "FAIL missing --series: exit $rc, '$err'"; fail=1; }

((fail == 0)) && echo "bisect-ledger: all checks passed"
exit "$fail"
