/* SPDX-License-Identifier: GPL-2.0-only */
/* Self-protection: the cgroups memcgd never delays, whatever a policy says (memcgd(8), SECURITY).
 * memcgd's own cgroup, PID 1's, and those of the units systemd needs to stay responsive. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "../bpf/memcgd.h"

/* The units whose cgroups are exempt besides memcgd's own and init.scope. */
extern const char *const exempt_units[];
extern const size_t n_exempt_units;

struct exempt_set {
	size_t n;
	uint64_t ids[MEMCGD_MAX_EXEMPT];
	char *paths[MEMCGD_MAX_EXEMPT]; /* below the cgroup root, for the status */
};

void exempt_set_done(struct exempt_set *e);

/* Finds the exempt cgroups now present: memcgd's own (/proc/self/cgroup), /init.scope, and each
 * unit of exempt_units from its ControlGroup on the bus (bus may be NULL: system.slice/UNIT). */
int exempt_collect(sd_bus *bus, const char *cgroup_root, struct exempt_set *ret);

/* The cgroup of this process below the cgroup2 root ("0::/path" of /proc/self/cgroup). */
int own_cgroup_path(char **ret);
