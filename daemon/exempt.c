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

static char *unit_cgroup(sd_bus *bus, const char *unit)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	char *cgroup = NULL;
	const char *path;

	if (!bus)
		return strjoin3("/system.slice/", unit, "");
	if (sd_bus_call_method(bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
			       "org.freedesktop.systemd1.Manager", "GetUnit", &error, &reply, "s", unit) >= 0 &&
	    sd_bus_message_read(reply, "o", &path) >= 0)
		(void)sd_bus_get_property_string(bus, "org.freedesktop.systemd1", path,
						 "org.freedesktop.systemd1.Service", "ControlGroup", &error, &cgroup);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	if (cgroup && !cgroup[0]) {
		free(cgroup);
		cgroup = NULL;
	}
	/* not loaded, or the bus is down: where systemd puts it by default (add() checks that the
	 * directory exists) */
	return cgroup ? cgroup : strjoin3("/system.slice/", unit, "");
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

int exempt_collect(sd_bus *bus, const char *cgroup_root, struct exempt_set *ret)
{
	char *own = NULL;

	memset(ret, 0, sizeof(*ret));
	if (own_cgroup_path(&own) == 0)
		add(ret, cgroup_root, own);
	add(ret, cgroup_root, strdup("/init.scope"));
	for (size_t i = 0; i < n_exempt_units; i++)
		add(ret, cgroup_root, unit_cgroup(bus, exempt_units[i]));
	return 0;
}
