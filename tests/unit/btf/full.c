// SPDX-License-Identifier: GPL-2.0-only
/* BTF of a kernel with the memcg BPF hooks series (all of kernel-patches/), as kernel-probe sees it. */
#define bool _Bool
struct mem_cgroup;
struct memcg_numa_params;
struct memcg_bpf_ops {
	void (*handle_cgroup_online)(struct mem_cgroup *memcg);
	void (*handle_cgroup_offline)(struct mem_cgroup *memcg);
	bool (*below_low)(struct mem_cgroup *memcg);
	bool (*below_min)(struct mem_cgroup *memcg);
	/* kernel-patches/0024 */
	unsigned long (*get_low)(struct mem_cgroup *memcg, unsigned long usage);
	unsigned long (*get_min)(struct mem_cgroup *memcg, unsigned long usage);
	unsigned int (*get_high_delay_ms)(struct mem_cgroup *memcg);
	void (*memcg_charged)(struct mem_cgroup *memcg, unsigned long nr_pages);
	/* kernel-patches/0022 */
	int (*numa_balancing)(struct mem_cgroup *memcg, struct memcg_numa_params *params);
};
struct memcg_bpf_ops ops;
/* the background reclaim kfunc (kernel-patches/0021) */
long bpf_try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr_pages, unsigned int flags)
{
	return 0;
}
typedef void (*btf_trace_count_memcg_events)(void *, struct mem_cgroup *, int, unsigned long);
btf_trace_count_memcg_events tp;
