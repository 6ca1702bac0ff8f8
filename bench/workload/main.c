// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcgd-bench: the workloads of memcgd's benchmarks (scripts/bench). Runs in
 * the guest inside a systemd slice; see docs/benchmarks.md.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "workloads.h"

static const char usage[] =
	"usage: memcgd-bench COMMAND [OPTIONS]\n"
	"  writer --mib N [--seconds S] [--log FILE] [--work W]\n"
	"        write 64-bit words over an N MiB buffer, count MiB written;\n"
	"        --work: stop after W MiB and print the time (cut off at S)\n"
	"  holder --mib N [--fill zero|pattern] [--ready FILE] [--seconds S]\n"
	"        fill an N MiB buffer, create FILE, sleep holding it (S = 0: forever)\n"
	"  faults --mib N [--seconds S] [--log FILE]\n"
	"        touch every page, MADV_DONTNEED, repeat: faults per second\n"
	"  charge --dir DIR --mib N [--seconds S] [--log FILE]\n"
	"        write a file in DIR up to N MiB, truncate, repeat: MiB per second\n"
	"  latency --mib N [--seconds S] [--rate R] [--pages P] [--over-ms T] [--warm-up W]\n"
	"          [--latencies FILE] [--wake K [--idle I]] [--seed X] [--ready FILE] [--log FILE]\n"
	"        open-loop requests at R/s (default 200), each updating P random pages\n"
	"        (default 4) of an N MiB working set; latency from the scheduled start:\n"
	"        p50/p99/p999/max, requests over T ms (default 50); --warm-up: W s of\n"
	"        requests first (warm_*; SIGUSR1 ends it); --wake: after S s, idle I s,\n"
	"        then K more\n"
	"        requests (wake_*); --latencies: every request; --zipf S: pages chosen\n"
	"        Zipf(S)-skewed (0: uniform); --periods B,I[,B,I]...: after the warm-up,\n"
	"        busy B s and idle I s in turn, repeated, within S s; --wake K then\n"
	"        counts the first K requests after each idle gap (wake_*); touched_pages:\n"
	"        distinct pages of the run\n"
	"  numa --mib N --first-cpu C0 --run-cpu C1 --seconds S [--log FILE]\n"
	"        touch an N MiB buffer (no THP) on CPU C0, print the share of its pages\n"
	"        per node (first_node<K>_share), then write a word per page on CPU C1\n"
	"        for S s: local_share (on C1's node at the end), passes_per_s,\n"
	"        seconds_to_90 (first second with >= 90 % local, or -1); --log:\n"
	"        '<seconds> <local share> <passes>' (a sample of <= 4096 pages)\n"
	"--log writes '<seconds> <units>' once a second ('-' = stdout).\n";

void *map_anon(const char *cmd, size_t mib)
{
	void *p = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "memcgd-bench %s: cannot map %zu MiB: %s\n", cmd, mib, strerror(errno));
		return NULL;
	}
	return p;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const struct workload_args *a);
		double default_seconds;
		const char *options;
	} commands[] = {
		{ "writer", run_writer, 10, " mib seconds log work " },
		{ "holder", run_holder, 0, " mib seconds fill ready " },
		{ "faults", run_faults, 10, " mib seconds log " },
		{ "charge", run_charge, 10, " dir mib seconds log " },
		{ "latency", run_latency, 10,
		  " mib seconds log ready rate pages over-ms latencies warm-up idle wake seed zipf periods " },
		{ "numa", run_numa, 10, " mib seconds log first-cpu run-cpu " },
	};
	struct workload_args a = { .mib = 64, .rate = 200, .pages = 4, .over_ms = 50, .seed = 1,
				   .first_cpu = -1, .run_cpu = -1 };

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		a.seconds = commands[i].default_seconds;
		if (parse_workload_args(argv[1], commands[i].options, argc - 1, argv + 1, &a) < 0)
			return 2;
		return commands[i].run(&a) < 0 ? 1 : 0;
	}
	fprintf(stderr, "memcgd-bench: unknown command '%s'\n%s", argv[1], usage);
	return 2;
}
