// SPDX-License-Identifier: GPL-2.0-only
/*
 * numa: the workload of the NUMA scenarios (issue 19, "Measure"). Maps --mib
 * MiB of anonymous memory without transparent huge pages (4 KiB pages move
 * one by one), pins itself to CPU --first-cpu and writes every page once
 * there (the first touch places each page on that CPU's node), then reports
 * on which node its pages are. It then pins itself to CPU --run-cpu and
 * writes one word per page, page after page, for --seconds: the pages stay
 * where they are unless NUMA balancing moves them to the node of that CPU.
 *
 * Where the pages are comes from move_pages(2) with nodes = NULL (a query,
 * nothing moves; via syscall(2), no libnuma): once after the first touch and
 * once at the end over every page, and once a second during the run over a
 * sample of at most SAMPLE_PAGES evenly spaced pages (a query of every page
 * of a large buffer each second would cost more than the run measures).
 *
 * --log FILE: '<seconds> <share of the pages on --run-cpu's node> <passes
 * over the buffer so far>' at the start of the run, once a second, and at
 * its end (the last line from the query of every page). Printed at the end:
 *   numa first_node<K>_share X   per node 0..highest node holding a page
 *   numa local_share X           share on --run-cpu's node at the end
 *   numa passes_per_s X          passes over the buffer per second
 *   numa seconds_to_90 X         first log line with >= 90 % local, or -1
 * A share is of all pages of the buffer: a page the query finds on no node
 * counts on none.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "progress.h"
#include "workloads.h"

#define NS_PER_SEC 1000000000ULL
/* pages queried once a second during the run */
#define SAMPLE_PAGES 4096
/* pages written between two looks at the clock */
#define CHUNK_PAGES 256
#define LOCAL_GOAL 0.90

struct placement {
	void **addr;		/* the pages queried */
	int *status;		/* move_pages(2): node of each, or -errno */
	size_t n;
};

static void placement_free(struct placement *p)
{
	free(p->addr);
	free(p->status);
}

/* Every stride-th page of the buffer. */
static int placement_init(struct placement *p, char *buf, size_t pages, size_t page_size,
			  size_t stride)
{
	p->n = (pages + stride - 1) / stride;
	p->addr = calloc(p->n, sizeof(*p->addr));
	p->status = calloc(p->n, sizeof(*p->status));
	if (!p->addr || !p->status) {
		fprintf(stderr, "memcgd-bench numa: cannot allocate the page list of %zu pages\n", p->n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->n; i++)
		p->addr[i] = buf + i * stride * page_size;
	return 0;
}

/* Queries the node of every page of @p (nothing moves). */
static int placement_query(struct placement *p, const char *when)
{
	int r;

	if (syscall(SYS_move_pages, 0, (unsigned long)p->n, p->addr, NULL, p->status, 0) == 0)
		return 0;
	r = -errno;
	fprintf(stderr, "memcgd-bench numa: move_pages(2) query of %zu pages (%s): %s%s\n", p->n, when,
		strerror(-r),
		r == -ENOSYS ? " (a kernel without CONFIG_NUMA)" :
		r == -EPERM ? " (refused: a seccomp filter without CAP_SYS_NICE?)" : "");
	return r;
}

/* Share of the pages of @p on @node. */
static double placement_share(const struct placement *p, int node)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n; i++)
		k += p->status[i] == node;
	return p->n ? (double)k / (double)p->n : 0;
}

static int pin(int cpu, const char *opt, int *node)
{
	unsigned int got_cpu, got_node;
	cpu_set_t set;
	int r;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		r = -errno;
		fprintf(stderr, "memcgd-bench numa: cannot run on CPU %d (%s): %s\n", cpu, opt, strerror(-r));
		return r;
	}
	if (syscall(SYS_getcpu, &got_cpu, &got_node, NULL)) {
		r = -errno;
		fprintf(stderr, "memcgd-bench numa: getcpu(2) on CPU %d (%s): %s\n", cpu, opt, strerror(-r));
		return r;
	}
	if ((int)got_cpu != cpu) {
		fprintf(stderr, "memcgd-bench numa: pinned to CPU %d (%s) but running on CPU %u\n", cpu, opt,
			got_cpu);
		return -EAGAIN;
	}
	*node = (int)got_node;
	return 0;
}

static void log_line(FILE *log, uint64_t start, uint64_t now, double share, uint64_t pages_done,
		     size_t pages)
{
	if (!log)
		return;
	fprintf(log, "%.3f %.4f %.3f\n", (double)(now - start) / NS_PER_SEC, share,
		(double)pages_done / (double)pages);
	fflush(log);
}

int run_numa(const struct workload_args *a)
{
	long page_size = sysconf(_SC_PAGESIZE);
	struct placement all = { 0 }, sample = { 0 };
	size_t pages, words_per_page;
	volatile uint64_t *words;
	uint64_t start, end, next, now, pages_done = 0;
	double seconds_to_90 = -1, share, elapsed;
	int first_node, run_node, max_node = 0, r;
	FILE *log = NULL;
	char *buf;

	if (a->first_cpu < 0 || a->run_cpu < 0) {
		fprintf(stderr, "memcgd-bench numa: %s is required\n",
			a->first_cpu < 0 ? "--first-cpu" : "--run-cpu");
		return -EINVAL;
	}
	if (a->seconds <= 0) {
		fprintf(stderr, "memcgd-bench numa: --seconds must be more than 0\n");
		return -EINVAL;
	}
	if (page_size <= 0) {
		fprintf(stderr, "memcgd-bench numa: sysconf(_SC_PAGESIZE) failed\n");
		return -EINVAL;
	}
	r = open_progress_log("numa", a->log_path, &log);
	if (r < 0)
		return r;
	buf = map_anon("numa", a->mib);
	if (!buf) {
		r = -ENOMEM;
		goto out;
	}
	/* EINVAL: a kernel without transparent huge pages, nothing to turn off */
	if (madvise(buf, a->mib << 20, MADV_NOHUGEPAGE) && errno != EINVAL) {
		r = -errno;
		fprintf(stderr, "memcgd-bench numa: madvise(MADV_NOHUGEPAGE): %s\n", strerror(-r));
		goto out;
	}
	pages = (a->mib << 20) / (size_t)page_size;
	words_per_page = (size_t)page_size / sizeof(uint64_t);
	words = (volatile uint64_t *)buf;
	r = placement_init(&all, buf, pages, (size_t)page_size, 1);
	if (r < 0)
		goto out;
	r = placement_init(&sample, buf, pages, (size_t)page_size,
			   pages > SAMPLE_PAGES ? (pages + SAMPLE_PAGES - 1) / SAMPLE_PAGES : 1);
	if (r < 0)
		goto out;

	/* first touch */
	r = pin(a->first_cpu, "--first-cpu", &first_node);
	if (r < 0)
		goto out;
	for (size_t i = 0; i < pages; i++)
		words[i * words_per_page] = i + 1;
	r = placement_query(&all, "after the first touch");
	if (r < 0)
		goto out;
	for (size_t i = 0; i < all.n; i++)
		if (all.status[i] > max_node)
			max_node = all.status[i];
	printf("numa pages %zu\n", pages);
	printf("numa first_cpu %d\nnuma first_node %d\n", a->first_cpu, first_node);
	for (int node = 0; node <= max_node; node++)
		printf("numa first_node%d_share %.4f\n", node, placement_share(&all, node));
	fflush(stdout);

	/* the run */
	r = pin(a->run_cpu, "--run-cpu", &run_node);
	if (r < 0)
		goto out;
	printf("numa run_cpu %d\nnuma run_node %d\n", a->run_cpu, run_node);
	fflush(stdout);
	r = placement_query(&sample, "at the start of the run");
	if (r < 0)
		goto out;
	start = monotonic_ns();
	end = start + (uint64_t)(a->seconds * NS_PER_SEC);
	next = start + NS_PER_SEC;
	share = placement_share(&sample, run_node);
	if (share >= LOCAL_GOAL)
		seconds_to_90 = 0;
	log_line(log, start, start, share, 0, pages);
	for (size_t i = 0;;) {
		size_t stop = i + CHUNK_PAGES < pages ? i + CHUNK_PAGES : pages;

		pages_done += stop - i;
		for (; i < stop; i++)
			words[i * words_per_page] += 1;
		if (i == pages)
			i = 0;
		now = monotonic_ns();
		if (now >= next && now < end) {
			r = placement_query(&sample, "during the run");
			if (r < 0)
				goto out;
			share = placement_share(&sample, run_node);
			if (seconds_to_90 < 0 && share >= LOCAL_GOAL)
				seconds_to_90 = (double)(now - start) / NS_PER_SEC;
			log_line(log, start, now, share, pages_done, pages);
			/* the next boundary after now: a long stall yields one line, not a burst */
			next += ((now - next) / NS_PER_SEC + 1) * NS_PER_SEC;
		}
		if (now >= end)
			break;
	}
	elapsed = (double)(now - start) / NS_PER_SEC;
	r = placement_query(&all, "at the end of the run");
	if (r < 0)
		goto out;
	share = placement_share(&all, run_node);
	if (seconds_to_90 < 0 && share >= LOCAL_GOAL)
		seconds_to_90 = elapsed;
	log_line(log, start, now, share, pages_done, pages);
	printf("numa local_share %.4f\n", share);
	printf("numa passes_per_s %.3f\n", (double)pages_done / (double)pages / elapsed);
	if (seconds_to_90 < 0)
		printf("numa seconds_to_90 -1\n");
	else
		printf("numa seconds_to_90 %.3f\n", seconds_to_90);
	r = 0;
out:
	placement_free(&all);
	placement_free(&sample);
	close_progress_log(log);
	return r;
}
