// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroup-files.h"
#include "util.h"

/* The first line of cgroup_dir/file. */
static int read_cgroup_line(const char *cgroup_dir, const char *file, char **ret)
{
	_cleanup_free_ char *path = strjoin3(cgroup_dir, "/", file);

	if (!path)
		return -ENOMEM;
	return read_one_line(path, ret);
}

int cgroup_read_memory_value(const char *cgroup_dir, const char *file, uint64_t *ret)
{
	_cleanup_free_ char *line = NULL;
	char *end;
	int r;

	r = read_cgroup_line(cgroup_dir, file, &line);
	if (r < 0)
		return r;
	if (streq(line, "max")) {
		*ret = UINT64_MAX;
		return 0;
	}
	errno = 0;
	*ret = strtoull(line, &end, 10);
	if (errno || end == line || *end)
		return -EBADMSG;
	return 0;
}

int cgroup_read_stat(const char *cgroup_dir, const char *file, const char *const *keys, size_t n, uint64_t *values)
{
	_cleanup_free_ char *path = strjoin3(cgroup_dir, "/", file);
	_cleanup_fclose_ FILE *f = NULL;
	size_t found = 0;
	char key[64];
	uint64_t v;

	if (!path)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (found < n && fscanf(f, "%63s %" SCNu64, key, &v) == 2)
		for (size_t i = 0; i < n; i++)
			if (streq(key, keys[i])) {
				values[i] = v;
				found++;
			}
	return found == n ? 0 : -EBADMSG;
}

int cgroup_read_cpu_usage_usec(const char *cgroup_dir, uint64_t *ret)
{
	static const char *const keys[] = { "usage_usec" };

	return cgroup_read_stat(cgroup_dir, "cpu.stat", keys, 1, ret);
}

int cgroup_id_of(const char *cgroup_dir, uint64_t *ret)
{
	struct stat st;

	if (stat(cgroup_dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*ret = (uint64_t)st.st_ino;
	return 0;
}

int cgroup_read_refaults(const char *cgroup_dir, uint64_t *ret)
{
	static const char *const keys[] = { "workingset_refault_anon", "workingset_refault_file" };
	uint64_t v[2];
	int r = cgroup_read_stat(cgroup_dir, "memory.stat", keys, 2, v);

	if (r < 0)
		return r;
	*ret = v[0] + v[1];
	return 0;
}

int cgroup_parse_psi_some_avg10(const char *text, double *ret)
{
	const char *p = strstr(text, "some ");
	char *end;

	if (!p || (p != text && p[-1] != '\n'))
		return -EBADMSG;
	p = strstr(p, "avg10=");
	if (!p)
		return -EBADMSG;
	errno = 0;
	*ret = strtod(p + 6, &end);
	if (errno || end == p + 6 || *ret < 0 || *ret > 100)
		return -EBADMSG;
	return 0;
}

int cgroup_read_psi_some_avg10(const char *cgroup_dir, const char *file, double *ret)
{
	_cleanup_free_ char *line = NULL;
	/* "some ..." is the first line of a PSI file */
	int r = read_cgroup_line(cgroup_dir, file, &line);

	return r < 0 ? r : cgroup_parse_psi_some_avg10(line, ret);
}
