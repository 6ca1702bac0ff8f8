/* SPDX-License-Identifier: GPL-2.0-only */
/* The cross-slice budget of Mode=min: memory.min-style protection the kernel never reclaims, so
 * the ceilings (MaxUsage=) of all Mode=min slices together must leave the machine a reserve.
 * See memcgd.d(5), [Protect] MaxUsage=. */
#pragma once

#include <stdint.h>

#include "conf-model.h"
#include "diag.h"

/* The memory the budget is computed for: this machine's (sysinfo) unless set, e.g. by
 * `memcgctl check --memory=SIZE` for the nodes a configuration is meant for; 0: unknown (no
 * budget check, as no default ceiling can be resolved either). */
void min_budget_set_ram(uint64_t ram_bytes);
uint64_t min_budget_ram(void);

/* The reserve that the Mode=min ceilings must leave: a tenth of the memory, at least
 * MIN_BUDGET_RESERVE_FLOOR (declared, not measured: memcgd.d(5)). */
#define MIN_BUDGET_RESERVE_FLOOR (256ULL << 20)
uint64_t min_budget_reserve(uint64_t ram_bytes);

/* Adds a diagnostic, on its file, for every Mode=min slice whose ceiling no longer fits: the
 * slices are taken by priority, highest first (in file order among equals), and each one's
 * ceiling is added while the sum stays within memory minus the reserve. A Mode=min slice inside
 * another Mode=min slice is within its parent's ceiling and not counted again. */
void min_budget_check(const struct memcgd_config *c, uint64_t ram_bytes, struct diag_list *d);
