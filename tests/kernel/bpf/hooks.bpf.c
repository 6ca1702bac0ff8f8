// SPDX-License-Identifier: GPL-2.0
/*
 * Observer ops for the hierarchy tests (c, d, e, f, j): two memcg_bpf_ops
 * maps, ops_a and ops_b, whose callbacks only count how often they ran for
 * which cgroup id. They never change kernel behaviour: below_low/below_min
 * return false and get_high_delay_ms returns 0.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hooks.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct kt_hits);
} hits SEC(".maps");

static __always_inline __u64 memcg_cgroup_id(struct mem_cgroup *memcg)
{
	return memcg->css.cgroup->kn->id;
}

static __always_inline void count(struct mem_cgroup *memcg, int ops, int hook)
{
	__u64 id = memcg_cgroup_id(memcg);
	struct kt_hits *h;

	h = bpf_map_lookup_elem(&hits, &id);
	if (!h) {
		struct kt_hits zero = {};

		bpf_map_update_elem(&hits, &id, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hits, &id);
		if (!h)
			return;
	}
	__sync_fetch_and_add(&h->n[ops][hook], 1);
}

#define KT_OPS(name, tag)                                                          \
	SEC("struct_ops/handle_cgroup_online")                                     \
	void BPF_PROG(name##_online, struct mem_cgroup *memcg)                     \
	{                                                                          \
		count(memcg, tag, KT_ONLINE);                                      \
	}                                                                          \
	SEC("struct_ops/handle_cgroup_offline")                                    \
	void BPF_PROG(name##_offline, struct mem_cgroup *memcg)                    \
	{                                                                          \
		count(memcg, tag, KT_OFFLINE);                                     \
	}                                                                          \
	SEC("struct_ops/below_low")                                                \
	bool BPF_PROG(name##_below_low, struct mem_cgroup *memcg)                  \
	{                                                                          \
		count(memcg, tag, KT_BELOW_LOW);                                   \
		return false;                                                      \
	}                                                                          \
	SEC("struct_ops/below_min")                                                \
	bool BPF_PROG(name##_below_min, struct mem_cgroup *memcg)                  \
	{                                                                          \
		count(memcg, tag, KT_BELOW_MIN);                                   \
		return false;                                                      \
	}                                                                          \
	SEC("struct_ops/get_high_delay_ms")                                        \
	unsigned int BPF_PROG(name##_high_delay, struct mem_cgroup *memcg)         \
	{                                                                          \
		count(memcg, tag, KT_HIGH_DELAY);                                  \
		return 0;                                                          \
	}                                                                          \
	SEC(".struct_ops.link")                                                    \
	struct memcg_bpf_ops name = {                                              \
		.handle_cgroup_online = (void *)name##_online,                     \
		.handle_cgroup_offline = (void *)name##_offline,                   \
		.below_low = (void *)name##_below_low,                             \
		.below_min = (void *)name##_below_min,                             \
		.get_high_delay_ms = (void *)name##_high_delay,                    \
	}

KT_OPS(ops_a, KT_OPS_A);
KT_OPS(ops_b, KT_OPS_B);

char LICENSE[] SEC("license") = "GPL";
