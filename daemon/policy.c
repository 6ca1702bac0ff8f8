// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>

#include "policy.h"
#include "units-parse.h"
#include "util.h"

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int policy_levels(const struct memcgd_config *c, uint32_t *levels)
{
	long distinct[MEMCGD_MAX_LEVELS];
	size_t n = 0;

	for (size_t i = 0; i < c->n_slices; i++) {
		bool known = false;

		for (size_t j = 0; j < n; j++)
			known |= distinct[j] == c->slices[i].priority;
		if (known)
			continue;
		if (n == MEMCGD_MAX_LEVELS)
			return -E2BIG;
		distinct[n++] = c->slices[i].priority;
	}
	qsort(distinct, n, sizeof(long), cmp_long);
	for (size_t i = 0; i < c->n_slices; i++)
		for (size_t j = 0; j < n; j++)
			if (distinct[j] == c->slices[i].priority)
				levels[i] = (uint32_t)j;
	return (int)n;
}

uint64_t policy_max_usage(const struct slice_settings *s, uint64_t ram_bytes)
{
	if (s->protect_max_usage != MAX_USAGE_DEFAULT)
		return s->protect_max_usage;
	/* unknown memory size: no ceiling rather than a ceiling of 0 */
	return ram_bytes ? ram_bytes / 100 * MAX_USAGE_DEFAULT_PERCENT : SIZE_INFINITY;
}

void policy_compile(const struct slice_conf *s, uint32_t level, uint64_t cgroup_id, struct memcgd_policy *out)
{
	const struct slice_settings *st = &s->settings;
	/* faults per window = rate * window, rounded up so that the rate is really reached */
	uint64_t per_window = (st->fault_rate * st->window_usec + USEC_PER_SEC - 1) / USEC_PER_SEC;

	memset(out, 0, sizeof(*out));
	out->cgroup_id = cgroup_id;
	out->faults_per_window = per_window ? per_window : 1;
	out->window_ns = st->window_usec * 1000;
	/* Hold=auto: the fault path bridges to memcgd's next update (its window and the next), and
	 * memcgd keeps the slice active for the hold it learned (policy-engine.h) */
	out->hold_ns = st->hold_usec == HOLD_AUTO ? 0 : st->hold_usec * 1000;
	/* the parser bounds MaxContinuous= to a year; a larger value (never from a file) saturates
	 * to "no guard" rather than wrapping to a few nanoseconds */
	out->max_throttle_ns = st->throttle_max_usec == USEC_INFINITY || st->throttle_max_usec > UINT64_MAX / 1000
				       ? 0 : st->throttle_max_usec * 1000;
	out->level = level;
	out->protect = st->protect == PROTECT_MIN ? MEMCGD_PROTECT_MIN
		     : st->protect == PROTECT_LOW ? MEMCGD_PROTECT_LOW : MEMCGD_PROTECT_NONE;
	out->delay_ms = (uint32_t)(st->throttle_delay_usec / USEC_PER_MSEC);
	out->flags = MEMCGD_POLICY_IN_USE;
	if (st->protect != PROTECT_NONE && st->protect_size == PROTECT_SIZE_FOOTPRINT)
		out->flags |= MEMCGD_POLICY_SIZED;
	if (st->throttle_when == THROTTLE_WHEN_PRESSURE)
		out->flags |= MEMCGD_POLICY_DELAY_ON_PRESSURE;
	if (st->protect != PROTECT_NONE && !st->reclaim_background)
		out->flags |= MEMCGD_POLICY_GIVE_BACK;
	/* 0 is "no ceiling" in the map; an unresolved default (0) means that as well */
	out->max_usage_bytes = st->protect_max_usage == SIZE_INFINITY ? 0 : st->protect_max_usage;
	if (st->reclaim_background) {
		out->flags |= MEMCGD_POLICY_RECLAIM;
		out->headroom_bytes = st->reclaim_headroom;
		out->reclaim_rate = st->reclaim_rate == SIZE_INFINITY ? 0 : st->reclaim_rate;
	}
	switch (st->numa) {
	case NUMA_BALANCING_ON:
		/* the parser keeps these within struct memcg_numa_params' ranges, in whole ms and MiB */
		out->flags |= MEMCGD_POLICY_NUMA_ON;
		out->numa_scan_period_min_ms = (uint32_t)(st->numa_scan_period_min_usec / USEC_PER_MSEC);
		out->numa_scan_period_max_ms = (uint32_t)(st->numa_scan_period_max_usec / USEC_PER_MSEC);
		out->numa_scan_size_mb = (uint32_t)(st->numa_scan_size >> 20);
		out->numa_hot_threshold_ms = (uint32_t)(st->numa_hot_threshold_usec / USEC_PER_MSEC);
		break;
	case NUMA_BALANCING_OFF:
		out->flags |= MEMCGD_POLICY_NUMA_OFF;
		break;
	case NUMA_BALANCING_DEFAULT:
		break;
	}
}

static int cmp_level_slot(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

size_t policy_reclaim_order(const struct memcgd_config *c, const uint32_t *levels, const int *slot_of,
			    uint32_t *order, uint64_t *max_headroom)
{
	uint64_t keys[MEMCGD_MAX_SLICES];
	size_t n = 0;

	bool give_back = false;

	*max_headroom = 0;
	for (size_t i = 0; i < c->n_slices && n < MEMCGD_MAX_SLICES; i++) {
		const struct slice_settings *st = &c->slices[i].settings;

		if (slot_of[i] < 0)
			continue;
		if (st->reclaim_background) {
			/* after the idle slices; by level, lowest first; within a level by slot
			 * (stable across reloads) */
			keys[n++] = (uint64_t)(levels[i] + 1) << 32 | (uint32_t)slot_of[i];
			if (st->reclaim_headroom > *max_headroom)
				*max_headroom = st->reclaim_headroom;
		} else if (st->protect != PROTECT_NONE) {
			/* a protected slice gives back first, while it is idle (MEMCGD_POLICY_GIVE_BACK) */
			keys[n++] = (uint32_t)slot_of[i];
			give_back = true;
		}
	}
	if (give_back && !*max_headroom)
		*max_headroom = RECLAIM_HEADROOM_DEFAULT;
	qsort(keys, n, sizeof(keys[0]), cmp_level_slot);
	if (n > MEMCGD_MAX_RECLAIM_SLICES)
		n = MEMCGD_MAX_RECLAIM_SLICES;
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)keys[i];
	return n;
}

int policy_assign_slots(char **slots, const struct memcgd_config *c, int *slot_of, bool *fresh)
{
	bool used[MEMCGD_MAX_SLICES] = {};

	if (c->n_slices > MEMCGD_MAX_SLICES)
		return -ENOSPC;
	for (size_t i = 0; i < c->n_slices; i++) {
		slot_of[i] = -1;
		fresh[i] = false;
		for (int k = 0; k < MEMCGD_MAX_SLICES; k++)
			if (slots[k] && !used[k] && streq(slots[k], c->slices[i].name)) {
				slot_of[i] = k;
				used[k] = true;
				break;
			}
	}
	for (int k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (slots[k] && !used[k]) {
			free(slots[k]);
			slots[k] = NULL;
		}
	for (size_t i = 0; i < c->n_slices; i++) {
		int k;

		if (slot_of[i] >= 0)
			continue;
		for (k = 0; k < MEMCGD_MAX_SLICES && slots[k]; k++)
			;
		if (k == MEMCGD_MAX_SLICES)
			return -ENOSPC;
		slots[k] = strdup(c->slices[i].name);
		if (!slots[k])
			return -ENOMEM;
		slot_of[i] = k;
		fresh[i] = true;
	}
	return 0;
}

void policy_levels_rebuild(const struct memcgd_slice_state *states, const struct memcgd_policy *policies,
			   size_t n, uint64_t now_ns, struct memcgd_levels *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		uint32_t l = policies[i].level;

		if (!(policies[i].flags & MEMCGD_POLICY_IN_USE) || l >= MEMCGD_MAX_LEVELS)
			continue;
		if (states[i].active_until_ns <= now_ns)
			continue;
		if (out->until_ns[l] < states[i].active_until_ns)
			out->until_ns[l] = states[i].active_until_ns;
		out->active_mask |= UINT64_C(1) << l;
	}
}

bool policy_higher_level_active(const struct memcgd_levels *l, uint32_t level, uint64_t now_ns)
{
	for (uint32_t i = level + 1; i < MEMCGD_MAX_LEVELS; i++)
		if ((l->active_mask & (UINT64_C(1) << i)) && l->until_ns[i] > now_ns)
			return true;
	return false;
}
