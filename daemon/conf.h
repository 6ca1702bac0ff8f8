/* SPDX-License-Identifier: GPL-2.0-only */
/* Loading the whole configuration: directories (conf-files.c), each file (conf-parse.c) and the
 * checks across files. See memcgd.d(5). */
#pragma once

#include "conf-model.h"
#include "diag.h"

/* Cross-file checks: duplicate slices, nested priority conflicts, limits, the Mode=min budget
 * (min-budget.h). */
void config_validate(const struct memcgd_config *c, struct diag_list *d);

/* Remarks that are not errors, as "file:line: note: ..." diagnostics (memcgctl check prints them):
 * [NUMA] tuning keys where no Balancing=yes applies them. */
void config_notes(const struct memcgd_config *c, struct diag_list *d);

/* Loads the whole configuration below root ("" or "/" for the real one).
 * Returns 0 when no diagnostics were produced, -EINVAL otherwise (diagnostics in *d). */
int config_load(const char *root, struct memcgd_config *ret, struct diag_list *d);
/* memcgd's start: like config_load, but every slice file with a diagnostic (and every slice
 * that conflicts with the ones kept) is left out, so that one bad drop-in does not stop the
 * others. Returns 0 when everything was valid, 1 when something was left out (the reasons are
 * in *d), -EINVAL when memcgd.conf itself is invalid (its defaults apply to every slice), or
 * another -errno. */
int config_load_skipping(const char *root, struct memcgd_config *ret, struct diag_list *d);
/* Loads the given files only: a file named memcgd.conf is read as the daemon configuration,
 * any other as a slice file. */
int config_load_files(char *const *files, size_t n, struct memcgd_config *ret, struct diag_list *d);
