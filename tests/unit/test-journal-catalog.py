#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""memcgd's journal records against daemon/log-ids.c and catalog/memcgd.catalog.

usage: test-journal-catalog.py SOURCE_ROOT

- every event the daemon logs (log_transition()'s event argument, MEMCGD_EVENT= and
  log_message_id() literals in daemon/*.c) has a MESSAGE_ID of its own in daemon/log-ids.c, and
  every ID there is logged;
- the IDs are 128-bit, lowercase hex, distinct;
- the catalog has exactly the IDs of log-ids.c plus the fallback MEMCGD_MESSAGE_ID of log.h,
  each entry with Subject:, Defined-By: memcgd and Documentation:, a body that names its
  MEMCGD_EVENT=, and @FIELD@ placeholders only of fields the record has;
- the catalog parses as systemd's catalog_import_file() parses it, and (where journalctl is
  there) journalctl --root=TMP --update-catalog builds a database that lists every entry.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
daemon = os.path.join(root, "daemon")
catalog_path = os.path.join(root, "catalog", "memcgd.catalog")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def read(path):
    with open(path) as f:
        return f.read()


def strip_comments(c):
    c = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), c, flags=re.S)
    return re.sub(r"//[^\n]*", "", c)


def call_args(text, start):
    """The top-level arguments of the call whose '(' is at text[start]."""
    depth, args, cur, i, in_str = 0, [], "", start, False
    while i < len(text):
        ch = text[i]
        if in_str:
            cur += ch
            if ch == "\\":
                cur += text[i + 1]
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            cur += ch
        elif ch == "(":
            depth += 1
            if depth > 1:
                cur += ch
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append(cur.strip())
                return args
            cur += ch
        elif ch == "," and depth == 1:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    return args


# --- the table ---
ids_src = strip_comments(read(os.path.join(daemon, "log-ids.c")))
table = re.findall(r'\{\s*"([^"]*)",\s*"([^"]*)"\s*\}', ids_src)
if not table:
    fail("no { event, id } pairs in daemon/log-ids.c")
event_id = {}
for ev, mid in table:
    if not re.fullmatch(r"[0-9a-f]{32}", mid):
        fail(f"log-ids.c: {ev}: '{mid}' is not 32 lowercase hex digits")
    if ev in event_id:
        fail(f"log-ids.c: {ev} twice")
    event_id[ev] = mid
if len(set(event_id.values())) != len(event_id):
    fail("log-ids.c: an ID is used for two events")
m = re.search(r'#define MEMCGD_MESSAGE_ID "([0-9a-f]{32})"', read(os.path.join(daemon, "log.h")))
fallback = m.group(1) if m else None
if not fallback:
    fail("log.h: no MEMCGD_MESSAGE_ID")
elif fallback in event_id.values():
    fail("the fallback MEMCGD_MESSAGE_ID is also an event's ID")

# --- what the code logs ---
logged = {}  # event -> "file:line"
for name in sorted(os.listdir(daemon)):
    if not name.endswith(".c") or name == "log-ids.c":
        continue
    src = strip_comments(read(os.path.join(daemon, name)))
    for mt in re.finditer(r"\blog_transition\s*\(", src):
        if re.match(r"\s*\(\s*int\b", src[mt.end() - 1:]):
            continue  # the definition
        args = call_args(src, mt.end() - 1)
        where = f"{name}:{src.count(chr(10), 0, mt.start()) + 1}"
        if len(args) < 2:
            fail(f"{where}: cannot read log_transition()'s arguments")
            continue
        events = re.findall(r'"([^"]*)"', args[1])
        if not events:
            fail(f"{where}: log_transition()'s event is not a string literal ({args[1]}): "
                 "this test cannot tell which MESSAGE_ID it needs")
        for ev in events:
            logged.setdefault(ev, where)
    for mt in re.finditer(r'MEMCGD_EVENT=([a-z0-9-]+)"', src):
        logged.setdefault(mt.group(1), f"{name}:{src.count(chr(10), 0, mt.start()) + 1}")
    for mt in re.finditer(r'\blog_message_id\s*\(\s*"([^"]*)"', src):
        logged.setdefault(mt.group(1), f"{name}:{src.count(chr(10), 0, mt.start()) + 1}")
    for mt in re.finditer(r'"MESSAGE_ID="\s*MEMCGD_MESSAGE_ID', src):
        fail(f"{name}:{src.count(chr(10), 0, mt.start()) + 1}: a record with the fallback MESSAGE_ID: "
             "use log_message_id(event)")
if len(logged) < 10:
    fail(f"only {len(logged)} events found in daemon/*.c: is the scan broken? {sorted(logged)}")
for ev, where in sorted(logged.items()):
    if ev not in event_id:
        fail(f"{where}: event '{ev}' has no MESSAGE_ID of its own: add it to daemon/log-ids.c "
             "(python3 -c 'import uuid; print(uuid.uuid4().hex)') and to catalog/memcgd.catalog")
for ev in sorted(set(event_id) - set(logged)):
    fail(f"daemon/log-ids.c: '{ev}' is never logged: remove it (and its catalog entry)")

# --- the catalog, parsed as systemd's catalog_import_file() does ---
entries = {}  # id -> (headers, body)
cur = None
got_id = False
empty_line = True
for n, line in enumerate(read(catalog_path).splitlines(), 1):
    if line.startswith("#"):
        continue
    m = re.fullmatch(r"-- ([0-9a-fA-F]{32})(?: ([A-Za-z_@.-]+))?", line)
    if line.startswith("--") and empty_line:
        if not m:
            fail(f"memcgd.catalog:{n}: not '-- <32 hex digits> [lang]': {line!r}")
            continue
        mid = m.group(1)
        if m.group(1) != mid.lower():
            fail(f"memcgd.catalog:{n}: ID in upper case")
        if m.group(2):
            fail(f"memcgd.catalog:{n}: a language ({m.group(2)}): memcgd's catalog is the default one")
        if mid in entries:
            fail(f"memcgd.catalog:{n}: {mid} twice")
        cur = entries.setdefault(mid, ({}, []))
        got_id, in_body = True, False
        empty_line = False
        continue
    if cur is None:
        if line.strip():
            fail(f"memcgd.catalog:{n}: text before the first entry: {line!r}")
        continue
    if not in_body:
        if not line.strip():
            in_body = True
        else:
            mh = re.fullmatch(r"([A-Za-z-]+): (.+)", line)
            if not mh:
                fail(f"memcgd.catalog:{n}: not a header 'Key: value': {line!r}")
            else:
                cur[0][mh.group(1)] = mh.group(2)
    else:
        cur[1].append(line)
    empty_line = not line.strip()

want = set(event_id.values()) | ({fallback} if fallback else set())
for mid in sorted(want - set(entries)):
    ev = next((e for e, i in event_id.items() if i == mid), "the fallback")
    fail(f"memcgd.catalog: no entry for {mid} ({ev})")
for mid in sorted(set(entries) - want):
    fail(f"memcgd.catalog: {mid} is no MESSAGE_ID of the code")
fields = {"MEMCGD_EVENT", "MEMCGD_SLICE", "MEMCGD_PRIORITY", "MEMCGD_VALUE", "MESSAGE", "PRIORITY",
          "CONFIG_FILE", "CONFIG_LINE"}
for ev, mid in event_id.items():
    if mid not in entries:
        continue
    headers, body = entries[mid]
    text = "\n".join(body)
    for h in ("Subject", "Defined-By", "Documentation"):
        if h not in headers:
            fail(f"memcgd.catalog: {ev}: no {h}:")
    if headers.get("Defined-By") != "memcgd":
        fail(f"memcgd.catalog: {ev}: Defined-By: {headers.get('Defined-By')}")
    for url in headers.get("Documentation", "").split():
        if not re.match(r"(man|https?|file):", url):
            fail(f"memcgd.catalog: {ev}: Documentation: {url} is not a URL")
    if not re.search(rf"MEMCGD_EVENT={re.escape(ev)}\b(?![-\w])", text):
        fail(f"memcgd.catalog: the entry of {mid} does not name MEMCGD_EVENT={ev}")
    if not body or not text.strip():
        fail(f"memcgd.catalog: {ev}: no body")
    for f in re.findall(r"@([A-Za-z0-9_]+)@", headers.get("Subject", "") + text):
        if f not in fields:
            fail(f"memcgd.catalog: {ev}: @{f}@ is no field of memcgd's records")

# --- journalctl itself ---
journalctl = shutil.which("journalctl")
if journalctl:
    tmp = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tmp, "usr/lib/systemd/catalog"))
        shutil.copy(catalog_path, os.path.join(tmp, "usr/lib/systemd/catalog"))
        p = subprocess.run([journalctl, f"--root={tmp}", "--update-catalog"], capture_output=True, text=True)
        if p.returncode != 0 or p.stderr.strip():
            fail(f"journalctl --update-catalog: exit {p.returncode}: {p.stderr}")
        p = subprocess.run([journalctl, f"--root={tmp}", "--list-catalog"], capture_output=True, text=True)
        listed = dict(line.split(" ", 1) for line in p.stdout.splitlines() if " " in line)
        for mid in want:
            subject = entries.get(mid, ({}, []))[0].get("Subject")
            if listed.get(mid) != f"memcgd: {subject}":
                fail(f"journalctl --list-catalog: {mid}: {listed.get(mid)!r}, want 'memcgd: {subject}'")
    finally:
        shutil.rmtree(tmp)
else:
    print("SKIP: journalctl --update-catalog (no journalctl)")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print(f"journal catalog: {len(event_id)} events, all checks passed")
