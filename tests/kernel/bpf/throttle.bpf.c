// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC's over_high scenario (test a): while the high-priority cgroup
 * (high_cgid) keeps faulting pages, get_high_delay_ms of the ops attached to
 * the low-priority cgroup returns delay_ms. The sched_switch and sched_wakeup
 * programs measure how long each task that was given a delay then slept: the
 * kernel sleeps right after get_high_delay_ms returns, on the way back to user
 * space (__memcg_bpf_throttle), so the task's next switch-out that is not a
 * preemption is that sleep, and its next wakeup ends it.
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
__u64 sleeps;
__u64 slept_ns;

/* tid -> 0 while a delay was returned and the task is not asleep yet, then when it went to sleep */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} delayed SEC(".maps");

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
	if (delay_ms) {
		__u32 tid = (__u32)bpf_get_current_pid_tgid();
		__u64 pending = 0;

		bpf_map_update_elem(&delayed, &tid, &pending, BPF_ANY);
	}
	return delay_ms;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(kt_delay_sleeps, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u32 tid = prev->pid;
	__u64 *since;

	if (preempt || !prev_state)
		return 0;
	since = bpf_map_lookup_elem(&delayed, &tid);
	if (since && !*since)
		*since = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(kt_delay_wakes, struct task_struct *p)
{
	__u32 tid = p->pid;
	__u64 *since = bpf_map_lookup_elem(&delayed, &tid);

	if (!since || !*since)
		return 0;
	__sync_fetch_and_add(&slept_ns, bpf_ktime_get_ns() - *since);
	__sync_fetch_and_add(&sleeps, 1);
	bpf_map_delete_elem(&delayed, &tid);
	return 0;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops low_ops = {
	.get_high_delay_ms = (void *)kt_low_high_delay,
};

char LICENSE[] SEC("license") = "GPL";
