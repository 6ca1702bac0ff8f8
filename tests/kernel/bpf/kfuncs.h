/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between kfuncs.bpf.c and i-kfuncs.c: what below_low sampled. */
#pragma once

struct kt_kfunc_sample {
	unsigned long long calls;	/* below_low calls for the target cgroup */
	unsigned long long usage;	/* bpf_mem_cgroup_usage(), bytes */
	unsigned long long pgfault;	/* bpf_mem_cgroup_vm_events(PGFAULT) */
	unsigned long long anon;	/* bpf_mem_cgroup_page_state(NR_ANON_MAPPED), bytes */
	unsigned long long low_events;	/* bpf_mem_cgroup_memory_events(MEMCG_LOW) */
	unsigned long long root_ok;	/* bpf_get_root_mem_cgroup() != NULL */
	unsigned long long root_usage;	/* bpf_mem_cgroup_usage(root), bytes */
	/* Items the memory controller does not account: (unsigned long)-1 expected */
	unsigned long long bad_page_state_neg;	/* bpf_mem_cgroup_page_state(-1) */
	unsigned long long bad_page_state_nr;	/* bpf_mem_cgroup_page_state(MEMCG_NR_STAT) */
	unsigned long long bad_vm_event;	/* bpf_mem_cgroup_vm_events(NR_VM_EVENT_ITEMS) */
	unsigned long long bad_memory_event;	/* bpf_mem_cgroup_memory_events(MEMCG_NR_MEMORY_EVENTS) */
};
