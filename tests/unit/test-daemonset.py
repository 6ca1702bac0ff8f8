#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""deploy/kubernetes/memcgd-daemonset.yaml against what memcgd needs.

usage: test-daemonset.py SOURCE_ROOT

Not a cluster test (none runs here): the manifest parses as Kubernetes objects, its arguments
are options memcgd accepts (daemon/memcgd.c), its capabilities are exactly those
units/memcgd.service.in grants, the pod is Guaranteed, and each host path docs/fleet.md's
DaemonSet section requires is mounted where memcgd looks for it (--root=, --cgroup-root=).
"""
import os
import re
import sys

import yaml

root = sys.argv[1]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


with open(os.path.join(root, "deploy/kubernetes/memcgd-daemonset.yaml")) as f:
    docs = [d for d in yaml.safe_load_all(f) if d]
kinds = {d["kind"]: d for d in docs}
if set(kinds) != {"Namespace", "DaemonSet"}:
    fail(f"objects: {sorted(kinds)}")
ds = kinds.get("DaemonSet", {})
if ds.get("apiVersion") != "apps/v1":
    fail(f"DaemonSet apiVersion {ds.get('apiVersion')}")
spec = ds["spec"]
if spec["selector"]["matchLabels"].items() - spec["template"]["metadata"]["labels"].items():
    fail("the selector does not match the pod template's labels")
pod = spec["template"]["spec"]
(c,) = pod["containers"]

# the arguments: memcgd's long options
with open(os.path.join(root, "daemon/memcgd.c")) as f:
    src = f.read()
options = dict(re.findall(r'\{ "([a-z-]+)", (no_argument|required_argument),', src))
args = {}
for a in c.get("args", []):
    m = re.fullmatch(r"--([a-z-]+)(?:=(.*))?", a)
    if not m or m.group(1) not in options:
        fail(f"argument {a!r} is not an option of memcgd (daemon/memcgd.c)")
        continue
    if (options[m.group(1)] == "required_argument") != (m.group(2) is not None):
        fail(f"argument {a!r}: memcgd's --{m.group(1)} is {options[m.group(1)]}")
    args[m.group(1)] = m.group(2)

# capabilities: the unit's, nothing more
with open(os.path.join(root, "units/memcgd.service.in")) as f:
    unit_caps = re.search(r"^CapabilityBoundingSet=(.*)$", f.read(), re.M).group(1).split()
sc = c["securityContext"]
want = sorted(x.removeprefix("CAP_") for x in unit_caps)
if sorted(sc["capabilities"]["add"]) != want or sc["capabilities"]["drop"] != ["ALL"]:
    fail(f"capabilities {sc['capabilities']}, want add {want}, drop ALL (units/memcgd.service.in)")
if sc.get("privileged") or sc.get("allowPrivilegeEscalation", True):
    fail("the container is privileged or may escalate")

# Guaranteed: requests = limits for cpu and memory (docs/fleet.md: memcgd's own memory)
res = c["resources"]
for r in ("cpu", "memory"):
    if res["requests"].get(r) is None or res["requests"].get(r) != res["limits"].get(r):
        fail(f"resources.{r}: requests {res['requests'].get(r)} != limits {res['limits'].get(r)}: not Guaranteed")

# the host paths, where memcgd looks for them
mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
volumes = {v["name"]: v for v in pod["volumes"]}
host_root = args.get("root", "")
need = {  # host path -> path in the container, read-only or not
    "/sys/fs/cgroup": (args.get("cgroup-root", "/sys/fs/cgroup"), False),
    "/sys/kernel/btf": ("/sys/kernel/btf", True),
    "/run/dbus/system_bus_socket": ("/run/dbus/system_bus_socket", False),
    "/etc/memcgd.d": (host_root + "/etc/memcgd.d", True),
    "/run/memcgd": ("/run/memcgd", False),
}
for host, (inside, ro) in need.items():
    m = mounts.get(inside)
    if not m:
        fail(f"{host} is not mounted at {inside}")
        continue
    v = volumes.get(m["name"], {})
    if v.get("hostPath", {}).get("path") != host:
        fail(f"{inside} is volume {m['name']}, not hostPath {host}: {v}")
    if ro and not m.get("readOnly"):
        fail(f"{inside} should be read-only")
    if not ro and m.get("readOnly"):
        fail(f"{inside} must be writable (memcgd writes there)")

# docs/fleet.md names these paths in its DaemonSet section: the manifest and the prose agree
with open(os.path.join(root, "docs/fleet.md")) as f:
    fleet = f.read()
section = fleet[fleet.index("## Rolling out as a privileged DaemonSet"):]
section = section[:section.index("\n## ", 5)]
for p in ("/sys/fs/cgroup", "/sys/kernel/btf", "/run/dbus/system_bus_socket", "/host/etc/memcgd.d", "/run/memcgd",
          "deploy/kubernetes/memcgd-daemonset.yaml"):
    if p not in section:
        fail(f"docs/fleet.md's DaemonSet section does not mention {p}")

if failures:
    sys.exit(f"{len(failures)} failure(s)")
print("ok: the DaemonSet manifest matches memcgd's options, capabilities and docs/fleet.md")
