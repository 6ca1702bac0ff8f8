/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup2 helpers: a per-test parent /sys/fs/cgroup/memcgd-ktest-<name>/
 * with the memory controller enabled for its children, children below it,
 * control file access, and teardown that kills leftover processes and
 * removes the whole tree on every exit path.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

struct kt_cgroup {
	char path[PATH_MAX];
	int fd;		/* O_RDONLY|O_DIRECTORY fd of the directory, -1 once removed */
	uint64_t id;	/* cgroup id == inode number of the directory */
};

/*
 * Create the test's parent cgroup (removing a stale one first), enable the
 * memory controller for its children, and register its teardown.
 */
struct kt_cgroup *kt_cg_parent(void);

/*
 * Create parent/name. With memory_subtree, also enable the memory controller
 * in the new cgroup's cgroup.subtree_control (for grandchildren). Fails the
 * test on error.
 */
struct kt_cgroup *kt_cg_create(const struct kt_cgroup *parent, const char *name,
			       bool memory_subtree);

/* Remove an empty cgroup directory (retrying while tasks are still exiting). */
int kt_cg_remove(struct kt_cgroup *cg);
/* Kill every process below cg and remove the subtree, children first. */
void kt_cg_destroy_tree(const char *path);
void kt_cg_free(struct kt_cgroup *cg);

/* Write a control file (fmt-formatted). Returns 0 or -errno. */
int kt_cg_write(const struct kt_cgroup *cg, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Read a single-number control file ("max" reads as UINT64_MAX). Fails the test on error. */
uint64_t kt_cg_read_u64(const struct kt_cgroup *cg, const char *file);
/*
 * Read "key value" from a flat keyed file (memory.stat, memory.events,
 * cgroup.stat). Returns false when the key is absent.
 */
bool kt_cg_read_key(const struct kt_cgroup *cg, const char *file, const char *key,
		    uint64_t *value);
/* Like kt_cg_read_key, but the key must exist. */
uint64_t kt_cg_stat(const struct kt_cgroup *cg, const char *file, const char *key);

/* Move process pid (0: the caller) into cg. Returns 0 or -errno. */
int kt_cg_enter(const struct kt_cgroup *cg, int pid);

/* Write buf to path in one write(); 0 or a negative errno (-EIO for a short write). */
int kt_write_file(const char *path, const char *buf);

/* cgroup id of a cgroup2 directory path, 0 on error. */
uint64_t kt_cg_id_of(const char *path);

/* Number of memory cgroups in /proc/cgroups (the num_cgroups column). */
long kt_memcg_count(void);

/* Total swap size in bytes from /proc/swaps. */
uint64_t kt_swap_total(void);
