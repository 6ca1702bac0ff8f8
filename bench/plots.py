# SPDX-License-Identifier: GPL-2.0-only
"""The plots of docs/benchmarks.md (gnuplot, one PNG each; issue 15, item 6).

plan() decides from the records alone what each plot shows, or why it is not
drawn (a scenario that did not run), so that the report's text does not
depend on whether the plots are drawn; draw() runs gnuplot.

- latency CDF of high.slice under contention, per L1 configuration, from the
  probe's histograms (phase high_run), pooled over the accepted runs;
- trade-off: low.slice throughput against high.slice p99, one point per
  accepted L1 run;
- recovery: share of L2 runs whose low.slice work was done by time t (a run
  cut off counts as not done);
- forest: every ratio with a target, its median and 95 % interval (log
  scale), the target marked; the microbenchmarks and the NUMA rows (N1: a
  share, N2: the share of runs with any, N3: ratios near 1) in panels of
  their own on a linear scale;
- state: memcgd's per-second state (active, protection) per slice in the
  median L1-memcgd run, with the slices' and the system's memory PSI and
  high.slice's refaults per second (state.csv, ticks.csv.gz);
- progress of the legacy scenarios S1-S4 (one representative run each), when
  they ran.
"""
import os
import statistics
import subprocess
import tempfile

CONFIGS = ("none", "low", "lowhigh", "memcgd", "memcgdbg", "memcgdlat")
COLOURS = {"none": "#7f7f7f", "low": "#2471a3", "lowhigh": "#8e44ad", "memcgd": "#c0392b",
           "memcgdbg": "#d68910", "memcgdlat": "#1e8449"}
VERDICT_COLOURS = {"met": "#1e8449", "missed": "#c0392b", "inconclusive": "#7f7f7f"}
TERMINAL = "set terminal pngcairo noenhanced font 'sans,10' size {w},{h}"


class Plot:
    def __init__(self, file, alt, caption):
        self.file, self.alt, self.caption = file, alt, caption
        self.skip = None       # why the plot is not drawn, or None
        self.notes = []        # what the plot lacks (configurations without data)
        self.data = {}         # data file name -> its text
        self.script = []       # gnuplot commands after the terminal and output lines
        self.size = (900, 560)


def q(s):
    """A gnuplot single-quoted string (no escapes inside; ' doubled)."""
    return "'" + str(s).replace("'", "''") + "'"


def used(runs, scenario):
    """The accepted runs of a scenario on the patched kernel, outside icount boots."""
    return [r for r in runs if r.scenario == scenario and r.kernel == "patched" and r.mode != "icount"
            and r.accepted]


def mean(vs):
    return statistics.fmean(vs) if vs else None


def latency_cdf(runs):
    p = Plot("benchmarks-latency-cdf.png", "latency CDF of high.slice under contention per configuration",
             "Share of high.slice's requests answered within a latency (L1: under contention from "
             "low.slice's writer; all requests of the accepted runs pooled). Look at where each curve "
             "crosses the dotted line at 0.99 (the p99): further left is better.")
    plots = []
    for cfg in CONFIGS:
        sc = f"L1-{cfg}"
        buckets, n = {}, 0
        for r in used(runs, sc):
            if r.hist.get("high_run"):
                n += 1
                for upper, count in r.hist["high_run"]:
                    buckets[upper] = buckets.get(upper, 0) + count
        total = sum(buckets.values())
        if not total:
            p.notes.append(sc)
            continue
        # a bucket holds the latencies above the one before (10 per decade): the curve
        # starts at 0 one bucket below the first
        lines, cum = [f"{min(buckets) / 10 ** 0.1:.6g} 0"], 0
        for upper in sorted(buckets):
            cum += buckets[upper]
            lines.append(f"{upper:.6g} {cum / total:.6f}")
        p.data[f"{sc}.dat"] = "\n".join(lines) + "\n"
        plots.append(f"{q(sc + '.dat')} using 1:2 with lines lw 2 lc rgb {q(COLOURS[cfg])} "
                     f"title {q(f'{sc}: {n} runs, {total} requests')}")
    if not plots:
        p.skip = "no accepted L1 run with a latency histogram"
        return p
    p.script = ["set logscale x", "set yrange [0:1.02]", "set grid", "set key bottom right",
                "set xlabel 'latency of a request (ms, log scale)'",
                "set ylabel 'share of requests at or below'",
                "set title 'high.slice latency under contention (L1), per configuration'",
                "set arrow from graph 0, first 0.99 to graph 1, first 0.99 nohead dt 3 lc rgb 'black'",
                "plot " + ", ".join(plots)]
    return p


def tradeoff(runs):
    p = Plot("benchmarks-tradeoff.png", "low.slice throughput against high.slice p99 per L1 run",
             "One point per accepted L1 run: what low.slice got done (x) against what high.slice's "
             "service suffered (y, p99 latency, log scale). The corner to look at is bottom right: "
             "fast low.slice and short high.slice latency at once.")
    plots = []
    for cfg in CONFIGS:
        sc = f"L1-{cfg}"
        points = [(mean(r.results.get("low")), mean(r.results.get("high_p99"))) for r in used(runs, sc)]
        points = [(x, y) for x, y in points if x is not None and y is not None and y > 0]
        if not points:
            p.notes.append(sc)
            continue
        p.data[f"{sc}.dat"] = "".join(f"{x:.6g} {y:.6g}\n" for x, y in points)
        plots.append(f"{q(sc + '.dat')} using 1:2 with points pt 7 ps 1.5 lc rgb {q(COLOURS[cfg])} "
                     f"title {q(sc)}")
    if not plots:
        p.skip = "no accepted L1 run with both low.slice's throughput and high.slice's p99"
        return p
    p.script = ["set logscale y", "set grid", "set key outside right",
                "set xlabel 'low.slice throughput (MiB/s)'", "set ylabel 'high.slice p99 latency (ms, log scale)'",
                "set xrange [0:*]", "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05",
                "set title 'Trade-off under contention (L1): one point per run'",
                "plot " + ", ".join(plots)]
    return p


def recovery(runs):
    p = Plot("benchmarks-recovery.png", "share of L2 runs whose low.slice work was done by time t",
             "Share of the accepted L2 runs whose low.slice had finished its fixed work by a time "
             "after it started, while high.slice idled; a run cut off at its end counts as not done. "
             "A curve that rises early and reaches 1 is what memcgd should give.")
    plots, t_max, curves = [], 0.0, []
    for cfg in CONFIGS:
        sc = f"L2-{cfg}"
        done, n = [], 0
        for r in used(runs, sc):
            t = mean(r.results.get("low_work_seconds"))
            if t is None:
                continue
            n += 1
            t_max = max(t_max, t)
            if mean(r.results.get("low_work_finished")) == 1:
                done.append(t)
        if not n:
            p.notes.append(sc)
            continue
        curves.append((cfg, sc, sorted(done), n))
    if not curves:
        p.skip = "no accepted L2 run with low.slice's work time"
        return p
    for cfg, sc, done, n in curves:
        lines = ["0 0"] + [f"{t:.6g} {i / n:.6f}" for i, t in enumerate(done, 1)]
        lines.append(f"{t_max:.6g} {len(done) / n:.6f}")
        p.data[f"{sc}.dat"] = "\n".join(lines) + "\n"
        plots.append(f"{q(sc + '.dat')} using 1:2 with steps lw 2 lc rgb {q(COLOURS[cfg])} "
                     f"title {q(f'{sc}: {len(done)} of {n} done')}")
    p.script = ["set yrange [0:1.05]", "set xrange [0:*]", "set grid", "set key bottom right",
                "set xlabel 'seconds since low.slice started its work'",
                "set ylabel 'share of runs done'",
                "set title 'low.slice recovery while high.slice idles (L2)'",
                "plot " + ", ".join(plots)]
    return p


def forest(rows):
    p = Plot("benchmarks-forest.png", "every ratio with a target: median and 95 % interval",
             "Every ratio with a target: the median over the pairs (dot) with its 95 % bootstrap "
             "interval (bar), the target marked (black cross; two for a \"within\" target); the "
             "microbenchmarks in their own panel on a linear scale, where 1 % is visible, and the "
             "NUMA rows in another (N1: the share of numa.slice's pages on its node; N2: the share "
             "of runs in which other.slice had any hinting fault or migration, Wilson interval, "
             "target 0; N3: ratios). A bar wholly "
             "on the target's good side is met, wholly on the other side missed, one across the "
             "target inconclusive (green, red, grey); N2's colour is its verdict (met only with 0 "
             "in every run).")
    shown = [r for r in rows if r.spec.target is not None and r.median is not None]
    p.notes = [r.spec.name for r in rows if r.spec.target is not None and r.median is None]
    if not shown:
        p.skip = "no ratio with a target had data"
        return p
    panels = [(k, title, log, rs) for k, (title, log, rs) in enumerate((
        ("Ratios with a target: median and 95 % interval (log scale)", True,
         [r for r in shown if not r.spec.micro() and not r.spec.numa()]),
        ("Microbenchmarks: median and 95 % interval (linear scale)", False,
         [r for r in shown if r.spec.micro()]),
        ("NUMA: N1 share, N2 share of runs with any, N3 ratios (linear scale)", False,
         [r for r in shown if r.spec.numa()]))) if rs]
    weight = {k: len(rs) + 3 for k, _, _, rs in panels}
    total = sum(weight.values())
    p.size = (900, 60 * len(panels) + 32 * total)
    p.script = ["set multiplot", "set lmargin 12", "set rmargin 20", "set grid x", "set key outside right top"]
    top = 1.0
    for k, title, log, rs in panels:
        n = len(rs)
        files, targets = {}, []
        for i, r in enumerate(rs):
            y = n - i
            files.setdefault(r.verdict if r.verdict in VERDICT_COLOURS else "inconclusive", []).append(
                f"{r.median:.6g} {y} {r.low:.6g} {r.high:.6g}")
            s = r.spec
            for t in ((1 - s.target, 1 + s.target) if s.direction == "within" else (s.target,)):
                targets.append(f"{t:.6g} {y}")
        plots = []
        for verdict, colour in VERDICT_COLOURS.items():
            if verdict in files:
                name = f"{k}-{verdict}.dat"
                p.data[name] = "\n".join(files[verdict]) + "\n"
                plots.append(f"{q(name)} using 1:2:3:4 with xerrorbars pt 7 ps 1.2 lw 2 "
                             f"lc rgb {q(colour)} title {q(verdict)}")
        p.data[f"{k}-targets.dat"] = "\n".join(targets) + "\n"
        plots.append(f"{q(f'{k}-targets.dat')} using 1:2 with points pt 2 ps 2 lw 2 lc rgb 'black' title 'target'")
        height = weight[k] / total
        top -= height
        tics = ", ".join(f"{q(r.spec.name)} {n - i}" for i, r in enumerate(rs))
        p.script += [f"set origin 0,{top:.4f}", f"set size 1,{height:.4f}",
                     "set logscale x" if log else "unset logscale x",
                     "set xrange [*:*]", "set offsets graph 0.05, graph 0.05, 0, 0",
                     f"set yrange [0.5:{n + 0.5}]", f"set ytics ({tics})",
                     "set xlabel " + q(("share or ratio" if any(r.spec.numa() for r in rs) else "ratio")
                                        + (" (log scale)" if log else "")), f"set title {q(title)}",
                     "plot " + ", ".join(plots)]
    p.script.append("unset multiplot")
    return p


STATE_SLICES = (("high.slice", "#c0392b"), ("mid.slice", "#d68910"), ("low.slice", "#2471a3"))


def state_series(runs):
    """memcgd's per-second state in one L1-memcgd run (the one whose p99 is the
    median): per slice whether memcgd counts it active and what it protects
    (state.csv, from `memcgctl status --json`), and the memory pressure each
    slice and the system saw (ticks.csv.gz: PSI some avg10) with high.slice's
    refaults per second."""
    p = Plot("benchmarks-state.png", "memcgd's per-second state in one L1 run",
             "memcgd's state in the L1-memcgd run whose high.slice p99 is the median (time since the "
             "measured run started): top, per slice, active (1) or not (0) as `memcgctl status "
             "--json` said once a second, with the protection it reported (MiB, where its status has "
             "protect_bytes); bottom, memory pressure (PSI some, avg10 %) of each slice and of the "
             "system, and high.slice's refaults per second. Read it to see when protection starts "
             "and lapses against when the service loses memory.")
    p.size = (1100, 700)
    cands = [r for r in used(runs, "L1-memcgd") if r.state and r.results.get("high_p99")]
    if not cands:
        p.skip = "no accepted L1-memcgd run with memcgd's per-second state (state.csv)"
        return p
    med = statistics.median(mean(r.results["high_p99"]) for r in cands)
    r = min(cands, key=lambda x: (abs(mean(x.results["high_p99"]) - med), x.boot, x.order))
    top, bottom = [], []
    for k, (sl, colour) in enumerate(STATE_SLICES):
        rows = [x for x in r.state if x["name"] == sl]
        if not rows:
            continue
        short = sl.split(".")[0]
        # each slice a little lower, so that equal states stay apart
        p.data[f"{short}-active.dat"] = "".join(
            f"{x['t']:.6g} {(1 if x['active'] == 'yes' else 0) - 0.03 * k:.2f}\n" for x in rows)
        top.append(f"{q(short + '-active.dat')} using 1:2 with steps lw 2 lc rgb {q(colour)} "
                   f"title {q(sl + ' active')}")
        prot = [x for x in rows if _number(x["protect_bytes"]) is not None]
        if prot:
            p.data[f"{short}-protect.dat"] = "".join(
                f"{x['t']:.6g} {_number(x['protect_bytes']) / 1048576:.6g}\n" for x in prot)
            top.append(f"{q(short + '-protect.dat')} using 1:2 axes x1y2 with lines dt 2 lw 2 "
                       f"lc rgb {q(colour)} title {q(sl + ' protected (MiB)')}")
    for key, title, colour in (("high.memory.some_avg10", "high.slice memory PSI some", "#c0392b"),
                               ("mid.memory.some_avg10", "mid.slice memory PSI some", "#d68910"),
                               ("low.memory.some_avg10", "low.slice memory PSI some", "#2471a3"),
                               ("sys.memory.some_avg10", "system memory PSI some", "#7f7f7f")):
        if r.ticks.get(key):
            name = key.replace(".", "-") + ".dat"
            p.data[name] = "".join(f"{t:.6g} {v:.6g}\n" for t, v in r.ticks[key])
            bottom.append(f"{q(name)} using 1:2 with lines lw 2 lc rgb {q(colour)} title {q(title + ' (%)')}")
    refaults = [(t, a + b) for (t, a), (_, b) in zip(r.ticks.get("high.stat.workingset_refault_anon", []),
                                                     r.ticks.get("high.stat.workingset_refault_file", []))]
    rates = per_second(refaults)
    if rates:
        p.data["high-refaults.dat"] = "".join(f"{t:.6g} {v:.6g}\n" for t, v in rates)
        bottom.append(f"{q('high-refaults.dat')} using 1:2 axes x1y2 with impulses lw 1 lc rgb '#000000' "
                      "title 'high.slice refaults/s'")
    if not top:
        p.skip = f"{r.boot} #{r.order}: memcgd's status named none of {', '.join(s for s, _ in STATE_SLICES)}"
        return p
    p.script = ["set multiplot layout 2,1 title " + q(f"memcgd's state per second, L1-memcgd ({r.boot}, run {r.order})"),
                "set grid", "set key outside right", "set xlabel 'seconds since the measured run started'",
                "set ylabel 'active (1) or not (0)'", "set yrange [-0.15:1.1]", "set ytics 0,1,1", "set y2tics",
                "set y2label 'protected (MiB)'", "plot " + ", ".join(top),
                "set yrange [0:*]", "set ytics auto", "set ylabel 'PSI some avg10 (%)'",
                "set y2label 'refaults per second'"]
    p.script.append("plot " + ", ".join(bottom) if bottom else "plot 1/0 title 'no per-second counters'")
    p.script.append("unset multiplot")
    return p


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def per_second(series, offset=0.0):
    """Rate between consecutive log lines, stamped at the later one; the
    workload's closing line, a few ms after the last, is skipped."""
    out = []
    for (t0, u0), (t1, u1) in zip(series, series[1:]):
        if t1 - t0 >= 0.5:
            out.append((t1 + offset, (u1 - u0) / (t1 - t0)))
    return out


def representative(runs, scenario, metric):
    """The accepted run of a scenario whose metric is closest to the median."""
    cands = [r for r in used(runs, scenario) if r.results.get(metric) and r.series]
    if not cands:
        return None
    med = statistics.median(r.results[metric][0] for r in cands)
    return min(cands, key=lambda r: abs(r.results[metric][0] - med))


PROGRESS = ("S1", "S2", "S3", "S4")


def progress(runs, describe):
    p = Plot("benchmarks.png", "per-second progress of high.slice and low.slice in S1-S4",
             "Legacy scenarios: MiB written per second by each slice's sequential writer in one "
             "representative run (the one closest to the median) of each of S1-S4. Look for the "
             "gaps: seconds in which a writer made no progress at all.")
    p.size = (1600, 480)
    panels = []
    for sc in PROGRESS:
        r = representative(runs, sc, "low")
        files = []
        if r:
            for sl in ("high", "low"):
                if sl in r.series:
                    # S1/S3: low.slice's writer starts head_start seconds after high's
                    offset = float(r.meta.get("head_start", 0)) if sl == "low" and "high" in r.series else 0.0
                    name = f"{sc}-{sl}.dat"
                    p.data[name] = "".join(f"{t:.3f} {max(rate, 0.5):.3f}\n"
                                           for t, rate in per_second(r.series[sl], offset))
                    files.append((sl, name))
        panels.append((sc, r, files))
    if not any(files for _, _, files in panels):
        p.skip = "no accepted run of the legacy scenarios S1-S4 with a progress log"
        return p
    p.script = ["set multiplot layout 1,4 title 'Per-second progress of each slice (MiB written per second, "
                "log scale; time since the first writer started); one representative run each'",
                "set logscale y", "set yrange [0.5:20000]", "set xlabel 'seconds'", "set grid",
                "set key top right"]
    for sc, r, files in panels:
        title = f"{sc}: {describe(sc)}" + (f"\\n({r.boot}, run {r.order})" if r else "")
        p.script.append('set title "' + title.replace('"', '\\"') + '"')
        p.script.append("set ylabel 'MiB/s'" if sc == "S1" else "unset ylabel")
        if files:
            p.script.append("plot " + ", ".join(
                f"{q(name)} using 1:2 with lines lw 2 lc rgb {q('#c0392b' if sl == 'high' else '#2471a3')} "
                f"title {q(sl + '.slice')}" for sl, name in files))
        else:
            p.script += ["set label 1 'no accepted run' at graph 0.3,0.5", "plot 1/0 notitle", "unset label 1"]
    p.script.append("unset multiplot")
    return p


def plan(runs, rows, describe):
    """Every plot of the report, in its order; describe(scenario) names a scenario."""
    return {"cdf": latency_cdf(runs), "tradeoff": tradeoff(runs), "recovery": recovery(runs),
            "state": state_series(runs), "forest": forest(rows), "progress": progress(runs, describe)}


def draw(plots, out_dir):
    """Run gnuplot for every plot that has data; returns the PNGs written."""
    written = []
    for p in plots.values():
        if p.skip:
            continue
        png = os.path.abspath(os.path.join(out_dir, p.file))
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in p.data.items():
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            script = [TERMINAL.format(w=p.size[0], h=p.size[1]), f"set output {q(png)}"] + p.script
            with open(os.path.join(tmp, "plot.gp"), "w") as f:
                f.write("\n".join(script) + "\n")
            subprocess.run(["gnuplot", "plot.gp"], cwd=tmp, check=True)
        written.append(png)
    return written
