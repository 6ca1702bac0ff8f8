/* SPDX-License-Identifier: GPL-2.0-only */
/* Which configuration memcgd puts in force, the same rule at start and at reload (memcgd.d(5),
 * "Invalid files"): every valid file applies; a file with a problem is left out, and at a reload
 * the policies it had in force stay until it is fixed; a policy that would throttle or reclaim an
 * exempt cgroup is refused. */
#pragma once

#include "conf.h"
#include "diag.h"
#include "exempt.h"

/* Loads the configuration below root. old is the configuration in force (NULL at start), e the
 * exempt cgroups. Every problem goes to *d as file:line; a policy kept from old adds a note on its
 * file ("previous policy of X.slice stays in force ..."). Returns 0 when nothing was left out, 1
 * when something was (the rest is in *ret), -EINVAL when memcgd.conf itself is invalid (nothing
 * applies: its defaults and [Daemon] settings concern every slice), another -errno on errors. */
int config_load_in_force(const char *root, const struct memcgd_config *old, const struct exempt_set *e,
			 struct memcgd_config *ret, struct diag_list *d);

/* The merge step alone: for every slice of old whose file has a diagnostic in d from index from
 * on, and that c does not configure, a copy of it goes into c, unless e refuses it or it does not
 * validate with the rest (then the valid files win). Returns the number kept. */
size_t config_keep_previous(struct memcgd_config *c, const struct memcgd_config *old, const struct exempt_set *e,
			    struct diag_list *d, size_t from);
