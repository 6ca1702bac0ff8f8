/* SPDX-License-Identifier: GPL-2.0-only */
/* Where configuration files are found: systemd's precedence and masking rules. */
#pragma once

#include <stddef.h>

#include "diag.h"

/* Highest precedence first. A file in an earlier directory masks the same-named file in a
 * later one; a symlink to /dev/null or an empty file masks without configuring anything. */
extern const char *const memcgd_slice_dirs[];
extern const size_t memcgd_n_slice_dirs;
extern const char *const memcgd_main_conf_paths[];
extern const size_t memcgd_n_main_conf_paths;

struct conf_file_list {
	char **paths; /* full paths, sorted by file name */
	size_t n;
};

void conf_file_list_done(struct conf_file_list *l);

/* Lists the *.conf slice files below root ("" for the real root) that are in force.
 * Unreadable directories are reported in d; missing ones are skipped. */
int conf_files_list(const char *root, struct conf_file_list *ret, struct diag_list *d);
/* The memcgd.conf in force, or *ret = NULL when there is none or it is masked. */
int conf_main_file(const char *root, char **ret);
/* True when path masks (symlink to /dev/null, the null device, an empty regular file). */
int conf_file_is_mask(const char *path);
