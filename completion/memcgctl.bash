# SPDX-License-Identifier: GPL-2.0-only
# bash completion for memcgctl and memcgd (memcgctl(1), memcgd(8)). Installed as
# completions/memcgctl and completions/memcgd, where bash-completion looks them up by command
# name; needs nothing of bash-completion itself.

# the word being completed and its "--option=" part, as the user typed it (COMP_WORDS splits
# at '=' when COMP_WORDBREAKS has it)
__memcgd_cur() {
	local line=${COMP_LINE:0:COMP_POINT}
	_memcgd_word=${line##*[[:space:]]}
}

# COMPREPLY for an option's value: values that start with what was typed; for "--option=value"
# in one word prefixed with "--option=" unless bash split the word at '='
__memcgd_values() { # OPTION VALUES...
	local opt=$1 typed=${_memcgd_word#*=} v
	shift
	COMPREPLY=()
	for v in "$@"; do
		[[ $v == "$typed"* ]] || continue
		if [[ $COMP_WORDBREAKS == *=* || $_memcgd_word != "$opt="* ]]; then
			COMPREPLY+=("$v")
		else
			COMPREPLY+=("$opt=$v")
		fi
	done
}

__memcgd_files() { # dirs|files TYPED
	local IFS=$'\n'
	if [[ $1 == dirs ]]; then
		COMPREPLY=($(compgen -d -- "$2"))
	else
		COMPREPLY=($(compgen -f -- "$2"))
	fi
	compopt -o filenames 2>/dev/null
}

# OPTIONS is the list of options; VALUE_OPTIONS those that take a value. Completes an option or
# its value and returns 0, or returns 1 when the word is no option.
__memcgd_option() { # WORDS_BEFORE_CURRENT...
	local prev=${COMP_WORDS[COMP_CWORD - 1]} opt="" typed=""
	__memcgd_cur
	if [[ $_memcgd_word == --*=* ]]; then
		opt=${_memcgd_word%%=*}
		typed=${_memcgd_word#*=}
	elif [[ " ${_memcgd_value_options[*]} " == *" $prev "* ]]; then
		opt=$prev # --format VALUE, as getopt takes it too
		typed=$_memcgd_word
	fi
	if [[ -n $opt ]]; then
		case $opt in
		--format) __memcgd_values --format table json openmetrics prometheus ;;
		--root | --cgroup-root) __memcgd_files dirs "$typed" ;;
		--state-file) __memcgd_files files "$typed" ;;
		*) COMPREPLY=() ;;
		esac
		return 0
	fi
	if [[ $_memcgd_word == -* ]]; then
		local o
		COMPREPLY=()
		for o in "${_memcgd_options[@]}"; do
			[[ $o == "$_memcgd_word"* ]] && COMPREPLY+=("$o")
		done
		# "--format=" waits for its value
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	return 1
}

_memcgctl() {
	local _memcgd_word i w cmd="" state_file="" n_args=0
	local -a _memcgd_options=(--format= --json --no-legend --no-pager --root= --memory= --state-file=
		--cgroup-root= --help --version)
	local -a _memcgd_value_options=(--format --root --memory --state-file --cgroup-root)
	__memcgd_option && return 0
	# the command: the first word that is neither an option nor an option's value
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == = ]] || [[ ${COMP_WORDS[i - 1]} == = ]]; then
			[[ ${COMP_WORDS[i - 2]} == --state-file && $w != = ]] && state_file=$w
			continue
		fi
		if [[ $w == --state-file=* ]]; then
			state_file=${w#*=}
			continue
		fi
		if [[ $w == -* ]] || [[ " ${_memcgd_value_options[*]} " == *" ${COMP_WORDS[i - 1]} "* ]]; then
			[[ ${COMP_WORDS[i - 1]} == --state-file ]] && state_file=$w
			continue
		fi
		if [[ -z $cmd ]]; then
			cmd=$w
		else
			n_args=$((n_args + 1))
		fi
	done
	case $cmd in
	"")
		COMPREPLY=($(compgen -W "status reload check" -- "$_memcgd_word"))
		;;
	status)
		# one slice: those memcgd manages now, from the table's rows
		((n_args == 0)) || return 0
		local slices
		slices=$(memcgctl ${state_file:+--state-file="$state_file"} --no-legend status 2>/dev/null |
			while read -r w _; do printf '%s\n' "$w"; done)
		COMPREPLY=($(compgen -W "$slices" -- "$_memcgd_word"))
		;;
	check)
		__memcgd_files files "$_memcgd_word"
		;;
	*)
		COMPREPLY=()
		;;
	esac
	return 0
}

_memcgd() {
	local _memcgd_word
	local -a _memcgd_options=(--dry-run --root= --state-file= --no-bus --cgroup-root= --check-kernel --debug
		--help --version)
	local -a _memcgd_value_options=(--root --state-file --cgroup-root)
	__memcgd_option && return 0
	COMPREPLY=()
	return 0
}

complete -F _memcgctl memcgctl
complete -F _memcgd memcgd
