// SPDX-License-Identifier: GPL-2.0
/*
 * Test g: memcg_bpf_ops callbacks run in reclaim and charge paths that
 * cannot sleep: a sleepable program must be rejected at load (-EINVAL).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("struct_ops.s/below_low")
bool BPF_PROG(kt_sleepable_below_low, struct mem_cgroup *memcg)
{
	return false;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops sleepable_ops = {
	.below_low = (void *)kt_sleepable_below_low,
};

char LICENSE[] SEC("license") = "GPL";
