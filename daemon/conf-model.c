// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>

#include "../bpf/memcgd.h"
#include "conf-model.h"
#include "units-parse.h"
#include "util.h"

void slice_settings_init(struct slice_settings *s)
{
	*s = (struct slice_settings){
		/* busy at any page fault or any CPU time (memcgd.d(5), policy-engine.h) */
		.fault_rate = 1,
		.window_usec = USEC_PER_SEC,
		.hold_usec = HOLD_AUTO,
		.max_hold_usec = MAX_HOLD_DEFAULT,
		.cpu_usage_percent = CPU_USAGE_ANY,
		.protect = PROTECT_LOW,
		.protect_size = PROTECT_SIZE_FOOTPRINT,
		.protect_max_usage = MAX_USAGE_DEFAULT,
		.throttle_delay_usec = 100 * USEC_PER_MSEC,
		.throttle_when = THROTTLE_WHEN_PRESSURE,
		.throttle_max_usec = 300 * USEC_PER_SEC,
		.reclaim_headroom = RECLAIM_HEADROOM_DEFAULT,
		.reclaim_rate = RECLAIM_RATE_DEFAULT,
		.numa = NUMA_BALANCING_DEFAULT,
	};
}

void daemon_conf_init(struct daemon_conf *d)
{
	*d = (struct daemon_conf){
		.update_interval_usec = USEC_PER_SEC,
		.max_cgroups = MEMCGD_MAX_CGROUPS,
	};
	slice_settings_init(&d->defaults);
}

const char *reclaim_path_to_string(enum reclaim_path p)
{
	switch (p) {
	case RECLAIM_PATH_AUTO:
		return "auto";
	case RECLAIM_PATH_KERNEL:
		return "kernel";
	case RECLAIM_PATH_DAEMON:
		return "memory.reclaim";
	}
	return "?";
}

int reclaim_path_from_string(const char *s, enum reclaim_path *ret)
{
	if (streq(s, "auto"))
		*ret = RECLAIM_PATH_AUTO;
	else if (streq(s, "kernel"))
		*ret = RECLAIM_PATH_KERNEL;
	else if (streq(s, "memory.reclaim"))
		*ret = RECLAIM_PATH_DAEMON;
	else
		return -EINVAL;
	return 0;
}

const char *numa_balancing_to_string(enum numa_balancing b)
{
	switch (b) {
	case NUMA_BALANCING_DEFAULT:
		return "default";
	case NUMA_BALANCING_ON:
		return "yes";
	case NUMA_BALANCING_OFF:
		return "no";
	}
	return "?";
}

int numa_balancing_from_string(const char *s, enum numa_balancing *ret)
{
	bool on;

	if (streq(s, "default")) {
		*ret = NUMA_BALANCING_DEFAULT;
		return 0;
	}
	if (parse_bool(s, &on) < 0)
		return -EINVAL;
	*ret = on ? NUMA_BALANCING_ON : NUMA_BALANCING_OFF;
	return 0;
}

const char *numa_tuning_key_name(enum numa_tuning_key k)
{
	static const char *const names[] = {
		[NUMA_SCAN_PERIOD_MIN] = "ScanPeriodMin",
		[NUMA_SCAN_PERIOD_MAX] = "ScanPeriodMax",
		[NUMA_SCAN_SIZE] = "ScanSize",
		[NUMA_HOT_THRESHOLD] = "HotThreshold",
	};

	return k < ARRAY_SIZE(names) ? names[k] : "?";
}

const char *protect_mode_to_string(enum protect_mode m)
{
	switch (m) {
	case PROTECT_MIN:
		return "min";
	case PROTECT_LOW:
		return "low";
	case PROTECT_NONE:
		return "none";
	}
	return "?";
}

int protect_mode_from_string(const char *s, enum protect_mode *ret)
{
	if (streq(s, "min"))
		*ret = PROTECT_MIN;
	else if (streq(s, "low"))
		*ret = PROTECT_LOW;
	else if (streq(s, "none"))
		*ret = PROTECT_NONE;
	else
		return -EINVAL;
	return 0;
}

bool slice_name_valid(const char *name)
{
	size_t n = strlen(name), stem;

	if (n > SLICE_NAME_MAX || !str_ends_with(name, ".slice"))
		return false;
	stem = n - strlen(".slice");
	if (stem == 0 || (stem == 1 && name[0] == '-'))
		return false; /* ".slice", "-.slice" (the root) */
	for (size_t i = 0; i < stem; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.' || c == ':' || c == '\\'))
			return false;
	}
	/* systemd: the dash-separated prefixes name the parents; none may be empty */
	if (name[0] == '-' || name[stem - 1] == '-' || strstr(name, "--"))
		return false;
	return true;
}

bool slice_is_ancestor(const char *ancestor, const char *slice)
{
	size_t a = strlen(ancestor) - strlen(".slice");

	if (!str_ends_with(ancestor, ".slice") || streq(ancestor, slice))
		return false;
	return strncmp(ancestor, slice, a) == 0 && slice[a] == '-';
}

char *slice_cgroup_path(const char *name)
{
	size_t n = strlen(name), stem = n - strlen(".slice"), len = 0;
	char *r;

	/* each dash marks a parent: a-b-c.slice -> a.slice/a-b.slice/a-b-c.slice */
	r = malloc((n + 8) * (n + 1));
	if (!r)
		return NULL;
	for (size_t i = 0; i < stem; i++) {
		if (name[i] != '-')
			continue;
		memcpy(r + len, name, i);
		len += i;
		memcpy(r + len, ".slice/", 7);
		len += 7;
	}
	memcpy(r + len, name, n + 1);
	return r;
}

void slice_conf_done(struct slice_conf *s)
{
	free(s->name);
	free(s->file);
	s->name = s->file = NULL;
}

void memcgd_config_done(struct memcgd_config *c)
{
	for (size_t i = 0; i < c->n_slices; i++)
		slice_conf_done(&c->slices[i]);
	free(c->slices);
	free(c->daemon.file);
	c->slices = NULL;
	c->daemon.file = NULL;
	c->n_slices = 0;
}

const char *protect_size_to_string(enum protect_size z)
{
	return z == PROTECT_SIZE_ALL ? "all" : "footprint";
}

int protect_size_from_string(const char *s, enum protect_size *ret)
{
	if (streq(s, "footprint"))
		*ret = PROTECT_SIZE_FOOTPRINT;
	else if (streq(s, "all"))
		*ret = PROTECT_SIZE_ALL;
	else
		return -EINVAL;
	return 0;
}

const char *throttle_when_to_string(enum throttle_when w)
{
	return w == THROTTLE_WHEN_ACTIVE ? "active" : "pressure";
}

int throttle_when_from_string(const char *s, enum throttle_when *ret)
{
	if (streq(s, "pressure"))
		*ret = THROTTLE_WHEN_PRESSURE;
	else if (streq(s, "active"))
		*ret = THROTTLE_WHEN_ACTIVE;
	else
		return -EINVAL;
	return 0;
}
