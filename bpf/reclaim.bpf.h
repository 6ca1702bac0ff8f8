/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Background reclaim ([Reclaim] Background=): part of memcgd.bpf.c, included at its end (it uses
 * the policy, level and slice helpers there). Runs only on a kernel whose memcg_bpf_ops have
 * memcg_charged and which offers bpf_try_to_free_mem_cgroup_pages(); elsewhere memcgd does not
 * load memcgd_memcg_charged and reclaims through memory.reclaim itself (or not at all).
 *
 * memcg_charged is called when a task of a managed slice returns to user space after charging
 * memory. It checks, cheaply, whether a Background= slice may have to give memory back: memcgd
 * enabled the kernel path, some priority level may be active, and the free memory estimated
 * now is below the largest Headroom= of the active generation. Then it starts the
 * work item: at most one is queued or running, and it is started at most once per
 * RECLAIM_KICK_NS. The work item (a bpf_wq callback, which may sleep) builds the plan of
 * reclaim-plan.h from the protected slices that are idle (their memory above WakeReserve=, first:
 * the policy engine's "give idle memory back") and the Background= slices that a higher active
 * level outranks, and
 * reclaims with bpf_try_to_free_mem_cgroup_pages(), as a write to each slice's memory.reclaim
 * would. No task is delayed, and the reclaim's CPU time is the workqueue's.
 *
 * Free memory: memcgd writes MemFree (reclaim_avail_bytes) with every update and then moves
 * reclaim_avail_seq; the first program that sees a new sequence notes the root memory cgroup's
 * usage, and until the next update the estimate is MemFree less what was charged since (root
 * usage now less then).
 */

#include "reclaim-plan.h"

extern struct mem_cgroup *bpf_get_root_mem_cgroup(void) __ksym __weak;
extern struct mem_cgroup *bpf_get_mem_cgroup(struct cgroup_subsys_state *css) __ksym __weak;
extern void bpf_put_mem_cgroup(struct mem_cgroup *memcg) __ksym __weak;
extern struct cgroup *bpf_cgroup_from_id(u64 cgid) __ksym __weak;
extern void bpf_cgroup_release(struct cgroup *cgrp) __ksym __weak;
extern long bpf_try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr_pages,
					     u32 flags) __ksym __weak;
extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym __weak;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym __weak;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq, int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux__ign) __ksym __weak;

/* the work item is started at most this often */
#define RECLAIM_KICK_NS (10ULL * 1000 * 1000)
/* Rate= accrues for at most this long: the largest burst */
#define RECLAIM_BURST_NS (1000ULL * 1000 * 1000)
/* errno values are macros, which vmlinux.h does not carry */
#define MEMCGD_EBUSY 16

/* written by memcgd (mmapped .bss) */
volatile __u32 reclaim_enabled;                        /* the kernel path is in use */
volatile __u64 reclaim_avail_bytes;                    /* MemFree at memcgd's last update */
volatile __u64 reclaim_avail_seq;                      /* moved after each reclaim_avail_bytes */
/* the free memory background reclaim keeps at least, whatever Headroom= says: the high watermarks
 * plus the room the busy protected slices need to regrow to their footprints (engine_room()) */
volatile __u64 reclaim_room_bytes;
volatile __u64 reclaim_max_headroom[2];                /* per generation: largest Headroom=, 0 = none */
volatile __u32 reclaim_order[2][MEMCGD_MAX_RECLAIM_SLICES]; /* per generation: Background= slots, by level */
volatile __u32 reclaim_order_n[2];

/* the programs' own */
__u64 reclaim_base_seq, reclaim_base_usage;
__u64 reclaim_last_kick_ns;
__u32 reclaim_pending;                                 /* a work item is queued or running */
struct memcgd_reclaim_stats reclaim_stats;
struct memcgd_reclaim_plan reclaim_plan;               /* the work item's (one runs at a time) */

struct reclaim_work {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct reclaim_work);
} reclaim_work SEC(".maps");

/* Free memory now, in bytes (see the top of this file). */
static __always_inline __u64 available_now(void)
{
	__u64 seq = reclaim_avail_seq, avail = reclaim_avail_bytes, usage, base;
	struct mem_cgroup *root;

	if (!bpf_ksym_exists(bpf_get_root_mem_cgroup) || !bpf_ksym_exists(bpf_mem_cgroup_usage))
		return avail;
	root = bpf_get_root_mem_cgroup();
	if (!root)
		return avail;
	usage = bpf_mem_cgroup_usage(root);
	bpf_put_mem_cgroup(root);
	if (reclaim_base_seq != seq) {
		reclaim_base_usage = usage;
		reclaim_base_seq = seq;
	}
	base = reclaim_base_usage;
	if (usage >= base)
		return usage - base >= avail ? 0 : avail - (usage - base);
	return avail + (base - usage);
}

/* The memory cgroup of a slice's own cgroup, with a reference, or NULL. */
static __always_inline struct mem_cgroup *slice_memcg(__u32 slot)
{
	struct mem_cgroup *memcg;
	struct cgroup *cgrp;
	__u64 *id = bpf_map_lookup_elem(&slice_root, &slot);

	if (!id || !*id)
		return NULL;
	cgrp = bpf_cgroup_from_id(*id);
	if (!cgrp)
		return NULL;
	memcg = bpf_get_mem_cgroup(&cgrp->self);
	bpf_cgroup_release(cgrp);
	return memcg;
}

/* Where a slice's Rate= budget accrues from: reclaim_budget_ns, at most 1 s back. A pass that
 * reclaimed more than its budget (reclaim works in batches) moves it past now: nothing accrues
 * until then. */
static __always_inline __u64 budget_start(const struct memcgd_slice_state *s, __u64 now)
{
	__u64 from = s->reclaim_budget_ns;

	if (from > now)
		return from;
	if (from + RECLAIM_BURST_NS < now)
		from = now > RECLAIM_BURST_NS ? now - RECLAIM_BURST_NS : 0;
	return from;
}

/* Pages Rate= allows now. */
static __always_inline __u64 rate_budget(const struct memcgd_policy *p, const struct memcgd_slice_state *s, __u64 now)
{
	__u64 from, ns;

	if (!p->reclaim_rate)
		return ~0ULL;
	from = budget_start(s, now);
	ns = now > from ? now - from : 0;
	/* bytes = rate * ns / 1e9: in microseconds (at most 1e6, 2^20), the product stays below
	 * 2^64 for Rate= up to its 64G limit (2^36) */
	return p->reclaim_rate * (ns / 1000) / 1000000 / page_size;
}

/* Entry i of the plan from reclaim_order, which starts with the protected slices (give-back)
 * and goes on with the Background= slices by level. An idle protected slice gives what it holds
 * above its WakeReserve= first, while any level is active (another slice works); a Background=
 * slice that the highest active level (top, -1 for none) outranks gives its excess next. The
 * plan asks them in the order of e->level: 0 for giving back, 1 + Priority='s level for
 * Background=. Any other entry gets 0. */
static __always_inline void plan_entry(__u32 gen, __u32 i, int top, __u64 now)
{
	struct memcgd_reclaim_entry *e = &reclaim_plan.e[bss_index(i, MEMCGD_MAX_RECLAIM_SLICES - 1)];
	__u32 slot = reclaim_order[bss_index(gen, 1)][bss_index(i, MEMCGD_MAX_RECLAIM_SLICES - 1)];
	const struct memcgd_policy *p = policy_of(gen, slot);
	__u32 idx = bss_index(slot, MEMCGD_MAX_SLICES - 1), rank;
	struct memcgd_slice_state *s;
	struct mem_cgroup *memcg;
	__u64 usage, prot, headroom, reserve = 0;

	e->slot = slot;
	e->excess = 0;
	e->level = 0;
	if (!p || top < 0)
		return;
	s = bpf_map_lookup_elem(&slice_state, &slot);
	if (!s)
		return;
	if (p->flags & MEMCGD_POLICY_RECLAIM) {
		if (top <= (int)p->level)
			return;
		rank = p->level + 1 < MEMCGD_MAX_LEVELS ? p->level + 1 : MEMCGD_MAX_LEVELS - 1;
		headroom = p->headroom_bytes;
	} else if (p->flags & MEMCGD_POLICY_GIVE_BACK) {
		/* only while idle: not active by its faults nor by memcgd's measure */
		if (s->active_until_ns > now || cpu_active_until_ns[idx] > now)
			return;
		rank = 0;
		headroom = reclaim_max_headroom[bss_index(gen, 1)];
		reserve = protect_reserve_bytes[idx] / page_size;
	} else {
		return;
	}
	memcg = slice_memcg(slot);
	if (!memcg)
		return;
	usage = bpf_mem_cgroup_usage(memcg) / page_size;
	prot = memcg->memory.min > memcg->memory.low ? memcg->memory.min : memcg->memory.low;
	bpf_put_mem_cgroup(memcg);
	if (prot < reserve)
		prot = reserve;
	if (headroom < reclaim_room_bytes)
		headroom = reclaim_room_bytes;
	e->level = rank;
	e->headroom = headroom / page_size;
	e->excess = usage > prot ? usage - prot : 0;
	e->budget = rate_budget(p, s, now);
}

/* Reclaim entry i's take; account it to the slice. */
static __always_inline __u64 reclaim_entry(__u32 gen, __u32 i, __u64 now, __u64 avail, int top)
{
	const struct memcgd_policy *p;
	struct memcgd_reclaim_entry *e = &reclaim_plan.e[bss_index(i, MEMCGD_MAX_RECLAIM_SLICES - 1)];
	__u32 slot = e->slot;
	struct memcgd_slice_state *s;
	struct mem_cgroup *memcg;
	__u64 take = e->take, from;
	long got;

	if (!take)
		return 0;
	s = bpf_map_lookup_elem(&slice_state, &slot);
	memcg = slice_memcg(slot);
	if (!s || !memcg) {
		if (memcg)
			bpf_put_mem_cgroup(memcg);
		return 0;
	}
	got = bpf_try_to_free_mem_cgroup_pages(memcg, take, 0);
	bpf_put_mem_cgroup(memcg);
	s->reclaim_last_ns = now;
	s->reclaim_last_avail = avail;
	s->reclaim_last_level = (__u64)top;
	if (got < 0) {
		s->reclaim_errors++;
		s->reclaim_last_error = got;
		return 0;
	}
	s->reclaimed_pages += (__u64)got;
	s->reclaim_passes++;
	/* Rate=: what was taken uses up the budget from where it accrued (take <= 1 GiB) */
	p = policy_of(gen, slot);
	if (p && p->reclaim_rate) {
		from = budget_start(s, now);
		s->reclaim_budget_ns = from + (__u64)got * page_size * 1000000000ULL / p->reclaim_rate;
	}
	return (__u64)got;
}

/* The highest active level of generation gen (by the fault or the CPU measure), -1 if none. */
static __always_inline int top_active_level(__u32 gen, __u64 now)
{
	__u32 gkey = gen & 1;
	struct memcgd_levels *l = bpf_map_lookup_elem(&levels, &gkey);
	__u64 cpu_mask = cpu_level_mask[bss_index(gkey, 1)];

	if (!l)
		return -1;
	for (int i = MEMCGD_MAX_LEVELS - 1; i >= 0; i--) {
		__u64 bit = 1ULL << i;

		if ((l->active_mask & bit) && l->until_ns[bss_index((__u32)i, MEMCGD_MAX_LEVELS - 1)] > now)
			return i;
		if ((cpu_mask & bit) &&
		    cpu_level_until_ns[bss_index(gkey, 1)][bss_index((__u32)i, MEMCGD_MAX_LEVELS - 1)] > now)
			return i;
	}
	return -1;
}

/* The work item's passes over reclaim_order, each a bpf_loop() callback: the verifier checks
 * a callback once, where it would walk an unrolled 64-step loop of kfunc calls and branches
 * path by path. */
struct pass_ctx {
	__u32 gen;
	int top;
	__u64 now;
	__u64 avail;
	__u64 got;
};

static long plan_entry_cb(__u64 i, void *ctx)
{
	struct pass_ctx *c = ctx;

	plan_entry(c->gen, (__u32)i, c->top, c->now);
	return 0;
}

static long plan_count_cb(__u64 i, void *ctx)
{
	memcgd_plan_count(&reclaim_plan, (__u32)i);
	return 0;
}

static long plan_take_cb(__u64 i, void *ctx)
{
	memcgd_plan_take(&reclaim_plan, (__u32)i);
	return 0;
}

static long reclaim_entry_cb(__u64 i, void *ctx)
{
	struct pass_ctx *c = ctx;

	c->got += reclaim_entry(c->gen, (__u32)i, c->now, c->avail, c->top);
	return 0;
}

static int reclaim_pass(void *map, int *key, void *value)
{
	struct pass_ctx c = { .gen = active_gen };
	__u32 n = reclaim_order_n[bss_index(c.gen, 1)];

	c.now = bpf_ktime_get_ns();
	c.avail = available_now();
	c.top = top_active_level(c.gen, c.now);
	if (n > MEMCGD_MAX_RECLAIM_SLICES)
		n = MEMCGD_MAX_RECLAIM_SLICES;
	reclaim_plan.n = n;
	if (c.top >= 0) {
		bpf_loop(n, plan_entry_cb, &c, 0);
		memcgd_plan_start(&reclaim_plan, c.avail / page_size);
		bpf_loop(n, plan_count_cb, &c, 0);
		bpf_loop(n, plan_take_cb, &c, 0);
		if (reclaim_plan.taken)
			bpf_loop(n, reclaim_entry_cb, &c, 0);
	}
	reclaim_stats.passes++;
	reclaim_stats.pages += c.got;
	reclaim_stats.last_ns = c.now;
	reclaim_stats.last_avail = c.avail;
	reclaim_pending = 0;
	return 0;
}

SEC("struct_ops/memcg_charged")
void BPF_PROG(memcgd_memcg_charged, struct mem_cgroup *memcg, unsigned long nr_pages)
{
	__u32 gen = active_gen, gkey = gen & 1, zero = 0;
	const struct memcgd_policy *lowest;
	struct memcgd_levels *l;
	struct reclaim_work *w;
	__u64 headroom, now;
	int err;

	headroom = reclaim_max_headroom[bss_index(gkey, 1)];
	if (!reclaim_enabled || !headroom)
		return;
	if (headroom < reclaim_room_bytes)
		headroom = reclaim_room_bytes;
	l = bpf_map_lookup_elem(&levels, &gkey);
	if (!l || !(l->active_mask | cpu_level_mask[bss_index(gkey, 1)]))
		return; /* no level can be active: nothing outranks a Background= slice */
	if (available_now() >= headroom)
		return;
	now = bpf_ktime_get_ns();
	if (now - reclaim_last_kick_ns < RECLAIM_KICK_NS)
		return;
	/* an active level above the lowest Background= slice (reclaim_order starts with it), or
	 * any active level when the order starts with protected slices that give back while idle */
	lowest = policy_of(gen, reclaim_order[bss_index(gkey, 1)][0]);
	if (!lowest || top_active_level(gen, now) < ((lowest->flags & MEMCGD_POLICY_RECLAIM) ? (int)lowest->level + 1 : 0))
		return;
	if (__sync_val_compare_and_swap(&reclaim_pending, 0, 1) != 0)
		return;
	reclaim_last_kick_ns = now;
	w = bpf_map_lookup_elem(&reclaim_work, &zero);
	if (!w) {
		reclaim_pending = 0;
		return;
	}
	err = bpf_wq_init(&w->wq, &reclaim_work, 0);
	if (err == -MEMCGD_EBUSY)
		err = 0; /* initialised by an earlier start */
	if (!err)
		err = bpf_wq_set_callback_impl(&w->wq, reclaim_pass, 0, NULL);
	if (!err)
		err = bpf_wq_start(&w->wq, 0);
	if (err) {
		reclaim_stats.wq_errors++;
		reclaim_stats.wq_last_error = err;
		reclaim_pending = 0;
		return;
	}
	__sync_fetch_and_add(&reclaim_stats.kicks, 1);
}
