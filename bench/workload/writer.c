// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer: the fine-grained progress measure of the priority benchmark. Writes
 * 64-bit words over an anonymous buffer again and again and counts every MiB.
 * A pass over a buffer that does not fit in memory is dominated by swap-in,
 * yet the MiB count keeps moving, unlike stress-ng's per-pass bogo-ops.
 * The words are never zero: swap does not get to drop zero-filled pages.
 *
 * --work W: a fixed amount of work. The writer stops once it has written W
 * MiB (passes over its buffer until then) and prints the time it took; a run
 * that reaches --seconds first is cut off there and says how far it got.
 * "How long does the batch job take" is then a number per run, including
 * the runs that never got going, instead of a rate over the run's last
 * seconds.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "progress.h"
#include "workloads.h"

#define WORDS_PER_MIB ((1UL << 20) / sizeof(uint64_t))

int run_writer(const struct workload_args *a)
{
	struct progress p;
	volatile uint64_t *buf;
	uint64_t pass = 0;
	FILE *log;
	double secs;
	int r;

	r = open_progress_log("writer", a->log_path, &log);
	if (r < 0)
		return r;
	buf = map_anon("writer", a->mib);
	if (!buf)
		return -ENOMEM;
	progress_start(&p, log, a->seconds);
	for (;;) {
		pass++;
		for (size_t mib = 0; mib < a->mib; mib++) {
			volatile uint64_t *w = buf + mib * WORDS_PER_MIB;

			for (size_t i = 0; i < WORDS_PER_MIB; i++)
				w[i] = (pass << 40) | (mib << 20) | i | 1;
			if (!progress_add(&p, 1) || (a->work_mib && p.units >= a->work_mib))
				goto done;
		}
	}
done:
	secs = progress_finish(&p);
	printf("writer: %llu MiB in %.3f s (%.1f MiB/s, %llu passes)\n",
	       (unsigned long long)p.units, secs, p.units / secs, (unsigned long long)pass);
	if (a->work_mib && p.units >= a->work_mib)
		printf("writer: work of %zu MiB finished in %.3f s\n", a->work_mib, secs);
	else if (a->work_mib)
		printf("writer: work of %zu MiB not finished: %llu MiB in %.3f s\n", a->work_mib,
		       (unsigned long long)p.units, secs);
	munmap((void *)buf, a->mib << 20);
	close_progress_log(log);
	return 0;
}
