# SPDX-License-Identifier: GPL-2.0-only
"""The per-run records of scripts/bench: loaded from its raw log directory or
from the committed CSVs (bench-data/), and written as those CSVs.

Both loaders return the same Data (boots, runs, host.env), so everything after
loading (rejection, ratios, tables, plots) is one code path, and a report
regenerated from the CSVs is byte-identical to one from the raw logs.

The raw log directory (written by scripts/bench):
  boots.tsv   one line per boot: LABEL<TAB>KDIR, then optional <TAB>key=value
              fields: seed=N (the order seed), mode=tcg|icount|kvm,
              kernel=patched|unpatched, group=NAME (the pairing unit),
              numa=0|1 (1: a guest with two NUMA nodes, run-vm.sh --numa; a
              topology, not a mode: the clock is the mode's). Old
              two-column lines: the kernel is "unpatched" when the label
              says so, the group is the label's "repN" prefix, the mode is
              icount when qemu.cmd has -icount, else its accelerator, and
              the boot has two nodes when qemu.cmd has -numa. Unknown keys
              are ignored.
  host.env    optional, key=value lines (qemu_version, host_cpu_model,
              host_cpu_flags, host_mem_total_kib, host_thp, seed, command);
              a value in matching quotes loses them.
  LABEL/      per boot: results.log (harness), host-load.tsv
              (bench/sample-host.py), qemu.cmd, console.log, optionally
              guest-pc.tsv (bench/sample-guest-pc.py) and qemu-threads.tsv.

The CSVs (bench-data/): boots.csv, runs.csv (one row per run and metric
value; a run without values has one row with an empty metric), series.csv,
hist.csv, meta.csv, ticks.csv.gz (the guest's per-second counters: PSI, refaults,
reclaim scans and steals per slice and system-wide, "BENCH tick" lines),
state.csv (memcgd's per-second state per slice, extracted from `memcgctl
status --json`: STATE_FIELDS, a missing key empty), status.jsonl.gz (those
status lines raw, one JSON object per line with boot, order, scenario, t and
"status", the line as memcgd printed it, a string: its schema may change), host.env (a copy).
Floats are written so that they read back as the same float. A boots.csv
written before it had the numa column reads as boots with one node; a
runs.csv without the pair column as every run pair 1; a directory without
ticks.csv.gz or state.csv as runs without those series.

A run's VM test is its scenario, or SCENARIO.2 for the second run of a
condition in an ABBA block (bench/schedule.py): the run's pair is 2 then, 1
otherwise.
"""
import csv
import gzip
import io
import json
import os
import re

import bootlog

MODES = ("tcg", "icount", "kvm")
KERNELS = ("patched", "unpatched")
# a metric named for a threshold ("numa_seconds_to_90"), not a repeat ("none_2")
THRESHOLD_METRIC = re.compile(r"_to_\d+$")


class DataError(Exception):
    pass


class Boot:
    def __init__(self, label, kdir, kernel, mode, group, seed, accel, ident, ended, numa=False):
        self.label, self.kdir, self.kernel, self.mode = label, kdir, kernel, mode
        self.group, self.seed, self.accel = group, seed, accel
        self.numa = numa          # two NUMA nodes (run-vm.sh --numa)
        self.ident = ident        # [release, version, build id] or None
        self.ended = ended        # results.log's mtime (seconds since the epoch) or None


class Run:
    """One scenario in one boot."""

    def __init__(self, boot, order, scenario, pair=1):
        self.boot, self.group, self.kernel, self.mode = boot.label, boot.group, boot.kernel, boot.mode
        self.order, self.scenario = order, scenario
        self.pair = pair       # 2: the second run of its condition in an ABBA block
        self.ticks = {}        # key -> [(t, value)]: the per-second counters
        self.state = []        # [{STATE_FIELDS}]: memcgd's per-second state per slice
        self.status_lines = []  # [(t, raw JSON text)] of `memcgctl status --json`
        self.status = "?"
        self.seconds = None    # the test's duration in the guest
        self.results = {}      # metric (repeats pooled, see metric_base) -> [values]
        self.units = {}        # metric -> unit
        self.series = {}       # slice -> [(t, units)]
        self.hist = {}         # phase -> [(upper_ms, count)]
        self.meta = {}
        self.load = None       # (wall_s, qemu_cpu_s, other_cpu_s) from host-load.tsv
        self.rcu_stalls = []   # per RCU stall report: the function its register dump shows, or "?"
        # the longest time a vCPU was sampled at one guest kernel instruction during the run
        # (bootlog.longest_same_pc over guest-pc.tsv); None: the boot's PC samples do not cover it
        self.same_pc_s = None
        # set by judge.judge()
        self.accepted = False
        self.reason = ""
        self.host_busy = False
        self.replaced_by = None
        self.stalled = False

    def qemu_per_s(self):
        return self.load[1] / self.load[0] if self.load and self.load[0] > 0 else None

    def other_per_s(self):
        return self.load[2] / self.load[0] if self.load and self.load[0] > 0 else None

    def test(self):
        """The VM test's name of the run (its scenario, .2 for a second run)."""
        return self.scenario + (SECOND if self.pair == 2 else "")


SECOND = ".2"   # bench/schedule.py's suffix of a second run in an ABBA block
# memcgd's per-second state of a slice (state.csv): `memcgctl status --json`'s keys,
# taken from the slice object, else from its "engine" (the policy engine's state), else from
# its "counters"; missing ones stay empty
STATE_FIELDS = ("name", "state", "active", "protect_bytes", "refaults", "psi_some", "action",
                "escalation", "hold_usec", "refault_rate", "usage")


def split_test(name):
    """'L1-memcgd.2' -> ('L1-memcgd', 2); 'L1-memcgd' -> ('L1-memcgd', 1)."""
    return (name[:-len(SECOND)], 2) if name.endswith(SECOND) else (name, 1)


def state_rows(t, text):
    """The STATE_FIELDS of each slice of one `memcgctl status --json` line, as
    strings ("" for a key the status does not have), with the sample's time."""
    try:
        status = json.loads(text)
    except ValueError:
        return []
    out = []
    slices = status.get("slices") if isinstance(status, dict) else None
    for sl in slices if isinstance(slices, list) else []:
        if not isinstance(sl, dict):
            continue
        counters = sl.get("counters") if isinstance(sl.get("counters"), dict) else {}
        engine = sl.get("engine") if isinstance(sl.get("engine"), dict) else {}
        row = {"t": t}
        for k in STATE_FIELDS:
            v = sl.get(k, engine.get(k, counters.get(k)))
            row[k] = ("" if v is None else "yes" if v is True else "no" if v is False
                      else v if isinstance(v, str) else json.dumps(v))
        out.append(row)
    return out


class Data:
    def __init__(self, boots, runs, host_env, host_env_text):
        self.boots, self.runs = boots, runs
        self.host_env = host_env            # {key: value}, in file order
        self.host_env_text = host_env_text  # the file itself, or None


def metric_base(name):
    """'none_2' -> 'none': repeated measurements of one run pool together
    ('numa_seconds_to_90' is one metric: its number is a threshold)."""
    if THRESHOLD_METRIC.search(name):
        return name
    m = re.match(r"^(.*)_(\d+)$", name)
    return m.group(1) if m else name


def is_diag(metric):
    return metric.startswith("diag_") or metric.startswith("memcgd_")


# --- raw logs

def parse_boots_tsv(path):
    """[(label, kdir, {key: value})] of boots.tsv."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            parts = line.split("\t")
            if len(parts) < 2 or not parts[0]:
                raise DataError(f"{path}:{n}: want LABEL<TAB>KDIR[<TAB>key=value]..., got {line!r}")
            fields = {}
            for p in parts[2:]:
                if "=" not in p:
                    raise DataError(f"{path}:{n}: field {p!r} is not key=value")
                k, v = p.split("=", 1)
                fields[k] = v
            if fields.get("kernel", "patched") not in KERNELS:
                raise DataError(f"{path}:{n}: kernel={fields['kernel']}: want one of {', '.join(KERNELS)}")
            if fields.get("mode", "tcg") not in MODES:
                raise DataError(f"{path}:{n}: mode={fields['mode']}: want one of {', '.join(MODES)}")
            if fields.get("numa", "0") not in ("0", "1"):
                raise DataError(f"{path}:{n}: numa={fields['numa']}: want 0 or 1")
            out.append((parts[0], parts[1], fields))
    return out


def parse_host_env(text):
    env = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        v = v.strip()
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
            v = v[1:-1]
        env[k.strip()] = v
    return env


def read_host_env(path):
    if not os.path.exists(path):
        return {}, None
    with open(path) as f:
        text = f.read()
    return parse_host_env(text), text


def qemu_accel(path):
    """(accelerator, icount?, two NUMA nodes?) from the boot's qemu.cmd."""
    if not os.path.exists(path):
        return "?", False, False
    with open(path) as f:
        text = f.read()
    accel = "kvm" if "-accel kvm" in text else "tcg" if "-accel tcg" in text else "?"
    return accel, "-icount" in text, "-numa " in text


def parse_results(path, boot):
    """The runs of one boot's results.log, and the kernel's identification."""
    runs, ident, current = [], None, None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("MEMCGD kernel "):
                ident = [x.strip() for x in line[len("MEMCGD kernel "):].split("|")]
            elif line.startswith("MEMCGD begin bench/"):
                current = Run(boot, len(runs) + 1, *split_test(line.split()[2].split("/", 1)[1]))
                runs.append(current)
            elif line.startswith("MEMCGD end ") and current:
                w = line.split()
                current.status = w[3] if len(w) > 3 else "?"
                try:
                    current.seconds = float(w[4])
                except (IndexError, ValueError):
                    pass
                current = None
            elif line.startswith("| BENCH status ") and current:
                # BENCH status SCENARIO T JSON: the JSON is the rest of the line, as it was
                w = line[2:].split(" ", 4)
                if len(w) == 5:
                    try:
                        t = float(w[3])
                    except ValueError:
                        continue
                    current.status_lines.append((t, w[4]))
                    current.state.extend(state_rows(t, w[4]))
            elif line.startswith("| BENCH ") and current:
                add_bench_line(current, line[2:].split())
    return runs, ident


def add_bench_line(run, w):
    """One "BENCH result|meta|series|hist ..." line of the guest (bench-lib.sh)."""
    try:
        if w[1] == "meta" and len(w) >= 4:
            run.meta[w[2]] = " ".join(w[3:])
        elif w[1] == "series" and len(w) == 6:
            run.series.setdefault(w[3], []).append((float(w[4]), float(w[5])))
        elif w[1] == "tick" and len(w) == 6:
            run.ticks.setdefault(w[4], []).append((float(w[3]), float(w[5])))
        elif w[1] == "hist" and len(w) == 6:
            run.hist.setdefault(w[3], []).append((float(w[4]), int(w[5])))
        elif w[1] == "result" and len(w) >= 5:
            value = float(w[4])
            base = metric_base(w[3])
            run.results.setdefault(base, []).append(value)
            if len(w) > 5:
                run.units[base] = w[5]
    except ValueError:
        pass    # a malformed number: the line is not a measurement


def read_host_load(path, runs):
    if not os.path.exists(path):
        return
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    loads = {}
    for r in rows:
        if len(r) == 4:
            try:
                loads[r[0]] = tuple(float(x) for x in r[1:4])
            except ValueError:
                pass
    for r in runs:
        r.load = loads.get("bench/" + r.test())


RCU_STALL = re.compile(r"rcu: INFO: rcu_\w+ (self-)?detected stall")
RIP = re.compile(r"RIP: 0010:([\w.]+)")
TEST_BEGIN = re.compile(r"memcgd-vm-tests: begin bench/(\S+)")


def read_rcu_stalls(console, runs):
    """Attach the guest kernel's RCU stall reports (a CPU that passed no quiescent
    state for 21 s) to the run during which they were printed, each with the
    kernel function its first register dump shows, if any."""
    if not os.path.exists(console):
        return
    by_name = {}
    for r in runs:
        by_name.setdefault(r.test(), r)
    current, pending = None, None
    with open(console, errors="replace") as f:
        for line in f:
            m = TEST_BEGIN.search(line)
            if m:
                current, pending = by_name.get(m.group(1)), None
                continue
            if current is None:
                continue
            if RCU_STALL.search(line):
                pending = len(current.rcu_stalls)
                current.rcu_stalls.append("?")
            elif pending is not None and (rip := RIP.search(line)):
                current.rcu_stalls[pending] = rip.group(1).split("+")[0]
                pending = None


def read_same_pc(boot_dir, runs, covered_within_s=5.0):
    """Each run's longest time at one guest instruction, from the boot's PC
    samples, when they cover the run from its start (within COVERED_WITHIN_S)."""
    try:
        tests, _, rtc = bootlog.read_console(os.path.join(boot_dir, "console.log"))
        pcs = bootlog.guest_pc_in_uptime(boot_dir, rtc)
    except (OSError, ValueError):
        return
    if not pcs:
        return
    first = min(p[0] for p in pcs)
    spans = {name.split("/", 1)[-1]: (b, e) for name, b, e in tests if e is not None}
    for r in runs:
        span = spans.get(r.test())
        if span and first <= span[0] + covered_within_s:
            r.same_pc_s = round(bootlog.longest_same_pc(pcs, *span), 1)


def load_logs(log_dir):
    boots_file = os.path.join(log_dir, "boots.tsv")
    if not os.path.exists(boots_file):
        raise DataError(f"{boots_file} missing: not a scripts/bench log directory")
    host_env, host_env_text = read_host_env(os.path.join(log_dir, "host.env"))
    boots, runs = [], []
    for label, kdir, fields in parse_boots_tsv(boots_file):
        path = os.path.join(log_dir, label)
        accel, icount, numa = qemu_accel(os.path.join(path, "qemu.cmd"))
        m = re.match(r"rep\d+", label)
        results = os.path.join(path, "results.log")
        boot = Boot(label, kdir,
                    kernel=fields.get("kernel", "unpatched" if "unpatched" in label else "patched"),
                    mode=fields.get("mode", "icount" if icount else accel if accel in MODES else "tcg"),
                    group=fields.get("group", m.group(0) if m else label),
                    seed=fields.get("seed", host_env.get("seed", "")),
                    accel=accel, ident=None,
                    ended=os.path.getmtime(results) if os.path.exists(results) else None,
                    numa=fields.get("numa", "1" if numa else "0") == "1")
        boots.append(boot)
        if boot.ended is None:
            continue    # a boot that never got to its tests
        boot_runs, boot.ident = parse_results(results, boot)
        read_host_load(os.path.join(path, "host-load.tsv"), boot_runs)
        read_rcu_stalls(os.path.join(path, "console.log"), boot_runs)
        read_same_pc(path, boot_runs)
        runs.extend(boot_runs)
    return Data(boots, runs, host_env, host_env_text)


# --- CSVs

BOOTS_CSV = ["label", "kernel", "mode", "group", "seed", "accel", "kernel_ident", "kdir", "results_mtime", "numa"]
RUNS_CSV = ["group", "boot", "kernel", "mode", "order", "scenario", "metric", "repeat", "value", "unit",
            "status", "accepted", "reject_reason", "wall_s", "qemu_cpu_s", "other_cpu_s",
            "guest_s", "rcu_stalls", "same_pc_s", "pair"]
TICKS_CSV = ["boot", "order", "scenario", "key", "t", "value"]
STATE_CSV = ["boot", "order", "scenario", "t", *STATE_FIELDS]
SERIES_CSV = ["boot", "order", "scenario", "slice", "t", "value"]
HIST_CSV = ["group", "boot", "order", "scenario", "phase", "upper_ms", "count"]
META_CSV = ["boot", "order", "scenario", "key", "value"]


def num(v):
    """A number as text that reads back as the same float (or int); None as ''."""
    if v is None:
        return ""
    if isinstance(v, int):
        return str(v)
    if v.is_integer() and abs(v) < 1e15 and str(v) != "-0.0":
        return str(int(v))
    return repr(v)


def opt_float(s):
    return float(s) if s != "" else None


def _writer(path, header):
    f = open(path, "w", newline="")
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    return f, w


def write_csv(data, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    f, w = _writer(os.path.join(out_dir, "boots.csv"), BOOTS_CSV)
    with f:
        for b in data.boots:
            w.writerow([b.label, b.kernel, b.mode, b.group, b.seed, b.accel,
                        " | ".join(b.ident) if b.ident else "", b.kdir, num(b.ended), "1" if b.numa else "0"])
    f, w = _writer(os.path.join(out_dir, "runs.csv"), RUNS_CSV)
    with f:
        for r in data.runs:
            common = [r.status, "yes" if r.accepted else "no", r.reason]
            load = [num(x) for x in r.load] if r.load else ["", "", ""]
            tail = [num(r.seconds), ";".join(r.rcu_stalls), num(r.same_pc_s), r.pair]
            head = [r.group, r.boot, r.kernel, r.mode, r.order, r.scenario]
            values = [(m, i, v) for m, vs in r.results.items() for i, v in enumerate(vs, 1)]
            for m, i, v in values or [("", "", None)]:
                w.writerow(head + [m, i, num(v), r.units.get(m, "")] + common + load + tail)
    f, w = _writer(os.path.join(out_dir, "series.csv"), SERIES_CSV)
    with f:
        for r in data.runs:
            for sl, points in r.series.items():
                for t, v in points:
                    w.writerow([r.boot, r.order, r.scenario, sl, num(t), num(v)])
    f, w = _writer(os.path.join(out_dir, "hist.csv"), HIST_CSV)
    with f:
        for r in data.runs:
            for phase, buckets in r.hist.items():
                for upper, count in buckets:
                    w.writerow([r.group, r.boot, r.order, r.scenario, phase, num(upper), count])
    f, w = _writer(os.path.join(out_dir, "meta.csv"), META_CSV)
    with f:
        for r in data.runs:
            for k, v in r.meta.items():
                w.writerow([r.boot, r.order, r.scenario, k, v])
    # gzip'ed (about 20 counters a second per run) without a time stamp: the same data, the same bytes
    with open(os.path.join(out_dir, "ticks.csv.gz"), "wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz, \
            io.TextIOWrapper(gz, newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(TICKS_CSV)
        for r in data.runs:
            for key, points in r.ticks.items():
                for t, v in points:
                    w.writerow([r.boot, r.order, r.scenario, key, num(t), num(v)])
    f, w = _writer(os.path.join(out_dir, "state.csv"), STATE_CSV)
    with f:
        for r in data.runs:
            for row in r.state:
                w.writerow([r.boot, r.order, r.scenario, num(row["t"])] + [row[k] for k in STATE_FIELDS])
    # raw, gzip'ed without a time stamp: the same data give the same bytes
    with open(os.path.join(out_dir, "status.jsonl.gz"), "wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
        for r in data.runs:
            for t, text in r.status_lines:
                f.write((json.dumps({"boot": r.boot, "order": r.order, "scenario": r.scenario, "t": t,
                                     "status": text}) + "\n").encode())
    if data.host_env_text is not None:
        with open(os.path.join(out_dir, "host.env"), "w") as f:
            f.write(data.host_env_text)


def _rows(path, header, added=(), optional=False):
    """The rows of a CSV (a .gz one uncompressed) as dicts; a file without the
    columns @added (the last ones of header, added later) has them as ""; an
    OPTIONAL file that does not exist (written before it was) has no rows."""
    if optional and not os.path.exists(path):
        return []
    if not os.path.exists(path):
        raise DataError(f"{path} missing: not a bench-data directory (report.py --out writes one)")
    with (gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")) as f:
        rows = list(csv.reader(f))
    accepted = [header[:len(header) - k] for k in range(len(added) + 1)]
    if not rows or rows[0] not in accepted:
        raise DataError(f"{path}: header {rows[0] if rows else None}, want {header}")
    return [dict(zip(header, row + [""] * (len(header) - len(row)))) for row in rows[1:]]


def load_csv(data_dir):
    host_env, host_env_text = read_host_env(os.path.join(data_dir, "host.env"))
    boots = {}
    for row in _rows(os.path.join(data_dir, "boots.csv"), BOOTS_CSV, added=("numa",)):
        ident = [x.strip() for x in row["kernel_ident"].split("|")] if row["kernel_ident"] else None
        boots[row["label"]] = Boot(row["label"], row["kdir"], row["kernel"], row["mode"], row["group"],
                                   row["seed"], row["accel"], ident, opt_float(row["results_mtime"]),
                                   numa=row["numa"] == "1")
    runs = {}
    for row in _rows(os.path.join(data_dir, "runs.csv"), RUNS_CSV, added=("same_pc_s", "pair")):
        key = (row["boot"], int(row["order"]))
        r = runs.get(key)
        if r is None:
            if row["boot"] not in boots:
                raise DataError(f"runs.csv: boot {row['boot']} is not in boots.csv")
            r = runs[key] = Run(boots[row["boot"]], key[1], row["scenario"], int(row["pair"] or 1))
            r.status = row["status"]
            r.seconds = opt_float(row["guest_s"])
            if row["wall_s"] != "":
                r.load = (float(row["wall_s"]), float(row["qemu_cpu_s"]), float(row["other_cpu_s"]))
            r.rcu_stalls = row["rcu_stalls"].split(";") if row["rcu_stalls"] else []
            r.same_pc_s = opt_float(row["same_pc_s"])
        if row["metric"]:
            r.results.setdefault(row["metric"], []).append(float(row["value"]))
            if row["unit"]:
                r.units[row["metric"]] = row["unit"]

    def run_of(row, what):
        key = (row["boot"], int(row["order"]))
        if key not in runs:
            raise DataError(f"{what}: run {key[0]} #{key[1]} is not in runs.csv")
        return runs[key]
    for row in _rows(os.path.join(data_dir, "series.csv"), SERIES_CSV):
        run_of(row, "series.csv").series.setdefault(row["slice"], []).append(
            (float(row["t"]), float(row["value"])))
    for row in _rows(os.path.join(data_dir, "hist.csv"), HIST_CSV):
        run_of(row, "hist.csv").hist.setdefault(row["phase"], []).append(
            (float(row["upper_ms"]), int(row["count"])))
    for row in _rows(os.path.join(data_dir, "meta.csv"), META_CSV):
        run_of(row, "meta.csv").meta[row["key"]] = row["value"]
    for row in _rows(os.path.join(data_dir, "ticks.csv.gz"), TICKS_CSV, optional=True):
        run_of(row, "ticks.csv.gz").ticks.setdefault(row["key"], []).append((float(row["t"]), float(row["value"])))
    for row in _rows(os.path.join(data_dir, "state.csv"), STATE_CSV, optional=True):
        run_of(row, "state.csv").state.append({"t": float(row["t"]), **{k: row[k] for k in STATE_FIELDS}})
    return Data(list(boots.values()), list(runs.values()), host_env, host_env_text)
