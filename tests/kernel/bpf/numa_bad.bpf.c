// SPDX-License-Identifier: GPL-2.0
/*
 * Test s: memcg_bpf_ops programs may write struct memcg_numa_params and no
 * other kernel memory. This one writes to the memory cgroup it is given:
 * the verifier must refuse it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("struct_ops/numa_balancing")
int BPF_PROG(kt_numa_bad, struct mem_cgroup *memcg, struct memcg_numa_params *params)
{
	memcg->oom_group = true;
	return MEMCG_NUMAB_ON;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops numa_bad_ops = {
	.numa_balancing = (void *)kt_numa_bad,
};

char LICENSE[] SEC("license") = "GPL";
