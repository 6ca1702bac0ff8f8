#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""memcgctl status --format=openmetrics|prometheus, read back by real parsers.

usage: test-openmetrics.py MEMCGCTL [DASHBOARD]

A state file written here (this process's pid, so memcgctl takes memcgd for running) and a
cgroup tree of memory.* files are rendered; prometheus_client's OpenMetrics parser (Debian's
python3-prometheus-client, scripts/install-deps) must accept the output, its Prometheus 0.0.4
parser the other format, and the values must be those of `memcgctl status --json`. With
DASHBOARD (deploy/grafana/memcgd-dashboard.json), every metric its queries name must be one that
the Prometheus output has, and every panel must have a query.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

try:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse_openmetrics
    from prometheus_client.parser import text_string_to_metric_families as parse_prometheus
except ImportError as e:
    sys.exit(f"FAIL: {e}: install python3-prometheus-client (scripts/install-deps)")

memcgctl = sys.argv[1]
dashboard = sys.argv[2] if len(sys.argv) > 2 else None
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def esc(v):
    return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def record(kind, **kv):
    return kind + "".join(f"\t{k}={esc(str(v))}" for k, v in kv.items()) + "\n"


HIGH = "web\\x2dfront.slice"  # systemd's escape of web-front: a backslash in a label value
now = int(time.time())
tmp = tempfile.mkdtemp()
state = os.path.join(tmp, "state")
with open(state, "w") as f:
    f.write(record("daemon", pid=os.getpid(), state="running", mode="enforce", started=(now - 3600) * 10**6,
                   updated=now * 10**6, interval=1000000, generation=4, reloads=5,
                   reload_error='/etc/memcgd.d/x.conf:3: Mode="max" is not a protection mode',
                   kernel="6.12.118-memcgd-default", supported=1, hooks="below_low below_min get_high_delay_ms",
                   libbpf="1.5", events_dropped=2, exempt="/init.scope", exempt_skips=12, max_cgroups=64,
                   unmapped_cgroups=37, reclaim_path="kernel", reclaim_note="in the kernel", free=300 << 20,
                   numa_hook=1, numa_loaded=1, reclaim_room=96 << 20))
    f.write(record("slice", name=HIGH, priority=50, level=1, slot=0, file='/etc/memcgd.d/50-"high".conf',
                   cgroup="/web\\x2dfront.slice", cgroup_id=1234, attach="attached", protect="min",
                   threshold=500, cpu_threshold=50, window=1000000, hold=2000000, delay_ms=0,
                   max_usage=4 << 30, active=1, rate=15234.5, cpu=93.5, faults=999, activations=3,
                   active_usec=62000000, protect_decisions=17, numa="yes", numa_on=42,
                   # the policy engine's report (memcgd.d(5)): low.slice and idle.slice have none
                   state="holding", escalation="reclaim", why="refaults", hold_learned=7500000,
                   protect_bytes=1 << 30, usage=1610612736, refault_rate=12.5, psi_some=4.5, episodes=3,
                   sized_decisions=88))
    f.write(record("slice", name="low.slice", priority=10, level=0, slot=1, file="/etc/memcgd.d/10-low.conf",
                   cgroup="/low.slice", cgroup_id=99, attach="failed", reason="EBUSY", protect="none",
                   threshold=500, delay_ms=100, throttling=1, guard_trips=1, throttle_decisions=40,
                   throttle_ms=4000, ceiling_refusals=7, background=1, reclaimed=3 << 29, reclaim_passes=12,
                   reclaim_errors=1, numa="no", numa_off=3))
    f.write(record("slice", name="idle.slice", priority=5, level=0, slot=2, file="/usr/lib/memcgd.d/05-idle.conf",
                   cgroup="", attach="not-running", protect="low"))
    f.write(record("skipped", file="/etc/memcgd.d/60-bad.conf", line=5, message="bad"))
cg = os.path.join(tmp, "cg")
for name, files in {"web\\x2dfront.slice": {"memory.current": "1610612736", "memory.min": "0",
                                           "memory.low": "0", "memory.high": "max"},
                    "low.slice": {"memory.current": "4096", "memory.min": "0", "memory.low": "1048576",
                                  "memory.high": "2147483648"}}.items():
    os.makedirs(os.path.join(cg, name))
    for fn, v in files.items():
        with open(os.path.join(cg, name, fn), "w") as f:
            f.write(v + "\n")


def run(*args, want_rc=0):
    p = subprocess.run([memcgctl, f"--state-file={state}", f"--cgroup-root={cg}", "status", *args],
                       capture_output=True, text=True)
    if p.returncode != want_rc:
        fail(f"memcgctl status {' '.join(args)}: exit {p.returncode}, not {want_rc}: {p.stderr}")
    return p.stdout


def samples(families):
    """{(sample name, frozenset(labels)): value}"""
    out = {}
    for fam in families:
        for s in fam.samples:
            key = (s.name, frozenset(s.labels.items()))
            if key in out:
                fail(f"duplicate sample {key}")
            out[key] = s.value
    return out


def get(smp, name, **labels):
    return smp.get((name, frozenset(labels.items())))


def check(smp, name, want, **labels):
    got = get(smp, name, **labels)
    if got is None or not (got == want or (isinstance(want, float) and math.isclose(got, want))):
        fail(f"{name}{labels}: {got!r}, want {want!r}")


def strict_prometheus_lines(text):
    """What node_exporter's parser (expfmt) also insists on: one TYPE per metric, before its
    samples, the samples of a metric together and named as its TYPE line says."""
    typed, current, seen = set(), None, set()
    for line in text.splitlines():
        m = re.match(r"# TYPE (\S+) (counter|gauge)$", line)
        if m:
            if m.group(1) in typed:
                fail(f"prometheus: second TYPE for {m.group(1)}")
            typed.add(m.group(1))
            current = m.group(1)
            continue
        if line.startswith("#"):
            if not re.match(r"# HELP \S+ [^\\\n]*$", line):
                fail(f"prometheus: unexpected comment {line!r}")
            continue
        name = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0)
        if name != current:
            fail(f"prometheus: sample {name} is not under its TYPE line (current {current})")
        if name in seen and name != current:
            fail(f"prometheus: samples of {name} are not together")
        seen.add(name)


# --- OpenMetrics ---
text = run("--format=openmetrics")
if not text.endswith("# EOF\n"):
    fail("openmetrics: no '# EOF' at the end")
try:
    om = samples(parse_openmetrics(text))
except Exception as e:  # the parser's ValueError names the offending line
    fail(f"openmetrics parser refused the output: {e}\n{text}")
    om = {}
families = {f.name: f for f in parse_openmetrics(text)} if om else {}

# the same status model as --json
js = json.loads(run("--json"))
for sl in js["slices"]:
    name = sl["name"]
    c = sl["counters"]
    for key, metric, scale in [("faults", "memcgd_slice_faults_total", 1),
                               ("activations", "memcgd_slice_activations_total", 1),
                               ("active_usec", "memcgd_slice_active_seconds_total", 1e-6),
                               ("protect_decisions", "memcgd_slice_protect_decisions_total", 1),
                               ("throttle_decisions", "memcgd_slice_throttle_decisions_total", 1),
                               ("throttle_ms", "memcgd_slice_throttle_requested_seconds_total", 1e-3),
                               ("guard_trips", "memcgd_slice_guard_trips_total", 1),
                               ("ceiling_refusals", "memcgd_slice_ceiling_refusals_total", 1),
                               ("reclaimed_bytes", "memcgd_slice_reclaimed_bytes_total", 1),
                               ("reclaim_passes", "memcgd_slice_reclaim_passes_total", 1),
                               ("reclaim_errors", "memcgd_slice_reclaim_errors_total", 1)]:
        check(om, metric, float(c[key] * scale), slice=name)
    check(om, "memcgd_slice_numa_decisions_total", float(c["numa_on_decisions"]), slice=name, decision="on")
    check(om, "memcgd_slice_numa_decisions_total", float(c["numa_off_decisions"]), slice=name, decision="off")
    check(om, "memcgd_slice_fault_rate", float(sl["fault_rate"]), slice=name)
    check(om, "memcgd_slice_active", float(sl["active"]), slice=name)
    check(om, "memcgd_slice_priority", float(sl["priority"]), slice=name)
    action = "none" if sl["action"] == "-" else sl["action"]
    check(om, "memcgd_slice_action", 1.0, slice=name, memcgd_slice_action=action)
    check(om, "memcgd_slice_attach_state", 1.0, slice=name, memcgd_slice_attach_state=sl["attach_state"])
    states = [k for k, v in om.items() if k[0] == "memcgd_slice_attach_state" and ("slice", name) in k[1] and v]
    if len(states) != 1:
        fail(f"{name}: {len(states)} attach states set")
    if sl["memory"]:
        for k in ("current", "min", "low", "high"):
            want = math.inf if sl["memory"][k] == "max" else float(sl["memory"][k])
            check(om, f"memcgd_slice_memory_{k}_bytes", want, slice=name)
    elif any(k[0].startswith("memcgd_slice_memory_") and ("slice", name) in k[1] for k in om):
        fail(f"{name}: memory samples without memory.* files")
    check(om, "memcgd_slice_policy_max_usage_bytes",
          math.inf if sl["policy"]["max_usage"] is None else float(sl["policy"]["max_usage"]), slice=name)
    # the policy engine's families: only for slices it reports on, with the values of --json
    eng = sl["engine"]
    if eng is None:
        if any(k[0].startswith(("memcgd_slice_engine_state", "memcgd_slice_escalation", "memcgd_slice_protect_bytes",
                                "memcgd_slice_refault_rate", "memcgd_slice_hold_seconds"))
               and ("slice", name) in k[1] for k in om):
            fail(f"{name}: engine samples without an engine report")
        continue
    check(om, "memcgd_slice_engine_state", 1.0, slice=name, memcgd_slice_engine_state=eng["state"])
    check(om, "memcgd_slice_escalation", 1.0, slice=name, memcgd_slice_escalation=eng["escalation"])
    check(om, "memcgd_slice_protect_bytes", float(eng["protect_bytes"]), slice=name)
    check(om, "memcgd_slice_hold_seconds", eng["hold_usec"] / 1e6, slice=name)
    check(om, "memcgd_slice_refault_rate", float(eng["refault_rate"]), slice=name)
    check(om, "memcgd_slice_memory_pressure_some_ratio", eng["psi_some"] / 100, slice=name)
    check(om, "memcgd_slice_busy_episodes_total", float(eng["episodes"]), slice=name)
    check(om, "memcgd_slice_sized_decisions_total", float(eng["sized_decisions"]), slice=name)
if not any(k[0] == "memcgd_slice_engine_state" for k in om):
    fail("no memcgd_slice_engine_state samples")
check(om, "memcgd_reclaim_room_bytes", float(96 << 20))
check(om, "memcgd_slice_cpu_percent", 93.5, slice=HIGH)
check(om, "memcgd_slice_info", 1.0, slice=HIGH, config_file='/etc/memcgd.d/50-"high".conf',
      cgroup="/web\\x2dfront.slice", protect="min")
check(om, "memcgd_up", 1.0)
check(om, "memcgd_config_generation", float(js["daemon"]["config_generation"]))
check(om, "memcgd_reloads_total", 5.0)
check(om, "memcgd_reload_failed", 1.0)
check(om, "memcgd_skipped_config_problems", 1.0)
check(om, "memcgd_events_dropped_total", 2.0)
check(om, "memcgd_unmapped_cgroups_total", 37.0)
check(om, "memcgd_max_cgroups", 64.0)
check(om, "memcgd_start_time_seconds", float(now - 3600))
check(om, "memcgd_kernel_supported", 1.0)
check(om, "memcgd_kernel_info", 1.0, release="6.12.118-memcgd-default")
for hook in ("below_low", "below_min", "get_high_delay_ms"):
    check(om, "memcgd_kernel_hook", 1.0, hook=hook)
check(om, "memcgd_daemon_info", 1.0, state="running", mode="enforce", libbpf="1.5",
      memcgctl_version=subprocess.run([memcgctl, "--version"], capture_output=True, text=True).stdout.split()[-1])
for name, typ, unit in [("memcgd_slice_faults", "counter", ""), ("memcgd_slice_memory_current_bytes", "gauge", "bytes"),
                        ("memcgd_slice_attach_state", "stateset", ""), ("memcgd_slice", "info", ""),
                        ("memcgd_slice_active_seconds", "counter", "seconds")]:
    f = families.get(name)
    if not f or f.type != typ or f.unit != unit:
        fail(f"family {name}: {f and (f.type, f.unit)}, want {(typ, unit)}")

# one slice
one = samples(parse_openmetrics(run("--format=openmetrics", "low.slice")))
named = {dict(k[1]).get("slice") for k in one} - {None}
if named != {"low.slice"}:
    fail(f"status low.slice --format=openmetrics shows {named}")
check(one, "memcgd_slices", 1.0)

# --- Prometheus 0.0.4 (node_exporter's textfile collector) ---
text = run("--format=prometheus")
if "# EOF" in text or "# UNIT" in text:
    fail("prometheus: OpenMetrics-only lines")
strict_prometheus_lines(text)
try:
    prom = samples(parse_prometheus(text))
except Exception as e:
    fail(f"prometheus parser refused the output: {e}")
    prom = {}
for key, v in om.items():
    if key[0] != "memcgd_state_age_seconds" and prom.get(key) != v:  # the age moves between two runs
        if not (isinstance(v, float) and math.isnan(v)):
            fail(f"prometheus {key}: {prom.get(key)!r}, openmetrics {v!r}")
if set(prom) != set(om):
    fail(f"prometheus and openmetrics samples differ: {sorted(set(prom) ^ set(om), key=str)[:5]} ...")

# --- the Grafana dashboard asks only for what memcgctl prints ---
if dashboard:
    with open(dashboard) as f:
        dash = json.load(f)
    names = {k[0] for k in prom}
    used = set()
    for panel in dash["panels"]:
        exprs = [t.get("expr", "") for t in panel.get("targets", [])]
        if not any(exprs):
            fail(f"dashboard panel {panel.get('title')!r} has no query")
        for e in exprs:
            used |= set(re.findall(r"\bmemcgd_[a-z_]+", e))
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        used |= set(re.findall(r"\bmemcgd_[a-z_]+", q.get("query", "") if isinstance(q, dict) else str(q or "")))
    for m in sorted(used - names):
        fail(f"dashboard: {m} is not a metric memcgctl status --format=prometheus prints")
    if len(used) < 10:
        fail(f"dashboard: only {len(used)} metrics used")

# --- memcgd not running: exit 3, memcgd_up 0, still parseable ---
for fmt, parse in (("openmetrics", parse_openmetrics), ("prometheus", parse_prometheus)):
    p = subprocess.run([memcgctl, f"--state-file={tmp}/none", "status", f"--format={fmt}"],
                       capture_output=True, text=True)
    if p.returncode != 3:
        fail(f"not running, {fmt}: exit {p.returncode}")
    try:
        s = samples(parse(p.stdout))
        check(s, "memcgd_up", 0.0)
        if any(k[0].startswith("memcgd_slice") for k in s):
            fail(f"not running, {fmt}: slice samples")
    except Exception as e:
        fail(f"not running, {fmt}: parser refused: {e}\n{p.stdout}")

# --- a bad format is refused ---
p = subprocess.run([memcgctl, f"--state-file={state}", "status", "--format=xml"], capture_output=True, text=True)
if p.returncode != 1 or "unknown --format 'xml'" not in p.stderr:
    fail(f"--format=xml: exit {p.returncode}, {p.stderr!r}")

subprocess.run(["rm", "-rf", tmp])
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("openmetrics: all checks passed")
