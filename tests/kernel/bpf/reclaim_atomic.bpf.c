// SPDX-License-Identifier: GPL-2.0
/*
 * Test r: a memcg_bpf_ops program that calls the sleepable reclaim kfunc
 * from memcg_charged() itself, which is not sleepable. The verifier must
 * refuse to load it: reclaim never runs in the charging task's return path.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

extern long bpf_try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr_pages,
					     u32 flags) __ksym;

SEC("struct_ops/memcg_charged")
void BPF_PROG(kt_charged_reclaim, struct mem_cgroup *memcg, unsigned long nr_pages)
{
	bpf_try_to_free_mem_cgroup_pages(memcg, nr_pages, 0);
}

SEC(".struct_ops.link")
struct memcg_bpf_ops atomic_ops = {
	.memcg_charged = (void *)kt_charged_reclaim,
};

char LICENSE[] SEC("license") = "GPL";
