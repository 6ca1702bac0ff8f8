// SPDX-License-Identifier: GPL-2.0
/* cgroup2 setup and teardown for the memcgd kernel tests. */
#include "kt-cgroup.h"
#include "ktest.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CGROUP_ROOT "/sys/fs/cgroup"

int kt_write_file(const char *path, const char *buf)
{
	ssize_t len = strlen(buf), n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = -errno;
	else if (n != len)
		err = -EIO;
	close(fd);
	return err;
}

static int read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

uint64_t kt_cg_id_of(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 0;
	return st.st_ino;
}

int kt_cg_write(const struct kt_cgroup *cg, const char *file, const char *fmt, ...)
{
	char path[PATH_MAX + 64], buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", cg->path, file);
	return kt_write_file(path, buf);
}

uint64_t kt_cg_read_u64(const struct kt_cgroup *cg, const char *file)
{
	char path[PATH_MAX + 64], buf[64];
	int err;

	snprintf(path, sizeof(path), "%s/%s", cg->path, file);
	err = read_file(path, buf, sizeof(buf));
	if (err)
		ktest_fail("read %s: %s", path, ktest_strerror(err));
	if (!strncmp(buf, "max", 3))
		return UINT64_MAX;
	return strtoull(buf, NULL, 10);
}

static bool read_key(const char *path, const char *key, uint64_t *value)
{
	char line[256], name[128];
	unsigned long long v;
	bool found = false;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		ktest_fail("open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu", name, &v) == 2 && !strcmp(name, key)) {
			*value = v;
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

bool kt_cg_read_key(const struct kt_cgroup *cg, const char *file, const char *key,
		    uint64_t *value)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", cg->path, file);
	return read_key(path, key, value);
}

uint64_t kt_cg_stat(const struct kt_cgroup *cg, const char *file, const char *key)
{
	uint64_t v;

	if (!kt_cg_read_key(cg, file, key, &v))
		ktest_fail("%s/%s has no '%s' entry", cg->path, file, key);
	return v;
}

int kt_cg_enter(const struct kt_cgroup *cg, int pid)
{
	return kt_cg_write(cg, "cgroup.procs", "%d", pid);
}

static struct kt_cgroup *cg_open(const char *path)
{
	struct kt_cgroup *cg = calloc(1, sizeof(*cg));

	if (!cg)
		ktest_fail("out of memory");
	snprintf(cg->path, sizeof(cg->path), "%s", path);
	cg->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd < 0)
		ktest_fail("open %s: %s", path, strerror(errno));
	cg->id = kt_cg_id_of(path);
	return cg;
}

static int enable_memory(const char *dir)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	return kt_write_file(path, "+memory");
}

struct kt_cgroup *kt_cg_create(const struct kt_cgroup *parent, const char *name,
			       bool memory_subtree)
{
	char path[PATH_MAX];
	struct kt_cgroup *cg;
	int err;

	if (snprintf(path, sizeof(path), "%s/%s", parent->path, name) >= (int)sizeof(path))
		ktest_fail("cgroup path %s/%s too long", parent->path, name);
	if (mkdir(path, 0755) < 0)
		ktest_fail("mkdir %s: %s", path, strerror(errno));
	cg = cg_open(path);
	if (memory_subtree) {
		err = enable_memory(path);
		if (err)
			ktest_fail("enable memory controller in %s: %s", path,
				   ktest_strerror(err));
	}
	return cg;
}

static bool is_populated(const char *path)
{
	char events[PATH_MAX + 32];
	uint64_t populated = 0;

	snprintf(events, sizeof(events), "%s/cgroup.events", path);
	if (access(events, F_OK) < 0)
		return false;
	read_key(events, "populated", &populated);
	return populated != 0;
}

static bool cg_empty_cond(void *data)
{
	return !is_populated(data);
}

int kt_cg_remove(struct kt_cgroup *cg)
{
	double deadline = ktest_now() + 30;

	if (cg->fd < 0)
		return -ENOENT;
	while (rmdir(cg->path) < 0) {
		if (errno != EBUSY || ktest_now() > deadline)
			return -errno;
		ktest_sleep_ms(50);
	}
	close(cg->fd);
	cg->fd = -1;
	return 0;
}

void kt_cg_free(struct kt_cgroup *cg)
{
	if (!cg)
		return;
	if (cg->fd >= 0)
		close(cg->fd);
	free(cg);
}

static int rmdir_cb(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type != FTW_DP)
		return 0;
	for (int i = 0; i < 600 && rmdir(path) < 0; i++) {
		if (errno == ENOENT)
			break;
		if (errno != EBUSY) {
			ktest_log("cleanup: rmdir %s: %s", path, strerror(errno));
			break;
		}
		ktest_sleep_ms(50);
	}
	return 0;
}

void kt_cg_destroy_tree(const char *path)
{
	char kill_path[PATH_MAX + 32];

	if (access(path, F_OK) < 0)
		return;
	snprintf(kill_path, sizeof(kill_path), "%s/cgroup.kill", path);
	if (is_populated(path)) {
		kt_write_file(kill_path, "1");
		if (!ktest_wait_for(cg_empty_cond, (void *)path, 30, 50))
			ktest_log("cleanup: %s still populated after cgroup.kill", path);
	}
	nftw(path, rmdir_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static void parent_cleanup(void *data)
{
	struct kt_cgroup *parent = data;

	kt_cg_destroy_tree(parent->path);
	kt_cg_free(parent);
}

struct kt_cgroup *kt_cg_parent(void)
{
	char path[PATH_MAX];
	struct kt_cgroup *cg;
	int err;

	err = enable_memory(CGROUP_ROOT);
	if (err && err != -EBUSY)
		ktest_skip("cannot enable the memory controller at %s: %s", CGROUP_ROOT,
			   ktest_strerror(err));
	snprintf(path, sizeof(path), "%s/memcgd-ktest-%s", CGROUP_ROOT, ktest_name());
	kt_cg_destroy_tree(path);	/* left over by a killed earlier run */
	if (mkdir(path, 0755) < 0)
		ktest_fail("mkdir %s: %s", path, strerror(errno));
	cg = cg_open(path);
	ktest_on_exit(parent_cleanup, cg);
	err = enable_memory(path);
	if (err)
		ktest_fail("enable memory controller in %s: %s", path, ktest_strerror(err));
	return cg;
}

long kt_memcg_count(void)
{
	char name[64];
	int hier, num, enabled;
	long count = -1;
	char line[256];
	FILE *f;

	f = fopen("/proc/cgroups", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d %d %d", name, &hier, &num, &enabled) == 4 &&
		    !strcmp(name, "memory")) {
			count = num;
			break;
		}
	}
	fclose(f);
	return count;
}

uint64_t kt_swap_total(void)
{
	char line[512], path[256], type[32];
	unsigned long long size, used;
	uint64_t total = 0;
	FILE *f;

	f = fopen("/proc/swaps", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %31s %llu %llu", path, type, &size, &used) == 4)
			total += size * 1024ULL;
	}
	fclose(f);
	return total;
}
