#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs a libFuzzer target for a bounded time on a scratch copy of its seed corpus.
# usage: run-fuzzer.sh FUZZER SEED_DIR SECONDS
set -eu
fuzzer=$1 seeds=$2 seconds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$seeds"/* "$work/corpus/"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
	-artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" 2>"$work/log" || {
	status=$?
	tail -n 60 "$work/log"
	for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
		[ -e "$a" ] || continue
		echo "reproducer $(basename "$a") (base64):"
		base64 "$a"
	done
	exit "$status"
}
grep -E '^(stat::number_of_executed_units|stat::new_units_added|Done)' "$work/log" || tail -n 5 "$work/log"
