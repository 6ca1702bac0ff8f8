/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading cgroup v2 files. */
#pragma once

#include <stdint.h>

#define CGROUP_ROOT "/sys/fs/cgroup"

/* Reads a memory.* value: a number of bytes, or "max" as UINT64_MAX. */
int cgroup_read_memory_value(const char *cgroup_dir, const char *file, uint64_t *ret);
/* cpu.stat's usage_usec: CPU time of every task in the cgroup (present without the cpu
 * controller too). */
int cgroup_read_cpu_usage_usec(const char *cgroup_dir, uint64_t *ret);
/* cgroup id (the inode number of its directory in cgroup2fs). */
int cgroup_id_of(const char *cgroup_dir, uint64_t *ret);
