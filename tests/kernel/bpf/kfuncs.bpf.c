// SPDX-License-Identifier: GPL-2.0
/*
 * Test i: the memcg kfuncs are callable from a memcg_bpf_ops program.
 * below_low samples them for the target cgroup (the first call only, so the
 * test compares one consistent snapshot) and never protects anything. It
 * also passes items the memory controller does not account, for which the
 * kfuncs return (unsigned long)-1 as upstream's do.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kfuncs.h"

extern struct mem_cgroup *bpf_get_root_mem_cgroup(void) __ksym;
extern void bpf_put_mem_cgroup(struct mem_cgroup *memcg) __ksym;
extern unsigned long bpf_mem_cgroup_vm_events(struct mem_cgroup *memcg,
					      enum vm_event_item event) __ksym;
extern unsigned long bpf_mem_cgroup_memory_events(struct mem_cgroup *memcg,
						  enum memcg_memory_event event) __ksym;
extern unsigned long bpf_mem_cgroup_usage(struct mem_cgroup *memcg) __ksym;
extern unsigned long bpf_mem_cgroup_page_state(struct mem_cgroup *memcg, int idx) __ksym;

/* Set by the test. */
__u64 target_cgid;

/* Read by the test. */
struct kt_kfunc_sample sample;
__u64 other_calls;

SEC("struct_ops/below_low")
bool BPF_PROG(kt_kfunc_below_low, struct mem_cgroup *memcg)
{
	struct mem_cgroup *root;

	if (memcg->css.cgroup->kn->id != target_cgid) {
		__sync_fetch_and_add(&other_calls, 1);
		return false;
	}
	if (__sync_fetch_and_add(&sample.calls, 1))
		return false;

	sample.usage = bpf_mem_cgroup_usage(memcg);
	sample.pgfault = bpf_mem_cgroup_vm_events(memcg, PGFAULT);
	sample.anon = bpf_mem_cgroup_page_state(memcg, NR_ANON_MAPPED);
	sample.low_events = bpf_mem_cgroup_memory_events(memcg, MEMCG_LOW);
	sample.bad_page_state_neg = bpf_mem_cgroup_page_state(memcg, -1);
	sample.bad_page_state_nr = bpf_mem_cgroup_page_state(memcg, MEMCG_NR_STAT);
	sample.bad_vm_event = bpf_mem_cgroup_vm_events(memcg, NR_VM_EVENT_ITEMS);
	sample.bad_memory_event = bpf_mem_cgroup_memory_events(memcg, MEMCG_NR_MEMORY_EVENTS);

	root = bpf_get_root_mem_cgroup();
	if (root) {
		sample.root_ok = 1;
		sample.root_usage = bpf_mem_cgroup_usage(root);
		bpf_put_mem_cgroup(root);
	}
	return false;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops kfunc_ops = {
	.below_low = (void *)kt_kfunc_below_low,
};

char LICENSE[] SEC("license") = "GPL";
