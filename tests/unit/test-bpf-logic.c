// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy logic of bpf/memcgd.bpf.c, run as plain C on the host: maps are in-memory tables
 * and the clock is a variable (bpf-shim/). Nothing is loaded into a kernel. What the verifier
 * and concurrent CPUs do is tested in the guest (tests/e2e); this pins down the semantics:
 * windows, activation, levels, protection, throttling, the guard, cgroup resolution, the
 * generation switch, the cost of an unmanaged fault, background reclaim and NUMA balancing.
 */
#include "memcgd.bpf.c"

#include "tests.h"

/* the series' kfunc, as the shim's memcg knows it */
unsigned long bpf_mem_cgroup_usage(struct mem_cgroup *memcg)
{
	return memcg->shim_usage;
}

/* background reclaim's kfuncs: references are counted (they must balance), reclaim takes
 * from the memcg's usage and the root's, the work item runs when the test says */
static struct mem_cgroup mc_root;
static int shim_memcg_refs, shim_cgroup_refs;
static struct cgroup *shim_cgroups[8];
static struct {
	struct mem_cgroup *memcg;
	unsigned long pages;
} shim_reclaims[16];
static unsigned shim_n_reclaims, shim_wq_starts;
static int (*shim_wq_callback)(void *map, int *key, void *value);
static bool shim_wq_ready;

struct mem_cgroup *bpf_get_root_mem_cgroup(void)
{
	shim_memcg_refs++;
	return &mc_root;
}

struct mem_cgroup *bpf_get_mem_cgroup(struct cgroup_subsys_state *css)
{
	struct cgroup *cgrp = (struct cgroup *)((char *)css - offsetof(struct cgroup, self));

	if (!cgrp->shim_memcg)
		return NULL;
	shim_memcg_refs++;
	return cgrp->shim_memcg;
}

void bpf_put_mem_cgroup(struct mem_cgroup *memcg)
{
	shim_memcg_refs--;
}

struct cgroup *bpf_cgroup_from_id(u64 cgid)
{
	for (size_t i = 0; i < sizeof(shim_cgroups) / sizeof(shim_cgroups[0]); i++)
		if (shim_cgroups[i] && shim_cgroups[i]->kn->id == cgid) {
			shim_cgroup_refs++;
			return shim_cgroups[i];
		}
	return NULL;
}

void bpf_cgroup_release(struct cgroup *cgrp)
{
	shim_cgroup_refs--;
}

long bpf_try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr_pages, u32 flags)
{
	unsigned long got = nr_pages < memcg->shim_usage / 4096 ? nr_pages : memcg->shim_usage / 4096;

	if (shim_n_reclaims < sizeof(shim_reclaims) / sizeof(shim_reclaims[0]))
		shim_reclaims[shim_n_reclaims++] = (typeof(shim_reclaims[0])){ memcg, nr_pages };
	memcg->shim_usage -= got * 4096;
	mc_root.shim_usage -= got * 4096;
	return (long)got;
}

int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags)
{
	if (shim_wq_ready)
		return -16; /* EBUSY */
	shim_wq_ready = true;
	return 0;
}

int bpf_wq_set_callback_impl(struct bpf_wq *wq, int (callback_fn)(void *map, int *key, void *value),
			     unsigned int flags, void *aux__ign)
{
	shim_wq_callback = callback_fn;
	return 0;
}

int bpf_wq_start(struct bpf_wq *wq, unsigned int flags)
{
	shim_wq_starts++;
	return 0;
}

#define MS 1000000ULL
#define SEC_NS 1000000000ULL

static struct kernfs_node kn_root = { .id = 1 };
static struct kernfs_node kn_high = { .parent = &kn_root, .id = 100 };
static struct kernfs_node kn_high_svc = { .parent = &kn_high, .id = 101 };
static struct kernfs_node kn_low = { .parent = &kn_root, .id = 200 };
static struct kernfs_node kn_other = { .parent = &kn_root, .id = 300 };
static struct cgroup cg_high = { .kn = &kn_high }, cg_high_svc = { .kn = &kn_high_svc }, cg_low = { .kn = &kn_low },
		     cg_other = { .kn = &kn_other };
static struct mem_cgroup mc_high = { .css = { .cgroup = &cg_high } }, mc_high_svc = { .css = { .cgroup = &cg_high_svc } }, mc_low = { .css = { .cgroup = &cg_low } },
			 mc_other = { .css = { .cgroup = &cg_other } };

enum { HIGH = 0, LOW = 1 };

static void set_policy(__u32 gen, __u32 slot, __u64 per_window, __u32 level, __u32 protect, __u32 delay_ms,
		       __u64 max_throttle_ns)
{
	struct memcgd_policy p = {
		.faults_per_window = per_window,
		.window_ns = SEC_NS,
		.hold_ns = 500 * MS,
		.max_throttle_ns = max_throttle_ns,
		.level = level,
		.protect = protect,
		.delay_ms = delay_ms,
		.flags = MEMCGD_POLICY_IN_USE,
	};
	__u32 key = gen * MEMCGD_MAX_SLICES + slot;

	bpf_map_update_elem(&policies, &key, &p, BPF_ANY);
}

static void map_cgroup(__u64 id, __u32 slot)
{
	bpf_map_update_elem(&slice_of, &id, &slot, BPF_ANY);
}

static void fault(__u64 cgroup_id, int item, unsigned long n)
{
	struct kernfs_node kn = { .id = cgroup_id };
	struct cgroup cgrp = { .kn = &kn };
	struct mem_cgroup memcg = { .css.cgroup = &cgrp };

	memcgd_count_events(&memcg, item, n);
}

static struct memcgd_slice_state *state(__u32 slot)
{
	return bpf_map_lookup_elem(&slice_state, &slot);
}

/* a slot's faults as memcgd reads them: the shared count and the per-CPU busy counts */
static __u64 busy_of(__u32 slot)
{
	__u64 *busy = bpf_map_lookup_elem(&busy_faults, &slot);

	return busy ? *busy : 0;
}

static __u64 faults_of(__u32 slot)
{
	return state(slot)->faults + busy_of(slot);
}

static struct memcgd_event *event(unsigned i)
{
	return i < shim_n_events ? (struct memcgd_event *)shim_events[i].data : NULL;
}

static void setup(void)
{
	SHIM_MAP(slice_of, 1);
	SHIM_MAP(policies, 0);
	SHIM_MAP(slice_state, 0);
	SHIM_MAP(protect_suspended, 0);
	SHIM_MAP(levels, 0);
	SHIM_MAP(fault_cache, 0);
	SHIM_MAP(busy_faults, 0);
	SHIM_MAP(exempt, 1);
	SHIM_MAP(slice_root, 0);
	SHIM_MAP(reclaim_work, 0);
	shim_register(&events, 0, 4, 4, 1);
	set_policy(0, HIGH, 100, 1, MEMCGD_PROTECT_MIN, 0, 0);
	set_policy(0, LOW, 100, 0, MEMCGD_PROTECT_NONE, 100, 3 * SEC_NS);
	map_cgroup(kn_high.id, HIGH);
	map_cgroup(kn_low.id, LOW);
	shim_now_ns = 1000 * SEC_NS + 100 * MS; /* 100ms into window 1000 */
}

static void test_unmanaged_cost(void)
{
	unsigned long before = shim_lookups;

	fault(kn_other.id, PGFAULT, 1);
	CHECK(shim_lookups - before == 2); /* this CPU's cache, one hash lookup, nothing else */
	before = shim_lookups;
	fault(kn_high.id, PGMAJFAULT, 1);
	fault(kn_other.id, PGPGIN, 5);
	CHECK(shim_lookups - before == 0); /* other events: no lookup at all */
	CHECK(faults_of(HIGH) == 0);
}

static void test_activation(void)
{
	struct memcgd_slice_state *s = state(HIGH);

	fault(kn_high.id, PGFAULT, 99);
	CHECK(faults_of(HIGH) == 99);
	CHECK(s->active_until_ns == 0);
	CHECK(s->activations == 0);
	fault(kn_high.id, PGFAULT, 1); /* the 100th in this window */
	CHECK(s->activations == 1);
	/* active through the next window, plus hold */
	CHECK(s->active_until_ns == 1002 * SEC_NS + 500 * MS);
	CHECK(s->active_since_ns == shim_now_ns);
	CHECK(shim_n_events == 1 && event(0)->type == MEMCGD_EV_ACTIVATED && event(0)->slot == HIGH &&
	      event(0)->value == 100);
	fault(kn_high.id, PGFAULT, 50); /* still active: no second edge */
	CHECK(s->activations == 1 && shim_n_events == 1);

	/* a new window starts from zero: 60 faults are not enough to extend */
	shim_now_ns = 1001 * SEC_NS + 10 * MS;
	fault(kn_high.id, PGFAULT, 60);
	CHECK(s->window_id == 1001);
	CHECK(s->active_until_ns == 1002 * SEC_NS + 500 * MS);
	fault(kn_high.id, PGFAULT, 40); /* 100 in window 1001: extends */
	CHECK(s->active_until_ns == 1003 * SEC_NS + 500 * MS);
	CHECK(faults_of(HIGH) == 250);

	/* a child cgroup of the slice counts for it */
	map_cgroup(kn_high_svc.id, HIGH);
	fault(kn_high_svc.id, PGFAULT, 7);
	CHECK(faults_of(HIGH) == 257);
}

/* The fault path of a busy slice: once marked active for the window, a fault of the cgroup that
 * faulted last on this CPU looks up the CPU's cache, the state and the CPU's count (no hash
 * lookup, no policy, no levels), and reads the clocksource only on a new tick. */
static void test_busy_fault_cost(void)
{
	struct memcgd_slice_state *s = state(HIGH);
	unsigned long lookups, reads;
	__u64 faults, until;

	fault(kn_high.id, PGFAULT, 1); /* the last fault here was high's service: a hash lookup */
	faults = faults_of(HIGH), until = s->active_until_ns;
	lookups = shim_lookups, reads = shim_clock_reads;
	fault(kn_high.id, PGFAULT, 1);
	CHECK(shim_lookups - lookups == 3); /* fault_cache, slice_state, busy_faults: no policy */
	CHECK(shim_clock_reads == reads);   /* the same tick as the last fault */
	CHECK(faults_of(HIGH) == faults + 1 && s->active_until_ns == until);
	shim_now_ns += 4 * MS;              /* next tick: one read, then none */
	fault(kn_high.id, PGFAULT, 1);
	fault(kn_high.id, PGFAULT, 1);
	CHECK(shim_clock_reads == reads + 1);
	CHECK(faults_of(HIGH) == faults + 3);
	/* a new window: the shared count (and its window) moves again until the slice is marked */
	{
		__u64 shared = s->faults;

		shim_now_ns += SEC_NS;
		fault(kn_high.id, PGFAULT, 100);
		CHECK(s->faults == shared + 100 && s->window_id == shim_now_ns / SEC_NS);
		CHECK(s->active_until_ns == (shim_now_ns / SEC_NS + 2) * SEC_NS + 500 * MS);
		shared = s->faults;
		fault(kn_high.id, PGFAULT, 1);
		CHECK(s->faults == shared);  /* marked: counted per CPU */
		CHECK(faults_of(HIGH) == faults + 104);
	}
}

/* A cgroup memcgd maps to another slot is counted there from the next fault on: memcgd bumps
 * slice_of_epoch after each change, which voids every CPU's cached slot. */
static void test_fault_cache_epoch(void)
{
	__u64 id = 400, high0 = faults_of(HIGH), low0 = faults_of(LOW);
	__u32 zero = 0;
	struct memcgd_fault_cache *c = bpf_map_lookup_elem(&fault_cache, &zero);

	map_cgroup(id, HIGH);
	slice_of_epoch++;
	fault(id, PGFAULT, 2);
	CHECK(c && c->cgroup_id == id && c->slot == HIGH);
	map_cgroup(id, LOW);
	fault(id, PGFAULT, 3);   /* memcgd has not bumped the epoch yet: the cached slot */
	slice_of_epoch++;
	fault(id, PGFAULT, 5);
	CHECK(faults_of(HIGH) == high0 + 5);
	CHECK(faults_of(LOW) == low0 + 5);
	bpf_map_delete_elem(&slice_of, &id);
	slice_of_epoch++;
	fault(id, PGFAULT, 7);   /* unmapped: counted nowhere */
	CHECK(faults_of(HIGH) == high0 + 5 && faults_of(LOW) == low0 + 5);
}

/* Windows only move forward, unless Window= changed: a CPU whose cached clock is a tick behind
 * counts into the window another CPU opened. */
static void test_window_monotonic(void)
{
	struct memcgd_slice_state *s = state(LOW);
	__u64 wid = shim_now_ns / SEC_NS;

	s->window_id = wid + 1; /* another CPU, a tick ahead, opened the next window */
	s->window_base = s->faults;
	fault(kn_low.id, PGFAULT, 30);
	CHECK(s->window_id == wid + 1);
	CHECK(s->faults - s->window_base == 30);
	s->window_id = wid + 50; /* a longer Window= before a reload: far ahead, start over */
	fault(kn_low.id, PGFAULT, 5);
	CHECK(s->window_id == wid);
	CHECK(s->faults - s->window_base == 5);
}

static void test_protect(void)
{
	__u32 one = 1, zero = 0, key = HIGH;

	/* high is active with Mode=min */
	CHECK(memcgd_below_min(&mc_high));
	CHECK(!memcgd_below_low(&mc_high));
	CHECK(memcgd_below_min(&mc_high_svc)); /* its services too */
	CHECK(state(HIGH)->protect_decisions == 2);
	CHECK(!memcgd_below_min(&mc_low));    /* Mode=none */
	CHECK(!memcgd_below_min(&mc_other));  /* unmanaged */
	bpf_map_update_elem(&protect_suspended, &key, &one, BPF_ANY);
	CHECK(!memcgd_below_min(&mc_high));   /* over MaxUsage= */
	bpf_map_update_elem(&protect_suspended, &key, &zero, BPF_ANY);
	CHECK(memcgd_below_min(&mc_high));
}

static void test_throttle_and_guard(void)
{
	struct memcgd_slice_state *s = state(LOW);
	unsigned events_before = shim_n_events;

	/* high (level 1) active: low (level 0) gets its delay, high itself never */
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 100);
	CHECK(memcgd_get_high_delay_ms(&mc_high) == 0);
	CHECK(memcgd_get_high_delay_ms(&mc_other) == 0);
	CHECK(s->throttle_decisions == 1 && s->throttle_ms == 100);

	/* continuous throttling, decisions 100ms apart, high kept busy: the guard trips after 3s */
	for (int i = 0; i < 29; i++) {
		shim_now_ns += 100 * MS;
		if (i % 5 == 0)
			fault(kn_high.id, PGFAULT, 100);
		CHECK(memcgd_get_high_delay_ms(&mc_low) == 100);
	}
	CHECK(s->guard_tripped == 0);
	for (int i = 0; i < 3; i++) {
		shim_now_ns += 100 * MS;
		memcgd_get_high_delay_ms(&mc_low);
	}
	CHECK(s->guard_tripped == 1);
	CHECK(s->guard_trips == 1);
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	CHECK(shim_n_events == events_before + 1 && event(events_before)->type == MEMCGD_EV_GUARD_TRIPPED &&
	      event(events_before)->slot == LOW && event(events_before)->value > 3 * SEC_NS);
	/* once high goes idle and expires, the next decision clears the guard */
	shim_now_ns += 10 * SEC_NS;
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	CHECK(s->guard_tripped == 0);
	CHECK(event(shim_n_events - 1)->type == MEMCGD_EV_GUARD_CLEARED);
	/* the expired level was cleared from the mask */
	{
		__u32 g = 0;
		struct memcgd_levels *l = bpf_map_lookup_elem(&levels, &g);

		CHECK(l && l->active_mask == 0);
	}
	/* the protection ended as well */
	CHECK(!memcgd_below_min(&mc_high));
}

/* issue 17: an exempt cgroup (memcgd, PID 1, journald, dbus, logind) inside a slice that is
 * being throttled is never delayed; its neighbours still are */
static void test_exempt(void)
{
	static struct kernfs_node kn_low_memcgd = { .parent = &kn_low, .id = 201 };
	static struct kernfs_node kn_low_svc = { .parent = &kn_low, .id = 202 };
	static struct cgroup cg_low_memcgd = { .kn = &kn_low_memcgd }, cg_low_svc = { .kn = &kn_low_svc };
	static struct mem_cgroup mc_low_memcgd = { .css = { .cgroup = &cg_low_memcgd } }, mc_low_svc = { .css = { .cgroup = &cg_low_svc } };
	__u64 id = kn_low_memcgd.id, skips = exempt_skips;
	__u32 one = 1;

	fault(kn_high.id, PGFAULT, 200); /* high active: low is throttled */
	CHECK(memcgd_get_high_delay_ms(&mc_low_svc) == 100);
	CHECK(memcgd_get_high_delay_ms(&mc_low_memcgd) == 100); /* not exempt yet */
	bpf_map_update_elem(&exempt, &id, &one, BPF_ANY);
	for (int i = 0; i < 10; i++) {
		shim_now_ns += 10 * MS;
		CHECK(memcgd_get_high_delay_ms(&mc_low_memcgd) == 0);
		CHECK(memcgd_get_high_delay_ms(&mc_low_svc) == 100);
	}
	CHECK(exempt_skips == skips + 10);
	bpf_map_delete_elem(&exempt, &id);
	CHECK(memcgd_get_high_delay_ms(&mc_low_memcgd) == 100);
	shim_now_ns += 10 * SEC_NS; /* let high expire for the tests that follow */
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
}

/* issue 17: MaxUsage= holds inside the hook, between memcgd's updates: an active Mode=min slice
 * above its ceiling is not protected, judged by the slice root's usage (read by the kfunc when
 * reclaim visits the root, which comes before its descendants) or a descendant's own */
static void test_ceiling(void)
{
	__u32 key = 0 * MEMCGD_MAX_SLICES + HIGH, slot = HIGH;
	struct memcgd_policy *p = bpf_map_lookup_elem(&policies, &key);
	struct memcgd_slice_state *s = state(HIGH);
	__u64 root = kn_high.id, refusals = s->ceiling_refusals;

	active_gen = 0;
	bpf_map_update_elem(&slice_root, &slot, &root, BPF_ANY);
	p->max_usage_bytes = 100 << 20;
	fault(kn_high.id, PGFAULT, 200);
	mc_high.shim_usage = 50 << 20;
	mc_high_svc.shim_usage = 10 << 20;
	CHECK(memcgd_below_min(&mc_high));
	CHECK(memcgd_below_min(&mc_high_svc));
	CHECK(s->ceiling_refusals == refusals);

	/* the slice grew past its ceiling: the root is reclaimable, and so is a small child
	 * judged in the same reclaim pass */
	shim_now_ns += 5 * MS;
	mc_high.shim_usage = 150 << 20;
	CHECK(!memcgd_below_min(&mc_high));
	CHECK(s->usage_bytes == 150 << 20);
	shim_now_ns += 1 * MS;
	CHECK(!memcgd_below_min(&mc_high_svc));
	CHECK(s->ceiling_refusals == refusals + 2);
	/* a stale root reading does not count, a child's own usage above the ceiling does */
	shim_now_ns += 100 * MS;
	CHECK(memcgd_below_min(&mc_high_svc));
	mc_high_svc.shim_usage = 120 << 20;
	CHECK(!memcgd_below_min(&mc_high_svc));
	/* back under the ceiling: protected again, no update of memcgd needed */
	mc_high.shim_usage = 60 << 20;
	mc_high_svc.shim_usage = 10 << 20;
	CHECK(memcgd_below_min(&mc_high));
	CHECK(memcgd_below_min(&mc_high_svc));
	/* no ceiling configured: usage does not matter */
	p->max_usage_bytes = 0;
	mc_high.shim_usage = ~0UL;
	CHECK(memcgd_below_min(&mc_high));
	mc_high.shim_usage = 0;
}

/* [Activity] CPUUsage=: memcgd marks a busy slice active through .bss without any fault */
static void test_cpu_activity(void)
{
	__u64 now = shim_now_ns;

	CHECK(!memcgd_below_min(&mc_high));                 /* no fault activity left */
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	cpu_active_until_ns[HIGH] = now + 2 * SEC_NS;
	CHECK(memcgd_below_min(&mc_high));                  /* protected by CPU activity alone */
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);      /* its level is not marked yet */
	cpu_level_until_ns[0][1] = now + 2 * SEC_NS;
	cpu_level_mask[0] = 1ULL << 1;
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 100);   /* lower levels are throttled */
	CHECK(memcgd_get_high_delay_ms(&mc_high) == 0);
	cpu_level_mask[1] = 1ULL << 1;                      /* the other generation's mask is not read */
	cpu_level_mask[0] = 0;
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	cpu_level_mask[0] = 1ULL << 1;
	shim_now_ns += 3 * SEC_NS;                          /* expired: neither protects nor throttles */
	CHECK(!memcgd_below_min(&mc_high));
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	cpu_level_mask[0] = cpu_level_mask[1] = 0;
}

static void test_reactivation_accounts_time(void)
{
	struct memcgd_slice_state *s = state(HIGH);
	__u64 until = s->active_until_ns, since = s->active_since_ns;

	fault(kn_high.id, PGFAULT, 100); /* new episode */
	CHECK(s->activations == 2);
	CHECK(s->active_ns == until - since);
}

static void test_resolve_and_hooks(void)
{
	struct kernfs_node kn_new = { .parent = &kn_high_svc, .id = 102 };
	struct cgroup cg_new = { .kn = &kn_new };
	struct mem_cgroup mc_new = { .css = { .cgroup = &cg_new } };
	struct kernfs_node kn_deep = { .parent = &kn_new, .id = 103 };
	struct cgroup cg_deep = { .kn = &kn_deep };
	struct mem_cgroup mc_deep = { .css = { .cgroup = &cg_deep } };
	__u32 *slot;
	__u64 id;

	/* handle_cgroup_online maps a new cgroup to the slice of its nearest mapped ancestor */
	memcgd_cgroup_online(&mc_new);
	id = 102;
	slot = bpf_map_lookup_elem(&slice_of, &id);
	CHECK(slot && *slot == HIGH);
	/* a cgroup nobody told us about: the hooks walk up and cache the answer */
	id = 103;
	CHECK(bpf_map_lookup_elem(&slice_of, &id) == NULL);
	CHECK(resolve_slice(&mc_deep) == HIGH);
	slot = bpf_map_lookup_elem(&slice_of, &id);
	CHECK(slot && *slot == HIGH);
	/* offline forgets it */
	memcgd_cgroup_offline(&mc_new);
	id = 102;
	CHECK(bpf_map_lookup_elem(&slice_of, &id) == NULL);
	CHECK(resolve_slice(&mc_other) == -1);
}

/* issue 17: a cgroup that is going offline (CSS_DYING) is resolved, but not cached in slice_of:
 * its offline hook may have deleted its entry already, and nothing would delete it again */
static void test_dying_not_cached(void)
{
	struct kernfs_node kn_dying = { .parent = &kn_high_svc, .id = 104 };
	struct kernfs_node kn_alive = { .parent = &kn_high_svc, .id = 105 };
	struct cgroup cg_dying = { .kn = &kn_dying }, cg_alive = { .kn = &kn_alive };
	struct mem_cgroup mc_dying = { .css = { .cgroup = &cg_dying, .flags = CSS_ONLINE | CSS_DYING } };
	struct mem_cgroup mc_alive = { .css = { .cgroup = &cg_alive, .flags = CSS_ONLINE } };
	size_t entries = shim_used(shim_find(&slice_of));
	__u32 *slot;
	__u64 id;

	CHECK(resolve_slice(&mc_dying) == HIGH);
	memcgd_get_high_delay_ms(&mc_dying);
	id = kn_dying.id;
	CHECK(bpf_map_lookup_elem(&slice_of, &id) == NULL);
	CHECK(shim_used(shim_find(&slice_of)) == entries);
	/* a live sibling is cached as before */
	CHECK(resolve_slice(&mc_alive) == HIGH);
	id = kn_alive.id;
	slot = bpf_map_lookup_elem(&slice_of, &id);
	CHECK(slot && *slot == HIGH);
	memcgd_cgroup_offline(&mc_alive);
	CHECK(shim_used(shim_find(&slice_of)) == entries);
}

/* issue 17: a full slice_of ([Daemon] MaxCgroups=) refuses new cgroups; every refusal is counted
 * (slice_of_full, which memcgd reports), and an entry freed by the offline hook is used again */
static void test_slice_of_full(void)
{
	static struct kernfs_node kn_a = { .parent = &kn_high, .id = 110 };
	static struct kernfs_node kn_b = { .parent = &kn_high, .id = 111 };
	static struct kernfs_node kn_c = { .parent = &kn_a, .id = 112 };
	static struct cgroup cg_a = { .kn = &kn_a }, cg_b = { .kn = &kn_b }, cg_c = { .kn = &kn_c };
	static struct mem_cgroup mc_a = { .css = { .cgroup = &cg_a, .flags = CSS_ONLINE } }, mc_b = { .css = { .cgroup = &cg_b, .flags = CSS_ONLINE } },
				 mc_c = { .css = { .cgroup = &cg_c, .flags = CSS_ONLINE } };
	__u64 full0 = slice_of_full, id;
	__u32 *slot;

	shim_set_limit(&slice_of, shim_used(shim_find(&slice_of)) + 1);
	memcgd_cgroup_online(&mc_a); /* takes the last free entry */
	id = kn_a.id;
	slot = bpf_map_lookup_elem(&slice_of, &id);
	CHECK(slot && *slot == HIGH);
	CHECK(slice_of_full == full0);
	memcgd_cgroup_online(&mc_b); /* refused, counted */
	id = kn_b.id;
	CHECK(bpf_map_lookup_elem(&slice_of, &id) == NULL);
	CHECK(slice_of_full == full0 + 1);
	{
		__u64 faults = faults_of(HIGH);

		fault(kn_b.id, PGFAULT, 1); /* why it matters: its faults are not counted */
		CHECK(faults_of(HIGH) == faults);
	}
	/* the hooks still find the slice by walking up; caching it is refused and counted */
	CHECK(resolve_slice(&mc_c) == HIGH);
	CHECK(slice_of_full == full0 + 2);
	/* churn: the offline hook frees an entry, the next new cgroup gets it */
	memcgd_cgroup_offline(&mc_a);
	memcgd_cgroup_online(&mc_b);
	slot = bpf_map_lookup_elem(&slice_of, &id);
	CHECK(slot && *slot == HIGH);
	CHECK(slice_of_full == full0 + 2);
	memcgd_cgroup_offline(&mc_b);
	shim_set_limit(&slice_of, MEMCGD_MAX_CGROUPS);
}

static void test_generation_switch(void)
{
	/* generation 1 makes low the higher priority and gives high a delay */
	set_policy(1, HIGH, 100, 0, MEMCGD_PROTECT_NONE, 40, 0);
	set_policy(1, LOW, 100, 1, MEMCGD_PROTECT_LOW, 0, 0);
	shim_now_ns += 10 * SEC_NS;
	active_gen = 1;
	fault(kn_low.id, PGFAULT, 100);
	CHECK(memcgd_below_low(&mc_low));
	CHECK(memcgd_get_high_delay_ms(&mc_high) == 40);
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	/* a slot without a policy in the active generation is ignored entirely */
	{
		struct memcgd_policy none = {};
		__u32 key = 1 * MEMCGD_MAX_SLICES + HIGH;

		bpf_map_update_elem(&policies, &key, &none, BPF_ANY);
		CHECK(memcgd_get_high_delay_ms(&mc_high) == 0);
	}
	active_gen = 0;
}

/* A slice marked in one generation is marked again in the next one within the same window:
 * memcgd may have built the new generation's levels before that mark. */
static void test_generation_remarks(void)
{
	__u32 g1 = 1;
	struct memcgd_levels *l1 = bpf_map_lookup_elem(&levels, &g1);

	shim_now_ns += 10 * SEC_NS;
	fault(kn_high.id, PGFAULT, 100); /* marked in generation 0 */
	CHECK(l1 != NULL);
	if (!l1)
		return;
	memset(l1, 0, sizeof(*l1));      /* generation 1 as memcgd wrote it, without that mark */
	set_policy(1, HIGH, 100, 1, MEMCGD_PROTECT_MIN, 0, 0);
	set_policy(1, LOW, 100, 0, MEMCGD_PROTECT_NONE, 100, 3 * SEC_NS);
	active_gen = 1;
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	fault(kn_high.id, PGFAULT, 1);   /* same window, new generation */
	CHECK(l1->active_mask & (1ULL << 1));
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 100);
	active_gen = 0;
}

/* ---- background reclaim ([Reclaim], reclaim.bpf.h) ---- */

#define MiB (1024ULL * 1024)

static void run_work(void)
{
	int key = 0;

	CHECK(shim_wq_callback != NULL);
	if (shim_wq_callback)
		shim_wq_callback(&reclaim_work, &key, NULL);
}

static void charged(struct mem_cgroup *memcg)
{
	memcgd_memcg_charged(memcg, 64);
}

static void set_reclaim(__u32 gen, __u32 slot, __u64 headroom, __u64 rate)
{
	__u32 key = gen * MEMCGD_MAX_SLICES + slot;
	struct memcgd_policy *p = bpf_map_lookup_elem(&policies, &key);

	p->flags |= MEMCGD_POLICY_RECLAIM;
	p->headroom_bytes = headroom;
	p->reclaim_rate = rate;
}

/* memcgd's update: MemAvailable now */
static void publish_avail(__u64 bytes)
{
	reclaim_avail_bytes = bytes;
	reclaim_avail_seq++;
}

/* HIGH's and LOW's own cgroups as background reclaim finds them: slice_root, and their memcgs
 * behind bpf_cgroup_from_id() */
static void map_slice_memcgs(void)
{
	__u32 slot_high = HIGH, slot_low = LOW;
	__u64 id_high = kn_high.id, id_low = kn_low.id;

	bpf_map_update_elem(&slice_root, &slot_high, &id_high, BPF_ANY);
	bpf_map_update_elem(&slice_root, &slot_low, &id_low, BPF_ANY);
	cg_high.shim_memcg = &mc_high;
	cg_low.shim_memcg = &mc_low;
	shim_cgroups[0] = &cg_high;
	shim_cgroups[1] = &cg_low;
}

static void test_background_reclaim(void)
{
	struct memcgd_slice_state *low;

	/* a fresh start: both slices idle, LOW reclaimable down to its memory.low of 100 MiB */
	shim_now_ns += 100 * SEC_NS;
	active_gen = 0;
	set_policy(0, HIGH, 100, 1, MEMCGD_PROTECT_MIN, 0, 0);
	set_policy(0, LOW, 100, 0, MEMCGD_PROTECT_NONE, 0, 0);
	set_reclaim(0, LOW, 512 * MiB, 0);
	map_slice_memcgs();
	mc_root.shim_usage = 3000 * MiB;
	mc_low.shim_usage = 2000 * MiB;
	mc_low.memory.low = 100 * MiB / 4096;
	reclaim_enabled = 1;
	reclaim_max_headroom[0] = 512 * MiB;
	reclaim_order[0][0] = LOW;
	reclaim_order_n[0] = 1;
	publish_avail(256 * MiB);
	low = state(LOW);

	/* below the headroom, but nothing of higher priority is active: no work */
	charged(&mc_low);
	CHECK(shim_wq_starts == 0);

	/* HIGH becomes active: its next charge starts the work item, once */
	fault(kn_high.id, PGFAULT, 100);
	CHECK(state(HIGH)->active_until_ns > shim_now_ns);
	charged(&mc_high);
	CHECK(shim_wq_starts == 1 && reclaim_pending == 1 && reclaim_stats.kicks == 1);
	shim_now_ns += 20 * MS;
	charged(&mc_high);
	CHECK(shim_wq_starts == 1); /* one work item at a time */

	/* the pass takes what the headroom lacks (256 MiB) from LOW, far above its memory.low */
	run_work();
	CHECK(shim_n_reclaims == 1 && shim_reclaims[0].memcg == &mc_low && shim_reclaims[0].pages == 256 * MiB / 4096);
	CHECK(low->reclaimed_pages == 256 * MiB / 4096 && low->reclaim_passes == 1 && low->reclaim_errors == 0);
	CHECK(low->reclaim_last_level == 1 && low->reclaim_last_avail == 256 * MiB);
	CHECK(reclaim_pending == 0 && reclaim_stats.passes == 1 && reclaim_stats.pages == 256 * MiB / 4096);
	CHECK(shim_memcg_refs == 0 && shim_cgroup_refs == 0);

	/* the reclaimed memory counts as available until memcgd's next update: no new work */
	shim_now_ns += 20 * MS;
	charged(&mc_high);
	CHECK(shim_wq_starts == 1);

	/* charges eat it up again: work again, but at most once per RECLAIM_KICK_NS */
	mc_root.shim_usage += 300 * MiB;
	charged(&mc_high);
	CHECK(shim_wq_starts == 2);
	run_work();
	CHECK(shim_n_reclaims == 2 && shim_reclaims[1].pages == 300 * MiB / 4096);
	mc_root.shim_usage += 100 * MiB;
	shim_now_ns += 1 * MS;
	charged(&mc_high);
	CHECK(shim_wq_starts == 2);
	shim_now_ns += 10 * MS;
	charged(&mc_high);
	CHECK(shim_wq_starts == 3);

	/* Rate=: 64 MiB/s accrues for at most a second */
	set_reclaim(0, LOW, 512 * MiB, 64 * MiB);
	low->reclaim_budget_ns = 0;
	run_work();
	CHECK(shim_n_reclaims == 3 && shim_reclaims[2].pages == 64 * MiB / 4096);
	shim_now_ns += 100 * MS;
	mc_root.shim_usage += 100 * MiB;
	charged(&mc_high);
	run_work();
	CHECK(shim_n_reclaims == 4 && shim_reclaims[3].pages >= 64 * MiB / 10 / 4096 - 1 &&
	      shim_reclaims[3].pages <= 64 * MiB / 10 / 4096 + 1);

	/* a pass that reclaimed more than its budget (batches) pushes the budget into the future:
	 * nothing until the rate has paid for it, then the rate again */
	low->reclaim_budget_ns = shim_now_ns + 500 * MS;
	shim_now_ns += 20 * MS;
	mc_root.shim_usage += 100 * MiB;
	charged(&mc_high);
	run_work();
	CHECK(shim_n_reclaims == 4);
	shim_now_ns += 580 * MS; /* 100 ms past the overdrawn budget */
	charged(&mc_high);
	run_work();
	CHECK(shim_n_reclaims == 5 && shim_reclaims[4].pages >= 64 * MiB / 10 / 4096 - 1 &&
	      shim_reclaims[4].pages <= 64 * MiB / 10 / 4096 + 1);

	/* LOW down to its protection: nothing more to take */
	mc_low.memory.low = mc_low.shim_usage / 4096;
	shim_now_ns += SEC_NS;
	charged(&mc_high);
	run_work();
	CHECK(shim_n_reclaims == 5);

	/* the kernel path off (memcgd uses memory.reclaim, or nothing): no work at all */
	mc_low.memory.low = 0;
	reclaim_enabled = 0;
	shim_now_ns += SEC_NS;
	charged(&mc_high);
	CHECK(shim_wq_starts == 7);
	reclaim_enabled = 1;
	CHECK(shim_memcg_refs == 0 && shim_cgroup_refs == 0);
}

/* ---- NUMA balancing ([NUMA], numa.bpf.h) ---- */

/* The kernel's global parameters, as task_numa_work() prefills them */
static const struct memcg_numa_params global_params = {
	.scan_period_min_ms = 1000, .scan_period_max_ms = 60000, .scan_size_mb = 256, .hot_threshold_ms = 1000,
};

static struct memcgd_policy *policy_at(__u32 gen, __u32 slot)
{
	__u32 key = gen * MEMCGD_MAX_SLICES + slot;

	return bpf_map_lookup_elem(&policies, &key);
}

/* numa_balancing for a task of memcg: the decision, the parameters it leaves in *params */
static int numa_decision(struct mem_cgroup *memcg, struct memcg_numa_params *params)
{
	*params = global_params;
	return memcgd_numa_balancing(memcg, params);
}

static void test_numa_balancing(void)
{
	struct memcgd_slice_state *high = state(HIGH), *low = state(LOW);
	struct memcg_numa_params params;
	struct memcgd_policy *p;
	__u64 on0 = high->numa_on_decisions, off0 = low->numa_off_decisions;

	active_gen = 0;
	set_policy(0, HIGH, 100, 1, MEMCGD_PROTECT_MIN, 0, 0);
	set_policy(0, LOW, 100, 0, MEMCGD_PROTECT_NONE, 100, 0);

	/* no Balancing=: kernel.numa_balancing decides, nothing is written or counted */
	CHECK(numa_decision(&mc_high, &params) == MEMCG_NUMAB_DEFAULT);
	CHECK(!memcmp(&params, &global_params, sizeof(params)));
	CHECK(high->numa_on_decisions == on0 && high->numa_off_decisions == 0);

	/* an unmanaged cgroup (under a link through a cgroup memcgd does not know): the same */
	CHECK(numa_decision(&mc_other, &params) == MEMCG_NUMAB_DEFAULT);
	CHECK(!memcmp(&params, &global_params, sizeof(params)));

	/* Balancing=yes with ScanPeriodMin= and ScanSize=: only those are written */
	p = policy_at(0, HIGH);
	p->flags |= MEMCGD_POLICY_NUMA_ON;
	p->numa_scan_period_min_ms = 500;
	p->numa_scan_size_mb = 1024;
	CHECK(numa_decision(&mc_high, &params) == MEMCG_NUMAB_ON);
	CHECK(params.scan_period_min_ms == 500 && params.scan_size_mb == 1024);
	CHECK(params.scan_period_max_ms == global_params.scan_period_max_ms);
	CHECK(params.hot_threshold_ms == global_params.hot_threshold_ms);
	CHECK(high->numa_on_decisions == on0 + 1);
	/* the slice's services too (and a cgroup below them that no hook has seen yet) */
	CHECK(numa_decision(&mc_high_svc, &params) == MEMCG_NUMAB_ON && params.scan_size_mb == 1024);
	{
		struct kernfs_node kn_new = { .parent = &kn_high_svc, .id = 120 };
		struct cgroup cg_new = { .kn = &kn_new };
		struct mem_cgroup mc_new = { .css = { .cgroup = &cg_new, .flags = CSS_ONLINE } };
		__u64 id = kn_new.id;

		CHECK(numa_decision(&mc_new, &params) == MEMCG_NUMAB_ON);
		memcgd_cgroup_offline(&mc_new);
		CHECK(bpf_map_lookup_elem(&slice_of, &id) == NULL);
	}
	CHECK(high->numa_on_decisions == on0 + 3);
	/* every parameter set */
	p->numa_scan_period_max_ms = 120000;
	p->numa_hot_threshold_ms = 5;
	CHECK(numa_decision(&mc_high, &params) == MEMCG_NUMAB_ON);
	CHECK(params.scan_period_min_ms == 500 && params.scan_period_max_ms == 120000 &&
	      params.scan_size_mb == 1024 && params.hot_threshold_ms == 5);
	/* none set: balanced with the kernel's parameters */
	p->numa_scan_period_min_ms = p->numa_scan_period_max_ms = p->numa_scan_size_mb = p->numa_hot_threshold_ms = 0;
	CHECK(numa_decision(&mc_high, &params) == MEMCG_NUMAB_ON);
	CHECK(!memcmp(&params, &global_params, sizeof(params)));

	/* Balancing=no: not balanced, nothing written, counted apart */
	p = policy_at(0, LOW);
	p->flags |= MEMCGD_POLICY_NUMA_OFF;
	CHECK(numa_decision(&mc_low, &params) == MEMCG_NUMAB_OFF);
	CHECK(!memcmp(&params, &global_params, sizeof(params)));
	CHECK(low->numa_off_decisions == off0 + 1 && low->numa_on_decisions == 0);

	/* the active generation decides: a reload that turns it around takes effect at the flip */
	set_policy(1, HIGH, 100, 1, MEMCGD_PROTECT_MIN, 0, 0);
	set_policy(1, LOW, 100, 0, MEMCGD_PROTECT_NONE, 100, 0);
	policy_at(1, HIGH)->flags |= MEMCGD_POLICY_NUMA_OFF;
	CHECK(numa_decision(&mc_high, &params) == MEMCG_NUMAB_ON);
	active_gen = 1;
	CHECK(numa_decision(&mc_high, &params) == MEMCG_NUMAB_OFF);
	CHECK(numa_decision(&mc_low, &params) == MEMCG_NUMAB_DEFAULT);
	/* a slot without a policy in the active generation (slice removed): the kernel decides */
	memset(policy_at(1, HIGH), 0, sizeof(struct memcgd_policy));
	CHECK(numa_decision(&mc_high, &params) == MEMCG_NUMAB_DEFAULT);
	active_gen = 0;
}

/* [Protect] Size=footprint: get_min/get_low return the footprint while the slice is active,
 * WakeReserve= while it is idle, at most MaxUsage=; the cgroups below the slice's own get their
 * share by usage; below_min/below_low leave a sized slice to them */
static void test_sized_protection(void)
{
	__u32 key = HIGH, g = active_gen & 1;
	__u64 root_id = kn_high.id, page = 4096;
	struct memcgd_policy *p;
	struct memcgd_slice_state *s = state(HIGH);
	__u64 before = s->sized_decisions;

	set_policy(g, HIGH, 1, 1, MEMCGD_PROTECT_MIN, 0, 0);
	p = policy_at(g, HIGH);
	p->flags |= MEMCGD_POLICY_SIZED;
	bpf_map_update_elem(&slice_root, &key, &root_id, BPF_ANY);
	protect_footprint_bytes[HIGH] = 300 * 1024 * 1024;
	protect_reserve_bytes[HIGH] = 16 * 1024 * 1024;

	/* active (a fault marks it): the footprint, in pages; not for Mode=low */
	fault(kn_high.id, PGFAULT, 1);
	CHECK(memcgd_get_min(&mc_high, 100000) == 300 * 1024 * 1024 / page);
	CHECK(memcgd_get_low(&mc_high, 100000) == 0);
	CHECK(s->sized_decisions == before + 1 && s->sized_last_pages == 300 * 1024 * 1024 / page);
	/* the boolean hook leaves a sized slice alone */
	CHECK(!memcgd_below_min(&mc_high));
	/* a cgroup below: its share by usage (the slice uses 100000 pages, protects 76800) */
	CHECK(memcgd_get_min(&mc_high_svc, 50000) == 50000ULL * ((76800ULL << 10) / 100000) >> 10);
	/* the slice protects more than it uses: all of the cgroup below */
	CHECK(memcgd_get_min(&mc_high, 1000) == 76800 && memcgd_get_min(&mc_high_svc, 500) == 500);
	/* MaxUsage= caps the footprint */
	p->max_usage_bytes = 100 * 1024 * 1024;
	CHECK(memcgd_get_min(&mc_high, 100000) == 100 * 1024 * 1024 / page);
	p->max_usage_bytes = 0;
	/* idle: the reserve */
	shim_now_ns += 10 * SEC_NS;
	CHECK(memcgd_get_min(&mc_high, 100000) == 16 * 1024 * 1024 / page);
	protect_reserve_bytes[HIGH] = 0;
	CHECK(memcgd_get_min(&mc_high, 100000) == 0);
	/* the daemon's CPU activity counts as active too */
	cpu_active_until_ns[HIGH] = shim_now_ns + SEC_NS;
	CHECK(memcgd_get_min(&mc_high, 100000) == 300 * 1024 * 1024 / page);
	cpu_active_until_ns[HIGH] = 0;
	/* unmanaged, and a slice without Size=footprint: nothing */
	CHECK(memcgd_get_min(&mc_other, 100000) == 0);
	p->flags &= ~MEMCGD_POLICY_SIZED;
	fault(kn_high.id, PGFAULT, 1);
	CHECK(memcgd_get_min(&mc_high, 100000) == 0);
	CHECK(memcgd_below_min(&mc_high));
	protect_footprint_bytes[HIGH] = 0;
	shim_now_ns += 10 * SEC_NS;
}

/* [Throttle] When=pressure: a lower slice is delayed only while memcgd has escalated a level
 * above it, however active that level is */
static void test_delay_on_pressure(void)
{
	__u32 g = active_gen & 1;
	struct memcgd_policy *p;

	set_policy(g, HIGH, 1, 1, MEMCGD_PROTECT_MIN, 0, 0);
	set_policy(g, LOW, 100, 0, MEMCGD_PROTECT_NONE, 100, 0);
	p = policy_at(g, LOW);
	p->flags |= MEMCGD_POLICY_DELAY_ON_PRESSURE;
	fault(kn_high.id, PGFAULT, 10); /* high is active */
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	pressure_level_until_ns[g][1] = shim_now_ns + SEC_NS;
	pressure_level_mask[g] = 1ULL << 1;
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 100);
	CHECK(memcgd_get_high_delay_ms(&mc_high) == 0); /* its own level is not above it */
	/* memcgd stopped renewing it: the escalation lapses by itself */
	shim_now_ns += 2 * SEC_NS;
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 0);
	pressure_level_mask[g] = 0;
	/* When=active (the flag clear): delayed while high is active, as before */
	p->flags &= ~MEMCGD_POLICY_DELAY_ON_PRESSURE;
	fault(kn_high.id, PGFAULT, 10);
	CHECK(memcgd_get_high_delay_ms(&mc_low) == 100);
	shim_now_ns += 10 * SEC_NS;
}

/* An idle protected slice gives its memory back first: when LOW (busy) charges below the
 * headroom, the work item takes from idle HIGH down to its WakeReserve=, before LOW's own
 * Background= reclaim; while HIGH is active it gives nothing */
static void test_give_back(void)
{
	struct memcgd_policy *p;
	__u32 g;
	unsigned starts, reclaims;

	shim_now_ns += 100 * SEC_NS;
	g = active_gen & 1;
	set_policy(g, HIGH, 1, 1, MEMCGD_PROTECT_LOW, 0, 0);
	p = policy_at(g, HIGH);
	p->flags |= MEMCGD_POLICY_SIZED | MEMCGD_POLICY_GIVE_BACK;
	set_policy(g, LOW, 1, 0, MEMCGD_PROTECT_NONE, 0, 0);
	set_reclaim(g, LOW, 512 * MiB, 0);
	map_slice_memcgs();
	mc_high.shim_usage = 600 * MiB;
	mc_high.memory.low = mc_high.memory.min = 0;
	mc_low.shim_usage = 1000 * MiB;
	mc_low.memory.low = 0;
	mc_root.shim_usage = 3000 * MiB;
	protect_reserve_bytes[HIGH] = 100 * MiB;
	cpu_active_until_ns[HIGH] = 0;
	reclaim_enabled = 1;
	reclaim_max_headroom[g] = 512 * MiB;
	reclaim_order[g][0] = HIGH;	/* protected slices first (policy_reclaim_order) */
	reclaim_order[g][1] = LOW;
	reclaim_order_n[g] = 2;
	publish_avail(256 * MiB);
	starts = shim_wq_starts;
	reclaims = shim_n_reclaims;

	/* LOW busy (its level 0 is the only active one): its charge starts the work item, which
	 * needs no level above LOW's when the order starts with a protected slice */
	fault(kn_low.id, PGFAULT, 10);
	charged(&mc_low);
	CHECK(shim_wq_starts == starts + 1);
	run_work();
	/* the 256 MiB the headroom lacks come from idle HIGH (it holds 500 MiB above its reserve) */
	CHECK(shim_n_reclaims == reclaims + 1 && shim_reclaims[reclaims].memcg == &mc_high &&
	      shim_reclaims[reclaims].pages == 256 * MiB / 4096);
	CHECK(state(HIGH)->reclaimed_pages >= 256 * MiB / 4096);
	/* never below its WakeReserve= */
	mc_root.shim_usage += 1000 * MiB;
	shim_now_ns += SEC_NS;
	publish_avail(0);
	fault(kn_low.id, PGFAULT, 10);
	charged(&mc_low);
	run_work();
	CHECK(mc_high.shim_usage == 100 * MiB);
	/* HIGH active again: it gives nothing (LOW, which it outranks, may give its own) */
	mc_high.shim_usage = 600 * MiB;
	fault(kn_high.id, PGFAULT, 10);
	shim_now_ns += 20 * MS;
	reclaims = shim_n_reclaims;
	charged(&mc_high);
	run_work();
	{
		bool took_high = false;

		for (unsigned i = reclaims; i < shim_n_reclaims && i < 16; i++)
			took_high |= shim_reclaims[i].memcg == &mc_high;
		CHECK(!took_high);
	}
	reclaim_order_n[g] = 0;
	protect_reserve_bytes[HIGH] = 0;
	shim_now_ns += 10 * SEC_NS;
}

/* The room the protected slices need (reclaim_room_bytes) raises every headroom: free memory
 * is kept for high.slice to regrow to its footprint, from LOW, in the background */
static void test_room(void)
{
	__u32 g = active_gen & 1;
	unsigned reclaims;

	shim_now_ns += 100 * SEC_NS;
	set_policy(g, HIGH, 1, 1, MEMCGD_PROTECT_LOW, 0, 0);
	set_policy(g, LOW, 1, 0, MEMCGD_PROTECT_NONE, 0, 0);
	set_reclaim(g, LOW, 256 * MiB, 0);
	mc_low.shim_usage = 2000 * MiB;
	mc_low.memory.low = mc_low.memory.min = 0;
	mc_root.shim_usage = 3000 * MiB;
	reclaim_enabled = 1;
	reclaim_max_headroom[g] = 256 * MiB;
	reclaim_order[g][0] = LOW;
	reclaim_order_n[g] = 1;
	publish_avail(300 * MiB);
	reclaim_room_bytes = 0;
	fault(kn_high.id, PGFAULT, 10); /* HIGH active: LOW is outranked */
	reclaims = shim_n_reclaims;
	/* 300 MiB free is above the 256 MiB headroom: no work */
	shim_now_ns += 20 * MS;
	charged(&mc_low);
	run_work();
	CHECK(shim_n_reclaims == reclaims);
	/* HIGH needs 500 MiB of room: LOW gives the 200 MiB that free memory lacks of it */
	reclaim_room_bytes = 500 * MiB;
	shim_now_ns += 20 * MS;
	charged(&mc_low);
	run_work();
	CHECK(shim_n_reclaims == reclaims + 1 && reclaims < 16 && shim_reclaims[reclaims].memcg == &mc_low &&
	      shim_reclaims[reclaims].pages == 200 * MiB / 4096);
	reclaim_room_bytes = 0;
	reclaim_order_n[g] = 0;
	shim_now_ns += 10 * SEC_NS;
}

int main(void)
{
	setup();
	test_unmanaged_cost();
	test_activation();
	test_busy_fault_cost();
	test_fault_cache_epoch();
	test_window_monotonic();
	test_protect();
	test_throttle_and_guard();
	test_cpu_activity();
	test_reactivation_accounts_time();
	test_resolve_and_hooks();
	test_dying_not_cached();
	test_slice_of_full();
	test_generation_switch();
	test_generation_remarks();
	test_exempt();
	test_ceiling();
	test_background_reclaim();
	test_numa_balancing();
	test_sized_protection();
	test_delay_on_pressure();
	test_give_back();
	test_room();
	return test_summary("test-bpf-logic");
}
