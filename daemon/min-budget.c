// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <sys/sysinfo.h>

#include "min-budget.h"
#include "policy.h"
#include "units-parse.h"
#include "util.h"

static uint64_t ram_override;
static bool ram_overridden;

void min_budget_set_ram(uint64_t ram_bytes)
{
	ram_override = ram_bytes;
	ram_overridden = true;
}

uint64_t min_budget_ram(void)
{
	struct sysinfo si;

	if (ram_overridden)
		return ram_override;
	return sysinfo(&si) == 0 ? (uint64_t)si.totalram * si.mem_unit : 0;
}

uint64_t min_budget_reserve(uint64_t ram_bytes)
{
	uint64_t tenth = ram_bytes / 10;

	return tenth > MIN_BUDGET_RESERVE_FLOOR ? tenth : MIN_BUDGET_RESERVE_FLOOR;
}

static bool inside_min_slice(const struct memcgd_config *c, const struct slice_conf *s)
{
	for (size_t j = 0; j < c->n_slices; j++) {
		const struct slice_conf *o = &c->slices[j];

		if (o->name && o->settings.protect == PROTECT_MIN && slice_is_ancestor(o->name, s->name))
			return true;
	}
	return false;
}

static int cmp_priority_desc(const void *a, const void *b)
{
	const struct slice_conf *x = *(const struct slice_conf *const *)a, *y = *(const struct slice_conf *const *)b;

	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x < y ? -1 : x > y; /* file order among equals */
}

void min_budget_check(const struct memcgd_config *c, uint64_t ram_bytes, struct diag_list *d)
{
	const struct slice_conf **v;
	uint64_t reserve, budget, sum = 0;
	size_t n = 0;

	if (!ram_bytes || !c->n_slices)
		return;
	v = calloc(c->n_slices, sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < c->n_slices; i++) {
		const struct slice_conf *s = &c->slices[i];

		if (s->name && s->settings.protect == PROTECT_MIN && !inside_min_slice(c, s))
			v[n++] = s;
	}
	qsort(v, n, sizeof(*v), cmp_priority_desc);
	reserve = min_budget_reserve(ram_bytes);
	budget = ram_bytes > reserve ? ram_bytes - reserve : 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t ceiling = policy_max_usage(&v[i]->settings, ram_bytes);
		char a[32], b[32], r[32], m[32];

		if (ceiling == SIZE_INFINITY || ceiling > ram_bytes)
			ceiling = ram_bytes;
		if (sum + ceiling <= budget) {
			sum += ceiling;
			continue;
		}
		diag_add(d, v[i]->file, v[i]->name_line,
			 "Mode=min of %s does not fit the memory: its ceiling MaxUsage=%s on top of %s of the "
			 "Mode=min slices of equal or higher priority exceeds %s of memory minus a reserve of %s; "
			 "lower MaxUsage= or use Mode=low",
			 v[i]->name, format_size(a, sizeof(a), ceiling), format_size(b, sizeof(b), sum),
			 format_size(m, sizeof(m), ram_bytes), format_size(r, sizeof(r), reserve));
	}
	free(v);
}
