/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel probe's result kept across memcgd's starts within one boot. Parsing the kernel's
 * BTF is cheap on hardware and costs seconds under emulation, and a start probed twice
 * (ExecCondition=memcgd --check-kernel, then memcgd itself), as does `memcgctl status` while
 * memcgd is stopped. The result is keyed by the kernel (uname's release and version, the size
 * of /sys/kernel/btf/vmlinux): another kernel, or BTF hidden (TemporaryFileSystem=/sys/kernel/btf),
 * probes again. Not by the boot id: memcgd.service's ProcSubset=pid hides /proc/sys, and the
 * answer depends on the kernel only. A file that does not match or does not parse is ignored,
 * never trusted in part.
 */
#pragma once

#include <stddef.h>
#include <sys/utsname.h>

#include "kernel-probe.h"

/* The key of kernel u with its BTF at btf_path; -errno when the BTF cannot be read (then
 * nothing is cached: the probe runs and reports why). */
int kernel_probe_cache_key(const struct utsname *u, const char *btf_path, char *key, size_t len);

/* Fill ks and *result (what kernel_probe() returned) from the file when it holds key; -ENOENT
 * when it does not exist, -ESTALE when it holds another key, -EBADMSG when it does not parse. */
int kernel_probe_cache_load(const char *file, const char *key, struct kernel_support *ks, int *result);

/* Write ks and result for key to the file (a temporary file renamed over it). */
int kernel_probe_cache_store(const char *file, const char *key, const struct kernel_support *ks, int result);

/* kernel_probe(NULL, ks) through the cache file: loaded when it matches, else probed and, when
 * store is true and the answer is definite (0 or -EOPNOTSUPP), stored. file NULL: no cache. */
int kernel_probe_cached(const char *file, bool store, struct kernel_support *ks);
