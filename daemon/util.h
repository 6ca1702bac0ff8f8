/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers shared by memcgd and memcgctl: cleanup attributes, string helpers. */
#pragma once

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

#define _cleanup_free_ __attribute__((cleanup(freep)))
#define _cleanup_close_ __attribute__((cleanup(closep)))
#define _cleanup_fclose_ __attribute__((cleanup(fclosep)))
#define _cleanup_closedir_ __attribute__((cleanup(closedirp)))

static inline bool streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static inline bool str_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* Returns a pointer that must be freed, or NULL (errno = ENOMEM). */
char *strjoin3(const char *a, const char *b, const char *c);
/* Reads a whole small file (cgroup/proc/sysfs attribute) without the trailing newline. */
int read_one_line(const char *path, char **ret);
