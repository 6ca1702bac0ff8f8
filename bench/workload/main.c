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
	"  writer --mib N [--seconds S] [--log FILE]\n"
	"        write 64-bit words over an N MiB buffer, count MiB written\n"
	"  holder --mib N [--fill zero|pattern] [--ready FILE] [--seconds S]\n"
	"        fill an N MiB buffer, create FILE, sleep holding it (S = 0: forever)\n"
	"  faults --mib N [--seconds S] [--log FILE]\n"
	"        touch every page, MADV_DONTNEED, repeat: faults per second\n"
	"  charge --dir DIR --mib N [--seconds S] [--log FILE]\n"
	"        write a file in DIR up to N MiB, truncate, repeat: MiB per second\n"
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
	} commands[] = {
		{ "writer", run_writer, 10 },
		{ "holder", run_holder, 0 },
		{ "faults", run_faults, 10 },
		{ "charge", run_charge, 10 },
	};
	struct workload_args a = { .mib = 64 };

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		a.seconds = commands[i].default_seconds;
		if (parse_workload_args(argv[1], argc - 1, argv + 1, &a) < 0)
			return 2;
		return commands[i].run(&a) < 0 ? 1 : 0;
	}
	fprintf(stderr, "memcgd-bench: unknown command '%s'\n%s", argv[1], usage);
	return 2;
}
