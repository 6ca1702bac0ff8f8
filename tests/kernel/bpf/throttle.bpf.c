// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC's over_high scenario (test a): while the high-priority cgroup
 * (high_cgid) keeps faulting pages, get_high_delay_ms of the ops attached to
 * the low-priority cgroup returns delay_ms.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Set by the test before attaching. */
__u64 high_cgid;
__u32 delay_ms;
__u64 window_ns;

/* Read by the test. */
__u64 high_faults;
__u64 last_high_fault_ns;
__u64 delay_calls;
__u64 delays_returned;

SEC("tp/memcg/count_memcg_events")
int kt_count_high_faults(struct trace_event_raw_memcg_rstat_events *ctx)
{
	if (ctx->id != high_cgid || ctx->item != PGFAULT)
		return 0;
	__sync_fetch_and_add(&high_faults, ctx->val);
	last_high_fault_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("struct_ops/get_high_delay_ms")
unsigned int BPF_PROG(kt_low_high_delay, struct mem_cgroup *memcg)
{
	__u64 last = last_high_fault_ns;

	__sync_fetch_and_add(&delay_calls, 1);
	if (!last || bpf_ktime_get_ns() - last > window_ns)
		return 0;
	__sync_fetch_and_add(&delays_returned, 1);
	return delay_ms;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops low_ops = {
	.get_high_delay_ms = (void *)kt_low_high_delay,
};

char LICENSE[] SEC("license") = "GPL";
