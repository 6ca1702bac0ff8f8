#!/bin/bash
# Scan a guest console log for kernel error reports.
#
# usage: scan-console.sh CONSOLE_LOG
#
# Looks only at kernel log lines (printk timestamps "[ 12.345678] ", which
# run-vm.sh turns on with printk.time=1; systemd status lines on the same
# console are ignored). Prints each report with the lines that follow it
# and exits 1 when any is found, 0 when the log is clean, 2 on usage errors.

set -euo pipefail

(($# == 1)) || { echo "usage: scan-console.sh CONSOLE_LOG" >&2; exit 2; }
[[ -r "$1" ]] || { echo "scan-console.sh: cannot read $1" >&2; exit 2; }

# One alternative per kind of report; keep in sync with the README.
patterns=(
	'BUG:'                          # BUG: sleeping function..., BUG: KASAN: ..., BUG: unable to handle
	'kernel BUG at'
	'WARNING:'                      # WARN(), lockdep "WARNING: possible circular locking ..."
	'Oops'
	'general protection fault'
	'Kernel panic'
	'possible circular locking'
	'possible recursive locking'
	'inconsistent lock state'
	'suspicious RCU usage'
	'INFO: '                        # lockdep/RCU/hung task: INFO: rcu_preempt detected stalls, INFO: task ... blocked
	'KASAN'
	'UBSAN'
	'DEBUG_LOCKS_WARN_ON'
	'soft lockup'
	'hard LOCKUP'
	'list_(add|del) corruption'
	'refcount_t: '
)
regex="\\[ *[0-9]+\\.[0-9]+\\] .*($(IFS='|'; echo "${patterns[*]}"))"

# Print each matching line and up to 12 following kernel lines, separated,
# headed by the VM test that was running (the guest runner's kmsg markers).
awk -v re="$regex" '
	{ sub(/\r$/, "") }
	/memcgd-vm-tests: begin / { t = $0; sub(/.*memcgd-vm-tests: begin /, "", t); sub(/ .*/, "", t); test = t }
	/memcgd-vm-tests: end / { test = "" }
	$0 ~ re {
		if (after == 0) {
			if (found) print "--"
			print (test != "" ? "during VM test " test ":" : "outside any VM test:")
		}
		found++; after = 13
	}
	after > 0 { print "  " $0; after-- }
	END { exit found ? 1 : 0 }
' "$1"
