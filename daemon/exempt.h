/* SPDX-License-Identifier: GPL-2.0-only */
/* Self-protection: the cgroups memcgd never delays, whatever a policy says (memcgd(8), SECURITY).
 * memcgd's own cgroup, PID 1's, and those of the units systemd needs to stay responsive; and the
 * policies refused because they would throttle or reclaim one of them. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "../bpf/memcgd.h"
#include "conf-model.h"
#include "diag.h"

/* The units whose cgroups are exempt besides memcgd's own and init.scope. */
extern const char *const exempt_units[];
extern const size_t n_exempt_units;

struct exempt_set {
	size_t n;
	uint64_t ids[MEMCGD_MAX_EXEMPT];
	char *paths[MEMCGD_MAX_EXEMPT]; /* below the cgroup root, for the status */
};

void exempt_set_done(struct exempt_set *e);

/* Finds the exempt cgroups now present below cgroup_root: memcgd's own, /init.scope, and each
 * unit of exempt_units. unit_cgroups[i] is the ControlGroup systemd gave for exempt_units[i], or
 * NULL (no bus, not loaded: system.slice/UNIT); unit_cgroups may be NULL altogether. memcgd's own
 * cgroup comes from /proc/self/cgroup, unless that reads "/" (a cgroup namespace of its own, as in
 * a container): then own_from_bus (its unit's ControlGroup), if known. Only cgroups whose
 * directory exists are kept. */
int exempt_collect(const char *cgroup_root, char *const *unit_cgroups, const char *own_from_bus,
		   struct exempt_set *ret);

/* The cgroup of this process below the cgroup2 root ("0::/path" of /proc/self/cgroup). */
int own_cgroup_path(char **ret);

/* The first exempt cgroup of e inside slice (by systemd's naming rule), or NULL. */
const char *exempt_inside_slice(const struct exempt_set *e, const char *slice);

/* Leaves out of c every slice whose policy would hold back an exempt cgroup of e: [Throttle]
 * Delay= other than 0 or [Reclaim] Background=yes on a slice that contains one (system.slice holds
 * memcgd, journald, dbus and logind), each with a diagnostic naming the file, the slice and the
 * cgroup. Returns the number left out. */
size_t exempt_refuse_policies(struct memcgd_config *c, const struct exempt_set *e, struct diag_list *d);
