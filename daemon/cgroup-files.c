// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cgroup-files.h"
#include "util.h"

int cgroup_read_memory_value(const char *cgroup_dir, const char *file, uint64_t *ret)
{
	_cleanup_free_ char *path = strjoin3(cgroup_dir, "/", file);
	_cleanup_free_ char *line = NULL;
	char *end;
	int r;

	if (!path)
		return -ENOMEM;
	r = read_one_line(path, &line);
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
