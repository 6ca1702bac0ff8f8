// SPDX-License-Identifier: GPL-2.0
/*
 * Test o: get_high_delay_ms() reads bpf_mem_cgroup_charged_pages(), the
 * pages the current task charged since it last returned to user space, and
 * records the largest value and the sum. It never delays.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

extern unsigned long bpf_mem_cgroup_charged_pages(void) __ksym;

/* Read by the test. */
__u64 calls;
__u64 max_pages;
__u64 sum_pages;

SEC("struct_ops/get_high_delay_ms")
unsigned int BPF_PROG(kt_charge, struct mem_cgroup *memcg)
{
	__u64 pages = bpf_mem_cgroup_charged_pages();

	__sync_fetch_and_add(&calls, 1);
	__sync_fetch_and_add(&sum_pages, pages);
	/* one faulting task at a time: a plain maximum is enough */
	if (pages > max_pages)
		max_pages = pages;
	return 0;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops charge_ops = {
	.get_high_delay_ms = (void *)kt_charge,
};

char LICENSE[] SEC("license") = "GPL";
