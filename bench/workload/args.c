// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"

/* Largest buffer a workload accepts: 1 TiB, far beyond any guest. */
#define MAX_MIB (1024UL * 1024)

static int parse_mib(const char *cmd, const char *opt, const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v == 0 || v > MAX_MIB) {
		fprintf(stderr, "memcgd-bench %s: --%s wants a whole number of MiB in 1..%lu, got '%s'\n",
			cmd, opt, MAX_MIB, s);
		return -EINVAL;
	}
	*out = (size_t)v;
	return 0;
}

/* A whole number in min..max (the seed takes any 64-bit value). */
static int parse_count(const char *cmd, const char *opt, const char *s, uint64_t min,
		       uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "memcgd-bench %s: --%s wants a whole number in %llu..%llu, got '%s'\n",
			cmd, opt, (unsigned long long)min, (unsigned long long)max, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* A finite number in min..max; @low_open excludes min itself. */
static int parse_number(const char *cmd, const char *opt, const char *s, double min, bool low_open,
			double max, const char *what, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || (low_open && v == min) ||
	    v > max) {
		fprintf(stderr, "memcgd-bench %s: --%s wants %s, got '%s'\n", cmd, opt, what, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_fill(const char *cmd, const char *s, int *out)
{
	if (!strcmp(s, "zero")) {
		*out = 0;
	} else if (!strcmp(s, "pattern")) {
		*out = 1;
	} else {
		fprintf(stderr, "memcgd-bench %s: --fill wants 'zero' or 'pattern', got '%s'\n", cmd, s);
		return -EINVAL;
	}
	return 0;
}

static int parse_one(const char *cmd, const char *name, int opt, const char *s,
		     struct workload_args *a)
{
	uint64_t v;
	int r;

	switch (opt) {
	case 'm':
		return parse_mib(cmd, name, s, &a->mib);
	case 'W':
		return parse_mib(cmd, name, s, &a->work_mib);
	case 's':
		return parse_number(cmd, name, s, 0, false, 86400, "0..86400 (0 = until stopped)",
				    &a->seconds);
	case 'i':
		return parse_number(cmd, name, s, 0, false, 86400, "0..86400 seconds", &a->idle);
	case 'u':
		return parse_number(cmd, name, s, 0, false, 86400, "0..86400 seconds", &a->warm_up);
	case 'R':
		return parse_number(cmd, name, s, 0, true, 100000,
				    "requests per second, more than 0 and at most 100000", &a->rate);
	case 'o':
		return parse_number(cmd, name, s, 0, true, 3600000,
				    "milliseconds, more than 0 and at most 3600000", &a->over_ms);
	case 'p':
		r = parse_count(cmd, name, s, 1, 65536, &v);
		if (r < 0)
			return r;
		a->pages = (unsigned int)v;
		return 0;
	case 'w':
		r = parse_count(cmd, name, s, 1, 10000000, &v);
		if (r < 0)
			return r;
		a->wake = (unsigned int)v;
		return 0;
	case 'S':
		return parse_count(cmd, name, s, 0, UINT64_MAX, &a->seed);
	case 'z':
		return parse_number(cmd, name, s, 0, false, 10, "an exponent in 0..10 (0 = uniform)",
				    &a->zipf);
	case 'P':
		a->periods = s;
		return 0;
	case 'c':
	case 'C':
		r = parse_count(cmd, name, s, 0, MAX_CPU, &v);
		if (r < 0)
			return r;
		*(opt == 'c' ? &a->first_cpu : &a->run_cpu) = (int)v;
		return 0;
	case 'f':
		return parse_fill(cmd, s, &a->fill_pattern);
	case 'l':
		a->log_path = s;
		return 0;
	case 'r':
		a->ready_path = s;
		return 0;
	case 'd':
		a->dir = s;
		return 0;
	case 'L':
		a->latencies_path = s;
		return 0;
	}
	return -EINVAL;
}

int parse_workload_args(const char *cmd, const char *allowed, int argc, char **argv,
			struct workload_args *a)
{
	static const struct option options[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "seconds", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "ready", required_argument, NULL, 'r' },
		{ "dir", required_argument, NULL, 'd' },
		{ "fill", required_argument, NULL, 'f' },
		{ "work", required_argument, NULL, 'W' },
		{ "rate", required_argument, NULL, 'R' },
		{ "pages", required_argument, NULL, 'p' },
		{ "over-ms", required_argument, NULL, 'o' },
		{ "latencies", required_argument, NULL, 'L' },
		{ "idle", required_argument, NULL, 'i' },
		{ "warm-up", required_argument, NULL, 'u' },
		{ "wake", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 'S' },
		{ "zipf", required_argument, NULL, 'z' },
		{ "periods", required_argument, NULL, 'P' },
		{ "first-cpu", required_argument, NULL, 'c' },
		{ "run-cpu", required_argument, NULL, 'C' },
		{}
	};
	int opt, idx, r;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", options, &idx)) != -1) {
		char want[32];

		if (opt == '?' || opt == ':') {
			fprintf(stderr, "memcgd-bench %s: unknown or incomplete option '%s'\n", cmd,
				argv[optind - 1]);
			return -EINVAL;
		}
		snprintf(want, sizeof(want), " %s ", options[idx].name);
		if (!strstr(allowed, want)) {
			fprintf(stderr, "memcgd-bench %s: option '--%s' does not apply to %s\n", cmd,
				options[idx].name, cmd);
			return -EINVAL;
		}
		r = parse_one(cmd, options[idx].name, opt, optarg, a);
		if (r < 0)
			return r;
	}
	if (optind < argc) {
		fprintf(stderr, "memcgd-bench %s: unexpected argument '%s'\n", cmd, argv[optind]);
		return -EINVAL;
	}
	return 0;
}

int open_progress_log(const char *cmd, const char *path, FILE **out)
{
	int r;

	*out = NULL;
	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		*out = stdout;
		return 0;
	}
	*out = fopen(path, "we");
	if (!*out) {
		r = -errno;
		fprintf(stderr, "memcgd-bench %s: cannot write %s: %s\n", cmd, path, strerror(-r));
		return r;
	}
	return 0;
}

void close_progress_log(FILE *log)
{
	if (log && log != stdout)
		fclose(log);
}

int announce_ready(const char *cmd, const char *path)
{
	int fd, r;

	if (!path)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = -errno;
		fprintf(stderr, "memcgd-bench %s: cannot create %s: %s\n", cmd, path, strerror(-r));
		return r;
	}
	close(fd);
	return 0;
}
