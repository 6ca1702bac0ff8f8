/* SPDX-License-Identifier: GPL-2.0-only */
/* Latency samples of the latency workload and their summary. */
#ifndef MEMCGD_BENCH_SAMPLES_H
#define MEMCGD_BENCH_SAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One phase's requests, in the order they were scheduled. */
struct samples {
	uint64_t *sched_ns;	/* scheduled start, ns since the phase started */
	uint64_t *lat_ns;	/* completion minus scheduled start */
	size_t n, cap;
	double elapsed_s;	/* phase start to the last completion, plus 1 / rate */
};

/* Appends one request; -ENOMEM with a message when the arrays cannot grow. */
int samples_add(struct samples *s, uint64_t sched_ns, uint64_t lat_ns);
void samples_free(struct samples *s);

/*
 * The nearest-rank percentile num/den of sorted[0..n-1]: the smallest value
 * with at least num/den of the samples at or below it (n > 0). Exact
 * integer arithmetic: p99.9 of 1000 samples is the 999th, of 1001 the 1000th.
 */
uint64_t percentile(const uint64_t *sorted, size_t n, uint64_t num, uint64_t den);

/*
 * Prints "<cmd> <prefix><metric> <value> <unit>" lines: requests, rate
 * (requests / elapsed_s), p50, p99, p999, max (ms), over_<T>ms (requests
 * slower than over_ms) and over_<T>ms_share (%). Returns -ENOMEM with a
 * message when it cannot sort.
 */
int samples_summary(FILE *out, const char *cmd, const char *prefix, const struct samples *s,
		    double over_ms);

/* Writes "<phase> <scheduled s> <latency ms>" per request to @f. */
void samples_write(FILE *f, const char *phase, const struct samples *s);

#endif
