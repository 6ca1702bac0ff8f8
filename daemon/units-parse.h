/* SPDX-License-Identifier: GPL-2.0-only */
/* systemd-style values: durations ("1s", "250ms", "1min 30s"), sizes ("64M"), counts ("20k"). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USEC_PER_MSEC UINT64_C(1000)
#define USEC_PER_SEC UINT64_C(1000000)
#define USEC_INFINITY UINT64_MAX
#define SIZE_INFINITY UINT64_MAX

/* Duration in microseconds; a bare number means seconds (as systemd's "sec" values).
 * "infinity" gives USEC_INFINITY. Returns 0 or -EINVAL / -ERANGE. */
int parse_duration(const char *s, uint64_t *ret_usec);
/* Size in bytes with base-1024 suffixes K, M, G, T (also KiB...); "infinity" gives SIZE_INFINITY. */
int parse_size(const char *s, uint64_t *ret_bytes);
/* Count with optional base-1000 suffixes k, M, G ("20k" = 20000). */
int parse_count(const char *s, uint64_t *ret);
/* Integer in [min, max]. */
int parse_int_range(const char *s, long min, long max, long *ret);
/* yes/no/true/false/on/off/1/0. */
int parse_bool(const char *s, bool *ret);

/* Formatting for status output: "1min 30s", "250ms", "infinity". */
char *format_duration(char *buf, size_t len, uint64_t usec);
char *format_size(char *buf, size_t len, uint64_t bytes);
