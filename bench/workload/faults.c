// SPDX-License-Identifier: GPL-2.0-only
/*
 * faults: page-fault microbenchmark. Touches every page of an anonymous
 * buffer (one fault and one memory charge each), drops the buffer with
 * MADV_DONTNEED (uncharge), repeats. Prints faults per second.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "progress.h"
#include "workloads.h"

int run_faults(const struct workload_args *a)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = a->mib << 20;
	struct progress p;
	volatile char *buf;
	FILE *log;
	double secs;
	int r;

	r = open_progress_log("faults", a->log_path, &log);
	if (r < 0)
		return r;
	buf = map_anon("faults", a->mib);
	if (!buf)
		return -ENOMEM;
	progress_start(&p, log, a->seconds);
	for (;;) {
		/* 64 pages per clock read keeps the clock out of the measurement */
		for (size_t off = 0; off < len; off += 64 * page) {
			size_t end = off + 64 * page < len ? off + 64 * page : len;

			for (size_t o = off; o < end; o += page)
				buf[o] = 1;
			if (!progress_add(&p, (end - off) / page))
				goto done;
		}
		if (madvise((void *)buf, len, MADV_DONTNEED)) {
			r = -errno;
			fprintf(stderr, "memcgd-bench faults: madvise: %s\n", strerror(-r));
			return r;
		}
	}
done:
	secs = progress_finish(&p);
	printf("faults: %llu faults in %.3f s: %.0f faults/s\n", (unsigned long long)p.units, secs,
	       p.units / secs);
	munmap((void *)buf, len);
	close_progress_log(log);
	return 0;
}
