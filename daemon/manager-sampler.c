// SPDX-License-Identifier: GPL-2.0-only
/* The manager's sampler: fault rates, CPUUsage= activity, throttling and MaxUsage= state from
 * the BPF maps every update; ring buffer events to the journal. */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cgroup-files.h"
#include "log.h"
#include "manager-internal.h"
#include "util.h"
#include "policy.h"
#include "units-parse.h"

/* The slice of highest priority above level that is active (escalated: whose escalation delays
 * lower slices), NULL if none. */
static const char *highest_above(struct manager *m, uint32_t level, bool escalated)
{
	const char *name = NULL;
	uint32_t best = level;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && m->rt[k].level > best &&
		    (escalated ? m->rt[k].engine.escalation == ESCALATE_DELAY : m->rt[k].active)) {
			best = m->rt[k].level;
			name = m->rt[k].conf.name;
		}
	return name;
}

/* Page faults that make a slice busy in one update: PageFaultRate= over the update interval
 * (1 with the default PageFaultRate=1: any fault). */
static uint64_t busy_faults(const struct manager *m, const struct slice_settings *st)
{
	uint64_t n = st->fault_rate * m->interval_usec / USEC_PER_SEC;

	return n ? n : 1;
}

/* What one slice did in the last update: its CPU time ([Activity] CPUUsage=), page faults (the
 * BPF counts), memory.current, refaults and memory PSI. Sets rt->busy and fills in. */
static void measure(struct manager *m, uint32_t slot, uint64_t now, struct engine_sample *in)
{
	struct slice_rt *rt = &m->rt[slot];
	const struct slice_settings *st = &rt->conf.settings;
	_cleanup_free_ char *dir = NULL;
	static const char *const low_key[] = { "low" };
	uint64_t usage, faults = 0, refaults, low_events, page = (uint64_t)sysconf(_SC_PAGESIZE);
	double secs;

	*in = (struct engine_sample){ .now_usec = now / 1000, .psi_some_avg10 = -1 };
	if (policy_maps_read_state(&m->pm, slot, &rt->st) == 0) {
		if (rt->last_sample_ns && now > rt->last_sample_ns && rt->st.faults >= rt->last_faults) {
			faults = rt->st.faults - rt->last_faults;
			rt->rate = (double)faults * 1e9 / (double)(now - rt->last_sample_ns);
		}
		secs = rt->last_sample_ns && now > rt->last_sample_ns ? (double)(now - rt->last_sample_ns) / 1e9 : 0;
		rt->last_faults = rt->st.faults;
		rt->last_sample_ns = now;
	} else {
		secs = 0;
	}
	in->faults = faults >= busy_faults(m, st) ? faults : 0;
	if (rt->cgroup)
		dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
	if (!dir) {
		rt->last_cpu_ns = 0;
		rt->cpu_percent = -1;
		rt->busy = false;
		return;
	}
	/* CPUUsage=: a slice busy on memory it already has takes no page faults; its CPU time
	 * shows the work */
	if (st->cpu_usage_percent && cgroup_read_cpu_usage_usec(dir, &usage) == 0) {
		if (rt->last_cpu_ns && now > rt->last_cpu_ns && usage >= rt->last_cpu_usec) {
			rt->cpu_percent = (double)(usage - rt->last_cpu_usec) * 1e5 / (double)(now - rt->last_cpu_ns);
			in->cpu_busy = st->cpu_usage_percent == CPU_USAGE_ANY ? usage > rt->last_cpu_usec
									 : rt->cpu_percent >= (double)st->cpu_usage_percent;
		}
		rt->last_cpu_usec = usage;
		rt->last_cpu_ns = now;
	} else {
		rt->last_cpu_ns = 0;
		rt->cpu_percent = -1;
	}
	if (cgroup_read_memory_value(dir, "memory.current", &usage) == 0)
		rt->usage = usage;
	in->usage = rt->usage;
	if (cgroup_read_refaults(dir, &refaults) == 0) {
		if (rt->have_refaults && refaults >= rt->last_refaults)
			in->refault_bytes = (refaults - rt->last_refaults) * page;
		rt->refault_rate = secs > 0 ? (double)in->refault_bytes / secs : 0;
		rt->last_refaults = refaults;
		rt->have_refaults = true;
	}
	if (cgroup_read_stat(dir, "memory.events", low_key, 1, &low_events) == 0) {
		if (rt->have_low_events && low_events >= rt->last_low_events)
			in->low_breaches = low_events - rt->last_low_events;
		rt->last_low_events = low_events;
		rt->have_low_events = true;
	}
	if (cgroup_read_psi_some_avg10(dir, "memory.pressure", &rt->psi_some_avg10) < 0)
		rt->psi_some_avg10 = -1;
	in->psi_some_avg10 = rt->psi_some_avg10;
	rt->busy = in->cpu_busy || in->faults;
}

static void log_engine_change(struct manager *m, struct slice_rt *rt, enum engine_state old_state,
			      enum engine_escalation old_escalation)
{
	const struct engine_slice *e = &rt->engine;
	bool protects = e->state != ENGINE_IDLE && rt->conf.settings.protect != PROTECT_NONE;
	char size[32], hold[32], text[160];

	snprintf(text, sizeof(text), "%s%s%s%s", protects ? (m->dry_run ? ", would protect " : ", protects ") : "",
		 !protects ? "" : rt->conf.settings.protect_size == PROTECT_SIZE_ALL || !m->pm.sized ? "all of it"
		 : format_size(size, sizeof(size), e->footprint),
		 e->state == ENGINE_IDLE ? "" : ", hold ",
		 e->state == ENGINE_IDLE ? "" : format_duration(hold, sizeof(hold), e->hold_usec));
	if (e->state != old_state) {
		/* one journal event per state (catalog/memcgd.catalog) */
		switch (e->state) {
		case ENGINE_BUSY:
			log_transition(LOG_INFO, "busy", rt->conf.name, rt->conf.priority, e->footprint,
				       "%s: busy (%s)%s", rt->conf.name, e->why, text);
			break;
		case ENGINE_HOLDING:
			log_transition(LOG_INFO, "holding", rt->conf.name, rt->conf.priority, e->hold_usec,
				       "%s: holding (%s)%s", rt->conf.name, e->why, text);
			break;
		case ENGINE_IDLE:
			log_transition(LOG_INFO, "idle", rt->conf.name, rt->conf.priority, rt->conf.settings.protect_wake_reserve,
				       "%s: idle (%s)", rt->conf.name, e->why);
			break;
		}
	}
	if (e->escalation != old_escalation) {
		switch (e->escalation) {
		case ESCALATE_NONE:
			log_transition(LOG_INFO, "calm", rt->conf.name, rt->conf.priority, 0, "%s: %s", rt->conf.name, e->why);
			break;
		case ESCALATE_RECLAIM:
			log_transition(LOG_INFO, "escalate-reclaim", rt->conf.name, rt->conf.priority, e->footprint,
				       "%s: %s", rt->conf.name, e->why);
			break;
		case ESCALATE_DELAY:
			log_transition(LOG_NOTICE, "escalate-delay", rt->conf.name, rt->conf.priority, e->footprint,
				       "%s: %s%s", rt->conf.name, m->dry_run ? "(dry run) " : "", e->why);
			break;
		}
	}
}

/* The policy engine's update for every slice, and what it publishes to the BPF side: activity
 * (through the learned hold), protection sizes, escalated levels. */
static void run_engine(struct manager *m, uint32_t gen, uint64_t now)
{
	struct engine_sample in[MEMCGD_MAX_SLICES];
	bool escalated[MEMCGD_MAX_LEVELS] = {};
	/* the headroom background reclaim keeps (policy_reclaim_order()), below which escalation
	 * may delay; the default Headroom= when nothing is reclaimed in the background */
	uint64_t headroom = m->reclaim_headroom ? m->reclaim_headroom : RECLAIM_HEADROOM_DEFAULT;
	uint32_t lowest_busy = UINT32_MAX;

	/* read once per update, also for background reclaim (mgr_reclaim_tick()) */
	m->free_bytes = mgr_free_memory();
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use) {
			measure(m, k, now, &in[k]);
			if (m->rt[k].busy && m->rt[k].level < lowest_busy)
				lowest_busy = m->rt[k].level;
		}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		const struct slice_settings *st = &rt->conf.settings;
		struct engine_params p = {
			.tick_usec = m->interval_usec,
			.hold_usec = st->hold_usec,
			.max_hold_usec = st->max_hold_usec,
			.max_usage = st->protect_max_usage,
			.headroom = headroom,
		};
		enum engine_state old_state = rt->engine.state;
		enum engine_escalation old_escalation = rt->engine.escalation;
		uint64_t hold;

		if (!rt->in_use)
			continue;
		in[k].free_bytes = m->free_bytes;
		/* a slice of lower priority was busy */
		in[k].contended = lowest_busy < rt->level;
		if (engine_tick(&rt->engine, &p, &in[k]))
			log_engine_change(m, rt, old_state, old_escalation);
		/* busy within the hold: active for the hooks until the hold ends (the daemon sees the
		 * slice again only at its next update, so at least two of them) */
		hold = rt->engine.hold_usec > 2 * m->interval_usec ? rt->engine.hold_usec : 2 * m->interval_usec;
		if (rt->engine.state != ENGINE_IDLE && rt->engine.have_busy)
			policy_maps_mark_cpu_active(&m->pm, gen, k, rt->level, (rt->engine.last_busy_usec + hold) * 1000);
		policy_maps_set_protection(&m->pm, k, engine_protection(&rt->engine), st->protect_wake_reserve);
		if (rt->engine.escalation == ESCALATE_DELAY && rt->level < MEMCGD_MAX_LEVELS)
			escalated[rt->level] = true;
	}
	for (uint32_t l = 0; l < MEMCGD_MAX_LEVELS; l++)
		policy_maps_set_pressure(&m->pm, gen, l, escalated[l] ? now + 2 * m->interval_usec * 1000 : 0);
	/* the room the protected slices need to regrow to their footprints, above the watermarks:
	 * background reclaim keeps that much free (the effect of memory.high on the lower slices) */
	if (!m->watermark_bytes || ++m->watermark_tick >= 60) {
		m->watermark_bytes = mgr_watermark_bytes();
		m->watermark_tick = 0;
	}
	m->reclaim_room = m->watermark_bytes;
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && m->rt[k].conf.settings.protect != PROTECT_NONE)
			m->reclaim_room += engine_room(&m->rt[k].engine, m->rt[k].usage);
}

void mgr_engine_reset(struct manager *m, uint32_t slot)
{
	struct slice_rt *rt = &m->rt[slot];

	engine_slice_init(&rt->engine);
	rt->busy = false;
	rt->have_refaults = false;
	rt->psi_some_avg10 = -1;
	rt->usage = 0;
	rt->refault_rate = 0;
	rt->last_sample_ns = 0;
	if (slot < MEMCGD_MAX_SLICES)
		policy_maps_set_protection(&m->pm, slot, 0, 0);
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
	run_engine(m, gen, now);
	policy_maps_expire_cpu_levels(&m->pm, gen, now);
	policy_maps_read_levels(&m->pm, gen, &lv);
	policy_maps_merge_cpu_levels(&m->pm, gen, &lv);
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];

		if (!rt->in_use)
			continue;
		/* the state was read by measure() */
		rt->active = rt->st.active_until_ns > now || policy_maps_cpu_active_until(&m->pm, k) > now;
		/* active time includes the running episode */
		if (rt->st.active_since_ns && rt->st.active_until_ns > rt->st.active_since_ns)
			rt->st.active_ns += (rt->active ? now : rt->st.active_until_ns) - rt->st.active_since_ns;
	}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		bool throttling, on_pressure, suspended = false;

		if (!rt->in_use)
			continue;
		on_pressure = rt->conf.settings.throttle_when == THROTTLE_WHEN_PRESSURE;
		throttling = rt->conf.settings.throttle_delay_usec && !rt->st.guard_tripped && rt->cgroup &&
			     (on_pressure ? highest_above(m, rt->level, true) != NULL
					  : policy_higher_level_active(&lv, rt->level, now));
		if (throttling != rt->throttling) {
			const char *why = highest_above(m, rt->level, on_pressure);

			if (throttling)
				log_transition(LOG_INFO, m->dry_run ? "would-throttle" : "throttle", rt->conf.name,
					       rt->conf.priority, rt->conf.settings.throttle_delay_usec / 1000,
					       "%s: %sthrottled by %" PRIu64 "ms per charge because %s (higher priority) is %s",
					       rt->conf.name, m->dry_run ? "would be " : "",
					       rt->conf.settings.throttle_delay_usec / 1000, why ? why : "a higher priority slice",
					       on_pressure ? "under pressure that background reclaim does not relieve" : "active");
			else
				log_transition(LOG_INFO, "unthrottle", rt->conf.name, rt->conf.priority, 0,
					       "%s: no longer throttled", rt->conf.name);
		}
		rt->throttling = throttling;

		/* [Protect] MaxUsage= with Size=all: no protection while the slice is above it (a sized
		 * protection is capped at MaxUsage= instead) */
		if (rt->conf.settings.protect_max_usage != SIZE_INFINITY && rt->cgroup &&
		    (rt->conf.settings.protect_size == PROTECT_SIZE_ALL || !m->pm.sized)) {
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
