/* SPDX-License-Identifier: GPL-2.0-only */
/* Command line values of the benchmark workloads. */
#ifndef MEMCGD_BENCH_ARGS_H
#define MEMCGD_BENCH_ARGS_H

#include <stddef.h>
#include <stdio.h>

struct workload_args {
	size_t mib;		/* --mib */
	double seconds;		/* --seconds, 0 = until stopped */
	const char *log_path;	/* --log: per-second progress */
	const char *ready_path;	/* --ready: created once set up (holder) */
	const char *dir;	/* --dir: where the charge workload writes */
	int fill_pattern;	/* --fill=pattern (holder): non-zero content */
};

/*
 * Parses argv[1..] of a subcommand into *a (defaults already set by the
 * caller). On bad input prints "memcgd-bench <cmd>: <what>" to stderr and
 * returns -EINVAL.
 */
int parse_workload_args(const char *cmd, int argc, char **argv, struct workload_args *a);

/*
 * Opens --log for writing ("-" is stdout) into *out; *out is NULL when no
 * --log was given. Returns -errno with a message on failure.
 */
int open_progress_log(const char *cmd, const char *path, FILE **out);
/* Closes what open_progress_log() opened (not stdout, not NULL). */
void close_progress_log(FILE *log);

#endif
