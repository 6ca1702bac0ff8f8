#!/bin/bash
# stop 29, by hand: does guest ASLR (per-process code addresses) feed the TB-list crawl?
# usage: aslr-exp.sh LABEL EXTRA_APPEND
set -u
label=$1 extra=$2
dir=/var/cache/memcgd/runs/20261206-aslr/$label
mkdir -p "$(dirname "$dir")"; rm -rf "$dir"; mkdir -p "$dir"
sock=/run/memcgd-aslr-$label.monitor
cd /work/main
tests/harness/run-vm.sh --label "$label" --kernel /var/cache/memcgd/kernel/default-bea84537fe7ef652 \
	--payload /var/cache/memcgd/stage/release --tests 'bench/L1-low,bench/L2-low' --memory 2048 --swap 2G \
	--monitor "$sock" --cpus 2 --append "memcgd.bench_seconds=80 memcgd.bench_window=20 transparent_hugepage=madvise $extra" \
	--test-timeout 1800 --run-dir "$dir" > "$dir/run-vm.out" 2>&1 &
vm=$!
pid=""
for _ in $(seq 600); do
	for p in $(pgrep -f -- "file=$dir/root.raw" || true); do
		[[ "$(cat /proc/$p/comm 2>/dev/null)" == qemu-system* ]] && pid=$p
	done
	[[ -n "$pid" ]] && break
	sleep 0.5
done
bench/sample-qemu-threads.py "$pid" "$dir/qemu-threads.tsv" &
bench/sample-guest-pc.py "$pid" "$sock" "$dir/guest-pc.tsv" &
( while kill -0 "$pid" 2>/dev/null; do
	python3 -c "import sys; sys.path.insert(0,'bench'); import time; from hmp import monitor; t=monitor('$sock','info jit'); print(int(time.time()), ' '.join(l.split()[-1] if 'count' in l or 'size' in l else '' for l in t.splitlines() if l.startswith(('TB count','TB flush','TB invalidate','gen code'))))"
	sleep 10
done ) > "$dir/jit.log" 2>&1 &
wait "$vm"
wait
