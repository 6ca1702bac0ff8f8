// SPDX-License-Identifier: GPL-2.0-only
/* The manager's sampler: fault rates, CPUUsage= activity, throttling and MaxUsage= state from
 * the BPF maps every update; ring buffer events to the journal. */
#include <inttypes.h>
#include <string.h>

#include "cgroup-files.h"
#include "log.h"
#include "manager-internal.h"
#include "util.h"
#include "policy.h"
#include "units-parse.h"

static const char *highest_active_above(struct manager *m, uint32_t level)
{
	const char *name = NULL;
	uint32_t best = level;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && m->rt[k].active && m->rt[k].level > best) {
			best = m->rt[k].level;
			name = m->rt[k].conf.name;
		}
	return name;
}

/* [Activity] CPUUsage=: a slice busy on memory it already has takes no page faults; its CPU
 * time shows the work. Marks the slice active (through the next window plus the hold time,
 * like a window over the fault threshold) while it uses at least the configured share. */
static void sample_cpu(struct manager *m, uint32_t gen, uint32_t slot, uint64_t now)
{
	struct slice_rt *rt = &m->rt[slot];
	const struct slice_settings *st = &rt->conf.settings;
	_cleanup_free_ char *dir = NULL;
	uint64_t usage;

	if (st->cpu_usage_percent && rt->cgroup)
		dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
	if (!dir || cgroup_read_cpu_usage_usec(dir, &usage) < 0) {
		rt->last_cpu_ns = 0;
		rt->cpu_percent = -1; /* not measured */
		return;
	}
	if (rt->last_cpu_ns && now > rt->last_cpu_ns && usage >= rt->last_cpu_usec) {
		rt->cpu_percent = (double)(usage - rt->last_cpu_usec) * 1e5 / (double)(now - rt->last_cpu_ns);
		/* until the tick after next at least: with UpdateInterval= above Window= + Hold= the
		 * activity would otherwise lapse between two measurements */
		uint64_t span = st->window_usec + st->hold_usec;

		if (span < 2 * m->interval_usec)
			span = 2 * m->interval_usec;
		if (rt->cpu_percent >= (double)st->cpu_usage_percent)
			policy_maps_mark_cpu_active(&m->pm, gen, slot, rt->level, now + span * 1000);
	}
	rt->last_cpu_usec = usage;
	rt->last_cpu_ns = now;
}

/* A full slice_of is not silent: a warning when cgroups could not be mapped (the first time,
 * then at most once a minute while the number grows). */
static void check_slice_of(struct manager *m, uint64_t now)
{
	uint64_t unmapped = policy_maps_unmapped(&m->pm);

	if (unmapped <= m->unmapped_logged)
		return;
	if (m->unmapped_logged && now / 1000 < m->unmapped_log_usec + 60 * USEC_PER_SEC)
		return;
	log_transition(LOG_WARNING, "slice-of-full", NULL, 0, unmapped,
		       "slice_of is full (MaxCgroups=%" PRIu32 "): %" PRIu64 " cgroup%s could not be mapped to "
		       "their slice, their page faults are not counted; raise [Daemon] MaxCgroups= in memcgd.conf "
		       "and restart memcgd", m->pm.max_cgroups, unmapped, unmapped == 1 ? "" : "s");
	m->unmapped_logged = unmapped;
	m->unmapped_log_usec = now / 1000;
}

void mgr_sample(struct manager *m)
{
	uint64_t now = mgr_now_ns(CLOCK_MONOTONIC);
	struct memcgd_levels lv = {};
	uint32_t gen = policy_maps_active_gen(&m->pm);

	check_slice_of(m, now);
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use)
			sample_cpu(m, gen, k, now);
	policy_maps_expire_cpu_levels(&m->pm, gen, now);
	policy_maps_read_levels(&m->pm, gen, &lv);
	policy_maps_merge_cpu_levels(&m->pm, gen, &lv);
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		bool was_active = rt->active;

		if (!rt->in_use)
			continue;
		if (policy_maps_read_state(&m->pm, k, &rt->st) < 0)
			continue;
		if (rt->last_sample_ns && now > rt->last_sample_ns && rt->st.faults >= rt->last_faults)
			rt->rate = (double)(rt->st.faults - rt->last_faults) * 1e9 / (double)(now - rt->last_sample_ns);
		rt->last_faults = rt->st.faults;
		rt->last_sample_ns = now;
		rt->active = rt->st.active_until_ns > now || policy_maps_cpu_active_until(&m->pm, k) > now;
		if (!was_active && rt->active && rt->st.active_until_ns <= now)
			log_transition(LOG_INFO, "active", rt->conf.name, rt->conf.priority, (uint64_t)rt->cpu_percent,
				       "%s: active, using %.0f%% CPU (threshold %" PRIu64 "%%)%s%s", rt->conf.name,
				       rt->cpu_percent, rt->conf.settings.cpu_usage_percent,
				       rt->conf.settings.protect == PROTECT_NONE ? "" : m->dry_run ? ", would protect (" : ", protected (",
				       rt->conf.settings.protect == PROTECT_NONE ? "" : rt->conf.settings.protect == PROTECT_MIN ? "min)" : "low)");
		/* active time includes the running episode */
		if (rt->st.active_since_ns && rt->st.active_until_ns > rt->st.active_since_ns)
			rt->st.active_ns += (rt->active ? now : rt->st.active_until_ns) - rt->st.active_since_ns;
		if (was_active && !rt->active)
			log_transition(LOG_INFO, "inactive", rt->conf.name, rt->conf.priority, 0,
				       "%s: inactive (fault rate below %" PRIu64 "/s for the window and hold time)",
				       rt->conf.name, rt->conf.settings.fault_rate);
	}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		bool throttling, suspended = false;

		if (!rt->in_use)
			continue;
		throttling = rt->conf.settings.throttle_delay_usec && !rt->st.guard_tripped &&
			     policy_higher_level_active(&lv, rt->level, now) && rt->cgroup;
		if (throttling != rt->throttling) {
			const char *why = highest_active_above(m, rt->level);

			if (throttling)
				log_transition(LOG_INFO, m->dry_run ? "would-throttle" : "throttle", rt->conf.name,
					       rt->conf.priority, rt->conf.settings.throttle_delay_usec / 1000,
					       "%s: %sthrottled by %" PRIu64 "ms per charge because %s (higher priority) is active",
					       rt->conf.name, m->dry_run ? "would be " : "",
					       rt->conf.settings.throttle_delay_usec / 1000, why ? why : "a higher priority slice");
			else
				log_transition(LOG_INFO, "unthrottle", rt->conf.name, rt->conf.priority, 0,
					       "%s: no longer throttled", rt->conf.name);
		}
		rt->throttling = throttling;

		/* [Protect] MaxUsage=: no protection while the slice is above it */
		if (rt->conf.settings.protect_max_usage != SIZE_INFINITY && rt->cgroup) {
			_cleanup_free_ char *dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
			uint64_t cur;

			if (dir && cgroup_read_memory_value(dir, "memory.current", &cur) == 0)
				suspended = cur > rt->conf.settings.protect_max_usage;
		}
		if (suspended != rt->suspended) {
			policy_maps_set_protect_suspended(&m->pm, k, suspended);
			log_transition(LOG_NOTICE, suspended ? "protect-suspended" : "protect-resumed", rt->conf.name,
				       rt->conf.priority, rt->conf.settings.protect_max_usage,
				       suspended ? "%s: uses more than MaxUsage=, not protected until it shrinks"
						 : "%s: back under MaxUsage=, protected again while active", rt->conf.name);
			rt->suspended = suspended;
		}
	}
}

int mgr_on_ring_event(void *ctx, void *data, size_t size)
{
	struct manager *m = ctx;
	const struct memcgd_event *e = data;
	struct slice_rt *rt;
	char a[64];

	if (size < sizeof(*e) || e->slot >= MEMCGD_MAX_SLICES)
		return 0;
	rt = &m->rt[e->slot];
	if (!rt->in_use)
		return 0;
	switch (e->type) {
	case MEMCGD_EV_ACTIVATED:
		rt->active = true;
		log_transition(LOG_INFO, "active", rt->conf.name, rt->conf.priority, e->value,
			       "%s: active, %" PRIu64 " page faults within %s (threshold %" PRIu64 "/s)%s%s",
			       rt->conf.name, (uint64_t)e->value, format_duration(a, sizeof(a), rt->conf.settings.window_usec),
			       rt->conf.settings.fault_rate,
			       rt->conf.settings.protect == PROTECT_NONE ? "" : m->dry_run ? ", would protect (" : ", protected (",
			       rt->conf.settings.protect == PROTECT_NONE ? "" : rt->conf.settings.protect == PROTECT_MIN ? "min)" : "low)");
		break;
	case MEMCGD_EV_GUARD_TRIPPED:
		log_transition(LOG_WARNING, "guard-tripped", rt->conf.name, rt->conf.priority, e->value / 1000,
			       "%s: throttled continuously for %s, longer than MaxContinuous=; throttling stopped "
			       "until the higher-priority activity ends", rt->conf.name,
			       format_duration(a, sizeof(a), e->value / 1000 - e->value / 1000 % USEC_PER_MSEC));
		break;
	case MEMCGD_EV_GUARD_CLEARED:
		log_transition(LOG_NOTICE, "guard-cleared", rt->conf.name, rt->conf.priority, 0,
			       "%s: higher-priority activity ended, guard reset", rt->conf.name);
		break;
	}
	return 0;
}
