#!/bin/zsh -f
# SPDX-License-Identifier: GPL-2.0-only
# zsh-complete.zsh FPATH_DIR OUT LINE: write to OUT the matches zsh's completion system offers
# for LINE (typed into an interactive zsh in a pseudo-terminal, then TAB), one per line: compadd
# is wrapped to record what the completion functions add.
zmodload zsh/zpty || exit 2
out=$2
rm -f $out
zpty z zsh -f -i
zpty -w z "PROMPT= ; RPROMPT= ; unsetopt zle_bracketed_paste; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "compadd () { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; typeset -a hits; builtin compadd -A hits \"\$@\"; local r=\$?; (( \$#hits )) && print -r -l -- \$hits >> ${(q)out}; builtin compadd \"\$@\"; return r; }"
# Type the line only once zle reads the terminal: until then the tty is in canonical mode, and a
# ^U typed ahead would erase the line before zle saw it (seen under load). zle-line-init runs
# inside zle; its output (not the echo of its definition, which reads ZLE''UP) says zle is up.
zpty -w z "zle-line-init() { print -n ZLE''UP }; zle -N zle-line-init"
zpty -r z line '*ZLEUP*'
zpty -w -n z "$3"$'\t'
# zle completes before it reads the next keys: kill the line (^U) and print a marker. Its output
# (not its echo, which reads DO''NE) says the completion has finished, however busy the machine
zpty -w z $'\x15'"print DO''NE"
zpty -r z line '*DONE*'
zpty -d z
[[ -e $out ]] || : >$out
