// SPDX-License-Identifier: GPL-2.0-only
#include <time.h>

#include "progress.h"

#define NSEC_PER_SEC 1000000000ULL

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void write_line(struct progress *p, uint64_t now)
{
	if (!p->log)
		return;
	fprintf(p->log, "%.3f %llu\n", (double)(now - p->start_ns) / NSEC_PER_SEC,
		(unsigned long long)p->units);
	fflush(p->log);
}

void progress_start(struct progress *p, FILE *log, double seconds)
{
	p->log = log;
	p->start_ns = monotonic_ns();
	p->end_ns = seconds > 0 ? p->start_ns + (uint64_t)(seconds * NSEC_PER_SEC) : 0;
	p->next_line_ns = p->start_ns + NSEC_PER_SEC;
	p->units = 0;
	write_line(p, p->start_ns);
}

bool progress_add(struct progress *p, uint64_t units)
{
	uint64_t now = monotonic_ns();

	p->units += units;
	if (now >= p->next_line_ns) {
		write_line(p, now);
		/* the next boundary after now: a long stall yields one line, not a burst */
		p->next_line_ns += ((now - p->next_line_ns) / NSEC_PER_SEC + 1) * NSEC_PER_SEC;
	}
	return !p->end_ns || now < p->end_ns;
}

double progress_finish(struct progress *p)
{
	uint64_t now = monotonic_ns();

	write_line(p, now);
	return (double)(now - p->start_ns) / NSEC_PER_SEC;
}
