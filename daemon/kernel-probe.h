/* SPDX-License-Identifier: GPL-2.0-only */
/* What the running kernel offers memcgd, read from its BTF (nothing is loaded). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum memcg_hook {
	HOOK_HANDLE_CGROUP_ONLINE = 1 << 0,
	HOOK_HANDLE_CGROUP_OFFLINE = 1 << 1,
	HOOK_BELOW_LOW = 1 << 2,
	HOOK_BELOW_MIN = 1 << 3,
	HOOK_GET_HIGH_DELAY_MS = 1 << 4,
	HOOK_MEMCG_CHARGED = 1 << 5,
	HOOK_NUMA_BALANCING = 1 << 6, /* [NUMA] Balancing= (kernel-patches/0022) */
	HOOK_GET_LOW = 1 << 7,        /* [Protect] Size=footprint (kernel-patches/0024) */
	HOOK_GET_MIN = 1 << 8,
};

#define HOOKS_SIZED (HOOK_GET_LOW | HOOK_GET_MIN)

#define HOOKS_PROTECT (HOOK_BELOW_LOW | HOOK_BELOW_MIN)

struct kernel_support {
	char release[65];
	bool btf;             /* BTF could be read */
	bool has_ops;         /* struct memcg_bpf_ops */
	bool has_tracepoint;  /* typedef btf_trace_count_memcg_events (memcg:count_memcg_events) */
	unsigned hooks;       /* enum memcg_hook */
	bool has_reclaim_kfunc; /* bpf_try_to_free_mem_cgroup_pages(): background reclaim in the kernel */
	char hook_names[256]; /* every member of memcg_bpf_ops, space separated (also unknown ones) */
	char error[512];      /* why memcgd cannot run here, "" if it can */
};

/* btf_path: NULL for /sys/kernel/btf/vmlinux; an ELF object or raw BTF file otherwise.
 * Returns 0 when memcgd can run (tracepoint + memcg_bpf_ops with the protect hooks), -EOPNOTSUPP
 * with ks->error explaining why not, other -errno when BTF cannot be read. */
int kernel_probe(const char *btf_path, struct kernel_support *ks);
const char *memcg_hook_name(enum memcg_hook h);
