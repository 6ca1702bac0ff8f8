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
struct trace_event_raw_memcg_rstat_events {
	unsigned long long id;
	int item;
	unsigned long val;
};
struct memcg_bpf_ops ops;
struct trace_event_raw_memcg_rstat_events tp;
