// SPDX-License-Identifier: GPL-2.0-only
/* BTF of a kernel with memcg_bpf_ops but without the memcg:count_memcg_events tracepoint. */
#define bool _Bool
struct mem_cgroup;
struct memcg_bpf_ops {
	bool (*below_low)(struct mem_cgroup *memcg);
	bool (*below_min)(struct mem_cgroup *memcg);
};
struct memcg_bpf_ops ops;
