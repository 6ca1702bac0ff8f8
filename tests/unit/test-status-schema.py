#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""memcgctl status --json against its published schema (schema/memcgctl-status-v1.json).

usage: test-status-schema.py SCHEMA MEMCGCTL

The schema is a contract for scripts that read the JSON: every object in it is closed
(additionalProperties false) and lists every key as required, so a key the code adds, renames or
drops fails here until the schema (and, for a changed meaning, "version") follows. The documents
checked: memcgd running with an engine slice, a legacy slice, a failed and a not-running one and a
skipped file; the same filtered by a SLICE argument; a dry run; memcgd not running. Validation is Debian's
python3-jsonschema (Draft 2020-12).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

try:
    import jsonschema
except ImportError as e:
    sys.exit(f"FAIL: {e}: install python3-jsonschema (scripts/install-deps)")

schema_path, memcgctl = sys.argv[1], sys.argv[2]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


with open(schema_path) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)


def closed(node, where):
    """Every object of the schema closed, every key required: the code cannot drift silently."""
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            if node.get("additionalProperties") is not False:
                fail(f"schema {where}: object not closed (additionalProperties is not false)")
            if sorted(node.get("required", [])) != sorted(node.get("properties", {})):
                fail(f"schema {where}: required {sorted(node.get('required', []))} is not every key")
        for k, v in node.items():
            closed(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            closed(v, f"{where}/{i}")


closed(schema, "#")


def esc(v):
    return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def record(kind, **kv):
    return kind + "".join(f"\t{k}={esc(str(v))}" for k, v in kv.items()) + "\n"


now = int(time.time())
tmp = tempfile.mkdtemp()
cg = os.path.join(tmp, "cg")
for name, files in {"high.slice": {"memory.current": "1610612736", "memory.min": "0", "memory.low": "0",
                                   "memory.high": "max",
                                   "memory.stat": "anon 1\nnuma_pte_updates 5\nnuma_hint_faults 4\n"
                                                  "numa_pages_migrated 3\n"},
                    "low.slice": {"memory.current": "4096", "memory.min": "0", "memory.low": "1048576",
                                  "memory.high": "2147483648"}}.items():
    os.makedirs(os.path.join(cg, name))
    for fn, v in files.items():
        with open(os.path.join(cg, name, fn), "w") as f:
            f.write(v if v.endswith("\n") else v + "\n")


def state_file(mode="enforce", pid=None):
    path = os.path.join(tmp, f"state-{mode}")
    with open(path, "w") as f:
        f.write(record("daemon", pid=pid or os.getpid(), state="running", mode=mode,
                       started=(now - 3600) * 10**6, updated=now * 10**6, interval=1000000, generation=4,
                       reloads=5, reload_error='/etc/memcgd.d/x.conf:3: Mode="max" is not a protection mode',
                       kernel="6.12.118-memcgd-default", supported=1, hooks="below_low below_min get_low get_min",
                       libbpf="1.5", events_dropped=2, exempt="/init.scope /memcgd.slice", exempt_skips=12,
                       max_cgroups=64, unmapped_cgroups=0, reclaim_path="kernel", reclaim_note="in the kernel",
                       free=300 << 20, reclaim_room=96 << 20, numa_hook=1, numa_loaded=1))
        # the shipped conf/50-high.conf under the engine: Hold=auto, Size=footprint, state and escalation
        f.write(record("slice", name="high.slice", priority=50, level=1, slot=0, file="/etc/memcgd.d/50-high.conf",
                       cgroup="/high.slice", cgroup_id=1234, attach="dry-run" if mode == "dry-run" else "attached",
                       protect="low", protect_size="footprint", throttle_when="pressure", threshold=0,
                       cpu_threshold=1, window=1000000, hold=(1 << 64) - 1, max_hold=300000000,
                       wake_reserve=64 << 20, max_usage=4 << 30, active=1, rate=15234.5, cpu=3.5, faults=999,
                       activations=3, active_usec=62000000, protect_decisions=17, numa="yes", numa_on=42,
                       numa_scan_min=1000000, state="holding", escalation="reclaim",
                       why="refaults 12/s while low.slice works", hold_learned=7000000, protect_bytes=1 << 30,
                       usage=1610612736, refault_rate=12.0, psi_some=4.25, episodes=3, sized_decisions=88))
        # conf/10-low.conf: background reclaim, delay on pressure; no engine record keys (an older memcgd)
        f.write(record("slice", name="low.slice", priority=10, level=0, slot=1, file="/etc/memcgd.d/10-low.conf",
                       cgroup="/low.slice", cgroup_id=99, attach="attached", protect="none", threshold=500,
                       delay_ms=100, throttling=1, throttle_decisions=40, throttle_ms=4000, background=1,
                       headroom=256 << 20, reclaim_rate=64 << 20, reclaimed=3 << 29, reclaim_passes=12,
                       reclaim_errors=1, reclaim_ago=2000000, reclaim_last_free=200 << 20,
                       reclaim_because="free 200M < headroom 256M", numa="no", numa_off=3))
        f.write(record("slice", name="gone.slice", priority=20, level=0, slot=2, file="/etc/memcgd.d/20-gone.conf",
                       cgroup="/gone.slice", cgroup_id=7, attach="failed", reason="EBUSY", protect="min",
                       guard_tripped=1, guard_trips=1))
        f.write(record("slice", name="idle.slice", priority=5, level=0, slot=3, file="/usr/lib/memcgd.d/05-idle.conf",
                       cgroup="", attach="not-running", protect="low"))
        f.write(record("skipped", file="/etc/memcgd.d/60-bad.conf", line=5, message="bad"))
        f.write(record("skipped", file="/etc/memcgd.d/61-unreadable.conf", line=0, message="Permission denied"))
    return path


def status_json(state, *args):
    p = subprocess.run([memcgctl, f"--state-file={state}", f"--cgroup-root={cg}", "status", "--json", *args],
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        fail(f"status --json {' '.join(args)} (exit {p.returncode}): not JSON: {e}: {p.stdout!r} {p.stderr!r}")
        return None


def check(label, doc, n_slices=None):
    if doc is None:
        return
    for err in validator.iter_errors(doc):
        fail(f"{label}: {'/'.join(map(str, err.absolute_path)) or '(root)'}: {err.message}")
    if n_slices is not None and len(doc.get("slices", [])) != n_slices:
        fail(f"{label}: {len(doc.get('slices', []))} slices, want {n_slices}")
    return doc


running = check("running", status_json(state_file()), 4)
if running:
    high = running["slices"][0]
    if high["engine"] is None or high["engine"]["state"] != "holding" or high["policy"]["hold_usec"] != "auto":
        fail(f"running: high.slice engine/hold not rendered: {high['engine']}, {high['policy']['hold_usec']}")
    if running["slices"][1]["engine"] is not None:
        fail("running: a slice without engine keys must have engine null")
check("--slice", status_json(state_file(), "low.slice"), 1)
check("dry run", status_json(state_file("dry-run"), "high.slice"), 1)
not_running = check("not running", status_json(os.path.join(tmp, "absent")), 0)
if not_running and not_running["daemon"]["running"] is not False:
    fail("not running: daemon.running is not false")

# the test fails when it should: a document with a key the schema does not know, and one without a key
if running:
    for label, bad in (("extra key", dict(running, surprise=1)),
                       ("missing key", {k: v for k, v in running.items() if k != "kernel"}),
                       ("bad engine state", json.loads(json.dumps(running).replace('"holding"', '"sleepy"')))):
        if validator.is_valid(bad):
            fail(f"the schema accepts a document with a {label}")

if failures:
    sys.exit(f"{len(failures)} failure(s)")
print("ok: memcgctl status --json matches", os.path.basename(schema_path))
