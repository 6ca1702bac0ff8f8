// SPDX-License-Identifier: GPL-2.0-only
/* BTF of a later RFC (v7): get_high_delay_ms gone, memcg_charged added. */
#define bool _Bool
struct mem_cgroup;
struct memcg_bpf_ops {
	void (*handle_cgroup_online)(struct mem_cgroup *memcg);
	void (*handle_cgroup_offline)(struct mem_cgroup *memcg);
	bool (*below_low)(struct mem_cgroup *memcg, unsigned long elow, unsigned long usage);
	bool (*below_min)(struct mem_cgroup *memcg, unsigned long emin, unsigned long usage);
	void (*memcg_charged)(struct mem_cgroup *memcg, unsigned int nr_pages);
};
struct memcg_bpf_ops ops;
typedef void (*btf_trace_count_memcg_events)(void *, struct mem_cgroup *, int, unsigned long);
btf_trace_count_memcg_events tp;
