/* SPDX-License-Identifier: GPL-2.0-only */
/* Command line values of the benchmark workloads. */
#ifndef MEMCGD_BENCH_ARGS_H
#define MEMCGD_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct workload_args {
	size_t mib;		/* --mib */
	double seconds;		/* --seconds, 0 = until stopped */
	const char *log_path;	/* --log: per-second progress */
	const char *ready_path;	/* --ready: created once set up (holder, latency) */
	const char *dir;	/* --dir: where the charge workload writes */
	int fill_pattern;	/* --fill=pattern (holder): non-zero content */
	size_t work_mib;	/* --work (writer): stop after this many MiB, 0 = no limit */
	double rate;		/* --rate (latency): requests per second */
	unsigned int pages;	/* --pages (latency): pages touched per request */
	double over_ms;		/* --over-ms (latency): the "slow request" threshold */
	const char *latencies_path; /* --latencies (latency): every latency */
	double warm_up;		/* --warm-up (latency): seconds of requests reported apart */
	double idle;		/* --idle (latency): seconds idle before the wake-up phase */
	unsigned int wake;	/* --wake (latency): requests of the wake-up phase */
	uint64_t seed;		/* --seed (latency): of the page choice */
	double zipf;		/* --zipf (latency): Zipf exponent of the page choice, 0 = uniform */
	const char *periods;	/* --periods (latency): "BUSY,IDLE[,BUSY,IDLE]..." seconds, repeated */
	int first_cpu;		/* --first-cpu (numa): where the pages are first touched, -1 = not given */
	int run_cpu;		/* --run-cpu (numa): where they are used afterwards, -1 = not given */
};

/* Highest CPU number --first-cpu and --run-cpu take: glibc's cpu_set_t holds 1024. */
#define MAX_CPU 1023

/*
 * Parses argv[1..] of a subcommand into *a (defaults already set by the
 * caller). @allowed lists the long options the subcommand takes, as
 * " mib seconds log ": any other known option is refused, so that a
 * misplaced option is not silently ignored. On bad input prints
 * "memcgd-bench <cmd>: <what>" to stderr and returns -EINVAL.
 */
int parse_workload_args(const char *cmd, const char *allowed, int argc, char **argv,
			struct workload_args *a);

/*
 * Opens --log for writing ("-" is stdout) into *out; *out is NULL when no
 * --log was given. Returns -errno with a message on failure.
 */
int open_progress_log(const char *cmd, const char *path, FILE **out);
/* Closes what open_progress_log() opened (not stdout, not NULL). */
void close_progress_log(FILE *log);

/* Creates @path (--ready) once a workload is set up; 0 when @path is NULL. */
int announce_ready(const char *cmd, const char *path);

#endif
