// SPDX-License-Identifier: GPL-2.0
/*
 * Test h: count PGFAULT events of memcg:count_memcg_events per cgroup id,
 * and all events per cgroup id (to show the tracepoint fires at all).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u64);
} pgfaults SEC(".maps");

__u64 events_seen;

SEC("tp/memcg/count_memcg_events")
int kt_count_pgfaults(struct trace_event_raw_memcg_rstat_events *ctx)
{
	__u64 id = ctx->id, *n;

	__sync_fetch_and_add(&events_seen, 1);
	if (ctx->item != PGFAULT)
		return 0;
	n = bpf_map_lookup_elem(&pgfaults, &id);
	if (!n) {
		__u64 zero = 0;

		bpf_map_update_elem(&pgfaults, &id, &zero, BPF_NOEXIST);
		n = bpf_map_lookup_elem(&pgfaults, &id);
		if (!n)
			return 0;
	}
	__sync_fetch_and_add(n, ctx->val);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
