#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The README, docs/ and the man pages against the code: what changes with the code is checked.

usage: test-docs.py SOURCE_ROOT

- "N patches": N is the number of kernel-patches/0*.patch but the cover letter;
- the kernel tests' letters ("tests/kernel/ (a-s ...)"): those of tests/kernel/*.c;
- the memcg_bpf_ops hooks: the members of memcgd_ops in bpf/memcgd.bpf.c, in the README's
  first paragraph, its kernel series section, memcgd(8)'s KERNEL REQUIREMENTS and every
  "memcg_bpf_ops hooks:" line (one ending in an ellipsis may name fewer);
- the journal events: those daemon/*.c logs, in memcgd(8)'s LOGGING and fleet.md's table, with
  the MESSAGE_IDs of daemon/log-ids.c;
- DryRun=: the code switches it on reload, so no document may say it is read at start only;
- /run/systemd/private: no document advises mounting it unless the code uses it;
- the options of memcgctl and memcgd (their getopt tables) in their man pages, and the metric
  families of daemon/status-openmetrics.c in memcgctl(1).
Generated benchmark pages (docs/benchmarks.md, docs/bench-*) are records of a run, not checked.
"""
import glob
import os
import re
import sys

root = sys.argv[1]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def read(rel):
    with open(os.path.join(root, rel)) as f:
        return f.read()


def strip_c_comments(c):
    c = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), c, flags=re.S)
    return re.sub(r"//[^\n]*", "", c)


def man_text(rel):
    """A man page's text with roff escapes for '-' undone."""
    return read(rel).replace("\\-", "-").replace("\\(em", "-")


def man_section(text, name):
    m = re.search(rf"^\.SH {re.escape(name)}\n(.*?)(?=^\.SH |\Z)", text, flags=re.S | re.M)
    return m.group(1) if m else ""


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


docs = ["README.md"] + sorted(
    os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md"))
    if not os.path.basename(p).startswith("bench"))
mans = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "man", "*.[0-9]")))
texts = {d: read(d) for d in docs}
texts.update({m: man_text(m) for m in mans})

# --- the kernel series: patch count ---
patches = [p for p in glob.glob(os.path.join(root, "kernel-patches", "0*.patch"))
           if not os.path.basename(p).startswith("0000")]
n_patches = len(patches)
words = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
found_count = False
for d, t in texts.items():
    for m in re.finditer(r"\b(\d+|" + "|".join(words) + r")\s+(?:kernel\s+)?patches\b", t, flags=re.I):
        n = int(m.group(1)) if m.group(1).isdigit() else words[m.group(1).lower()]
        found_count = found_count or d == "README.md"
        if n != n_patches:
            fail(f"{d}:{line_of(t, m.start())}: '{m.group(0)}', but kernel-patches/ has {n_patches} "
                 "(ls kernel-patches/0*.patch | grep -v 0000 | wc -l)")
if not found_count:
    fail("README.md no longer says how many patches the series has (this test looks for 'N patches')")

# --- the kernel tests' letters ---
letters = sorted({os.path.basename(p)[0] for p in glob.glob(os.path.join(root, "tests", "kernel", "[a-z]-*.c"))})
if not letters:
    fail("no tests/kernel/[a-z]-*.c")
else:
    want = (letters[0], letters[-1])
    if "".join(letters) != "".join(chr(c) for c in range(ord(letters[0]), ord(letters[-1]) + 1)):
        fail(f"tests/kernel/ letters are not contiguous: {''.join(letters)}")
    found_range = False
    for d, t in texts.items():
        for m in re.finditer(r"(?:tests/kernel/?`?|kernel tests)[^.\n]{0,40}?\b([a-z])\s*[-–]\s*([a-z])\b", t):
            found_range = True
            if (m.group(1), m.group(2)) != want:
                fail(f"{d}:{line_of(t, m.start())}: kernel tests '{m.group(1)}-{m.group(2)}', but tests/kernel/ "
                     f"has {want[0]}-{want[1]}")
    if not found_range:
        fail("no document names the range of the kernel tests (tests/kernel/ (a-x))")

# --- the memcg_bpf_ops hooks ---
bpf = strip_c_comments(read("bpf/memcgd.bpf.c"))
m = re.search(r"struct\s+memcg_bpf_ops\s+memcgd_ops\s*=\s*\{(.*?)\};", bpf, flags=re.S)
hooks = set(re.findall(r"\.(\w+)\s*=", m.group(1))) if m else set()
if len(hooks) < 5:
    fail(f"memcgd_ops in bpf/memcgd.bpf.c: only {sorted(hooks)}")


def mentioned_hooks(text):
    found = set(re.findall(r"\b(" + "|".join(map(re.escape, sorted(hooks, key=len, reverse=True))) + r")\b", text))
    if "handle_cgroup_online/offline" in text:
        found |= {"handle_cgroup_online", "handle_cgroup_offline"}
    return found


readme = texts["README.md"]
intro = readme.split("\n## ", 1)[0]
m = re.search(r"[^\n]*struct_ops with the hooks.*?(?:\n\n|\Z)", intro, flags=re.S)
if not m:
    fail("README.md: the first section no longer lists the hooks ('a struct_ops with the hooks ...')")
else:
    named = set(re.findall(r"`([a-z_]+)`", m.group(0))) - {"memcg_bpf_ops"}
    if named != hooks:
        fail(f"README.md:{line_of(readme, m.start())}: the hooks named are {sorted(named)}, memcgd_ops has "
             f"{sorted(hooks)} (missing {sorted(hooks - named)}, extra {sorted(named - hooks)})")
m = re.search(r"\n## The kernel series\n(.*?)(?=\n## |\Z)", readme, flags=re.S)
if not m:
    fail("README.md: no '## The kernel series' section")
elif mentioned_hooks(m.group(1)) != hooks:
    fail(f"README.md, The kernel series: does not mention the hooks {sorted(hooks - mentioned_hooks(m.group(1)))}")
kr = man_section(texts["man/memcgd.8"], "KERNEL REQUIREMENTS")
if mentioned_hooks(kr) != hooks:
    fail(f"memcgd.8, KERNEL REQUIREMENTS: does not mention the hooks {sorted(hooks - mentioned_hooks(kr))}")
for d, t in texts.items():
    for m in re.finditer(r"memcg_bpf_ops hooks: ([a-z_ ]+)(…|\.\.\.)?", t):
        listed = set(m.group(1).split())
        partial = bool(m.group(2))
        if not listed <= hooks or (not partial and listed != hooks):
            fail(f"{d}:{line_of(t, m.start())}: 'memcg_bpf_ops hooks: {m.group(1).strip()}', memcgd_ops has "
                 f"{' '.join(sorted(hooks))}")

# --- the journal events ---
logged = set()
for path in glob.glob(os.path.join(root, "daemon", "*.c")):
    if path.endswith("log-ids.c"):
        continue
    src = strip_c_comments(open(path).read())
    for m in re.finditer(r"\blog_transition\s*\(\s*LOG_\w+\s*,\s*([^,]*?(?:\?[^,:]*:[^,]*?)?),", src):
        logged |= set(re.findall(r'"([a-z0-9-]+)"', m.group(1)))
    logged |= set(re.findall(r'MEMCGD_EVENT=([a-z0-9-]+)"', src))
    logged |= set(re.findall(r'\blog_message_id\s*\(\s*"([a-z0-9-]+)"', src))
ids = dict(re.findall(r'\{\s*"([a-z0-9-]+)",\s*"([0-9a-f]{32})"\s*\}', strip_c_comments(read("daemon/log-ids.c"))))
if len(logged) < 10:
    fail(f"only {len(logged)} journal events found in daemon/*.c: is the scan broken? {sorted(logged)}")
lg = man_section(texts["man/memcgd.8"], "LOGGING")
m = re.search(r"MEMCGD_EVENT=\s*\((.*?)\)", lg, flags=re.S)
man_events = set(re.findall(r"[a-z][a-z0-9-]*[a-z0-9]", re.sub(r"\bin a dry run\b|\band\b", " ", m.group(1)))) if m else set()
if man_events != logged:
    fail(f"memcgd.8, LOGGING: MEMCGD_EVENT= lists {len(man_events)} events; missing {sorted(logged - man_events)}, "
         f"not logged by the code {sorted(man_events - logged)}")
fleet = texts["docs/fleet.md"]
rows = dict(re.findall(r"^\| `([a-z0-9-]+)` \| `([0-9a-f]{32})` \|", fleet, flags=re.M))
if set(rows) != logged:
    fail(f"docs/fleet.md, the journal table: missing {sorted(logged - set(rows))}, not logged by the code "
         f"{sorted(set(rows) - logged)}")
for ev, mid in rows.items():
    if ids.get(ev) and ids[ev] != mid:
        fail(f"docs/fleet.md: {ev} has MESSAGE_ID {mid}, daemon/log-ids.c {ids[ev]}")

# --- DryRun= on reload ---
if "dry-run" in logged:  # memcgd logs the switch, which only a reload makes
    for d, t in texts.items():
        for m in re.finditer(r"DryRun=[^.]{0,60}(?:read at start only|only at start|restart memcgd to (?:enter|leave))", t,
                             flags=re.S):
            fail(f"{d}:{line_of(t, m.start())}: '{m.group(0)}', but a reload switches DryRun= (daemon/manager.c)")

# --- /run/systemd/private ---
code = "".join(strip_c_comments(open(p).read()) for p in glob.glob(os.path.join(root, "daemon", "*.c")))
if "/run/systemd/private" not in code and "sd_bus_open_system_remote" not in code:
    for d, t in texts.items():
        for para in re.split(r"\n\s*\n", t):
            if "/run/systemd/private" in para:
                for s in re.split(r"(?<=[.;])\s", para):
                    if "/run/systemd/private" in s and re.search(r"mount", s) and not re.search(r"\b(not|never)\b", s):
                        fail(f"{d}: advises /run/systemd/private, which memcgd never uses: '{s.strip()[:120]}'")

# --- options and metric families in the man pages ---
for prog, page in (("memcgctl", "man/memcgctl.1"), ("memcgd", "man/memcgd.8")):
    src = strip_c_comments(read(f"daemon/{prog}.c"))
    m = re.search(r"struct option options\[\]\s*=\s*\{(.*?)\};", src, flags=re.S)
    opts = re.findall(r'\{\s*"([a-z-]+)"', m.group(1)) if m else []
    if len(opts) < 5:
        fail(f"daemon/{prog}.c: option table not found ({opts})")
    for o in opts:
        if not re.search(rf"--{re.escape(o)}\b", texts[page]):
            fail(f"{page}: --{o} (daemon/{prog}.c) is not documented")
om = strip_c_comments(read("daemon/status-openmetrics.c"))
families = set(re.findall(r'"(memcgd_[a-z_]+)"', om))
if len(families) < 20:
    fail(f"daemon/status-openmetrics.c: only {len(families)} metric families found")
for fam in sorted(families):
    if not re.search(rf"\b{fam}(_total|_info)?\b", texts["man/memcgctl.1"]):
        fail(f"man/memcgctl.1, METRICS: {fam} (daemon/status-openmetrics.c) is not documented")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print(f"docs: {n_patches} patches, kernel tests {letters[0]}-{letters[-1]}, {len(hooks)} hooks, "
      f"{len(logged)} journal events, {len(families)} metric families: all checks passed")
