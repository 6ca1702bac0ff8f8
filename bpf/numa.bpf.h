/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NUMA balancing per slice ([NUMA] Balancing=): part of memcgd.bpf.c, included at its end (it uses
 * the policy and slice helpers there). Loaded only on a kernel whose memcg_bpf_ops have
 * numa_balancing (kernel-patches/0022); elsewhere memcgd clears the member and every slice follows
 * kernel.numa_balancing.
 *
 * The kernel calls numa_balancing in process context, from task_numa_work(), for each task of a
 * memory cgroup under one of memcgd's links once per NUMA scan period of that task: tasks of
 * slices without Balancing= pay that call too (it returns MEMCG_NUMAB_DEFAULT after the slice
 * lookup), since the ops carry the member for every slice. The program returns the slice's
 * decision; with MEMCG_NUMAB_ON it leaves the slice's tuning in *params, the only kernel memory
 * these programs may write, which the kernel prefilled with its global values and clamps after
 * the call. A parameter the slice does not set (0) keeps the kernel's value.
 */

SEC("struct_ops/numa_balancing")
int BPF_PROG(memcgd_numa_balancing, struct mem_cgroup *memcg, struct memcg_numa_params *params)
{
	int slot = resolve_slice(memcg);
	const struct memcgd_policy *p;
	struct memcgd_slice_state *s;
	__u32 key;

	if (slot < 0)
		return MEMCG_NUMAB_DEFAULT;
	p = policy_of(active_gen, (__u32)slot);
	if (!p || !(p->flags & (MEMCGD_POLICY_NUMA_ON | MEMCGD_POLICY_NUMA_OFF)))
		return MEMCG_NUMAB_DEFAULT;
	key = (__u32)slot;
	s = bpf_map_lookup_elem(&slice_state, &key);
	if (p->flags & MEMCGD_POLICY_NUMA_OFF) {
		if (s)
			__sync_fetch_and_add(&s->numa_off_decisions, 1);
		return MEMCG_NUMAB_OFF;
	}
	if (p->numa_scan_period_min_ms)
		params->scan_period_min_ms = p->numa_scan_period_min_ms;
	if (p->numa_scan_period_max_ms)
		params->scan_period_max_ms = p->numa_scan_period_max_ms;
	if (p->numa_scan_size_mb)
		params->scan_size_mb = p->numa_scan_size_mb;
	if (p->numa_hot_threshold_ms)
		params->hot_threshold_ms = p->numa_hot_threshold_ms;
	if (s)
		__sync_fetch_and_add(&s->numa_on_decisions, 1);
	return MEMCG_NUMAB_ON;
}
