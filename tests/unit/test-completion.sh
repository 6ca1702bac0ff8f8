#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# completion/memcgctl.bash sourced into bash and called as bash calls it (COMP_WORDS split at
# whitespace and at '=', COMP_LINE, COMP_POINT): COMPREPLY for commands, options, option values,
# slice names and files; with and without '=' in COMP_WORDBREAKS and under bash-completion. Both
# completion files must offer every option memcgctl --help and memcgd's option table name.
# usage: test-completion.sh SOURCE_ROOT MEMCGCTL
set -uo pipefail
src=$1 memcgctl=$2
bashcomp=$src/completion/memcgctl.bash zshcomp=$src/completion/_memcgctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# memcgctl as the completion runs it (slice names of `memcgctl --no-legend status`)
mkdir "$tmp/bin"
ln -s "$(realpath "$memcgctl")" "$tmp/bin/memcgctl"
export PATH=$tmp/bin:$PATH
# shellcheck source=/dev/null
source "$bashcomp" || fail "sourcing $bashcomp failed"
[[ $(complete -p memcgctl 2>/dev/null) == "complete -F _memcgctl memcgctl" ]] || fail "memcgctl: $(complete -p memcgctl 2>&1)"
[[ $(complete -p memcgd 2>/dev/null) == "complete -F _memcgd memcgd" ]] || fail "memcgd: $(complete -p memcgd 2>&1)"

# complete LINE: COMPREPLY, one per line, sorted, for the cursor at the end of LINE
complete_line() {
	local line=$1 cmd w
	local -a words=()
	for w in $line; do # bash splits COMP_WORDS at COMP_WORDBREAKS too: a=b is a, =, b
		if [[ $COMP_WORDBREAKS == *=* && $w == *=* ]]; then
			words+=("${w%%=*}" "=")
			[[ -n ${w#*=} ]] && words+=("${w#*=}")
		else
			words+=("$w")
		fi
	done
	[[ $line == *" " ]] && words+=("")
	COMP_WORDS=("${words[@]}")
	COMP_CWORD=$((${#words[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	cmd=_${words[0]}
	"$cmd" "${words[0]}" "${words[COMP_CWORD]}" "${words[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort | grep -v '^$'
}

expect() { # LINE EXPECTED (newline separated, sorted)
	local got
	got=$(complete_line "$1")
	[[ $got == "$2" ]] || fail "'$1' (COMP_WORDBREAKS $breaks): got [$(tr '\n' ' ' <<<"$got")], want [$(tr '\n' ' ' <<<"$2")]"
}

printf 'daemon\tpid=%d\tstate=running\tmode=enforce\tupdated=%d000000\n' $$ "$(date +%s)" >"$tmp/state"
printf 'slice\tname=high.slice\tpriority=50\tattach=attached\n' >>"$tmp/state"
printf 'slice\tname=low.slice\tpriority=10\tattach=not-running\n' >>"$tmp/state"
mkdir -p "$tmp/conf/memcgd.d"
touch "$tmp/conf/50-high.conf" "$tmp/conf/51-other.conf"

run_cases() {
	expect "memcgctl " $'check\nreload\nstatus'
	expect "memcgctl st" "status"
	expect "memcgctl --json " $'check\nreload\nstatus'
	expect "memcgctl --no-l" "--no-legend"
	expect "memcgctl --no-p" "--no-pager"
	expect "memcgctl status --no-" $'--no-legend\n--no-pager'
	expect "memcgctl --" $'--cgroup-root=\n--format=\n--help\n--json\n--memory=\n--no-legend\n--no-pager\n--root=\n--state-file=\n--version'
	expect "memcgctl --format op" "openmetrics"
	expect "memcgctl status --format " $'json\nopenmetrics\nprometheus\ntable'
	expect "memcgctl --state-file=$tmp/state status " $'high.slice\nlow.slice'
	expect "memcgctl --state-file=$tmp/state status h" "high.slice"
	expect "memcgctl --state-file $tmp/state status --no-legend l" "low.slice"
	expect "memcgctl --state-file=$tmp/state status high.slice " ""
	expect "memcgctl --state-file=$tmp/none status " ""
	expect "memcgctl check $tmp/conf/5" "$tmp/conf/50-high.conf"$'\n'"$tmp/conf/51-other.conf"
	expect "memcgctl reload " ""
	expect "memcgd --d" $'--debug\n--dry-run'
	expect "memcgd --no" "--no-bus"
	expect "memcgd " ""
}
# with '=' in COMP_WORDBREAKS (bash's default): the value alone replaces the word after '='
breaks="with ="
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
run_cases
expect "memcgctl status --format=" $'json\nopenmetrics\nprometheus\ntable'
expect "memcgctl status --format=pro" "prometheus"
expect "memcgctl --root=$tmp/co" "$tmp/conf"
expect "memcgd --cgroup-root=$tmp/co" "$tmp/conf"
# without it the whole word is replaced
breaks="without ="
COMP_WORDBREAKS=$' \t\n"\'><;|&(:'
run_cases
expect "memcgctl status --format=pro" "--format=prometheus"

# under bash-completion, as an interactive shell on Debian has it
if [[ -r /usr/share/bash-completion/bash_completion ]]; then
	out=$(bash --norc -c "source /usr/share/bash-completion/bash_completion && source '$bashcomp' && complete -p memcgctl memcgd" 2>&1)
	[[ $out == $'complete -F _memcgctl memcgctl\ncomplete -F _memcgd memcgd' ]] || fail "with bash-completion: $out"
else
	echo "SKIP: with bash-completion (not installed)"
fi

# every option of the programs is offered, in both shells
help_opts=$("$memcgctl" --help | grep -o -- '--[a-z-]*' | sort -u)
memcgd_opts=$(sed -n '/struct option options\[\]/,/};/p' "$src/daemon/memcgd.c" | grep -o '{ "[a-z-]*"' | sed 's/{ "/--/; s/"//' | sort -u)
[[ $(wc -l <<<"$help_opts") -ge 8 ]] || fail "memcgctl --help names only: $help_opts"
[[ $(wc -l <<<"$memcgd_opts") -ge 6 ]] || fail "memcgd.c's option table: $memcgd_opts"
for o in $help_opts; do
	grep -Eq -- "$o(=| |\)|$)" "$bashcomp" || fail "bash: memcgctl $o is not completed"
	grep -Eq -- "$o(=?\[|\})" "$zshcomp" || fail "zsh: memcgctl $o is not completed"
done
for o in $memcgd_opts; do
	sed -n '/^_memcgd()/,/^}/p' "$bashcomp" | grep -Eq -- "$o(=| |\)|$)" || fail "bash: memcgd $o is not completed"
	sed -n '/^_memcgd()/,/^}/p' "$zshcomp" | grep -Eq -- "$o(=?\[|\})" || fail "zsh: memcgd $o is not completed"
done
# the commands of memcgctl --help
for c in $("$memcgctl" --help | sed -n '/^Commands:/,/^$/p' | awk '/^  [a-z]/ {print $1}'); do
	grep -q "\"status reload check\"" "$bashcomp" && grep -q "\b$c\b" <<<"status reload check" || fail "bash: command $c"
	grep -q "'$c:" "$zshcomp" || fail "zsh: command $c"
done
# zsh: typed into an interactive zsh (zsh-complete.zsh drives it through a pseudo-terminal)
zexpect() { # LINE EXPECTED
	local got
	timeout 30 zsh -f "$src/tests/unit/zsh-complete.zsh" "$src/completion" "$tmp/zout" "$1" >/dev/null 2>&1 ||
		fail "zsh-complete.zsh '$1' failed"
	got=$(sort -u "$tmp/zout" 2>/dev/null)
	[[ $got == "$2" ]] || fail "zsh '$1': got [$(tr '\n' ' ' <<<"$got")], want [$(tr '\n' ' ' <<<"$2")]"
}
if command -v zsh >/dev/null; then
	zsh -n "$zshcomp" || fail "zsh -n $zshcomp"
	zexpect "memcgctl " $'check\nreload\nstatus'
	zexpect "memcgctl --no-" $'--no-legend\n--no-pager'
	zexpect "memcgctl status --format=" $'json\nopenmetrics\nprometheus\ntable'
	zexpect "memcgctl --state-file=$tmp/state status " $'high.slice\nlow.slice'
	zexpect "memcgctl check $tmp/conf/5" $'50-high.conf\n51-other.conf'
	zexpect "memcgd --dr" "--dry-run"
else
	echo "SKIP: zsh (not installed)"
fi

if ((failures)); then
	echo "$failures failures"
	exit 1
fi
echo "completion: all checks passed"
