// SPDX-License-Identifier: GPL-2.0
/*
 * Tests k and l: get_high_delay_ms returns delay_ms for every task that
 * charged memory to the cgroup the ops are attached to, and counts its
 * calls: all of them, and those made on behalf of io_uring workers.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* include/linux/sched.h, not in BTF */
#define PF_IO_WORKER 0x00000010

/* Set by the test. */
__u32 delay_ms;

/* Read by the test. */
__u64 delay_calls;
__u64 io_worker_calls;

SEC("struct_ops/get_high_delay_ms")
unsigned int BPF_PROG(kt_delay, struct mem_cgroup *memcg)
{
	struct task_struct *task = bpf_get_current_task_btf();

	__sync_fetch_and_add(&delay_calls, 1);
	if (task->flags & PF_IO_WORKER)
		__sync_fetch_and_add(&io_worker_calls, 1);
	return delay_ms;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops delay_ops = {
	.get_high_delay_ms = (void *)kt_delay,
};

char LICENSE[] SEC("license") = "GPL";
