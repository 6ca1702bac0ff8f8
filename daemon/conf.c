// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>

#include "../bpf/memcgd.h"
#include "conf-files.h"
#include "conf-parse.h"
#include "conf.h"
#include "min-budget.h"
#include "util.h"

void config_validate(const struct memcgd_config *c, struct diag_list *d)
{
	long prios[MEMCGD_MAX_LEVELS + 1];
	size_t n_prios = 0, n_background = 0;

	if (c->n_slices > MEMCGD_MAX_SLICES)
		diag_add(d, c->slices[MEMCGD_MAX_SLICES].file, c->slices[MEMCGD_MAX_SLICES].name_line,
			 "too many slices: at most %d can be managed", MEMCGD_MAX_SLICES);

	for (size_t i = 0; i < c->n_slices; i++) {
		const struct slice_conf *s = &c->slices[i];
		bool known = false;

		if (!s->name)
			continue;
		if (streq(s->name, MEMCGD_OWN_SLICE))
			diag_add(d, s->file, s->name_line,
				 "%s is where memcgd itself runs (memcgd.service's Slice=): memcgd never "
				 "throttles or deprioritises itself", s->name);
		for (size_t j = 0; j < i; j++) {
			const struct slice_conf *o = &c->slices[j];

			if (!o->name)
				continue;
			if (streq(o->name, s->name))
				diag_add(d, s->file, s->name_line, "duplicate slice %s: already configured in %s:%u",
					 s->name, o->file, o->name_line);
		}
		for (size_t j = 0; j < c->n_slices; j++) {
			const struct slice_conf *o = &c->slices[j];

			if (!o->name || !slice_is_ancestor(o->name, s->name) || s->priority < 0 ||
			    o->priority < 0 || s->priority <= o->priority)
				continue;
			diag_add(d, s->file, s->priority_line,
				 "Priority=%ld conflicts with the enclosing slice %s (Priority=%ld at %s:%u): "
				 "a nested slice cannot outrank the slice that contains it",
				 s->priority, o->name, o->priority, o->file, o->priority_line);
		}
		if (s->settings.reclaim_background && ++n_background == MEMCGD_MAX_RECLAIM_SLICES + 1)
			diag_add(d, s->file, s->background_line ? s->background_line : s->name_line,
				 "too many slices with [Reclaim] Background=yes: at most %d", MEMCGD_MAX_RECLAIM_SLICES);
		if (s->priority < 0)
			continue;
		for (size_t j = 0; j < n_prios; j++)
			if (prios[j] == s->priority)
				known = true;
		if (known)
			continue;
		if (n_prios == MEMCGD_MAX_LEVELS) {
			diag_add(d, s->file, s->priority_line,
				 "too many distinct priorities: at most %d different Priority= values", MEMCGD_MAX_LEVELS);
			continue;
		}
		prios[n_prios++] = s->priority;
	}
	min_budget_check(c, min_budget_ram(), d);
}

/* "ScanSize=, HotThreshold=": the [NUMA] tuning keys set at l, and the line of the first; 0 if none */
static unsigned numa_tuning_set(const struct numa_lines *l, char *buf, size_t len)
{
	unsigned first = 0;
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < NUMA_TUNING_KEYS; k++) {
		int w;

		if (!l->tuning[k])
			continue;
		if (!first || l->tuning[k] < first)
			first = l->tuning[k];
		w = snprintf(buf + off, len - off, "%s%s=", off ? ", " : "", numa_tuning_key_name(k));
		if (w > 0 && (size_t)w < len - off)
			off += (size_t)w;
	}
	return first;
}

void config_notes(const struct memcgd_config *c, struct diag_list *d)
{
	bool any_on = false;
	char keys[96];
	unsigned line;

	for (size_t i = 0; i < c->n_slices; i++) {
		const struct slice_conf *s = &c->slices[i];

		any_on |= s->settings.numa == NUMA_BALANCING_ON;
		line = numa_tuning_set(&s->numa_lines, keys, sizeof(keys));
		if (line && s->settings.numa != NUMA_BALANCING_ON)
			diag_add(d, s->file, line, "note: [NUMA] %s appl%s only with Balancing=yes; %s has Balancing=%s",
				 keys, strchr(keys, ',') ? "y" : "ies", s->name ? s->name : "this slice",
				 numa_balancing_to_string(s->settings.numa));
	}
	line = numa_tuning_set(&c->daemon.numa_lines, keys, sizeof(keys));
	if (line && !any_on)
		diag_add(d, c->daemon.file, line, "note: [NUMA] %s appl%s only with Balancing=yes, which no slice has",
			 keys, strchr(keys, ',') ? "y" : "ies");
}

static int add_slice_file(struct memcgd_config *c, const char *path, struct diag_list *d)
{
	struct slice_conf *v = realloc(c->slices, (c->n_slices + 1) * sizeof(*v));
	int r;

	if (!v)
		return -ENOMEM;
	c->slices = v;
	r = conf_parse_slice_file(path, &c->daemon.defaults, &v[c->n_slices], d);
	if (r == -ENOMEM || (r < 0 && !v[c->n_slices].file)) {
		slice_conf_done(&v[c->n_slices]);
		return r == -ENOMEM ? r : 0;
	}
	c->n_slices++;
	return 0;
}

static int finish(struct memcgd_config *c, size_t n_diag_before, struct diag_list *d)
{
	config_validate(c, d);
	return d->n > n_diag_before ? -EINVAL : 0;
}

int config_load(const char *root, struct memcgd_config *ret, struct diag_list *d)
{
	struct conf_file_list files = {};
	_cleanup_free_ char *main_conf = NULL;
	size_t before = d->n;
	int r;

	memset(ret, 0, sizeof(*ret));
	daemon_conf_init(&ret->daemon);
	r = conf_main_file(root, &main_conf);
	if (r < 0)
		return r;
	if (main_conf) {
		r = conf_parse_main_file(main_conf, &ret->daemon, d);
		if (r == -ENOMEM)
			return r;
	}
	r = conf_files_list(root, &files, d);
	if (r < 0)
		return r;
	for (size_t i = 0; i < files.n; i++) {
		r = add_slice_file(ret, files.paths[i], d);
		if (r < 0)
			break;
	}
	conf_file_list_done(&files);
	if (r < 0)
		return r;
	return finish(ret, before, d);
}

int config_load_files(char *const *files, size_t n, struct memcgd_config *ret, struct diag_list *d)
{
	size_t before = d->n;
	int r;

	memset(ret, 0, sizeof(*ret));
	daemon_conf_init(&ret->daemon);
	/* the daemon configuration first: its defaults apply to the slice files */
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(files[i], '/');

		base = base ? base + 1 : files[i];
		if (!streq(base, "memcgd.conf"))
			continue;
		r = conf_parse_main_file(files[i], &ret->daemon, d);
		if (r == -ENOMEM)
			return r;
	}
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(files[i], '/');

		base = base ? base + 1 : files[i];
		if (streq(base, "memcgd.conf"))
			continue;
		r = add_slice_file(ret, files[i], d);
		if (r < 0)
			return r;
	}
	return finish(ret, before, d);
}

static bool file_has_diag(const struct diag_list *d, size_t from, const char *file)
{
	for (size_t i = from; i < d->n; i++)
		if (file && d->items[i].file && streq(d->items[i].file, file))
			return true;
	return false;
}

/* Removes the slices whose file has a diagnostic in d (from index `from` on). */
static size_t drop_flagged(struct memcgd_config *c, const struct diag_list *d, size_t from)
{
	size_t w = 0, dropped = 0;

	for (size_t i = 0; i < c->n_slices; i++) {
		if (!c->slices[i].name || file_has_diag(d, from, c->slices[i].file)) {
			slice_conf_done(&c->slices[i]);
			dropped++;
			continue;
		}
		c->slices[w++] = c->slices[i];
	}
	c->n_slices = w;
	return dropped;
}

int config_load_skipping(const char *root, struct memcgd_config *ret, struct diag_list *d)
{
	size_t before = d->n;
	int r = config_load(root, ret, d);

	if (r != -EINVAL)
		return r;
	if (ret->daemon.file && file_has_diag(d, before, ret->daemon.file))
		return -EINVAL; /* its defaults and [Daemon] settings apply to every slice */
	drop_flagged(ret, d, before);
	/* what is left may still conflict (too many slices): drop until it validates */
	while (ret->n_slices) {
		size_t mark = d->n;

		config_validate(ret, d);
		if (d->n == mark || drop_flagged(ret, d, mark) == 0)
			break;
	}
	return 1;
}
