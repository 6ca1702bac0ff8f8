// SPDX-License-Identifier: GPL-2.0
/*
 * Protection ops (tests b and m): attached to the protected cgroup, below_low
 * and below_min return what the test configured, get_min returns size_pages
 * (size_ops), and each counts its calls.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Set by the test. */
bool protect_low;
bool protect_min;
__u64 size_pages;

/* Read by the test. */
__u64 below_low_calls;
__u64 below_min_calls;
__u64 get_min_calls;

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

SEC("struct_ops/get_min")
unsigned long BPF_PROG(kt_get_min, struct mem_cgroup *memcg, unsigned long usage)
{
	__sync_fetch_and_add(&get_min_calls, 1);
	return size_pages;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops size_ops = {
	.get_min = (void *)kt_get_min,
};

SEC(".struct_ops.link")
struct memcg_bpf_ops protect_ops = {
	.below_low = (void *)kt_below_low,
	.below_min = (void *)kt_below_min,
};

char LICENSE[] SEC("license") = "GPL";
