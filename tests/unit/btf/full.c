// SPDX-License-Identifier: GPL-2.0-only
/* BTF of a kernel with the memcg BPF hooks series, as kernel-probe sees it. */
#define bool _Bool
struct mem_cgroup;
struct memcg_bpf_ops {
	void (*handle_cgroup_online)(struct mem_cgroup *memcg);
	void (*handle_cgroup_offline)(struct mem_cgroup *memcg);
	bool (*below_low)(struct mem_cgroup *memcg);
	bool (*below_min)(struct mem_cgroup *memcg);
	unsigned int (*get_high_delay_ms)(struct mem_cgroup *memcg);
};
struct memcg_bpf_ops ops;
typedef void (*btf_trace_count_memcg_events)(void *, struct mem_cgroup *, int, unsigned long);
btf_trace_count_memcg_events tp;
