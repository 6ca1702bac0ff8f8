// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>

#include "cgroup-files.h"
#include "exempt.h"
#include "util.h"

const char *const exempt_units[] = {
	"systemd-journald.service",
	"dbus.service",
	"dbus-broker.service",
	"systemd-logind.service",
};
const size_t n_exempt_units = ARRAY_SIZE(exempt_units);

void exempt_set_done(struct exempt_set *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->paths[i]);
	e->n = 0;
}

int own_cgroup_path(char **ret)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/cgroup", "re");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "0::", 3) != 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		*ret = strdup(line + 3);
		return *ret ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

static void add(struct exempt_set *e, const char *cgroup_root, char *path)
{
	_cleanup_free_ char *dir = NULL;
	uint64_t id;

	if (!path)
		return;
	dir = strjoin3(cgroup_root, "", path);
	if (e->n == MEMCGD_MAX_EXEMPT || !dir || streq(path, "/") || cgroup_id_of(dir, &id) < 0) {
		free(path);
		return;
	}
	for (size_t i = 0; i < e->n; i++)
		if (e->ids[i] == id) {
			free(path);
			return;
		}
	e->ids[e->n] = id;
	e->paths[e->n++] = path;
}

int exempt_collect(const char *cgroup_root, char *const *unit_cgroups, const char *own_from_bus,
		   struct exempt_set *ret)
{
	char *own = NULL;

	memset(ret, 0, sizeof(*ret));
	/* "/": memcgd's cgroup is the root of its cgroup namespace, which says nothing about where
	 * it is in the tree memcgd manages; systemd knows (its unit's ControlGroup) */
	if (own_cgroup_path(&own) == 0 && streq(own, "/")) {
		free(own);
		own = own_from_bus ? strdup(own_from_bus) : NULL;
	}
	add(ret, cgroup_root, own);
	add(ret, cgroup_root, strdup("/init.scope"));
	for (size_t i = 0; i < n_exempt_units; i++)
		add(ret, cgroup_root, unit_cgroups && unit_cgroups[i] ? strdup(unit_cgroups[i])
								      : strjoin3("/system.slice/", exempt_units[i], ""));
	return 0;
}

const char *exempt_inside_slice(const struct exempt_set *e, const char *slice)
{
	_cleanup_free_ char *rel = slice_cgroup_path(slice);
	size_t n;

	if (!rel)
		return NULL;
	n = strlen(rel);
	for (size_t i = 0; i < e->n; i++) {
		const char *p = e->paths[i];

		p += p[0] == '/';
		if (strncmp(p, rel, n) == 0 && (p[n] == '/' || p[n] == '\0'))
			return e->paths[i];
	}
	return NULL;
}

size_t exempt_refuse_policies(struct memcgd_config *c, const struct exempt_set *e, struct diag_list *d)
{
	size_t w = 0, refused = 0;

	for (size_t i = 0; i < c->n_slices; i++) {
		struct slice_conf *s = &c->slices[i];
		const char *inside = s->name ? exempt_inside_slice(e, s->name) : NULL;
		bool delay = s->settings.throttle_delay_usec != 0, background = s->settings.reclaim_background;

		if (inside && (delay || background)) {
			diag_add(d, s->file, background && s->background_line ? s->background_line : s->name_line,
				 "%s contains %s, which memcgd never holds back (memcgd itself, PID 1, journald, dbus, "
				 "logind): %s%s%s is refused on this slice; policies on it may protect (Mode=) but "
				 "neither throttle (Delay=0) nor reclaim in the background", s->name, inside,
				 delay ? "[Throttle] Delay= other than 0" : "", delay && background ? " and " : "",
				 background ? "[Reclaim] Background=yes" : "");
			slice_conf_done(s);
			refused++;
			continue;
		}
		c->slices[w++] = *s;
	}
	c->n_slices = w;
	return refused;
}
