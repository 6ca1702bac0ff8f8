// SPDX-License-Identifier: GPL-2.0-only
/* memcgctl status --format=openmetrics|prometheus. Every family is written whole (its TYPE line,
 * then one sample per slice), the order the OpenMetrics and Prometheus parsers require. Names
 * follow Prometheus' conventions: base units (seconds, bytes), counters end in _total. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "config.h"
#include "status-openmetrics.h"
#include "status-render.h"
#include "util.h"

enum kind { GAUGE, COUNTER, INFO, STATESET };

struct out {
	FILE *f;
	enum metrics_dialect dialect;
};

/* a label value: backslash, double quote and newline escaped (both formats) */
static void put_label_value(FILE *f, const char *v)
{
	for (const char *p = v ? v : ""; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', f);
		if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
}

static const char *suffix_of(enum kind kind)
{
	return kind == COUNTER ? "_total" : kind == INFO ? "_info" : "";
}

/* The family's metadata. name is the family's name in OpenMetrics (a counter without _total, an
 * info without _info); unit, if any, is its name's last word. */
static void family(const struct out *o, const char *name, enum kind kind, const char *unit, const char *help)
{
	static const char *const om_type[] = { [GAUGE] = "gauge", [COUNTER] = "counter", [INFO] = "info",
					       [STATESET] = "stateset" };
	const char *suffix;

	if (o->dialect == METRICS_OPENMETRICS) {
		fprintf(o->f, "# TYPE %s %s\n", name, om_type[kind]);
		if (unit)
			fprintf(o->f, "# UNIT %s %s\n", name, unit);
		fprintf(o->f, "# HELP %s %s\n", name, help);
		return;
	}
	/* Prometheus 0.0.4 names the samples' metric and knows neither info nor stateset */
	suffix = suffix_of(kind);
	fprintf(o->f, "# HELP %s%s %s\n", name, suffix, help);
	fprintf(o->f, "# TYPE %s%s %s\n", name, suffix, kind == COUNTER ? "counter" : "gauge");
}

/* The start of a sample with labels: its name and suffix (_total, _info or none), "{" */
static void sample_start(const struct out *o, const char *name, enum kind kind)
{
	fprintf(o->f, "%s%s{", name, suffix_of(kind));
}

static void label(const struct out *o, bool first, const char *key, const char *value)
{
	fprintf(o->f, "%s%s=\"", first ? "" : ",", key);
	put_label_value(o->f, value);
	fputc('"', o->f);
}

static void put_double(FILE *f, double v)
{
	if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (isnan(v))
		fputs("NaN", f);
	else
		fprintf(f, "%.15g", v);
}

/* the end of a sample with labels */
static void value_double(const struct out *o, double v)
{
	fputs("} ", o->f);
	put_double(o->f, v);
	fputc('\n', o->f);
}

static void value_u64(const struct out *o, uint64_t v)
{
	fprintf(o->f, "} %" PRIu64 "\n", v);
}

/* A whole sample without labels. */
static void plain(const struct out *o, const char *name, enum kind kind, double v)
{
	fprintf(o->f, "%s%s ", name, suffix_of(kind));
	put_double(o->f, v);
	fputc('\n', o->f);
}

static bool selected(const struct slice_status *sl, const char *slice)
{
	return !slice || (sl->name && streq(sl->name, slice));
}

/* ---- per slice: the numbers of struct slice_status, by offset ---- */

#define MAX_IS_INF 1u    /* UINT64_MAX: +Inf (no limit) */
#define NEEDS_MEMORY 2u  /* only when memcgctl read the cgroup's memory.* files */
#define NEEDS_ENGINE 4u  /* only for slices the policy engine reports on (memcgd.d(5)) */

struct u64_metric {
	const char *name;
	enum kind kind;
	const char *unit;
	size_t offset;
	double scale;
	unsigned flags;
	const char *help;
};

#define SL(field) offsetof(struct slice_status, field)

static const struct u64_metric slice_u64[] = {
	{ "memcgd_slice_faults", COUNTER, NULL, SL(faults), 1, 0, "Page faults counted for the slice" },
	{ "memcgd_slice_activations", COUNTER, NULL, SL(activations), 1, 0, "Times the slice became active" },
	{ "memcgd_slice_active_seconds", COUNTER, "seconds", SL(active_usec), 1e-6, 0, "Time the slice was active" },
	{ "memcgd_slice_protect_decisions", COUNTER, NULL, SL(protect_decisions), 1, 0,
	  "below_min or below_low answers that protected the slice" },
	{ "memcgd_slice_throttle_decisions", COUNTER, NULL, SL(throttle_decisions), 1, 0,
	  "get_high_delay_ms answers that delayed a task of the slice" },
	{ "memcgd_slice_throttle_requested_seconds", COUNTER, "seconds", SL(throttle_ms), 1e-3, 0,
	  "Delay requested for the slice's tasks by get_high_delay_ms" },
	{ "memcgd_slice_guard_trips", COUNTER, NULL, SL(guard_trips), 1, 0,
	  "Times the slice was throttled longer than MaxContinuous=" },
	{ "memcgd_slice_ceiling_refusals", COUNTER, NULL, SL(ceiling_refusals), 1, 0,
	  "Protections refused because the slice was above MaxUsage=" },
	{ "memcgd_slice_reclaimed_bytes", COUNTER, "bytes", SL(reclaimed), 1, 0,
	  "Memory taken from the slice by background reclaim" },
	{ "memcgd_slice_reclaim_passes", COUNTER, NULL, SL(reclaim_passes), 1, 0,
	  "Background reclaim passes that took memory from the slice" },
	{ "memcgd_slice_reclaim_errors", COUNTER, NULL, SL(reclaim_errors), 1, 0,
	  "Background reclaim attempts on the slice that failed" },
	{ "memcgd_slice_policy_page_fault_rate", GAUGE, NULL, SL(fault_rate_threshold), 1, 0,
	  "PageFaultRate= of the slice: active above this many faults per second" },
	{ "memcgd_slice_policy_cpu_usage_percent", GAUGE, NULL, SL(cpu_usage_threshold), 1, 0,
	  "CPUUsage= of the slice in percent of one CPU, 0 when not measured" },
	{ "memcgd_slice_policy_throttle_delay_seconds", GAUGE, "seconds", SL(delay_ms), 1e-3, 0,
	  "Delay= of the slice: per charge while a higher priority is active" },
	{ "memcgd_slice_policy_max_usage_bytes", GAUGE, "bytes", SL(max_usage), 1, MAX_IS_INF,
	  "MaxUsage= of the slice: not protected above it" },
	{ "memcgd_slice_protect_bytes", GAUGE, "bytes", SL(protect_bytes), 1, NEEDS_ENGINE,
	  "Protection the hooks give the slice now: its footprint while busy or holding, WakeReserve= while idle" },
	{ "memcgd_slice_hold_seconds", GAUGE, "seconds", SL(hold_learned_usec), 1e-6, NEEDS_ENGINE,
	  "Quiet time the slice stays protected through (learned with Hold=auto)" },
	{ "memcgd_slice_busy_episodes", COUNTER, NULL, SL(episodes), 1, NEEDS_ENGINE,
	  "Times the slice went from idle to busy" },
	{ "memcgd_slice_sized_decisions", COUNTER, NULL, SL(sized_decisions), 1, NEEDS_ENGINE,
	  "get_low/get_min answers that protected part of the slice" },
	{ "memcgd_slice_memory_current_bytes", GAUGE, "bytes", SL(memory_current), 1, NEEDS_MEMORY,
	  "memory.current of the slice cgroup" },
	{ "memcgd_slice_memory_min_bytes", GAUGE, "bytes", SL(memory_min), 1, NEEDS_MEMORY | MAX_IS_INF,
	  "memory.min of the slice cgroup" },
	{ "memcgd_slice_memory_low_bytes", GAUGE, "bytes", SL(memory_low), 1, NEEDS_MEMORY | MAX_IS_INF,
	  "memory.low of the slice cgroup" },
	{ "memcgd_slice_memory_high_bytes", GAUGE, "bytes", SL(memory_high), 1, NEEDS_MEMORY | MAX_IS_INF,
	  "memory.high of the slice cgroup" },
};

static bool any_memory(const struct daemon_status *s, const char *slice)
{
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice) && s->slices[i].have_memory)
			return true;
	return false;
}

static bool has_engine(const struct slice_status *sl)
{
	return sl->state && sl->state[0];
}

static bool any_engine(const struct daemon_status *s, const char *slice)
{
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice) && has_engine(&s->slices[i]))
			return true;
	return false;
}

static void slice_u64_family(const struct out *o, const struct daemon_status *s, const char *slice,
			     const struct u64_metric *m)
{
	if ((m->flags & NEEDS_MEMORY) && !any_memory(s, slice))
		return;
	if ((m->flags & NEEDS_ENGINE) && !any_engine(s, slice))
		return;
	family(o, m->name, m->kind, m->unit, m->help);
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];
		uint64_t v;

		if (!selected(sl, slice) || ((m->flags & NEEDS_MEMORY) && !sl->have_memory) ||
		    ((m->flags & NEEDS_ENGINE) && !has_engine(sl)))
			continue;
		memcpy(&v, (const char *)sl + m->offset, sizeof(v));
		sample_start(o, m->name, m->kind);
		label(o, true, "slice", sl->name);
		if (v == UINT64_MAX && (m->flags & MAX_IS_INF))
			value_double(o, INFINITY);
		else if (m->scale == 1)
			value_u64(o, v);
		else
			value_double(o, (double)v * m->scale);
	}
}

/* A state set: one sample per state, 1 for the slice's. A state outside the list (a newer memcgd)
 * gets a sample of its own. Slices whose state_of() is NULL have none; no family without samples. */
static void slice_stateset(const struct out *o, const struct daemon_status *s, const char *slice, const char *name,
			   const char *help, const char *const *states, size_t n_states,
			   const char *(*state_of)(const struct slice_status *))
{
	bool any = false;

	for (size_t i = 0; i < s->n_slices; i++)
		any = any || (selected(&s->slices[i], slice) && state_of(&s->slices[i]));
	if (!any)
		return;
	family(o, name, STATESET, NULL, help);
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];
		const char *state = state_of(sl);
		bool known = false;

		if (!selected(sl, slice) || !state)
			continue;
		for (size_t k = 0; k < n_states; k++) {
			known = known || streq(states[k], state);
			sample_start(o, name, STATESET);
			label(o, true, "slice", sl->name);
			label(o, false, name, states[k]);
			value_u64(o, streq(states[k], state));
		}
		if (!known) {
			sample_start(o, name, STATESET);
			label(o, true, "slice", sl->name);
			label(o, false, name, state);
			value_u64(o, 1);
		}
	}
}

static const char *attach_of(const struct slice_status *sl)
{
	return sl->attach && sl->attach[0] ? sl->attach : "unknown";
}

static const char *action_of(const struct slice_status *sl)
{
	const char *a = slice_action(sl);

	return streq(a, "-") ? "none" : a;
}

static const char *engine_state_of(const struct slice_status *sl)
{
	return has_engine(sl) ? sl->state : NULL;
}

static const char *escalation_of(const struct slice_status *sl)
{
	return has_engine(sl) ? (sl->escalation && sl->escalation[0] ? sl->escalation : "none") : NULL;
}

/* The policy engine's doubles: refaults and memory pressure, for the slices it reports on. */
static void render_engine_doubles(const struct out *o, const struct daemon_status *s, const char *slice)
{
	bool psi = false;

	if (!any_engine(s, slice))
		return;
	family(o, "memcgd_slice_refault_rate", GAUGE, NULL,
	       "Refaults per second of the slice over the last update (workingset_refault)");
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice) && has_engine(&s->slices[i])) {
			sample_start(o, "memcgd_slice_refault_rate", GAUGE);
			label(o, true, "slice", s->slices[i].name);
			value_double(o, s->slices[i].refault_rate);
		}
	for (size_t i = 0; i < s->n_slices; i++)
		psi = psi || (selected(&s->slices[i], slice) && has_engine(&s->slices[i]) && s->slices[i].psi_some >= 0);
	if (!psi)
		return;
	family(o, "memcgd_slice_memory_pressure_some_ratio", GAUGE, NULL,
	       "memory.pressure of the slice: share of time some task stalled on memory (avg10)");
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];

		if (!selected(sl, slice) || !has_engine(sl) || sl->psi_some < 0)
			continue;
		sample_start(o, "memcgd_slice_memory_pressure_some_ratio", GAUGE);
		label(o, true, "slice", sl->name);
		value_double(o, sl->psi_some / 100.0);
	}
}

static void render_slices(const struct out *o, const struct daemon_status *s, const char *slice)
{
	static const char *const attach_states[] = { "attached", "dry-run", "not-running", "failed", "removed" };
	static const char *const actions[] = { "none", "protect-min", "protect-low", "throttle", "guard-stopped",
					       "over-maxusage", "escalate-delay" };
	static const char *const engine_states[] = { "idle", "busy", "holding" };
	static const char *const escalations[] = { "none", "reclaim", "delay" };
	bool cpu = false, any = false;

	for (size_t i = 0; i < s->n_slices; i++)
		any = any || selected(&s->slices[i], slice);
	if (!any)
		return; /* no family without samples: node_exporter's parser would not take one */
	family(o, "memcgd_slice", INFO, NULL, "A slice memcgd manages: its configuration file, cgroup and protection mode");
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];

		if (!selected(sl, slice))
			continue;
		sample_start(o, "memcgd_slice", INFO);
		label(o, true, "slice", sl->name);
		label(o, false, "config_file", sl->file);
		label(o, false, "cgroup", sl->cgroup);
		label(o, false, "protect", sl->protect);
		value_u64(o, 1);
	}
	family(o, "memcgd_slice_priority", GAUGE, NULL, "Priority= of the slice, higher wins");
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice)) {
			sample_start(o, "memcgd_slice_priority", GAUGE);
			label(o, true, "slice", s->slices[i].name);
			fprintf(o->f, "} %ld\n", s->slices[i].priority);
		}
	slice_stateset(o, s, slice, "memcgd_slice_attach_state", "Whether memcgd's BPF link is on the slice cgroup",
		       attach_states, ARRAY_SIZE(attach_states), attach_of);
	family(o, "memcgd_slice_active", GAUGE, NULL, "1 while the slice is active (faulting or busy on the CPU)");
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice)) {
			sample_start(o, "memcgd_slice_active", GAUGE);
			label(o, true, "slice", s->slices[i].name);
			value_u64(o, s->slices[i].active);
		}
	slice_stateset(o, s, slice, "memcgd_slice_action", "What memcgd does to the slice now", actions,
		       ARRAY_SIZE(actions), action_of);
	slice_stateset(o, s, slice, "memcgd_slice_engine_state",
		       "The policy engine's state of the slice: busy, holding through a quiet spell, or idle",
		       engine_states, ARRAY_SIZE(engine_states), engine_state_of);
	slice_stateset(o, s, slice, "memcgd_slice_escalation",
		       "How far the slice's pressure escalated: none, background reclaim of lower slices, delay",
		       escalations, ARRAY_SIZE(escalations), escalation_of);
	render_engine_doubles(o, s, slice);
	family(o, "memcgd_slice_fault_rate", GAUGE, NULL, "Page faults per second over the last update interval");
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice)) {
			sample_start(o, "memcgd_slice_fault_rate", GAUGE);
			label(o, true, "slice", s->slices[i].name);
			value_double(o, s->slices[i].fault_rate);
		}
	for (size_t i = 0; i < s->n_slices; i++)
		cpu = cpu || (selected(&s->slices[i], slice) && s->slices[i].cpu_usage_threshold &&
			      s->slices[i].cpu_percent >= 0);
	if (cpu) {
		family(o, "memcgd_slice_cpu_percent", GAUGE, NULL,
		       "CPU use in percent of one CPU over the last update interval (slices with CPUUsage=)");
		for (size_t i = 0; i < s->n_slices; i++) {
			const struct slice_status *sl = &s->slices[i];

			if (!selected(sl, slice) || !sl->cpu_usage_threshold || sl->cpu_percent < 0)
				continue;
			sample_start(o, "memcgd_slice_cpu_percent", GAUGE);
			label(o, true, "slice", sl->name);
			value_double(o, sl->cpu_percent);
		}
	}
	for (size_t k = 0; k < ARRAY_SIZE(slice_u64); k++)
		slice_u64_family(o, s, slice, &slice_u64[k]);
	family(o, "memcgd_slice_numa_decisions", COUNTER, NULL,
	       "numa_balancing answers for the slice's tasks, by decision");
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];

		if (!selected(sl, slice))
			continue;
		for (int on = 1; on >= 0; on--) {
			sample_start(o, "memcgd_slice_numa_decisions", COUNTER);
			label(o, true, "slice", sl->name);
			label(o, false, "decision", on ? "on" : "off");
			value_u64(o, on ? sl->numa_on_decisions : sl->numa_off_decisions);
		}
	}
}

/* ---- the daemon and the kernel ---- */

static void render_kernel(const struct out *o, const char *release, bool supported, const char *hooks,
			  int numa_sysctl)
{
	const char *h = hooks ? hooks : "";

	family(o, "memcgd_kernel", INFO, NULL, "The running kernel");
	sample_start(o, "memcgd_kernel", INFO);
	label(o, true, "release", release);
	value_u64(o, 1);
	family(o, "memcgd_kernel_supported", GAUGE, NULL, "1 when the kernel has what memcgd needs");
	plain(o, "memcgd_kernel_supported", GAUGE, supported);
	h += strspn(h, " ");
	if (*h)
		family(o, "memcgd_kernel_hook", GAUGE, NULL, "memcg_bpf_ops hooks the kernel's BTF offers, one sample each");
	while (*h) {
		size_t n = strcspn(h, " ");

		fprintf(o->f, "memcgd_kernel_hook{hook=\"%.*s\"} 1\n", (int)n, h);
		h += n;
		h += strspn(h, " ");
	}
	if (numa_sysctl >= 0) {
		family(o, "memcgd_kernel_numa_balancing", GAUGE, NULL, "kernel.numa_balancing as memcgctl read it");
		plain(o, "memcgd_kernel_numa_balancing", GAUGE, numa_sysctl);
	}
}

static void render_daemon(const struct out *o, const struct daemon_status *s, const char *slice, uint64_t now_usec)
{
	uint64_t age = now_usec > s->updated_usec ? now_usec - s->updated_usec : 0;
	size_t n = 0;

	family(o, "memcgd_up", GAUGE, NULL, "1 when memcgd runs (memcgctl found its state file and its process)");
	plain(o, "memcgd_up", GAUGE, 1);
	family(o, "memcgd_daemon", INFO, NULL, "memcgd's state and mode");
	sample_start(o, "memcgd_daemon", INFO);
	label(o, true, "state", s->state);
	label(o, false, "mode", s->mode);
	label(o, false, "libbpf", s->libbpf);
	label(o, false, "memcgctl_version", MEMCGD_VERSION);
	value_u64(o, 1);
	family(o, "memcgd_start_time_seconds", GAUGE, "seconds", "When memcgd started, seconds since the epoch");
	plain(o, "memcgd_start_time_seconds", GAUGE, (double)s->started_usec / 1e6);
	family(o, "memcgd_state_age_seconds", GAUGE, "seconds",
	       "Time since memcgd last wrote its state: large means a stuck memcgd");
	plain(o, "memcgd_state_age_seconds", GAUGE, (double)age / 1e6);
	family(o, "memcgd_update_interval_seconds", GAUGE, "seconds", "UpdateInterval=");
	plain(o, "memcgd_update_interval_seconds", GAUGE, (double)s->update_interval_usec / 1e6);
	family(o, "memcgd_config_generation", GAUGE, NULL, "Configuration generation, raised by every accepted reload");
	plain(o, "memcgd_config_generation", GAUGE, (double)s->config_generation);
	family(o, "memcgd_reloads", COUNTER, NULL, "Reloads attempted, accepted or refused");
	plain(o, "memcgd_reloads", COUNTER, (double)s->reloads);
	family(o, "memcgd_reload_failed", GAUGE, NULL, "1 when the last reload was refused (the previous policy is kept)");
	plain(o, "memcgd_reload_failed", GAUGE, s->reload_error && s->reload_error[0]);
	family(o, "memcgd_skipped_config_problems", GAUGE, NULL,
	       "Problems of configuration files left out at start (memcgctl check)");
	plain(o, "memcgd_skipped_config_problems", GAUGE, (double)s->n_skipped);
	for (size_t i = 0; i < s->n_slices; i++)
		n += selected(&s->slices[i], slice);
	family(o, "memcgd_slices", GAUGE, NULL, "Slices shown (all managed slices unless one was named)");
	plain(o, "memcgd_slices", GAUGE, (double)n);
	family(o, "memcgd_events_dropped", COUNTER, NULL, "Kernel transition events lost (ring buffer full)");
	plain(o, "memcgd_events_dropped", COUNTER, (double)s->events_dropped);
	family(o, "memcgd_max_cgroups", GAUGE, NULL, "MaxCgroups=: entries of slice_of");
	plain(o, "memcgd_max_cgroups", GAUGE, (double)s->max_cgroups);
	family(o, "memcgd_unmapped_cgroups", COUNTER, NULL,
	       "Inserts into slice_of refused because it was full: those cgroups' faults are not counted");
	plain(o, "memcgd_unmapped_cgroups", COUNTER, (double)s->unmapped_cgroups);
	family(o, "memcgd_exempt_skips", COUNTER, NULL, "Delays not applied to the exempt cgroups");
	plain(o, "memcgd_exempt_skips", COUNTER, (double)s->exempt_skips);
	if (s->free_bytes) {
		family(o, "memcgd_free_bytes", GAUGE, "bytes", "Free memory at the last update (background reclaim)");
		plain(o, "memcgd_free_bytes", GAUGE, (double)s->free_bytes);
	}
	if (s->reclaim_room) {
		family(o, "memcgd_reclaim_room_bytes", GAUGE, "bytes",
		       "Free memory background reclaim keeps: the watermarks plus what busy protected slices may still grow");
		plain(o, "memcgd_reclaim_room_bytes", GAUGE, (double)s->reclaim_room);
	}
	family(o, "memcgd_numa_loaded", GAUGE, NULL, "1 when memcgd loaded memcg_bpf_ops::numa_balancing");
	plain(o, "memcgd_numa_loaded", GAUGE, s->numa_loaded);
}

static void end(const struct out *o)
{
	if (o->dialect == METRICS_OPENMETRICS)
		fputs("# EOF\n", o->f);
}

void status_render_metrics(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec,
			   enum metrics_dialect dialect)
{
	const struct out o = { .f = f, .dialect = dialect };

	render_daemon(&o, s, slice, now_usec);
	render_kernel(&o, s->kernel_release, s->kernel_supported, s->hooks, s->numa_sysctl);
	render_slices(&o, s, slice);
	end(&o);
}

void status_render_metrics_not_running(FILE *f, const char *release, bool supported, const char *hooks,
				       int numa_sysctl, enum metrics_dialect dialect)
{
	const struct out o = { .f = f, .dialect = dialect };

	family(&o, "memcgd_up", GAUGE, NULL, "1 when memcgd runs (memcgctl found its state file and its process)");
	plain(&o, "memcgd_up", GAUGE, 0);
	render_kernel(&o, release, supported, hooks, numa_sysctl);
	end(&o);
}
