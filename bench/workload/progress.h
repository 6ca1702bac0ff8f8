/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-second progress log of a benchmark workload. */
#ifndef MEMCGD_BENCH_PROGRESS_H
#define MEMCGD_BENCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * One line per elapsed second, "<seconds> <units>", seconds since start with
 * millisecond resolution and the cumulative count of work units (MiB written,
 * pages faulted, ...). A line is written when the workload reports progress
 * after a second boundary passed, so a workload stalled in the kernel for 3 s
 * writes one line stamped with the time it resumed: rates are computed from
 * the stamps, never from line numbers.
 */
struct progress {
	FILE *log;		/* NULL: no per-second log */
	uint64_t start_ns;
	uint64_t end_ns;	/* 0: run until stopped */
	uint64_t next_line_ns;
	uint64_t units;
};

uint64_t monotonic_ns(void);
void progress_start(struct progress *p, FILE *log, double seconds);
/* Adds units; returns false once the run's duration is over. */
bool progress_add(struct progress *p, uint64_t units);
/* Writes the last line; returns the elapsed seconds. */
double progress_finish(struct progress *p);

#endif
