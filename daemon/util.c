// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>

#include "util.h"

char *strjoin3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *r = malloc(la + lb + lc + 1);

	if (!r)
		return NULL;
	memcpy(r, a, la);
	memcpy(r + la, b, lb);
	memcpy(r + la + lb, c, lc + 1);
	return r;
}

int read_one_line(const char *path, char **ret)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char buf[4096];
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	if (ferror(f))
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	*ret = strdup(buf);
	return *ret ? 0 : -ENOMEM;
}
