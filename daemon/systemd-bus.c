// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>

#include "systemd-bus.h"
#include "util.h"

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_MANAGER "org.freedesktop.systemd1.Manager"
#define SD_UNIT_PREFIX "/org/freedesktop/systemd1/unit"

struct bus_ctx {
	unit_changed_fn on_change;
	void *userdata;
};

static struct bus_ctx ctx;

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	const char *job, *unit, *result;
	uint32_t id;

	if (sd_bus_message_read(m, "uoss", &id, &job, &unit, &result) >= 0)
		ctx.on_change(unit, ctx.userdata);
	return 0;
}

static int on_unit_new_removed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	const char *unit, *path;

	if (sd_bus_message_read(m, "so", &unit, &path) >= 0)
		ctx.on_change(unit, ctx.userdata);
	return 0;
}

static int on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	const char *path = sd_bus_message_get_path(m);
	char *unit = NULL;

	if (path && sd_bus_path_decode(path, SD_UNIT_PREFIX, &unit) > 0 && str_ends_with(unit, ".slice"))
		ctx.on_change(unit, ctx.userdata);
	free(unit);
	return 0;
}

int bus_connect(sd_event *event, unit_changed_fn on_change, void *userdata, sd_bus **ret)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus *bus = NULL;
	int r;

	ctx.on_change = on_change;
	ctx.userdata = userdata;
	/* the system bus only: systemd's private socket (/run/systemd/private) is root's back door
	 * to PID 1, which memcgd has no business holding; without a bus, slices are found by their
	 * cgroup paths */
	r = sd_bus_open_system(&bus);
	if (r < 0)
		return r;
	/* a stuck call must not starve the watchdog (WatchdogSec=30s) */
	(void)sd_bus_set_method_call_timeout(bus, 5 * 1000 * 1000);
	r = sd_bus_attach_event(bus, event, SD_EVENT_PRIORITY_NORMAL);
	if (r < 0)
		goto fail;
	r = sd_bus_match_signal(bus, NULL, SD_DEST, SD_PATH, SD_MANAGER, "JobRemoved", on_job_removed, NULL);
	if (r >= 0)
		r = sd_bus_match_signal(bus, NULL, SD_DEST, SD_PATH, SD_MANAGER, "UnitNew", on_unit_new_removed, NULL);
	if (r >= 0)
		r = sd_bus_match_signal(bus, NULL, SD_DEST, SD_PATH, SD_MANAGER, "UnitRemoved", on_unit_new_removed, NULL);
	if (r >= 0)
		r = sd_bus_match_signal(bus, NULL, SD_DEST, NULL, "org.freedesktop.DBus.Properties",
					"PropertiesChanged", on_properties_changed, NULL);
	if (r < 0)
		goto fail;
	/* without Subscribe systemd sends no unit signals */
	r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER, "Subscribe", &error, NULL, NULL);
	sd_bus_error_free(&error);
	if (r < 0)
		goto fail;
	*ret = bus;
	return 0;
fail:
	sd_bus_unref(bus);
	return r;
}

int bus_slice_cgroup(sd_bus *bus, const char *slice, char **ret_cgroup, char *reason, size_t len)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	_cleanup_free_ char *state = NULL, *cgroup = NULL;
	const char *path;
	char *unit_path = NULL;
	int r;

	*ret_cgroup = NULL;
	r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER, "GetUnit", &error, &reply, "s", slice);
	if (r < 0) {
		if (sd_bus_error_has_name(&error, "org.freedesktop.systemd1.NoSuchUnit")) {
			snprintf(reason, len, "slice not loaded (it starts with its first unit)");
			r = 0;
		} else {
			snprintf(reason, len, "systemd GetUnit(%s) failed: %s", slice,
				 error.message ? error.message : strerror(-r));
		}
		goto out;
	}
	r = sd_bus_message_read(reply, "o", &path);
	if (r < 0) {
		snprintf(reason, len, "bad GetUnit reply: %s", strerror(-r));
		goto out;
	}
	unit_path = strdup(path);
	if (!unit_path) {
		r = -ENOMEM;
		goto out;
	}
	r = sd_bus_get_property_string(bus, SD_DEST, unit_path, "org.freedesktop.systemd1.Unit", "ActiveState",
				       &error, &state);
	if (r < 0) {
		snprintf(reason, len, "cannot read ActiveState of %s: %s", slice, error.message ? error.message : strerror(-r));
		goto out;
	}
	if (!streq(state, "active") && !streq(state, "reloading") && !streq(state, "activating")) {
		snprintf(reason, len, "slice is %s", state);
		r = 0;
		goto out;
	}
	r = sd_bus_get_property_string(bus, SD_DEST, unit_path, "org.freedesktop.systemd1.Slice", "ControlGroup",
				       &error, &cgroup);
	if (r < 0) {
		snprintf(reason, len, "cannot read ControlGroup of %s: %s", slice, error.message ? error.message : strerror(-r));
		goto out;
	}
	if (!cgroup[0]) {
		snprintf(reason, len, "slice has no cgroup yet");
		r = 0;
		goto out;
	}
	*ret_cgroup = cgroup;
	cgroup = NULL;
	r = 1;
out:
	free(unit_path);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	return r;
}
