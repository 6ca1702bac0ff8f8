/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading cgroup v2 files. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define CGROUP_ROOT "/sys/fs/cgroup"

/* Reads a memory.* value: a number of bytes, or "max" as UINT64_MAX. */
int cgroup_read_memory_value(const char *cgroup_dir, const char *file, uint64_t *ret);
/* cpu.stat's usage_usec: CPU time of every task in the cgroup (present without the cpu
 * controller too). */
int cgroup_read_cpu_usage_usec(const char *cgroup_dir, uint64_t *ret);
/* The values of keys[0..n-1] in a flat keyed file (memory.stat: "key value" lines) into values[].
 * Returns 0 when every key was found, -EBADMSG when one was not (e.g. a kernel without NUMA
 * balancing has no numa_* items), -errno when the file cannot be read. */
int cgroup_read_stat(const char *cgroup_dir, const char *file, const char *const *keys, size_t n, uint64_t *values);
/* cgroup id (the inode number of its directory in cgroup2fs). */
int cgroup_id_of(const char *cgroup_dir, uint64_t *ret);
/* memory.stat's workingset_refault_anon + workingset_refault_file: pages faulted back in after
 * reclaim took them (the memory a cgroup needed and lost). */
int cgroup_read_refaults(const char *cgroup_dir, uint64_t *ret);
/* The "some" line's avg10 (a percentage) of a PSI file's text ("some avg10=0.12 avg60=..."). */
int cgroup_parse_psi_some_avg10(const char *text, double *ret);
/* The same from a cgroup's PSI file (memory.pressure); -errno when it cannot be read (a kernel
 * without CONFIG_PSI, or psi=0). */
int cgroup_read_psi_some_avg10(const char *cgroup_dir, const char *file, double *ret);
