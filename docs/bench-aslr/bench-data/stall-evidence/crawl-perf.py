#!/usr/bin/python3
# by hand, stop 29: when a vCPU has been at one kernel RIP for >= 8 s (guest-pc.tsv), profile QEMU 3 s
import os, sys, time, glob, subprocess
sys.path.insert(0, '/work/main/bench')
from hmp import monitor
import importlib.util
spec = importlib.util.spec_from_file_location('cs', '/work/main/bench/capture-stall.py'); cs = importlib.util.module_from_spec(spec); spec.loader.exec_module(cs)
run = '/var/cache/memcgd/runs/20261206-015421-bench'
done = {}
while True:
    for pcf in glob.glob(run + '/*/guest-pc.tsv'):
        d = os.path.dirname(pcf); label = os.path.basename(d)
        if done.get(label, 0) >= 3 or label.startswith('micro'):
            continue
        socks = glob.glob(f'/run/memcgd-bench-*-{label}.monitor')
        if not socks:
            continue
        lines = open(pcf).read().splitlines()[-40:]
        rows = [l.split('\t') for l in lines if l and not l.startswith('t_s')]
        for cpu in ('0', '1'):
            rs = [r for r in rows if len(r) == 6 and r[1] == cpu][-16:]
            if len(rs) == 16 and all(r[2] == rs[0][2] and r[3] == '0' and r[4] == '0' for r in rs):
                pid = None
                for p in subprocess.run(['pgrep', '-f', f'file={d}/root.raw'], capture_output=True, text=True).stdout.split():
                    if open(f'/proc/{p}/comm').read().startswith('qemu-system'):
                        pid = p
                if not pid:
                    continue
                n = done.get(label, 0) + 1
                done[label] = n
                with open(f'{d}/crawl-perf-{n}.txt', 'w') as f:
                    f.write(f'# vCPU {cpu} at {rs[0][2]} for 8 s (samples {rs[0][0]}-{rs[-1][0]}), RCX {rs[0][5]} -> {rs[-1][5]}\n## info jit\n')
                    f.write(monitor(socks[0], 'info jit'))
                    f.write('\n## perf 3 s\n'); f.flush()
                    f.write(cs.profile(int(pid), 3))
                    f.write('\n## info jit, 3 s later\n')
                    f.write(monitor(socks[0], 'info jit'))
                    f.write('\n## info registers -a\n' + monitor(socks[0], 'info registers -a'))
                time.sleep(60)
                break
    if not subprocess.run(['pgrep', '-f', 'scripts/bench --numa-reps 0'], capture_output=True).stdout:
        break
    time.sleep(2)
