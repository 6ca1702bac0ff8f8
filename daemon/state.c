// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "util.h"

static void slice_status_done(struct slice_status *s)
{
	free(s->name);
	free(s->file);
	free(s->cgroup);
	free(s->attach);
	free(s->reason);
	free(s->protect);
	free(s->reclaim_because);
	free(s->protect_size);
	free(s->throttle_when);
	free(s->state);
	free(s->escalation);
	free(s->why);
	free(s->numa);
}

void daemon_status_done(struct daemon_status *s)
{
	for (size_t i = 0; i < s->n_slices; i++)
		slice_status_done(&s->slices[i]);
	free(s->slices);
	for (size_t i = 0; i < s->n_skipped; i++) {
		free(s->skipped[i].file);
		free(s->skipped[i].message);
	}
	free(s->skipped);
	free(s->state);
	free(s->mode);
	free(s->reload_error);
	free(s->kernel_release);
	free(s->hooks);
	free(s->libbpf);
	free(s->exempt);
	free(s->reclaim_path);
	free(s->reclaim_note);
	memset(s, 0, sizeof(*s));
}

static void put_str(FILE *f, const char *key, const char *v)
{
	fprintf(f, "\t%s=", key);
	for (const char *p = v ? v : ""; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
}

static void put_u64(FILE *f, const char *key, uint64_t v)
{
	fprintf(f, "\t%s=%" PRIu64, key, v);
}

static void put_i64(FILE *f, const char *key, int64_t v)
{
	fprintf(f, "\t%s=%" PRId64, key, v);
}

int state_write(FILE *f, const struct daemon_status *s)
{
	fputs("daemon", f);
	put_i64(f, "pid", s->pid);
	put_str(f, "state", s->state);
	put_str(f, "mode", s->mode);
	put_u64(f, "started", s->started_usec);
	put_u64(f, "updated", s->updated_usec);
	put_u64(f, "interval", s->update_interval_usec);
	put_u64(f, "generation", s->config_generation);
	put_u64(f, "reloads", s->reloads);
	put_str(f, "reload_error", s->reload_error);
	put_str(f, "kernel", s->kernel_release);
	put_u64(f, "supported", s->kernel_supported);
	put_str(f, "hooks", s->hooks);
	put_str(f, "libbpf", s->libbpf);
	put_u64(f, "events_dropped", s->events_dropped);
	put_str(f, "exempt", s->exempt);
	put_u64(f, "exempt_skips", s->exempt_skips);
	put_u64(f, "max_cgroups", s->max_cgroups);
	put_u64(f, "unmapped_cgroups", s->unmapped_cgroups);
	put_str(f, "reclaim_path", s->reclaim_path);
	put_str(f, "reclaim_note", s->reclaim_note);
	put_u64(f, "free", s->free_bytes);
	put_u64(f, "reclaim_room", s->reclaim_room);
	put_u64(f, "numa_hook", s->numa_hook);
	put_u64(f, "numa_loaded", s->numa_loaded);
	fputc('\n', f);
	for (size_t i = 0; i < s->n_slices; i++) {
		const struct slice_status *sl = &s->slices[i];

		fputs("slice", f);
		put_str(f, "name", sl->name);
		put_i64(f, "priority", sl->priority);
		put_u64(f, "level", sl->level);
		put_i64(f, "slot", sl->slot);
		put_str(f, "file", sl->file);
		put_str(f, "cgroup", sl->cgroup);
		put_u64(f, "cgroup_id", sl->cgroup_id);
		put_str(f, "attach", sl->attach);
		put_str(f, "reason", sl->reason);
		put_str(f, "protect", sl->protect);
		put_u64(f, "threshold", sl->fault_rate_threshold);
		put_u64(f, "cpu_threshold", sl->cpu_usage_threshold);
		put_u64(f, "window", sl->window_usec);
		put_u64(f, "hold", sl->hold_usec);
		put_u64(f, "delay_ms", sl->delay_ms);
		put_u64(f, "max_continuous", sl->max_continuous_usec);
		put_u64(f, "max_usage", sl->max_usage);
		fprintf(f, "\trate=%.1f", sl->fault_rate);
		fprintf(f, "\tcpu=%.1f", sl->cpu_percent);
		put_u64(f, "active", sl->active);
		put_u64(f, "throttling", sl->throttling);
		put_u64(f, "guard_tripped", sl->guard_tripped);
		put_u64(f, "protect_suspended", sl->protect_suspended);
		put_u64(f, "faults", sl->faults);
		put_u64(f, "activations", sl->activations);
		put_u64(f, "active_usec", sl->active_usec);
		put_u64(f, "protect_decisions", sl->protect_decisions);
		put_u64(f, "throttle_decisions", sl->throttle_decisions);
		put_u64(f, "throttle_ms", sl->throttle_ms);
		put_u64(f, "guard_trips", sl->guard_trips);
		put_u64(f, "ceiling_refusals", sl->ceiling_refusals);
		put_str(f, "protect_size", sl->protect_size);
		put_str(f, "throttle_when", sl->throttle_when);
		put_u64(f, "max_hold", sl->max_hold_usec);
		put_u64(f, "wake_reserve", sl->wake_reserve);
		put_str(f, "state", sl->state);
		put_str(f, "escalation", sl->escalation);
		put_str(f, "why", sl->why);
		put_u64(f, "hold_learned", sl->hold_learned_usec);
		put_u64(f, "protect_bytes", sl->protect_bytes);
		put_u64(f, "usage", sl->usage);
		fprintf(f, "\trefault_rate=%.0f", sl->refault_rate);
		fprintf(f, "\tpsi_some=%.2f", sl->psi_some);
		put_u64(f, "episodes", sl->episodes);
		put_u64(f, "sized_decisions", sl->sized_decisions);
		put_u64(f, "background", sl->background);
		put_u64(f, "headroom", sl->headroom);
		put_u64(f, "reclaim_rate", sl->reclaim_rate);
		put_u64(f, "reclaimed", sl->reclaimed);
		put_u64(f, "reclaim_passes", sl->reclaim_passes);
		put_u64(f, "reclaim_errors", sl->reclaim_errors);
		put_i64(f, "reclaim_last_error", sl->reclaim_last_error);
		put_u64(f, "reclaim_ago", sl->reclaim_ago_usec);
		put_u64(f, "reclaim_last_free", sl->reclaim_last_free);
		put_str(f, "reclaim_because", sl->reclaim_because);
		put_str(f, "numa", sl->numa);
		put_u64(f, "numa_scan_min", sl->numa_scan_period_min_usec);
		put_u64(f, "numa_scan_max", sl->numa_scan_period_max_usec);
		put_u64(f, "numa_scan_size", sl->numa_scan_size);
		put_u64(f, "numa_hot", sl->numa_hot_threshold_usec);
		put_u64(f, "numa_on", sl->numa_on_decisions);
		put_u64(f, "numa_off", sl->numa_off_decisions);
		fputc('\n', f);
	}
	for (size_t i = 0; i < s->n_skipped; i++) {
		fputs("skipped", f);
		put_str(f, "file", s->skipped[i].file);
		put_u64(f, "line", s->skipped[i].line);
		put_str(f, "message", s->skipped[i].message);
		fputc('\n', f);
	}
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

int state_write_file(const char *path, const struct daemon_status *s)
{
	_cleanup_free_ char *tmp = strjoin3(path, ".tmp", "");
	FILE *f;
	int r;

	if (!tmp)
		return -ENOMEM;
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	r = state_write(f, s);
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static int set_str(char **field, const char *v)
{
	free(*field);
	*field = strdup(v);
	return *field ? 0 : -ENOMEM;
}

static uint64_t u64(const char *v)
{
	return strtoull(v, NULL, 10);
}

static int daemon_field(struct daemon_status *s, const char *k, const char *v)
{
	if (streq(k, "pid"))
		s->pid = (pid_t)strtol(v, NULL, 10);
	else if (streq(k, "state"))
		return set_str(&s->state, v);
	else if (streq(k, "mode"))
		return set_str(&s->mode, v);
	else if (streq(k, "started"))
		s->started_usec = u64(v);
	else if (streq(k, "updated"))
		s->updated_usec = u64(v);
	else if (streq(k, "interval"))
		s->update_interval_usec = u64(v);
	else if (streq(k, "generation"))
		s->config_generation = u64(v);
	else if (streq(k, "reloads"))
		s->reloads = u64(v);
	else if (streq(k, "reload_error"))
		return set_str(&s->reload_error, v);
	else if (streq(k, "kernel"))
		return set_str(&s->kernel_release, v);
	else if (streq(k, "supported"))
		s->kernel_supported = u64(v) != 0;
	else if (streq(k, "hooks"))
		return set_str(&s->hooks, v);
	else if (streq(k, "libbpf"))
		return set_str(&s->libbpf, v);
	else if (streq(k, "events_dropped"))
		s->events_dropped = u64(v);
	else if (streq(k, "exempt"))
		return set_str(&s->exempt, v);
	else if (streq(k, "exempt_skips"))
		s->exempt_skips = u64(v);
	else if (streq(k, "max_cgroups"))
		s->max_cgroups = u64(v);
	else if (streq(k, "unmapped_cgroups"))
		s->unmapped_cgroups = u64(v);
	else if (streq(k, "reclaim_path"))
		return set_str(&s->reclaim_path, v);
	else if (streq(k, "reclaim_note"))
		return set_str(&s->reclaim_note, v);
	else if (streq(k, "free"))
		s->free_bytes = u64(v);
	else if (streq(k, "reclaim_room"))
		s->reclaim_room = u64(v);
	else if (streq(k, "numa_hook"))
		s->numa_hook = u64(v) != 0;
	else if (streq(k, "numa_loaded"))
		s->numa_loaded = u64(v) != 0;
	return 0;
}

static int slice_field(struct slice_status *s, const char *k, const char *v)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
		{ "cgroup_id", offsetof(struct slice_status, cgroup_id) },
		{ "threshold", offsetof(struct slice_status, fault_rate_threshold) },
		{ "cpu_threshold", offsetof(struct slice_status, cpu_usage_threshold) },
		{ "window", offsetof(struct slice_status, window_usec) },
		{ "hold", offsetof(struct slice_status, hold_usec) },
		{ "delay_ms", offsetof(struct slice_status, delay_ms) },
		{ "max_continuous", offsetof(struct slice_status, max_continuous_usec) },
		{ "max_usage", offsetof(struct slice_status, max_usage) },
		{ "faults", offsetof(struct slice_status, faults) },
		{ "activations", offsetof(struct slice_status, activations) },
		{ "active_usec", offsetof(struct slice_status, active_usec) },
		{ "protect_decisions", offsetof(struct slice_status, protect_decisions) },
		{ "throttle_decisions", offsetof(struct slice_status, throttle_decisions) },
		{ "throttle_ms", offsetof(struct slice_status, throttle_ms) },
		{ "guard_trips", offsetof(struct slice_status, guard_trips) },
		{ "ceiling_refusals", offsetof(struct slice_status, ceiling_refusals) },
		{ "max_hold", offsetof(struct slice_status, max_hold_usec) },
		{ "wake_reserve", offsetof(struct slice_status, wake_reserve) },
		{ "hold_learned", offsetof(struct slice_status, hold_learned_usec) },
		{ "protect_bytes", offsetof(struct slice_status, protect_bytes) },
		{ "usage", offsetof(struct slice_status, usage) },
		{ "episodes", offsetof(struct slice_status, episodes) },
		{ "sized_decisions", offsetof(struct slice_status, sized_decisions) },
		{ "headroom", offsetof(struct slice_status, headroom) },
		{ "reclaim_rate", offsetof(struct slice_status, reclaim_rate) },
		{ "reclaimed", offsetof(struct slice_status, reclaimed) },
		{ "reclaim_passes", offsetof(struct slice_status, reclaim_passes) },
		{ "reclaim_errors", offsetof(struct slice_status, reclaim_errors) },
		{ "reclaim_ago", offsetof(struct slice_status, reclaim_ago_usec) },
		{ "reclaim_last_free", offsetof(struct slice_status, reclaim_last_free) },
		{ "numa_scan_min", offsetof(struct slice_status, numa_scan_period_min_usec) },
		{ "numa_scan_max", offsetof(struct slice_status, numa_scan_period_max_usec) },
		{ "numa_scan_size", offsetof(struct slice_status, numa_scan_size) },
		{ "numa_hot", offsetof(struct slice_status, numa_hot_threshold_usec) },
		{ "numa_on", offsetof(struct slice_status, numa_on_decisions) },
		{ "numa_off", offsetof(struct slice_status, numa_off_decisions) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		if (streq(k, nums[i].key)) {
			*(uint64_t *)((char *)s + nums[i].off) = u64(v);
			return 0;
		}
	if (streq(k, "name"))
		return set_str(&s->name, v);
	if (streq(k, "file"))
		return set_str(&s->file, v);
	if (streq(k, "cgroup"))
		return set_str(&s->cgroup, v);
	if (streq(k, "attach"))
		return set_str(&s->attach, v);
	if (streq(k, "reason"))
		return set_str(&s->reason, v);
	if (streq(k, "protect"))
		return set_str(&s->protect, v);
	if (streq(k, "reclaim_because"))
		return set_str(&s->reclaim_because, v);
	if (streq(k, "numa"))
		return set_str(&s->numa, v);
	if (streq(k, "protect_size"))
		return set_str(&s->protect_size, v);
	if (streq(k, "throttle_when"))
		return set_str(&s->throttle_when, v);
	if (streq(k, "state"))
		return set_str(&s->state, v);
	if (streq(k, "escalation"))
		return set_str(&s->escalation, v);
	if (streq(k, "why"))
		return set_str(&s->why, v);
	if (streq(k, "refault_rate"))
		s->refault_rate = strtod(v, NULL);
	else if (streq(k, "psi_some"))
		s->psi_some = strtod(v, NULL);
	else if (streq(k, "priority"))
		s->priority = strtol(v, NULL, 10);
	else if (streq(k, "level"))
		s->level = (unsigned)u64(v);
	else if (streq(k, "slot"))
		s->slot = (int)strtol(v, NULL, 10);
	else if (streq(k, "rate"))
		s->fault_rate = strtod(v, NULL);
	else if (streq(k, "cpu"))
		s->cpu_percent = strtod(v, NULL);
	else if (streq(k, "active"))
		s->active = u64(v) != 0;
	else if (streq(k, "throttling"))
		s->throttling = u64(v) != 0;
	else if (streq(k, "guard_tripped"))
		s->guard_tripped = u64(v) != 0;
	else if (streq(k, "protect_suspended"))
		s->protect_suspended = u64(v) != 0;
	else if (streq(k, "background"))
		s->background = u64(v) != 0;
	else if (streq(k, "reclaim_last_error"))
		s->reclaim_last_error = strtoll(v, NULL, 10);
	return 0;
}

static int skipped_field(struct config_problem *p, const char *k, const char *v)
{
	if (streq(k, "file"))
		return set_str(&p->file, v);
	if (streq(k, "message"))
		return set_str(&p->message, v);
	if (streq(k, "line"))
		p->line = (unsigned)u64(v);
	return 0;
}

int state_read(FILE *f, struct daemon_status *ret)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	bool have_daemon = false;
	ssize_t n;

	memset(ret, 0, sizeof(*ret));
	while ((n = getline(&line, &cap, f)) > 0) {
		struct slice_status *sl = NULL;
		struct config_problem *pr = NULL;
		char *save = NULL, *tok;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		tok = strtok_r(line, "\t", &save);
		if (!tok)
			continue;
		if (streq(tok, "daemon")) {
			have_daemon = true;
		} else if (streq(tok, "slice")) {
			struct slice_status *v = realloc(ret->slices, (ret->n_slices + 1) * sizeof(*v));

			if (!v)
				return -ENOMEM;
			ret->slices = v;
			sl = &v[ret->n_slices++];
			memset(sl, 0, sizeof(*sl));
			sl->slot = -1;
			sl->psi_some = -1; /* a memcgd before the policy engine did not measure it */
		} else if (streq(tok, "skipped")) {
			struct config_problem *v = realloc(ret->skipped, (ret->n_skipped + 1) * sizeof(*v));

			if (!v)
				return -ENOMEM;
			ret->skipped = v;
			pr = &v[ret->n_skipped++];
			memset(pr, 0, sizeof(*pr));
		} else {
			continue; /* a record type from a newer memcgd */
		}
		while ((tok = strtok_r(NULL, "\t", &save))) {
			char *eq = strchr(tok, '=');
			int r;

			if (!eq)
				continue;
			*eq = '\0';
			unescape(eq + 1);
			r = sl ? slice_field(sl, tok, eq + 1)
			  : pr ? skipped_field(pr, tok, eq + 1) : daemon_field(ret, tok, eq + 1);
			if (r < 0)
				return r;
		}
	}
	return have_daemon ? 0 : -EBADMSG;
}

int state_read_file(const char *path, struct daemon_status *ret)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");

	if (!f) {
		memset(ret, 0, sizeof(*ret));
		return -errno;
	}
	return state_read(f, ret);
}
