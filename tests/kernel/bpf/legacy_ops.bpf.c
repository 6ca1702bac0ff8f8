// SPDX-License-Identifier: GPL-2.0
/*
 * Test g: a memcg_bpf_ops map without BPF_F_LINK (plain ".struct_ops"),
 * registered by a map update. The kernel must refuse it (-EOPNOTSUPP):
 * memcg_bpf_ops only exists attached to a cgroup through a link.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("struct_ops/below_low")
bool BPF_PROG(kt_legacy_below_low, struct mem_cgroup *memcg)
{
	return false;
}

SEC(".struct_ops")
struct memcg_bpf_ops legacy_ops = {
	.below_low = (void *)kt_legacy_below_low,
};

char LICENSE[] SEC("license") = "GPL";
