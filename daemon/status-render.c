// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "conf-model.h"
#include "status-render.h"
#include "units-parse.h"
#include "util.h"

const char *slice_action(const struct slice_status *s)
{
	if (s->attach && !streq(s->attach, "attached") && !streq(s->attach, "dry-run"))
		return "-";
	if (s->guard_tripped)
		return "guard-stopped";
	if (s->active && s->protect && !streq(s->protect, "none"))
		return s->protect_suspended ? "over-maxusage" : streq(s->protect, "min") ? "protect-min" : "protect-low";
	if (s->escalation && streq(s->escalation, "delay"))
		return "escalate-delay";
	if (s->throttling)
		return "throttle";
	return "-";
}

const char *slice_numa(const struct daemon_status *s, const struct slice_status *sl)
{
	/* memcgd's program decides only for attached slices, and only when it was loaded */
	if (!s->numa_loaded || !sl->numa || streq(sl->numa, "default") || !sl->attach || !streq(sl->attach, "attached"))
		return "kernel";
	return streq(sl->numa, "yes") ? "on" : "off";
}

__attribute__((format(printf, 4, 5)))
static void append(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (w > 0)
		*off = *off + (size_t)w < len ? *off + (size_t)w : len;
}

char *numa_tuning_text(char *buf, size_t len, uint64_t scan_period_min_usec, uint64_t scan_period_max_usec,
		       uint64_t scan_size, uint64_t hot_threshold_usec)
{
	const uint64_t v[NUMA_TUNING_KEYS] = {
		[NUMA_SCAN_PERIOD_MIN] = scan_period_min_usec,
		[NUMA_SCAN_PERIOD_MAX] = scan_period_max_usec,
		[NUMA_SCAN_SIZE] = scan_size,
		[NUMA_HOT_THRESHOLD] = hot_threshold_usec,
	};
	size_t off = 0, n = 0;
	char t[64];

	buf[0] = '\0';
	for (unsigned k = 0; k < NUMA_TUNING_KEYS; k++) {
		if (!v[k])
			continue;
		append(buf, len, &off, "%s%s=%s", n++ ? " " : "", numa_tuning_key_name(k),
		       k == NUMA_SCAN_SIZE ? format_size(t, sizeof(t), v[k]) : format_duration(t, sizeof(t), v[k]));
	}
	if (!n)
		append(buf, len, &off, "the kernel's scan parameters");
	else if (n < NUMA_TUNING_KEYS)
		append(buf, len, &off, ", the kernel's other parameters");
	return buf;
}

static const char *fmt_time(char *buf, size_t len, uint64_t usec)
{
	time_t t = (time_t)(usec / USEC_PER_SEC);
	struct tm tm;

	if (!usec || !gmtime_r(&t, &tm) || !strftime(buf, len, "%a %Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, len, "n/a");
	return buf;
}

static const char *fmt_mem(char *buf, size_t len, uint64_t v)
{
	if (v == UINT64_MAX)
		return "max";
	return format_size(buf, len, v);
}

static bool selected(const struct slice_status *sl, const char *slice)
{
	return !slice || (sl->name && streq(sl->name, slice));
}

/* "kernel.numa_balancing=1" as memcgctl read it, or without the value when it could not */
static const char *numa_sysctl_text(char *buf, size_t len, int v)
{
	if (v < 0)
		snprintf(buf, len, "kernel.numa_balancing");
	else
		snprintf(buf, len, "kernel.numa_balancing=%d", v);
	return buf;
}

static void render_slice_numa(FILE *f, const struct daemon_status *s, const struct slice_status *sl)
{
	const char *numa = slice_numa(s, sl), *asked = sl->numa ? sl->numa : "default";
	char sysctl[48], tuning[256];

	numa_sysctl_text(sysctl, sizeof(sysctl), s->numa_sysctl);
	if (streq(numa, "on"))
		fprintf(f, "  %-13s on (Balancing=yes, whatever %s says): %s; %" PRIu64 " on, %" PRIu64 " off decisions\n",
			"NUMA:", sysctl, numa_tuning_text(tuning, sizeof(tuning), sl->numa_scan_period_min_usec,
							  sl->numa_scan_period_max_usec, sl->numa_scan_size,
							  sl->numa_hot_threshold_usec),
			sl->numa_on_decisions, sl->numa_off_decisions);
	else if (streq(numa, "off"))
		fprintf(f, "  %-13s off (Balancing=no, whatever %s says); %" PRIu64 " on, %" PRIu64 " off decisions\n",
			"NUMA:", sysctl, sl->numa_on_decisions, sl->numa_off_decisions);
	else if (streq(asked, "default"))
		fprintf(f, "  %-13s as %s (Balancing=default)\n", "NUMA:", sysctl);
	else
		fprintf(f, "  %-13s as %s, not Balancing=%s: %s\n", "NUMA:", sysctl, asked,
			s->numa_loaded ? "not attached"
			: s->mode && streq(s->mode, "dry-run") ? "a dry run decides nothing"
			: "the kernel lacks memcg_bpf_ops::numa_balancing");
	if (sl->have_numa_stat)
		fprintf(f, "  %-13s %" PRIu64 " PTE updates, %" PRIu64 " hinting faults, %" PRIu64 " pages migrated "
			"(memory.stat)\n", "NUMA stat:", sl->numa_pte_updates, sl->numa_hint_faults, sl->numa_pages_migrated);
}

static void render_slice_block(FILE *f, const struct daemon_status *s, const struct slice_status *sl, unsigned n_levels)
{
	char a[64], b[64], c[64], d[64];

	fprintf(f, "\n%s\n", sl->name);
	fprintf(f, "  %-13s %s\n", "Config:", sl->file ? sl->file : "-");
	if (sl->cgroup && sl->cgroup[0])
		fprintf(f, "  %-13s %s (id %" PRIu64 ")\n", "Cgroup:", sl->cgroup, sl->cgroup_id);
	else
		fprintf(f, "  %-13s - (slice not running)\n", "Cgroup:");
	fprintf(f, "  %-13s %ld (level %u of %u)\n", "Priority:", sl->priority, sl->level + 1, n_levels);
	if (sl->attach && streq(sl->attach, "attached"))
		fprintf(f, "  %-13s yes\n", "Attached:");
	else
		fprintf(f, "  %-13s no: %s%s%s\n", "Attached:", sl->attach ? sl->attach : "?",
			sl->reason && sl->reason[0] ? ", " : "", sl->reason ? sl->reason : "");
	if (sl->fault_rate_threshold <= 1)
		fprintf(f, "  %-13s busy at any page fault", "Activity:");
	else
		fprintf(f, "  %-13s active above %" PRIu64 " faults/s over %s", "Activity:", sl->fault_rate_threshold,
			format_duration(a, sizeof(a), sl->window_usec));
	if (sl->cpu_usage_threshold == CPU_USAGE_ANY)
		fprintf(f, " or any CPU time");
	else if (sl->cpu_usage_threshold)
		fprintf(f, " or at %" PRIu64 "%% CPU", sl->cpu_usage_threshold);
	if (sl->hold_usec == HOLD_AUTO)
		fprintf(f, ", hold learned (now %s, at most %s)\n", format_duration(b, sizeof(b), sl->hold_learned_usec),
			format_duration(c, sizeof(c), sl->max_hold_usec));
	else
		fprintf(f, ", hold %s\n", format_duration(b, sizeof(b), sl->hold_usec));
	fprintf(f, "  %-13s %s%s while active%s%s", "Protect:", sl->protect ? sl->protect : "?",
		sl->protect_size && streq(sl->protect_size, "footprint") ? ", its footprint" : "",
		sl->max_usage != UINT64_MAX ? ", up to " : "",
		sl->max_usage != UINT64_MAX ? format_size(c, sizeof(c), sl->max_usage) : "");
	if (sl->wake_reserve)
		fprintf(f, "; %s while idle", format_size(d, sizeof(d), sl->wake_reserve));
	fputc('\n', f);
	if (sl->delay_ms)
		fprintf(f, "  %-13s %" PRIu64 "ms per charge while a higher priority is %s, guard after %s\n",
			"Throttle:", sl->delay_ms,
			sl->throttle_when && streq(sl->throttle_when, "pressure")
				? "under pressure that background reclaim does not relieve" : "active",
			format_duration(d, sizeof(d), sl->max_continuous_usec == UINT64_MAX
							     ? USEC_INFINITY : sl->max_continuous_usec));
	else
		fprintf(f, "  %-13s never (Delay=0)\n", "Throttle:");
	if (sl->background)
		fprintf(f, "  %-13s in the background while a higher priority is active and less than %s is free, "
			"%s%s%s\n", "Reclaim:", format_size(a, sizeof(a), sl->headroom),
			sl->reclaim_rate == UINT64_MAX ? "no rate limit" : "at most ",
			sl->reclaim_rate == UINT64_MAX ? "" : format_size(b, sizeof(b), sl->reclaim_rate),
			sl->reclaim_rate == UINT64_MAX ? "" : "/s");
	else if (sl->protect && !streq(sl->protect, "none") && sl->state && sl->state[0])
		fprintf(f, "  %-13s while idle, what it holds above %s, in the background (giving back)\n", "Reclaim:",
			sl->wake_reserve ? format_size(a, sizeof(a), sl->wake_reserve) : "WakeReserve=0");
	else
		fprintf(f, "  %-13s never in the background (Background=no)\n", "Reclaim:");
	if (sl->reclaim_passes || sl->reclaim_errors) {
		fprintf(f, "  %-13s %s in %" PRIu64 " pass%s", "Reclaimed:", format_size(a, sizeof(a), sl->reclaimed),
			sl->reclaim_passes, sl->reclaim_passes == 1 ? "" : "es");
		if (sl->reclaim_ago_usec != UINT64_MAX)
			fprintf(f, ", last %s ago: %s free%s%s%s", format_duration(b, sizeof(b),
				sl->reclaim_ago_usec - sl->reclaim_ago_usec % USEC_PER_SEC),
				format_size(c, sizeof(c), sl->reclaim_last_free),
				sl->reclaim_because && sl->reclaim_because[0] ? ", " : "",
				sl->reclaim_because && sl->reclaim_because[0] ? sl->reclaim_because : "",
				sl->reclaim_because && sl->reclaim_because[0] ? " active" : "");
		if (sl->reclaim_errors)
			fprintf(f, "; %" PRIu64 " error%s, last: %s", sl->reclaim_errors, sl->reclaim_errors == 1 ? "" : "s",
				strerror((int)-sl->reclaim_last_error));
		fputc('\n', f);
	}
	render_slice_numa(f, s, sl);
	fprintf(f, "  %-13s %.1f faults/s, ", "Now:", sl->fault_rate);
	if (sl->cpu_usage_threshold && sl->cpu_percent >= 0)
		fprintf(f, "%.0f%% CPU, ", sl->cpu_percent);
	fprintf(f, "%s%s%s\n", sl->active ? "active" : "inactive",
		strcmp(slice_action(sl), "-") ? ", " : "", strcmp(slice_action(sl), "-") ? slice_action(sl) : "");
	if (sl->state && sl->state[0]) {
		fprintf(f, "  %-13s %s (%s), escalation %s", "Policy:", sl->state, sl->why ? sl->why : "",
			sl->escalation ? sl->escalation : "none");
		if (sl->protect_size && streq(sl->protect_size, "footprint"))
			fprintf(f, ", footprint %s", format_size(a, sizeof(a), sl->protect_bytes));
		fprintf(f, ", refaults %s/s", format_size(b, sizeof(b), (uint64_t)sl->refault_rate));
		if (sl->psi_some >= 0)
			fprintf(f, ", memory PSI some %.2f%%", sl->psi_some);
		fputc('\n', f);
	}
	fprintf(f, "  %-13s %" PRIu64 " activations, active for %s, %" PRIu64 " faults\n", "Activity sum:",
		sl->activations, format_duration(a, sizeof(a), sl->active_usec - sl->active_usec % USEC_PER_MSEC),
		sl->faults);
	fprintf(f, "  %-13s %" PRIu64 " protect decisions, %" PRIu64 " throttle decisions (%s requested), "
		"%" PRIu64 " guard trips%s\n", "Decisions:", sl->protect_decisions + sl->sized_decisions, sl->throttle_decisions,
		format_duration(b, sizeof(b), sl->throttle_ms * USEC_PER_MSEC), sl->guard_trips,
		sl->guard_tripped ? " (guard holding now)" : "");
	if (sl->ceiling_refusals || sl->protect_suspended)
		fprintf(f, "  %-13s %" PRIu64 " protections refused above MaxUsage=%s\n", "Ceiling:",
			sl->ceiling_refusals, sl->protect_suspended ? "; over it now: not protected until it shrinks" : "");
	if (sl->have_memory)
		fprintf(f, "  %-13s current %s, min %s, low %s, high %s\n", "Memory:",
			fmt_mem(a, sizeof(a), sl->memory_current), fmt_mem(b, sizeof(b), sl->memory_min),
			fmt_mem(c, sizeof(c), sl->memory_low), fmt_mem(d, sizeof(d), sl->memory_high));
}

void status_render_table(FILE *f, const struct daemon_status *s, const char *slice, bool legend)
{
	size_t name_w = 5;
	char m[32];

	for (size_t i = 0; i < s->n_slices; i++)
		if (s->slices[i].name && strlen(s->slices[i].name) > name_w)
			name_w = strlen(s->slices[i].name);
	if (legend)
		fprintf(f, "%-*s %5s %-11s %9s %-6s %-13s %s\n", (int)name_w, "SLICE", "PRIO", "STATE", "FAULTS/S",
			"ACTIVE", "ACTION", "MEMORY");
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];

		if (!selected(sl, slice))
			continue;
		fprintf(f, "%-*s %5ld %-11s %9.1f %-6s %-13s %s\n", (int)name_w, sl->name, sl->priority,
			sl->attach ? sl->attach : "?", sl->fault_rate, sl->active ? "yes" : "no", slice_action(sl),
			sl->have_memory ? fmt_mem(m, sizeof(m), sl->memory_current) : "-");
	}
}

void status_render_text(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec)
{
	unsigned n_levels = 0;
	char t[64], room[32], sysctl[48];

	for (size_t i = 0; i < s->n_slices; i++)
		if (s->slices[i].level + 1 > n_levels)
			n_levels = s->slices[i].level + 1;

	fprintf(f, "%-9s %s (pid %d), %s, since %s\n", "memcgd:", s->state ? s->state : "?", (int)s->pid,
		s->mode && streq(s->mode, "dry-run") ? "dry run (measuring only, nothing attached)" : "enforcing",
		fmt_time(t, sizeof(t), s->started_usec));
	if (now_usec > s->updated_usec + 3 * (s->update_interval_usec ? s->update_interval_usec : USEC_PER_SEC))
		fprintf(f, "%-9s last update %s ago: memcgd may be stuck\n", "Warning:",
			format_duration(t, sizeof(t), (now_usec - s->updated_usec) / USEC_PER_SEC * USEC_PER_SEC));
	fprintf(f, "%-9s %s, %s; memcg_bpf_ops hooks: %s\n", "Kernel:", s->kernel_release ? s->kernel_release : "?",
		s->kernel_supported ? "supported" : "NOT supported", s->hooks && s->hooks[0] ? s->hooks : "none");
	if (s->reload_error && s->reload_error[0])
		fprintf(f, "%-9s generation %" PRIu64 "; last reload FAILED, previous policy kept: %s\n", "Config:",
			s->config_generation, s->reload_error);
	else
		fprintf(f, "%-9s generation %" PRIu64 ", %zu slice%s\n", "Config:", s->config_generation, s->n_slices,
			s->n_slices == 1 ? "" : "s");
	if (s->events_dropped)
		fprintf(f, "%-9s %" PRIu64 " transition events lost (ring buffer full)\n", "Warning:", s->events_dropped);
	if (s->unmapped_cgroups)
		fprintf(f, "%-9s slice_of full (MaxCgroups=%" PRIu64 "): %" PRIu64 " cgroup%s not mapped to their "
			"slice, their page faults are not counted\n", "Warning:", s->max_cgroups, s->unmapped_cgroups,
			s->unmapped_cgroups == 1 ? "" : "s");
	if (s->exempt && s->exempt[0])
		fprintf(f, "%-9s never delayed: %s (%" PRIu64 " delays skipped)\n", "Exempt:", s->exempt,
			s->exempt_skips);
	if (s->reclaim_path && !streq(s->reclaim_path, "none"))
		fprintf(f, "%-9s background reclaim %s%s%s%s%s%s\n", "Reclaim:", s->reclaim_note ? s->reclaim_note : "?",
			s->free_bytes ? "; " : "", s->free_bytes ? format_size(t, sizeof(t), s->free_bytes) : "",
			s->free_bytes ? " free now" : "", s->reclaim_room ? ", keeps at least " : "",
			s->reclaim_room ? format_size(room, sizeof(room), s->reclaim_room) : "");
	numa_sysctl_text(sysctl, sizeof(sysctl), s->numa_sysctl);
	if (s->numa_loaded)
		fprintf(f, "%-9s memcg_bpf_ops::numa_balancing loaded: [NUMA] Balancing= decides per slice, %s for "
			"the others\n", "NUMA:", sysctl);
	else if (s->numa_hook)
		fprintf(f, "%-9s the kernel offers memcg_bpf_ops::numa_balancing, not loaded in a dry run: %s for every "
			"slice\n", "NUMA:", sysctl);
	else
		fprintf(f, "%-9s the kernel lacks memcg_bpf_ops::numa_balancing: %s for every slice\n", "NUMA:", sysctl);
	for (size_t i = 0; i < s->n_skipped; i++) {
		const struct config_problem *p = &s->skipped[i];

		if (p->line)
			fprintf(f, "%-9s %s:%u: %s\n", i ? "" : "Skipped:", p->file ? p->file : "?", p->line,
				p->message ? p->message : "");
		else
			fprintf(f, "%-9s %s: %s\n", i ? "" : "Skipped:", p->file ? p->file : "?",
				p->message ? p->message : "");
	}
	if (s->n_skipped)
		fprintf(f, "%-9s the files above are not in force; the other slices are (memcgctl check)\n", "");

	if (s->n_slices == 0) {
		fprintf(f, "\nNo slices configured: add files to /etc/memcgd.d (see memcgd.d(5)).\n");
		return;
	}
	fputc('\n', f);
	status_render_table(f, s, slice, true);
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice))
			render_slice_block(f, s, &s->slices[i], n_levels);
}

/* ---- JSON (json-c): one shape whatever the state; "version" changes when keys change meaning ---- */

static struct json_object *jstr(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static struct json_object *jstr_or_null(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

static struct json_object *ju64(uint64_t v)
{
	/* json-c has no unsigned 64-bit integers: counters stay far below 2^63 */
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static struct json_object *ju64_or_null(uint64_t v)
{
	return v == UINT64_MAX ? NULL : ju64(v);
}

static struct json_object *jmem(uint64_t v)
{
	return v == UINT64_MAX ? json_object_new_string("max") : ju64(v);
}

static struct json_object *jdouble1(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return json_object_new_double_s(v, buf);
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/* "a b c" -> ["a","b","c"] */
static struct json_object *jwords(const char *words)
{
	struct json_object *a = json_object_new_array();
	const char *h = words ? words : "";

	while (*h) {
		size_t n = strcspn(h, " ");

		if (n)
			json_object_array_add(a, json_object_new_string_len(h, (int)n));
		h += n;
		h += strspn(h, " ");
	}
	return a;
}

/* a [NUMA] tuning value: null for the kernel's */
static struct json_object *ju64_or_kernel(uint64_t v)
{
	return v ? ju64(v) : NULL;
}

static struct json_object *json_slice(const struct daemon_status *s, const struct slice_status *sl)
{
	struct json_object *o = json_object_new_object(), *pol, *cnt, *mem, *stat;

	add(o, "name", jstr(sl->name));
	add(o, "priority", json_object_new_int64(sl->priority));
	add(o, "level", json_object_new_int64(sl->level));
	add(o, "config_file", jstr(sl->file));
	add(o, "cgroup", jstr_or_null(sl->cgroup));
	add(o, "cgroup_id", ju64(sl->cgroup_id));
	add(o, "attached", json_object_new_boolean(sl->attach && streq(sl->attach, "attached")));
	add(o, "attach_state", jstr(sl->attach));
	add(o, "reason", jstr_or_null(sl->reason));
	pol = json_object_new_object();
	add(pol, "page_fault_rate", ju64(sl->fault_rate_threshold));
	add(pol, "cpu_usage_percent", ju64(sl->cpu_usage_threshold));
	add(pol, "window_usec", ju64(sl->window_usec));
	add(pol, "hold_usec", sl->hold_usec == HOLD_AUTO ? jstr("auto") : ju64(sl->hold_usec));
	add(pol, "max_hold_usec", ju64(sl->max_hold_usec));
	add(pol, "protect", jstr(sl->protect));
	add(pol, "protect_size", jstr(sl->protect_size ? sl->protect_size : "all"));
	add(pol, "wake_reserve", ju64(sl->wake_reserve));
	add(pol, "throttle_when", jstr(sl->throttle_when ? sl->throttle_when : "active"));
	add(pol, "max_usage", ju64_or_null(sl->max_usage));
	add(pol, "throttle_delay_ms", ju64(sl->delay_ms));
	add(pol, "max_continuous_usec", ju64_or_null(sl->max_continuous_usec));
	add(pol, "background_reclaim", json_object_new_boolean(sl->background));
	add(pol, "reclaim_headroom", ju64(sl->headroom));
	add(pol, "reclaim_rate", ju64_or_null(sl->reclaim_rate));
	add(pol, "numa_balancing", jstr(sl->numa ? sl->numa : "default"));
	add(pol, "numa_scan_period_min_usec", ju64_or_kernel(sl->numa_scan_period_min_usec));
	add(pol, "numa_scan_period_max_usec", ju64_or_kernel(sl->numa_scan_period_max_usec));
	add(pol, "numa_scan_size", ju64_or_kernel(sl->numa_scan_size));
	add(pol, "numa_hot_threshold_usec", ju64_or_kernel(sl->numa_hot_threshold_usec));
	add(o, "policy", pol);
	add(o, "fault_rate", jdouble1(sl->fault_rate));
	add(o, "cpu_percent", sl->cpu_usage_threshold && sl->cpu_percent >= 0 ? jdouble1(sl->cpu_percent) : NULL);
	add(o, "active", json_object_new_boolean(sl->active));
	add(o, "action", jstr(slice_action(sl)));
	add(o, "throttling", json_object_new_boolean(sl->throttling));
	add(o, "guard_tripped", json_object_new_boolean(sl->guard_tripped));
	add(o, "protect_suspended", json_object_new_boolean(sl->protect_suspended));
	add(o, "numa", jstr(slice_numa(s, sl)));
	/* the policy engine (memcgd.d(5)); null from a memcgd without it */
	if (sl->state && sl->state[0]) {
		struct json_object *eng = json_object_new_object();

		add(eng, "state", jstr(sl->state));
		add(eng, "escalation", jstr(sl->escalation ? sl->escalation : "none"));
		add(eng, "why", jstr_or_null(sl->why));
		add(eng, "hold_usec", ju64(sl->hold_learned_usec));
		add(eng, "protect_bytes", ju64(sl->protect_bytes));
		add(eng, "usage", ju64(sl->usage));
		add(eng, "refault_rate", jdouble1(sl->refault_rate));
		add(eng, "psi_some", sl->psi_some >= 0 ? jdouble1(sl->psi_some) : NULL);
		add(eng, "episodes", ju64(sl->episodes));
		add(eng, "sized_decisions", ju64(sl->sized_decisions));
		add(o, "engine", eng);
	} else {
		add(o, "engine", NULL);
	}
	cnt = json_object_new_object();
	add(cnt, "faults", ju64(sl->faults));
	add(cnt, "activations", ju64(sl->activations));
	add(cnt, "active_usec", ju64(sl->active_usec));
	add(cnt, "protect_decisions", ju64(sl->protect_decisions));
	add(cnt, "throttle_decisions", ju64(sl->throttle_decisions));
	add(cnt, "throttle_ms", ju64(sl->throttle_ms));
	add(cnt, "guard_trips", ju64(sl->guard_trips));
	add(cnt, "ceiling_refusals", ju64(sl->ceiling_refusals));
	add(cnt, "reclaimed_bytes", ju64(sl->reclaimed));
	add(cnt, "reclaim_passes", ju64(sl->reclaim_passes));
	add(cnt, "reclaim_errors", ju64(sl->reclaim_errors));
	add(cnt, "numa_on_decisions", ju64(sl->numa_on_decisions));
	add(cnt, "numa_off_decisions", ju64(sl->numa_off_decisions));
	add(o, "counters", cnt);
	add(o, "last_reclaim_ago_usec", ju64_or_null(sl->reclaim_ago_usec));
	add(o, "last_reclaim_free", sl->reclaim_ago_usec != UINT64_MAX ? ju64(sl->reclaim_last_free) : NULL);
	add(o, "last_reclaim_because", sl->reclaim_ago_usec != UINT64_MAX ? jstr_or_null(sl->reclaim_because) : NULL);
	mem = NULL;
	if (sl->have_memory) {
		mem = json_object_new_object();
		add(mem, "current", jmem(sl->memory_current));
		add(mem, "min", jmem(sl->memory_min));
		add(mem, "low", jmem(sl->memory_low));
		add(mem, "high", jmem(sl->memory_high));
	}
	add(o, "memory", mem);
	stat = NULL;
	if (sl->have_numa_stat) {
		stat = json_object_new_object();
		add(stat, "numa_pte_updates", ju64(sl->numa_pte_updates));
		add(stat, "numa_hint_faults", ju64(sl->numa_hint_faults));
		add(stat, "numa_pages_migrated", ju64(sl->numa_pages_migrated));
	}
	add(o, "memory_stat", stat);
	return o;
}

static void print_json(FILE *f, struct json_object *root)
{
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(root);
}

static struct json_object *json_kernel(const char *release, bool supported, const char *hooks, int numa_sysctl)
{
	struct json_object *k = json_object_new_object();

	add(k, "release", jstr(release));
	add(k, "supported", json_object_new_boolean(supported));
	add(k, "hooks", jwords(hooks));
	add(k, "numa_balancing", numa_sysctl >= 0 ? json_object_new_int(numa_sysctl) : NULL);
	return k;
}

/* The daemon object; s == NULL when memcgd is not running (every key present, null). */
static struct json_object *json_daemon(const struct daemon_status *s, const char *why, uint64_t now_usec)
{
	struct json_object *d = json_object_new_object(), *sk = json_object_new_array();

	add(d, "running", json_object_new_boolean(s != NULL));
	add(d, "reason", s ? NULL : jstr(why));
	add(d, "pid", s ? json_object_new_int64(s->pid) : NULL);
	add(d, "state", s ? jstr(s->state) : NULL);
	add(d, "mode", s ? jstr(s->mode) : NULL);
	add(d, "started_usec", s ? ju64(s->started_usec) : NULL);
	add(d, "updated_usec", s ? ju64(s->updated_usec) : NULL);
	add(d, "age_usec", s ? ju64(now_usec > s->updated_usec ? now_usec - s->updated_usec : 0) : NULL);
	add(d, "update_interval_usec", s ? ju64(s->update_interval_usec) : NULL);
	add(d, "config_generation", s ? ju64(s->config_generation) : NULL);
	add(d, "reload_error", s ? jstr_or_null(s->reload_error) : NULL);
	add(d, "events_dropped", s ? ju64(s->events_dropped) : NULL);
	add(d, "libbpf", s ? jstr(s->libbpf) : NULL);
	add(d, "exempt", jwords(s ? s->exempt : NULL));
	add(d, "exempt_skips", s ? ju64(s->exempt_skips) : NULL);
	add(d, "max_cgroups", s ? ju64(s->max_cgroups) : NULL);
	add(d, "unmapped_cgroups", s ? ju64(s->unmapped_cgroups) : NULL);
	add(d, "reclaim_path", s ? jstr(s->reclaim_path) : NULL);
	add(d, "reclaim_note", s ? jstr(s->reclaim_note) : NULL);
	add(d, "free_bytes", s && s->free_bytes ? ju64(s->free_bytes) : NULL);
	add(d, "reclaim_room", s && s->reclaim_room ? ju64(s->reclaim_room) : NULL);
	add(d, "numa_hook", s ? json_object_new_boolean(s->numa_hook) : NULL);
	add(d, "numa_loaded", s ? json_object_new_boolean(s->numa_loaded) : NULL);
	for (size_t i = 0; s && i < s->n_skipped; i++) {
		struct json_object *p = json_object_new_object();

		add(p, "file", jstr(s->skipped[i].file));
		add(p, "line", s->skipped[i].line ? json_object_new_int64(s->skipped[i].line) : NULL);
		add(p, "message", jstr(s->skipped[i].message));
		json_object_array_add(sk, p);
	}
	add(d, "skipped", sk);
	return d;
}

void status_render_json(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec)
{
	struct json_object *root = json_object_new_object(), *slices = json_object_new_array();

	add(root, "version", json_object_new_int(STATUS_JSON_VERSION));
	add(root, "daemon", json_daemon(s, NULL, now_usec));
	add(root, "kernel", json_kernel(s->kernel_release, s->kernel_supported, s->hooks, s->numa_sysctl));
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice))
			json_object_array_add(slices, json_slice(s, &s->slices[i]));
	add(root, "slices", slices);
	print_json(f, root);
}

void status_render_json_not_running(FILE *f, const char *why, const char *release, bool supported, const char *hooks,
				    int numa_sysctl)
{
	struct json_object *root = json_object_new_object();

	add(root, "version", json_object_new_int(STATUS_JSON_VERSION));
	add(root, "daemon", json_daemon(NULL, why, 0));
	add(root, "kernel", json_kernel(release, supported, hooks, numa_sysctl));
	add(root, "slices", json_object_new_array());
	print_json(f, root);
}
