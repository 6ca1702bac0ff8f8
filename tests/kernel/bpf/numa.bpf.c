// SPDX-License-Identifier: GPL-2.0
/*
 * Test s: memcg_bpf_ops::numa_balancing(). Returns the decision the test
 * chose (enum memcg_numab_decision) for the tasks of the cgroup it is
 * attached to and of its descendants, with the scan parameters the test
 * chose, and records what the kernel passed in: the global parameters.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Set by the test. */
__u32 decision;
__u32 scan_period_min_ms;
__u32 scan_period_max_ms;
__u32 scan_size_mb;

/* Read by the test. */
__u64 calls;
__u64 last_cgroup_id;
__u32 seen_scan_period_min_ms;
__u32 seen_scan_period_max_ms;
__u32 seen_scan_size_mb;
__u32 seen_hot_threshold_ms;

SEC("struct_ops/numa_balancing")
int BPF_PROG(kt_numa_balancing, struct mem_cgroup *memcg, struct memcg_numa_params *params)
{
	__sync_fetch_and_add(&calls, 1);
	last_cgroup_id = memcg->css.cgroup->kn->id;
	seen_scan_period_min_ms = params->scan_period_min_ms;
	seen_scan_period_max_ms = params->scan_period_max_ms;
	seen_scan_size_mb = params->scan_size_mb;
	seen_hot_threshold_ms = params->hot_threshold_ms;
	if (decision == MEMCG_NUMAB_ON) {
		params->scan_period_min_ms = scan_period_min_ms;
		params->scan_period_max_ms = scan_period_max_ms;
		params->scan_size_mb = scan_size_mb;
	}
	return decision;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops numa_ops = {
	.numa_balancing = (void *)kt_numa_balancing,
};

char LICENSE[] SEC("license") = "GPL";
