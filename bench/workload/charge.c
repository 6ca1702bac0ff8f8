// SPDX-License-Identifier: GPL-2.0-only
/*
 * charge: charge-heavy microbenchmark. Writes a file in --dir (tmpfs: every
 * page written is a page cache folio charged to the writer's memory cgroup)
 * in 64 KiB chunks up to --mib, truncates it (uncharge) and starts over.
 * Prints MiB written per second.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "workloads.h"

#define CHUNK (64 * 1024)

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

int run_charge(const struct workload_args *a)
{
	static char chunk[CHUNK];
	char path[4096];
	int fd __attribute__((cleanup(close_fd))) = -1;
	size_t chunks_per_file = (a->mib << 20) / CHUNK;
	struct progress p;
	uint64_t bytes = 0;
	FILE *log;
	double secs;
	int r;

	if (!a->dir) {
		fprintf(stderr, "memcgd-bench charge: --dir is required (a tmpfs directory)\n");
		return -EINVAL;
	}
	r = open_progress_log("charge", a->log_path, &log);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/memcgd-bench-charge.XXXXXX", a->dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		fprintf(stderr, "memcgd-bench charge: cannot create a file in %s: %s\n", a->dir,
			strerror(-r));
		return r;
	}
	unlink(path);
	memset(chunk, 0x5a, sizeof(chunk));
	progress_start(&p, log, a->seconds);
	for (;;) {
		for (size_t i = 0; i < chunks_per_file; i++) {
			if (pwrite(fd, chunk, CHUNK, (off_t)i * CHUNK) != CHUNK) {
				r = errno ? -errno : -EIO;
				fprintf(stderr, "memcgd-bench charge: write to %s: %s\n", a->dir,
					strerror(-r));
				return r;
			}
			bytes += CHUNK;
			/* progress in MiB, reported each time a MiB completes */
			if (!(bytes & ((1 << 20) - 1)) && !progress_add(&p, 1))
				goto done;
		}
		if (ftruncate(fd, 0)) {
			r = -errno;
			fprintf(stderr, "memcgd-bench charge: truncate: %s\n", strerror(-r));
			return r;
		}
	}
done:
	secs = progress_finish(&p);
	printf("charge: %llu MiB in %.3f s: %.1f MiB/s\n", (unsigned long long)p.units, secs,
	       p.units / secs);
	close_progress_log(log);
	return 0;
}
