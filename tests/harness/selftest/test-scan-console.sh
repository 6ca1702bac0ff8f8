#!/bin/bash
# Host unit test of scan-console.sh: every report kind in console/*.log is
# found (exit 1, the offending line printed); clean.log passes (exit 0);
# lines without a kernel timestamp are ignored; bad usage exits 2.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scan="$here/../scan-console.sh"
fail=0
check() {	# check NAME EXPECTED_RC [TEXT_THAT_MUST_BE_SHOWN]
	local log="$here/console/$1.log" rc=0 out
	out="$("$scan" "$log")" || rc=$?
	if ((rc != $2)); then
		echo "FAIL $1: exit $rc, expected $2"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1; return
	fi
	if [[ -n "${3:-}" ]] && ! grep -qF -- "$3" <<< "$out"; then
		echo "FAIL $1: report does not show '$3':"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1; return
	fi
	echo "ok   $1"
}
check clean 0
check warning 1 "WARNING: CPU: 1 PID: 245 at mm/memcontrol.c:2411"
check lockdep 1 "WARNING: possible circular locking dependency detected"
check kasan 1 "BUG: KASAN: slab-use-after-free"
check rcu-stall 1 "INFO: rcu_preempt detected stalls"
check interleaved 1 "BUG: sleeping function called from invalid context"
check panic 1 "Kernel panic - not syncing"
check oops 1 "Oops: 0000"
check ubsan 1 "UBSAN: shift-out-of-bounds"
check selftest-warning 1 "WARNING: memcgd harness self-test"
check selftest-warning 1 "during VM test harness/kernel-warning:"
# The report carries the lines after the match (the splat's context).
out="$("$scan" "$here/console/warning.log" || true)"
grep -qF "Call Trace:" <<< "$out" || { echo "FAIL context: lines after the WARNING are not shown"; fail=1; }
rc=0; "$scan" /nonexistent/console.log 2>/dev/null || rc=$?
((rc == 2)) || { echo "FAIL usage: missing file gives exit $rc, expected 2"; fail=1; }
((fail == 0)) && echo "scan-console: all checks passed"
exit "$fail"
