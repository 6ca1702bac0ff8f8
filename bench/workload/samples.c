// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"

#define NS_PER_MS 1e6

int samples_add(struct samples *s, uint64_t sched_ns, uint64_t lat_ns)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		uint64_t *p;

		p = realloc(s->sched_ns, cap * sizeof(*p));
		if (!p)
			goto nomem;
		s->sched_ns = p;
		p = realloc(s->lat_ns, cap * sizeof(*p));
		if (!p)
			goto nomem;
		s->lat_ns = p;
		s->cap = cap;
	}
	s->sched_ns[s->n] = sched_ns;
	s->lat_ns[s->n] = lat_ns;
	s->n++;
	return 0;
nomem:
	fprintf(stderr, "memcgd-bench latency: no memory for %zu latency samples\n", s->n + 1);
	return -ENOMEM;
}

void samples_free(struct samples *s)
{
	free(s->sched_ns);
	free(s->lat_ns);
	memset(s, 0, sizeof(*s));
}

uint64_t percentile(const uint64_t *sorted, size_t n, uint64_t num, uint64_t den)
{
	/* rank = ceil(n * num / den), 1-based, at least 1 */
	uint64_t rank = ((uint64_t)n * num + den - 1) / den;

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int samples_summary(FILE *out, const char *cmd, const char *prefix, const struct samples *s,
		    double over_ms)
{
	static const struct {
		const char *name;
		uint64_t num, den;
	} pcts[] = { { "p50", 1, 2 }, { "p99", 99, 100 }, { "p999", 999, 1000 }, { "max", 1, 1 } };
	uint64_t *sorted;
	size_t over = 0;

	fprintf(out, "%s %srequests %zu requests\n", cmd, prefix, s->n);
	if (!s->n)
		return 0;
	sorted = malloc(s->n * sizeof(*sorted));
	if (!sorted) {
		fprintf(stderr, "memcgd-bench %s: no memory to sort %zu latencies\n", cmd, s->n);
		return -ENOMEM;
	}
	memcpy(sorted, s->lat_ns, s->n * sizeof(*sorted));
	qsort(sorted, s->n, sizeof(*sorted), cmp_u64);
	fprintf(out, "%s %srate %.2f req/s\n", cmd, prefix,
		s->elapsed_s > 0 ? s->n / s->elapsed_s : 0.0);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		fprintf(out, "%s %s%s %.3f ms\n", cmd, prefix, pcts[i].name,
			percentile(sorted, s->n, pcts[i].num, pcts[i].den) / NS_PER_MS);
	for (size_t i = 0; i < s->n; i++)
		over += sorted[i] > over_ms * NS_PER_MS;
	fprintf(out, "%s %sover_%gms %zu requests\n", cmd, prefix, over_ms, over);
	fprintf(out, "%s %sover_%gms_share %.3f %%\n", cmd, prefix, over_ms, 100.0 * over / s->n);
	free(sorted);
	return 0;
}

void samples_write(FILE *f, const char *phase, const struct samples *s)
{
	for (size_t i = 0; i < s->n; i++)
		fprintf(f, "%s %.6f %.3f\n", phase, s->sched_ns[i] / 1e9, s->lat_ns[i] / NS_PER_MS);
}
