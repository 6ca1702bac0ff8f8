// SPDX-License-Identifier: GPL-2.0-only
/*
 * holder: the idle high-priority workload. Allocates and fills a buffer, says
 * so, then sleeps holding it (the RFC used a python process sleeping on a
 * 3 GB bytearray). --fill=zero writes zeros, which 6.12's swap drops without
 * I/O; --fill=pattern writes non-zero words, which must really be swapped.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workloads.h"

int run_holder(const struct workload_args *a)
{
	uint64_t *buf = map_anon("holder", a->mib);
	size_t words = (a->mib << 20) / sizeof(uint64_t);
	int r;

	if (!buf)
		return -ENOMEM;
	if (a->fill_pattern) {
		for (size_t i = 0; i < words; i++)
			buf[i] = i * 0x9e3779b97f4a7c15ULL | 1;
	} else {
		memset(buf, 0, a->mib << 20);
	}
	r = announce_ready("holder", a->ready_path);
	if (r < 0)
		return r;
	printf("holder: holding %zu MiB (%s fill)\n", a->mib, a->fill_pattern ? "pattern" : "zero");
	fflush(stdout);
	if (a->seconds > 0) {
		usleep((useconds_t)(a->seconds * 1e6));
		return 0;
	}
	for (;;)
		pause();
}
