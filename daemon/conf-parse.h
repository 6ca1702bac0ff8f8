/* SPDX-License-Identifier: GPL-2.0-only */
/* Parsing one configuration file with inih: every error is reported as file:line. */
#pragma once

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "conf-model.h"
#include "diag.h"

/* Parses a slice file. defaults come from memcgd.conf. Returns 0 when the file produced no
 * diagnostics, -EINVAL when it did (the diagnostics are appended to d), -errno on I/O errors
 * (also reported in d). ret is filled as far as possible either way; free with slice_conf_done. */
int conf_parse_slice_file(const char *path, const struct slice_settings *defaults,
			  struct slice_conf *ret, struct diag_list *d);
int conf_parse_slice_stream(FILE *f, const char *path, const struct slice_settings *defaults,
			    struct slice_conf *ret, struct diag_list *d);

/* Parses memcgd.conf: [Daemon] and the defaults of the slice files' sections. */
int conf_parse_main_file(const char *path, struct daemon_conf *ret, struct diag_list *d);
int conf_parse_main_stream(FILE *f, const char *path, struct daemon_conf *ret, struct diag_list *d);

/* StrictModes: 0 when st (of path) is owned by root or `trusted` and not group/other-writable,
 * else -EPERM with a diagnostic naming the file. The *_file functions above apply it (with the
 * caller's effective uid as trusted) to every file and its directory. */
int conf_file_check_owner(const char *path, const struct stat *st, uid_t trusted, struct diag_list *d);
