// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

/* Largest buffer a workload accepts: 1 TiB, far beyond any guest. */
#define MAX_MIB (1024UL * 1024)

static int parse_mib(const char *cmd, const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v == 0 || v > MAX_MIB) {
		fprintf(stderr, "memcgd-bench %s: --mib wants a whole number of MiB in 1..%lu, got '%s'\n",
			cmd, MAX_MIB, s);
		return -EINVAL;
	}
	*out = (size_t)v;
	return 0;
}

static int parse_seconds(const char *cmd, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 86400) {
		fprintf(stderr, "memcgd-bench %s: --seconds wants 0..86400 (0 = until stopped), got '%s'\n",
			cmd, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int parse_workload_args(const char *cmd, int argc, char **argv, struct workload_args *a)
{
	static const struct option options[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "seconds", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "ready", required_argument, NULL, 'r' },
		{ "dir", required_argument, NULL, 'd' },
		{ "fill", required_argument, NULL, 'f' },
		{}
	};
	int opt, r;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'm':
			r = parse_mib(cmd, optarg, &a->mib);
			if (r < 0)
				return r;
			break;
		case 's':
			r = parse_seconds(cmd, optarg, &a->seconds);
			if (r < 0)
				return r;
			break;
		case 'l':
			a->log_path = optarg;
			break;
		case 'r':
			a->ready_path = optarg;
			break;
		case 'd':
			a->dir = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "zero")) {
				a->fill_pattern = 0;
			} else if (!strcmp(optarg, "pattern")) {
				a->fill_pattern = 1;
			} else {
				fprintf(stderr, "memcgd-bench %s: --fill wants 'zero' or 'pattern', got '%s'\n",
					cmd, optarg);
				return -EINVAL;
			}
			break;
		default:
			fprintf(stderr, "memcgd-bench %s: unknown or incomplete option '%s'\n", cmd,
				argv[optind - 1]);
			return -EINVAL;
		}
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
