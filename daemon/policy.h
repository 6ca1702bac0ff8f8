/* SPDX-License-Identifier: GPL-2.0-only */
/* From configuration to BPF map values: priority levels, policies, slots. Pure functions. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../bpf/memcgd.h"
#include "conf.h"

/* levels[i] = dense rank of c->slices[i].priority (0 = lowest). Returns the number of levels,
 * or -E2BIG when there are more than MEMCGD_MAX_LEVELS distinct priorities. */
int policy_levels(const struct memcgd_config *c, uint32_t *levels);

/* [Protect] MaxUsage= in bytes for a machine with ram_bytes of memory: the default share when not
 * set, SIZE_INFINITY when set to infinity. */
uint64_t policy_max_usage(const struct slice_settings *s, uint64_t ram_bytes);

/* The map value for one slice (its MaxUsage= must be resolved by policy_max_usage first). */
void policy_compile(const struct slice_conf *s, uint32_t level, uint64_t cgroup_id,
		    struct memcgd_policy *out);

/* The slices background reclaim may ask, in its order, as slots: first the protected slices
 * without Background= (they give back only while idle, MEMCGD_POLICY_GIVE_BACK), by slot, then
 * the [Reclaim] Background= slices by level ascending, then slot. Fills
 * order[MEMCGD_MAX_RECLAIM_SLICES] and returns their number (extra ones are left out:
 * config_validate refuses more Background= slices than that); *max_headroom gets the largest
 * Headroom= among the Background= slices, the default Headroom= when there is none but a
 * protected slice, 0 when there is neither. */
size_t policy_reclaim_order(const struct memcgd_config *c, const uint32_t *levels, const int *slot_of,
			    uint32_t *order, uint64_t *max_headroom);

/* slots[MEMCGD_MAX_SLICES]: slot -> slice name (owned) or NULL. Keeps the slot of every slice
 * that stays configured, frees the slots of slices that are gone and gives free slots to new
 * ones. slot_of[i] receives the slot of c->slices[i]; fresh[i] is true for a newly assigned
 * slot (its state must be zeroed). Returns 0 or -ENOSPC / -ENOMEM. */
int policy_assign_slots(char **slots, const struct memcgd_config *c, int *slot_of, bool *fresh);

/* The levels value for a new generation: carries over every slice still active at now
 * (by its new level), so that switching generations never drops an activity. */
void policy_levels_rebuild(const struct memcgd_slice_state *states, const struct memcgd_policy *policies,
			   size_t n, uint64_t now_ns, struct memcgd_levels *out);

/* True when some level above `level` is active at now (what get_high_delay_ms checks). */
bool policy_higher_level_active(const struct memcgd_levels *l, uint32_t level, uint64_t now_ns);
