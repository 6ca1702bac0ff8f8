// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <string.h>
#include <time.h>

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
	if (s->throttling)
		return "throttle";
	return "-";
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

static void render_slice_block(FILE *f, const struct slice_status *sl, unsigned n_levels)
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
	fprintf(f, "  %-13s active above %" PRIu64 " faults/s over %s", "Activity:",
		sl->fault_rate_threshold, format_duration(a, sizeof(a), sl->window_usec));
	if (sl->cpu_usage_threshold)
		fprintf(f, " or at %" PRIu64 "%% CPU", sl->cpu_usage_threshold);
	fprintf(f, ", hold %s\n", format_duration(b, sizeof(b), sl->hold_usec));
	fprintf(f, "  %-13s %s while active%s%s\n", "Protect:", sl->protect ? sl->protect : "?",
		sl->max_usage != UINT64_MAX ? ", up to " : "",
		sl->max_usage != UINT64_MAX ? format_size(c, sizeof(c), sl->max_usage) : "");
	if (sl->delay_ms)
		fprintf(f, "  %-13s %" PRIu64 "ms per charge while a higher priority is active, guard after %s\n",
			"Throttle:", sl->delay_ms, format_duration(d, sizeof(d), sl->max_continuous_usec == UINT64_MAX
									     ? USEC_INFINITY : sl->max_continuous_usec));
	else
		fprintf(f, "  %-13s never (Delay=0)\n", "Throttle:");
	fprintf(f, "  %-13s %.1f faults/s, ", "Now:", sl->fault_rate);
	if (sl->cpu_usage_threshold && sl->cpu_percent >= 0)
		fprintf(f, "%.0f%% CPU, ", sl->cpu_percent);
	fprintf(f, "%s%s%s\n", sl->active ? "active" : "inactive",
		strcmp(slice_action(sl), "-") ? ", " : "", strcmp(slice_action(sl), "-") ? slice_action(sl) : "");
	fprintf(f, "  %-13s %" PRIu64 " activations, active for %s, %" PRIu64 " faults\n", "Activity sum:",
		sl->activations, format_duration(a, sizeof(a), sl->active_usec - sl->active_usec % USEC_PER_MSEC),
		sl->faults);
	fprintf(f, "  %-13s %" PRIu64 " protect decisions, %" PRIu64 " throttle decisions (%s requested), "
		"%" PRIu64 " guard trips%s\n", "Decisions:", sl->protect_decisions, sl->throttle_decisions,
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

void status_render_text(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec)
{
	unsigned n_levels = 0;
	char t[64], m[32];
	size_t name_w = 5;

	for (size_t i = 0; i < s->n_slices; i++) {
		if (s->slices[i].level + 1 > n_levels)
			n_levels = s->slices[i].level + 1;
		if (s->slices[i].name && strlen(s->slices[i].name) > name_w)
			name_w = strlen(s->slices[i].name);
	}

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
	if (s->exempt && s->exempt[0])
		fprintf(f, "%-9s never delayed: %s (%" PRIu64 " delays skipped)\n", "Exempt:", s->exempt,
			s->exempt_skips);
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
	fprintf(f, "\n%-*s %5s %-11s %9s %-6s %-13s %s\n", (int)name_w, "SLICE", "PRIO", "STATE", "FAULTS/S",
		"ACTIVE", "ACTION", "MEMORY");
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];

		if (!selected(sl, slice))
			continue;
		fprintf(f, "%-*s %5ld %-11s %9.1f %-6s %-13s %s\n", (int)name_w, sl->name, sl->priority,
			sl->attach ? sl->attach : "?", sl->fault_rate, sl->active ? "yes" : "no", slice_action(sl),
			sl->have_memory ? fmt_mem(m, sizeof(m), sl->memory_current) : "-");
	}
	for (size_t i = 0; i < s->n_slices; i++)
		if (selected(&s->slices[i], slice))
			render_slice_block(f, &s->slices[i], n_levels);
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_opt_u64(FILE *f, uint64_t v)
{
	if (v == UINT64_MAX)
		fputs("null", f);
	else
		fprintf(f, "%" PRIu64, v);
}

static void json_mem(FILE *f, uint64_t v)
{
	if (v == UINT64_MAX)
		fputs("\"max\"", f);
	else
		fprintf(f, "%" PRIu64, v);
}

static void json_slice(FILE *f, const struct slice_status *sl)
{
	fputs("{\"name\":", f);
	json_string(f, sl->name);
	fprintf(f, ",\"priority\":%ld,\"level\":%u,\"config_file\":", sl->priority, sl->level);
	json_string(f, sl->file);
	fputs(",\"cgroup\":", f);
	if (sl->cgroup && sl->cgroup[0])
		json_string(f, sl->cgroup);
	else
		fputs("null", f);
	fprintf(f, ",\"cgroup_id\":%" PRIu64 ",\"attached\":%s,\"attach_state\":", sl->cgroup_id,
		sl->attach && streq(sl->attach, "attached") ? "true" : "false");
	json_string(f, sl->attach);
	fputs(",\"reason\":", f);
	if (sl->reason && sl->reason[0])
		json_string(f, sl->reason);
	else
		fputs("null", f);
	fprintf(f, ",\"policy\":{\"page_fault_rate\":%" PRIu64 ",\"cpu_usage_percent\":%" PRIu64
		",\"window_usec\":%" PRIu64 ",\"hold_usec\":%" PRIu64 ",\"protect\":", sl->fault_rate_threshold,
		sl->cpu_usage_threshold, sl->window_usec, sl->hold_usec);
	json_string(f, sl->protect);
	fputs(",\"max_usage\":", f);
	json_opt_u64(f, sl->max_usage);
	fprintf(f, ",\"throttle_delay_ms\":%" PRIu64 ",\"max_continuous_usec\":", sl->delay_ms);
	json_opt_u64(f, sl->max_continuous_usec);
	fprintf(f, "},\"fault_rate\":%.1f,\"cpu_percent\":", sl->fault_rate);
	if (sl->cpu_usage_threshold && sl->cpu_percent >= 0)
		fprintf(f, "%.1f", sl->cpu_percent);
	else
		fputs("null", f);
	fprintf(f, ",\"active\":%s,\"action\":", sl->active ? "true" : "false");
	json_string(f, slice_action(sl));
	fprintf(f, ",\"throttling\":%s,\"guard_tripped\":%s,\"protect_suspended\":%s",
		sl->throttling ? "true" : "false", sl->guard_tripped ? "true" : "false",
		sl->protect_suspended ? "true" : "false");
	fprintf(f, ",\"counters\":{\"faults\":%" PRIu64 ",\"activations\":%" PRIu64 ",\"active_usec\":%" PRIu64
		",\"protect_decisions\":%" PRIu64 ",\"throttle_decisions\":%" PRIu64 ",\"throttle_ms\":%" PRIu64
		",\"guard_trips\":%" PRIu64 ",\"ceiling_refusals\":%" PRIu64 "}", sl->faults, sl->activations,
		sl->active_usec, sl->protect_decisions, sl->throttle_decisions, sl->throttle_ms, sl->guard_trips,
		sl->ceiling_refusals);
	fputs(",\"memory\":", f);
	if (sl->have_memory) {
		fputs("{\"current\":", f);
		json_mem(f, sl->memory_current);
		fputs(",\"min\":", f);
		json_mem(f, sl->memory_min);
		fputs(",\"low\":", f);
		json_mem(f, sl->memory_low);
		fputs(",\"high\":", f);
		json_mem(f, sl->memory_high);
		fputs("}", f);
	} else {
		fputs("null", f);
	}
	fputs("}", f);
}

void status_render_json(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec)
{
	bool first = true;
	const char *h;

	fprintf(f, "{\"daemon\":{\"running\":true,\"pid\":%d,\"state\":", (int)s->pid);
	json_string(f, s->state);
	fputs(",\"mode\":", f);
	json_string(f, s->mode);
	fprintf(f, ",\"started_usec\":%" PRIu64 ",\"updated_usec\":%" PRIu64 ",\"age_usec\":%" PRIu64
		",\"config_generation\":%" PRIu64 ",\"reload_error\":", s->started_usec, s->updated_usec,
		now_usec > s->updated_usec ? now_usec - s->updated_usec : 0, s->config_generation);
	if (s->reload_error && s->reload_error[0])
		json_string(f, s->reload_error);
	else
		fputs("null", f);
	fprintf(f, ",\"events_dropped\":%" PRIu64 ",\"libbpf\":", s->events_dropped);
	json_string(f, s->libbpf);
	fputs(",\"exempt\":[", f);
	for (const char *e = s->exempt ? s->exempt : "", *sep = ""; *e; sep = ",") {
		size_t n = strcspn(e, " ");
		char path[512];

		if (n && n < sizeof(path)) {
			memcpy(path, e, n);
			path[n] = '\0';
			fputs(sep, f);
			json_string(f, path);
		}
		e += n;
		e += strspn(e, " ");
	}
	fprintf(f, "],\"exempt_skips\":%" PRIu64, s->exempt_skips);
	fputs(",\"skipped\":[", f);
	for (size_t i = 0; i < s->n_skipped; i++) {
		fputs(i ? ",{\"file\":" : "{\"file\":", f);
		json_string(f, s->skipped[i].file);
		if (s->skipped[i].line)
			fprintf(f, ",\"line\":%u,\"message\":", s->skipped[i].line);
		else
			fputs(",\"line\":null,\"message\":", f);
		json_string(f, s->skipped[i].message);
		fputc('}', f);
	}
	fputs("]},\"kernel\":{\"release\":", f);
	json_string(f, s->kernel_release);
	fprintf(f, ",\"supported\":%s,\"hooks\":[", s->kernel_supported ? "true" : "false");
	h = s->hooks ? s->hooks : "";
	while (*h) {
		size_t n = strcspn(h, " ");
		char name[64];

		if (n && n < sizeof(name)) {
			memcpy(name, h, n);
			name[n] = '\0';
			if (!first)
				fputc(',', f);
			json_string(f, name);
			first = false;
		}
		h += n;
		h += strspn(h, " ");
	}
	fputs("]},\"slices\":[", f);
	first = true;
	for (size_t i = 0; i < s->n_slices; i++) {
		if (!selected(&s->slices[i], slice))
			continue;
		if (!first)
			fputc(',', f);
		json_slice(f, &s->slices[i]);
		first = false;
	}
	fputs("]}\n", f);
}
