// SPDX-License-Identifier: GPL-2.0-only
/* What the manager tells the world: the state file for memcgctl, STATUS= for systemd, and
 * configuration diagnostics in the journal. */
#include <string.h>
#include <systemd/sd-daemon.h>

#include "log.h"
#include "manager-internal.h"
#include "util.h"
#include "state.h"
#include "units-parse.h"

void mgr_log_diagnostics(const struct diag_list *d, char *first, size_t len)
{
	char buf[1024];

	for (size_t i = 0; i < d->n; i++) {
		diag_format(&d->items[i], buf, sizeof(buf));
		log_error("%s", buf);
		if (i == 0)
			snprintf(first, len, "%.400s%s", buf, d->n > 1 ? " (and more, see the journal)" : "");
	}
}

void mgr_warn_numa_unsupported(struct manager *m)
{
	const struct daemon_conf *dc = &m->config.daemon;

	/* a dry run attaches nothing, so it applies no Balancing= either */
	if (m->pm.numa || m->dry_run)
		return;
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		const struct slice_conf *s = &m->rt[k].conf;
		const char *file;
		unsigned line;

		if (!m->rt[k].in_use || s->settings.numa == NUMA_BALANCING_DEFAULT)
			continue;
		/* the line that set it: the slice file's, or memcgd.conf's default */
		file = s->numa_lines.balancing ? s->file : dc->file ? dc->file : "memcgd.conf";
		line = s->numa_lines.balancing ? s->numa_lines.balancing : dc->numa_lines.balancing;
		log_transition(LOG_WARNING, "numa-unsupported", s->name, s->priority, 0,
			       "%s:%u: %s: [NUMA] Balancing= needs memcg_bpf_ops::numa_balancing, which kernel %s lacks: "
			       "the slice follows kernel.numa_balancing", file, line, s->name, m->ks.release);
	}
}

void mgr_notify_status(struct manager *m)
{
	unsigned attached = 0, active = 0, total = 0;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		if (!m->rt[k].in_use)
			continue;
		total++;
		attached += m->rt[k].attach == ATTACH_ATTACHED || m->rt[k].attach == ATTACH_DRY_RUN;
		active += m->rt[k].active;
	}
	sd_notifyf(0, "STATUS=%s%u of %u slices %s, %u active%s", m->dry_run ? "dry run: " : "", attached, total,
		   m->dry_run ? "measured" : "attached", active, m->reload_error[0] ? "; last reload failed" : "");
}

/* A slice at a priority level (the one background reclaim gave way to), "" if none. */
static const char *slice_at_level(const struct manager *m, uint32_t level)
{
	const char *any = "";

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && m->rt[k].level == level) {
			if (m->rt[k].active)
				return m->rt[k].conf.name;
			any = m->rt[k].conf.name;
		}
	return any;
}

void mgr_write_state(struct manager *m)
{
	struct daemon_status s = {};
	struct slice_status sl[MEMCGD_MAX_SLICES];
	uint64_t now_ns = mgr_now_ns(CLOCK_MONOTONIC);
	size_t n = 0;
	int r;

	s.pid = getpid();
	s.state = (char *)m->state;
	s.mode = (char *)(m->dry_run ? "dry-run" : "enforce");
	s.started_usec = m->started_usec;
	s.updated_usec = mgr_now_ns(CLOCK_REALTIME) / 1000;
	s.update_interval_usec = m->interval_usec;
	s.config_generation = m->generation;
	s.reloads = m->reloads;
	s.reload_error = m->reload_error;
	s.kernel_release = m->ks.release;
	s.kernel_supported = m->ks.error[0] == '\0';
	s.hooks = m->ks.hook_names;
	s.libbpf = (char *)libbpf_version_string();
	s.events_dropped = policy_maps_events_dropped(&m->pm);
	s.exempt_skips = policy_maps_exempt_skips(&m->pm);
	s.max_cgroups = m->pm.max_cgroups;
	s.unmapped_cgroups = policy_maps_unmapped(&m->pm);
	s.reclaim_path = (char *)mgr_reclaim_path_name(m);
	s.reclaim_note = m->reclaim_n ? m->reclaim_note : (char *)"no slice has [Reclaim] Background=yes";
	s.free_bytes = m->reclaim_n ? m->free_bytes : 0;
	s.reclaim_room = m->reclaim_n ? m->reclaim_room : 0;
	s.numa_hook = m->ks.hooks & HOOK_NUMA_BALANCING;
	s.numa_loaded = m->pm.numa;
	{
		size_t len = 0;

		for (size_t i = 0; i < m->exempt.n; i++)
			len += strlen(m->exempt.paths[i]) + 1;
		s.exempt = calloc(1, len + 1);
		for (size_t i = 0; s.exempt && i < m->exempt.n; i++) {
			if (i)
				strcat(s.exempt, " ");
			strcat(s.exempt, m->exempt.paths[i]);
		}
	}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		const struct slice_settings *st = &rt->conf.settings;

		if (!rt->in_use)
			continue;
		sl[n] = (struct slice_status){
			.name = rt->conf.name,
			.priority = rt->conf.priority,
			.level = rt->level,
			.slot = (int)k,
			.file = rt->conf.file,
			.cgroup = rt->cgroup ? rt->cgroup : (char *)"",
			.cgroup_id = rt->cgroup_id,
			.attach = (char *)attach_state_to_string(rt->attach),
			.reason = rt->reason,
			.protect = (char *)protect_mode_to_string(st->protect),
			.fault_rate_threshold = st->fault_rate,
			.cpu_usage_threshold = st->cpu_usage_percent,
			.window_usec = st->window_usec,
			.hold_usec = st->hold_usec,
			.delay_ms = st->throttle_delay_usec / 1000,
			.max_continuous_usec = st->throttle_max_usec == USEC_INFINITY ? UINT64_MAX : st->throttle_max_usec,
			.max_usage = st->protect_max_usage,
			.fault_rate = rt->rate,
			.cpu_percent = rt->cpu_percent,
			.active = rt->active,
			.throttling = rt->throttling,
			.guard_tripped = rt->st.guard_tripped,
			.protect_suspended = rt->suspended,
			.faults = rt->st.faults,
			.activations = rt->st.activations,
			.active_usec = rt->st.active_ns / 1000,
			.protect_decisions = rt->st.protect_decisions,
			.throttle_decisions = rt->st.throttle_decisions,
			.throttle_ms = rt->st.throttle_ms,
			.guard_trips = rt->st.guard_trips,
			.ceiling_refusals = rt->st.ceiling_refusals,
			.protect_size = (char *)protect_size_to_string(m->pm.sized ? st->protect_size : PROTECT_SIZE_ALL),
			.throttle_when = (char *)throttle_when_to_string(st->throttle_when),
			.max_hold_usec = st->max_hold_usec,
			.wake_reserve = st->protect_wake_reserve,
			.state = (char *)engine_state_name(rt->engine.state),
			.escalation = (char *)engine_escalation_name(rt->engine.escalation),
			.why = (char *)rt->engine.why,
			.hold_learned_usec = rt->engine.hold_usec,
			.protect_bytes = engine_protection(&rt->engine),
			.usage = rt->usage,
			.refault_rate = rt->refault_rate,
			.psi_some = rt->psi_some_avg10,
			.episodes = rt->engine.episodes,
			.sized_decisions = rt->st.sized_decisions,
			.background = st->reclaim_background,
			.headroom = st->reclaim_headroom,
			.reclaim_rate = st->reclaim_rate,
			.reclaimed = rt->reclaim.bytes,
			.reclaim_passes = rt->reclaim.passes,
			.reclaim_errors = rt->reclaim.errors,
			.reclaim_last_error = rt->reclaim.last_error,
			.reclaim_ago_usec = rt->reclaim.last_ns && now_ns > rt->reclaim.last_ns
						    ? (now_ns - rt->reclaim.last_ns) / 1000 : UINT64_MAX,
			.reclaim_last_free = rt->reclaim.last_free,
			.reclaim_because = (char *)(rt->reclaim.last_ns ? slice_at_level(m, rt->reclaim.last_level) : ""),
			.numa = (char *)numa_balancing_to_string(st->numa),
			.numa_scan_period_min_usec = st->numa_scan_period_min_usec,
			.numa_scan_period_max_usec = st->numa_scan_period_max_usec,
			.numa_scan_size = st->numa_scan_size,
			.numa_hot_threshold_usec = st->numa_hot_threshold_usec,
			.numa_on_decisions = rt->st.numa_on_decisions,
			.numa_off_decisions = rt->st.numa_off_decisions,
		};
		n++;
	}
	s.slices = sl;
	s.n_slices = n;
	s.n_skipped = m->skipped.n < 64 ? m->skipped.n : 64;
	s.skipped = s.n_skipped ? calloc(s.n_skipped, sizeof(*s.skipped)) : NULL;
	if (!s.skipped)
		s.n_skipped = 0;
	for (size_t i = 0; i < s.n_skipped; i++)
		s.skipped[i] = (struct config_problem){
			.file = m->skipped.items[i].file,
			.line = m->skipped.items[i].line,
			.message = m->skipped.items[i].message,
		};
	r = state_write_file(m->opt.state_file, &s);
	free(s.skipped);
	free(s.exempt);
	if (r < 0)
		log_warning("cannot write %s: %s", m->opt.state_file, strerror(-r));
}
