#!/bin/bash
# usage: aslr-spawn.sh LABEL EXTRA_APPEND
label=$1 extra=$2
dir=/var/cache/memcgd/runs/20261206-aslr/$label
rm -rf "$dir"; mkdir -p "$dir"
sock=/run/memcgd-aslr-$label.monitor
cd /work/main
tests/harness/run-vm.sh --label "$label" --kernel /var/cache/memcgd/kernel/default-bea84537fe7ef652 \
	--payload /var/cache/memcgd/stage/release --payload /tmp/aslr-payload --tests 'aslr/spawn' --memory 2048 \
	--monitor "$sock" --cpus 2 --append "$extra" --run-dir "$dir" > "$dir/run-vm.out" 2>&1 &
vm=$!
for _ in $(seq 200); do [[ -S $sock ]] && break; sleep 0.5; done
while kill -0 $vm 2>/dev/null; do
	python3 -c "import sys, time; sys.path.insert(0,'bench'); from hmp import monitor; t=monitor('$sock','info jit', timeout=3); c=[l.split()[-1] for l in t.splitlines() if l.startswith(('TB count','TB invalidate count','TB flush count'))]; print('%.1f' % time.time(), *c)" >> "$dir/jit.log" 2>/dev/null
	sleep 2
done
wait $vm
