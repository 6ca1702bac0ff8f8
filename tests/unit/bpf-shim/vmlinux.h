/* SPDX-License-Identifier: GPL-2.0-only */
/* Host stand-in for vmlinux.h: just the kernel types memcgd.bpf.c touches, so that its logic
 * can be unit-tested as plain C (test-bpf-logic.c). Nothing here is loaded into a kernel. */
#ifndef __VMLINUX_H__
#define __VMLINUX_H__

#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

typedef __u64 u64;
typedef __u32 u32;

enum vm_event_item {
	PGPGIN = 0,
	PGFAULT = 17,
	PGMAJFAULT = 18,
};

struct kernfs_node {
	struct kernfs_node *parent;
	__u64 id;
};

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	unsigned int flags;
};

struct mem_cgroup;

struct cgroup {
	struct kernfs_node *kn;
	struct cgroup_subsys_state self;
	struct mem_cgroup *shim_memcg; /* what bpf_get_mem_cgroup(&cgrp->self) returns */
};

/* page counts, as the kernel's */
struct page_counter {
	unsigned long min;
	unsigned long low;
};

struct bpf_wq {
	__u64 __opaque[2];
};

/* css->flags, as the kernel numbers them (include/linux/cgroup-defs.h) */
enum {
	CSS_NO_REF = 1,
	CSS_ONLINE = 2,
	CSS_RELEASED = 4,
	CSS_VISIBLE = 8,
	CSS_DYING = 16,
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	unsigned long shim_usage; /* what bpf_mem_cgroup_usage() returns in test-bpf-logic */
	struct page_counter memory;
};

/* what numa_balancing may write, prefilled with the global values (kernel-patches/0022) */
struct memcg_numa_params {
	u32 scan_period_min_ms;
	u32 scan_period_max_ms;
	u32 scan_size_mb;
	u32 hot_threshold_ms;
};

enum memcg_numab_decision {
	MEMCG_NUMAB_DEFAULT,
	MEMCG_NUMAB_ON,
	MEMCG_NUMAB_OFF,
};

struct memcg_bpf_ops {
	void *handle_cgroup_online;
	void *handle_cgroup_offline;
	void *below_low;
	void *below_min;
	void *get_low;
	void *get_min;
	void *get_high_delay_ms;
	void *memcg_charged;
	void *numa_balancing;
};

#endif
