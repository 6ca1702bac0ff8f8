// SPDX-License-Identifier: GPL-2.0
/*
 * Protection ops (test b): attached to the protected cgroup, below_low and
 * below_min return what the test configured, and count their calls.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Set by the test. */
bool protect_low;
bool protect_min;

/* Read by the test. */
__u64 below_low_calls;
__u64 below_min_calls;

SEC("struct_ops/below_low")
bool BPF_PROG(kt_below_low, struct mem_cgroup *memcg)
{
	__sync_fetch_and_add(&below_low_calls, 1);
	return protect_low;
}

SEC("struct_ops/below_min")
bool BPF_PROG(kt_below_min, struct mem_cgroup *memcg)
{
	__sync_fetch_and_add(&below_min_calls, 1);
	return protect_min;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops protect_ops = {
	.below_low = (void *)kt_below_low,
	.below_min = (void *)kt_below_min,
};

char LICENSE[] SEC("license") = "GPL";
