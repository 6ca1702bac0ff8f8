// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcgd's BPF side: measure each managed slice's page-fault rate, protect an active slice,
 * throttle managed slices of lower priority while a higher one is active, and reclaim from
 * them in the background (reclaim.bpf.h).
 *
 * Hot paths and their costs:
 * - memcg:count_memcg_events (BTF tracepoint) runs for every memcg event of the machine. For anything but
 *   PGFAULT it returns after one compare. A PGFAULT first checks this CPU's fault_cache: the
 *   last managed cgroup that faulted here and its slot, valid while memcgd has not changed
 *   slice_of since (slice_of_epoch). Otherwise it does one hash lookup (slice_of): that is all
 *   an unmanaged cgroup costs. Faults of managed slices are counted with atomic adds, so
 *   concurrent CPUs never lose updates, until the slice is marked active for the current
 *   window and policy generation: from then on to the end of the window its faults only add
 *   to a per-CPU counter (busy_faults). The clock is read at most once per tick and CPU
 *   (fault_clock_ns). A fault of a busy slice costs three array lookups that the verifier
 *   inlines, a few loads and compares and one plain add.
 * - below_low/below_min/get_high_delay_ms run only for cgroups under one of memcgd's links.
 *   They resolve the cgroup to its slice with one lookup (an ancestor walk bounded by
 *   MEMCGD_MAX_DEPTH, whose result is cached, covers cgroups memcgd did not see yet) and check
 *   the levels above their own in a 64-bit mask: no work grows with the number of slices.
 * - numa_balancing runs once per NUMA scan period of each task under a link (not in the tick):
 *   the same slice lookup and one policy load.
 *
 * Policies live in two generations (see memcgd.h); memcgd fills the inactive one and flips
 * active_gen, so every hook sees either the whole old or the whole new policy.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "memcgd.h"

char LICENSE[] SEC("license") = "GPL";

/* written by memcgd through the mmapped .bss */
volatile __u32 active_gen;
/* memcgd adds one after each change it makes to slice_of: fault_cache entries of older
 * epochs are not used */
volatile __u64 slice_of_epoch;
/* transitions lost because the ring buffer was full */
__u64 events_dropped;
/* delays not applied because the cgroup is exempt (memcgd, PID 1, journald, dbus, logind) */
__u64 exempt_skips;
/* cgroups the hooks could not add to slice_of because it was full ([Daemon] MaxCgroups=): their
 * faults are not counted. memcgd reports it (memcgctl status, journal). */
__u64 slice_of_full;
/*
 * Activity memcgd measures itself ([Activity] CPUUsage=): a slice that works on memory it
 * already has takes no page faults, so its fault rate says nothing. memcgd writes "active
 * until" (bpf_ktime_get_ns() time) per slice slot and per generation and level, and the mask
 * of levels that may be active, through the mmapped .bss; the hooks only read them.
 */
volatile __u64 cpu_active_until_ns[MEMCGD_MAX_SLICES];
volatile __u64 cpu_level_until_ns[2][MEMCGD_MAX_LEVELS];
volatile __u64 cpu_level_mask[2];
/*
 * [Protect] Size=footprint, written by memcgd every update: what get_low/get_min return for a
 * slice while it is active (its measured footprint, at most MaxUsage=) and while it is idle
 * (WakeReserve=), in bytes.
 */
volatile __u64 protect_footprint_bytes[MEMCGD_MAX_SLICES];
volatile __u64 protect_reserve_bytes[MEMCGD_MAX_SLICES];
/*
 * [Throttle] When=pressure: the levels whose protected slice is under pressure that background
 * reclaim did not relieve (memcgd's escalation), per generation, "until" as for
 * cpu_level_until_ns: memcgd renews it every update while the pressure lasts, so a memcgd that
 * stops updating stops the delays within two updates.
 */
volatile __u64 pressure_level_until_ns[2][MEMCGD_MAX_LEVELS];
volatile __u64 pressure_level_mask[2];
const volatile __u64 page_size = 4096;	/* set by memcgd before load */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEMCGD_MAX_CGROUPS);
	__type(key, __u64);   /* cgroup id */
	__type(value, __u32); /* slice slot */
} slice_of SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * MEMCGD_MAX_SLICES);
	__type(key, __u32);
	__type(value, struct memcgd_policy);
} policies SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MEMCGD_MAX_SLICES);
	__type(key, __u32);
	__type(value, struct memcgd_slice_state);
} slice_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MEMCGD_MAX_SLICES);
	__type(key, __u32);
	__type(value, __u32);
} protect_suspended SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MEMCGD_MAX_SLICES);
	__type(key, __u32);
	__type(value, __u64); /* cgroup id of the slice's own cgroup, 0 = not attached */
} slice_root SEC(".maps");

/* The series' usage kfunc: page_counter usage of the memory cgroup in bytes (memory.current).
 * Weak: on a kernel without it the ceiling falls back to memcgd's per-update check. */
extern unsigned long bpf_mem_cgroup_usage(struct mem_cgroup *memcg) __ksym __weak;
#ifndef bpf_ksym_exists
/* libbpf < 1.2's bpf_helpers.h (the system one may come first): what later ones define */
#define bpf_ksym_exists(sym) (!!(sym))
#endif

/* a slice root's usage read by a hook stands for the slice this long: a reclaim pass visits a
 * cgroup before its descendants, so they are judged by the reading of the same pass */
#define USAGE_FRESH_NS (50ULL * 1000 * 1000)

/* Never delayed, whatever the policy of the slice around them: memcgd itself and what systemd
 * needs to stay responsive. Filled by memcgd; checked only when a delay would be returned. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEMCGD_MAX_EXEMPT);
	__type(key, __u64);   /* cgroup id */
	__type(value, __u32); /* 1 */
} exempt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct memcgd_levels);
} levels SEC(".maps");

/* The fault path's per-CPU cache: bpf_ktime_get_ns() as of this CPU's last jiffy, and the
 * last managed cgroup that faulted on this CPU with its slot as of slice_of epoch `epoch`. */
struct memcgd_fault_cache {
	__u64 jiffies;
	__u64 now_ns;
	__u64 cgroup_id;	/* 0: none (cgroup ids start at 1) */
	__u64 epoch;
	__u32 slot;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct memcgd_fault_cache);
} fault_cache SEC(".maps");

/* Faults of a slice counted while it is already marked active for the current window: per
 * CPU, without an atomic; memcgd adds them to slice_state's faults when it reads the state. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MEMCGD_MAX_SLICES);
	__type(key, __u32);
	__type(value, __u64);
} busy_faults SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, MEMCGD_RINGBUF_BYTES);
} events SEC(".maps");

/*
 * An index into the .bss arrays that the verifier can bound: masked after a compiler barrier, so
 * that clang can neither drop the mask (it may know the value is in range) nor index with a copy
 * reloaded from a stack slot that served as a map key (the verifier does not track that one).
 * mask + 1 must be the array's length, a power of two.
 */
static __always_inline __u32 bss_index(__u32 v, __u32 mask)
{
	asm volatile("" : "+r"(v));
	return v & mask;
}

/* a streak of throttling is "continuous" while decisions are at most this far apart */
#define STREAK_GAP_NS (1000ULL * 1000 * 1000)

static __always_inline const struct memcgd_policy *policy_of(__u32 gen, __u32 slot)
{
	__u32 key = (gen & 1) * MEMCGD_MAX_SLICES + slot;
	const struct memcgd_policy *p;

	if (slot >= MEMCGD_MAX_SLICES)
		return NULL;
	p = bpf_map_lookup_elem(&policies, &key);
	if (!p || !(p->flags & MEMCGD_POLICY_IN_USE))
		return NULL;
	return p;
}

/* The slot's policy of generation gen and its state, or NULL for either when there is none. */
static __always_inline const struct memcgd_policy *slice_of_slot(__u32 gen, int slot, struct memcgd_slice_state **s)
{
	const struct memcgd_policy *p;
	__u32 key;

	*s = NULL;
	if (slot < 0 || slot >= MEMCGD_MAX_SLICES)
		return NULL;
	p = policy_of(gen, (__u32)slot);
	if (!p)
		return NULL;
	key = (__u32)slot;
	*s = bpf_map_lookup_elem(&slice_state, &key);
	return *s ? p : NULL;
}

static __always_inline void emit(__u32 type, __u32 slot, __u64 now, __u64 value)
{
	struct memcgd_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&events_dropped, 1);
		return;
	}
	e->ts_ns = now;
	e->value = value;
	e->slot = slot;
	e->type = type;
	bpf_ringbuf_submit(e, 0);
}

/* The slice was busy in window `wid`: keep it active through the following window (which needs
 * time to reach the threshold again) and then for the hold time. */
static __always_inline void mark_active(__u32 gen, __u32 slot, const struct memcgd_policy *p,
					struct memcgd_slice_state *s, __u64 now, __u64 wid, __u64 in_window)
{
	__u64 until = (wid + 2) * p->window_ns + p->hold_ns;
	__u64 old_until = s->active_until_ns;
	__u32 gkey = gen & 1, lvl = p->level & (MEMCGD_MAX_LEVELS - 1);
	struct memcgd_levels *l;

	if (until > old_until)
		s->active_until_ns = until;
	if (old_until <= now) {
		/* inactive -> active: exactly one CPU wins the edge */
		__u64 old_since = s->active_since_ns;

		if (__sync_val_compare_and_swap(&s->active_since_ns, old_since, now) == old_since) {
			if (old_since && old_until > old_since)
				__sync_fetch_and_add(&s->active_ns, old_until - old_since);
			__sync_fetch_and_add(&s->activations, 1);
			emit(MEMCGD_EV_ACTIVATED, slot, now, in_window);
		}
	}

	l = bpf_map_lookup_elem(&levels, &gkey);
	if (!l)
		return;
	/* publish "active until" before the mask bit (the reader clears, then re-checks until) */
	if (l->until_ns[lvl] < until)
		l->until_ns[lvl] = until;
	if (!(l->active_mask & (1ULL << lvl)))
		__sync_fetch_and_or(&l->active_mask, 1ULL << lvl);
}

/*
 * The time for fault accounting. Windows are at least 10 ms long, so the time as of this CPU's
 * last tick is close enough, and the clocksource (an emulated or paravirtual one can be slow to
 * read) is read once per jiffy and CPU instead of on every fault. A preempted update leaves at
 * worst a pair from two adjacent ticks.
 */
static __always_inline __u64 fault_clock_ns(struct memcgd_fault_cache *c)
{
	__u64 j;

	if (!c)
		return bpf_ktime_get_ns();
	j = bpf_jiffies64();
	if (c->jiffies != j) {
		c->now_ns = bpf_ktime_get_ns();
		c->jiffies = j;
	}
	return c->now_ns;
}

/* marked_end_ns once a slice was marked active in the window ending at end_ns of generation
 * gen: the end, with its lowest bit (a nanosecond) replaced by the generation's. */
static __always_inline __u64 marked_end(__u64 end_ns, __u32 gen)
{
	return (end_ns & ~1ULL) | (gen & 1);
}

static __always_inline void account_faults(__u32 slot, __u64 val, struct memcgd_fault_cache *c)
{
	__u32 gen = active_gen;
	const struct memcgd_policy *p;
	struct memcgd_slice_state *s;
	__u64 now, total, wid, old, base, in_window, marked;

	s = bpf_map_lookup_elem(&slice_state, &slot);
	if (!s)
		return;
	now = fault_clock_ns(c);
	marked = s->marked_end_ns;
	if ((marked & 1) == (gen & 1) && now < marked) {
		/* marked active for this window and generation already: only the count is left to
		 * do, on this CPU (a program does not run twice at once on one CPU) */
		__u64 *busy = bpf_map_lookup_elem(&busy_faults, &slot);

		if (busy) {
			*busy += val;
			return;
		}
	}
	p = policy_of(gen, slot);
	if (!p || !p->window_ns)
		return;
	total = __sync_fetch_and_add(&s->faults, val) + val;
	wid = now / p->window_ns;
	old = s->window_id;
	/* new window: the CPU that moves window_id records where it starts; faults counted
	 * meanwhile by other CPUs land in one window or the other, never nowhere. A CPU whose
	 * clock is a tick behind another's counts into the window that one started; a jump back
	 * by more than one window is a new Window= and starts over. */
	if (wid > old || wid + 1 < old) {
		if (__sync_val_compare_and_swap(&s->window_id, old, wid) == old)
			s->window_base = total - val;
	} else {
		wid = old;
	}
	base = s->window_base;
	in_window = total > base ? total - base : 0;
	if (in_window < p->faults_per_window)
		return;
	mark_active(gen, slot, p, s, now, wid, in_window);
	s->marked_end_ns = marked_end((wid + 1) * p->window_ns, gen);
}

/* A BTF tracepoint (raw arguments, called directly) rather than a classic one: the classic
 * program runs after the kernel fills a perf trace record for every memcg event (PGPGIN and
 * PGPGOUT of every charge and uncharge as well as PGFAULT). That record was not what P3 in
 * docs/benchmarks.md measures (0.937 before, 0.938 after), but there is no reason to pay it. */
SEC("tp_btf/count_memcg_events")
int BPF_PROG(memcgd_count_events, struct mem_cgroup *memcg, int item, unsigned long val)
{
	struct memcgd_fault_cache *c;
	__u32 zero = 0, *found, slot;
	__u64 id, epoch;

	if (item != bpf_core_enum_value(enum vm_event_item, PGFAULT))
		return 0;
	id = memcg->css.cgroup->kn->id;
	/* the epoch is read before slice_of: an entry cached under it is at least that new */
	epoch = slice_of_epoch;
	c = bpf_map_lookup_elem(&fault_cache, &zero);
	if (c && c->cgroup_id == id && c->epoch == epoch) {
		slot = c->slot;
	} else {
		found = bpf_map_lookup_elem(&slice_of, &id);
		if (!found)
			return 0;
		slot = *found;
		if (c) {
			c->cgroup_id = id;
			c->slot = slot;
			c->epoch = epoch;
		}
	}
	account_faults(slot, val, c);
	return 0;
}

/* errno values are macros, which vmlinux.h does not carry */
#define MEMCGD_E2BIG 7

/* slice_of refused an insert: it holds MaxCgroups= entries already */
static __always_inline void count_map_full(long err)
{
	if (err == -MEMCGD_E2BIG)
		__sync_fetch_and_add(&slice_of_full, 1);
}

/* Slot of the managed slice containing memcg, or -1. */
static __always_inline int resolve_slice(struct mem_cgroup *memcg)
{
	struct kernfs_node *kn = memcg->css.cgroup->kn;
	__u64 first_id = 0;
	__u32 *slot;

	for (int depth = 0; depth < MEMCGD_MAX_DEPTH && kn; depth++) {
		__u64 id = kn->id;

		if (!depth)
			first_id = id;
		slot = bpf_map_lookup_elem(&slice_of, &id);
		if (slot) {
			__u32 found = *slot;

			/*
			 * Remember it (the next lookup costs one step), unless the cgroup is going
			 * away: its offline hook may have deleted its entry already, and nothing
			 * would delete one inserted after that. kill_css() sets CSS_DYING and only
			 * then starts the RCU grace period after which the offline hook runs; this
			 * program runs inside an RCU read-side section, so if it saw the flag clear,
			 * its insert completes before that grace period ends, i.e. before the
			 * offline hook's delete.
			 */
			if (depth && !(memcg->css.flags & CSS_DYING))
				count_map_full(bpf_map_update_elem(&slice_of, &first_id, &found, BPF_NOEXIST));
			return (int)found;
		}
		kn = kn->parent;
	}
	return -1;
}

/* [Throttle] When=pressure: is a level above `level` escalated (pressure_level_*) at now? */
static __always_inline bool higher_level_pressured(__u32 gen, __u32 level, __u64 now)
{
	__u32 g = bss_index(gen, 1);
	__u64 mask;

	if (level >= MEMCGD_MAX_LEVELS - 1)
		return false;
	mask = pressure_level_mask[g] >> (level + 1);
	if (!mask)
		return false; /* the common case: nobody above is under pressure */
	for (__u32 i = MEMCGD_MAX_LEVELS - 1; i > level && i < MEMCGD_MAX_LEVELS; i--)
		if ((pressure_level_mask[g] & (1ULL << i)) &&
		    pressure_level_until_ns[g][bss_index(i, MEMCGD_MAX_LEVELS - 1)] > now)
			return true;
	return false;
}

static __always_inline bool higher_level_active(__u32 gen, __u32 level, __u64 now)
{
	__u32 gkey = gen & 1;
	struct memcgd_levels *l = bpf_map_lookup_elem(&levels, &gkey);
	__u64 mask, cpu_mask;

	if (!l || level >= MEMCGD_MAX_LEVELS - 1)
		return false;
	cpu_mask = cpu_level_mask[bss_index(gkey, 1)];
	mask = (l->active_mask | cpu_mask) >> (level + 1);
	if (!mask)
		return false; /* the common case: nothing above is active */
	for (__u32 i = MEMCGD_MAX_LEVELS - 1; i > level && i < MEMCGD_MAX_LEVELS; i--) {
		__u64 bit = 1ULL << i;

		/* memcgd clears the CPU mask's expired bits itself */
		if ((cpu_mask & bit) &&
		    cpu_level_until_ns[bss_index(gkey, 1)][bss_index(i, MEMCGD_MAX_LEVELS - 1)] > now)
			return true;
		if (!(l->active_mask & bit))
			continue;
		if (l->until_ns[i] > now)
			return true;
		/* expired: clear the bit, then re-check in case the level just became active again */
		__sync_fetch_and_and(&l->active_mask, ~bit);
		if (l->until_ns[i] > now) {
			__sync_fetch_and_or(&l->active_mask, bit);
			return true;
		}
	}
	return false;
}

/*
 * [Protect] MaxUsage=, checked in the hook: protection is refused while the slice uses more than
 * its ceiling, whatever the last update of memcgd saw. The slice's usage is read with the
 * kfunc when the hook runs for the slice's own cgroup (reclaim visits it before its
 * descendants); a descendant is judged by that reading while it is fresh, and by its own
 * usage, which the slice's cannot be below, in any case.
 */
static __always_inline bool over_ceiling(struct mem_cgroup *memcg, __u32 slot, const struct memcgd_policy *p,
					 struct memcgd_slice_state *s, __u64 now)
{
	__u64 usage, *root, id;

	if (!p->max_usage_bytes || !bpf_ksym_exists(bpf_mem_cgroup_usage))
		return false;
	usage = bpf_mem_cgroup_usage(memcg);
	id = memcg->css.cgroup->kn->id;
	root = bpf_map_lookup_elem(&slice_root, &slot);
	if (root && *root == id) {
		s->usage_bytes = usage;
		s->usage_ns = now;
	} else if (now - s->usage_ns < USAGE_FRESH_NS && s->usage_bytes > usage) {
		usage = s->usage_bytes;
	}
	return usage > p->max_usage_bytes;
}

static __always_inline bool protect(struct mem_cgroup *memcg, __u32 mode)
{
	int slot = resolve_slice(memcg);
	struct memcgd_slice_state *s;
	const struct memcgd_policy *p = slice_of_slot(active_gen, slot, &s);
	__u32 key, *suspended;
	__u64 now;

	if (!p || p->protect != mode || (p->flags & MEMCGD_POLICY_SIZED))
		return false;
	key = (__u32)slot;
	now = bpf_ktime_get_ns();
	if (s->active_until_ns <= now && cpu_active_until_ns[bss_index(slot, MEMCGD_MAX_SLICES - 1)] <= now)
		return false;
	/* the ceiling as of now (kfunc) first, then as of memcgd's last update */
	if (over_ceiling(memcg, key, p, s, now)) {
		__sync_fetch_and_add(&s->ceiling_refusals, 1);
		return false;
	}
	suspended = bpf_map_lookup_elem(&protect_suspended, &key);
	if (suspended && *suspended)
		return false;
	__sync_fetch_and_add(&s->protect_decisions, 1);
	return true;
}

/*
 * [Protect] Size=footprint: how many pages of memcg's usage the kernel is to protect (get_low,
 * get_min). The slice's own cgroup gets the slice's footprint while the slice is active, its
 * WakeReserve= while it is idle, at most MaxUsage=. Reclaim computes protection top-down, so
 * the slice's own cgroup is asked before the cgroups below it: its usage is noted, and each
 * cgroup below gets the share of the slice's protection that its usage is of the slice's (as
 * memory_recursiveprot would hand it down). The kernel clamps the value to the usage.
 */
static __always_inline unsigned long sized_protection(struct mem_cgroup *memcg, unsigned long usage, __u32 mode)
{
	int slot = resolve_slice(memcg);
	struct memcgd_slice_state *s;
	const struct memcgd_policy *p = slice_of_slot(active_gen, slot, &s);
	__u64 now, bytes, pages, *root, slice_pages, share;
	__u32 key, idx;

	if (!p || p->protect != mode || !(p->flags & MEMCGD_POLICY_SIZED))
		return 0;
	key = (__u32)slot;
	now = bpf_ktime_get_ns();
	idx = bss_index(key, MEMCGD_MAX_SLICES - 1);
	if (s->active_until_ns > now || cpu_active_until_ns[idx] > now)
		bytes = protect_footprint_bytes[idx];
	else
		bytes = protect_reserve_bytes[idx];
	if (p->max_usage_bytes && bytes > p->max_usage_bytes)
		bytes = p->max_usage_bytes;
	pages = bytes / page_size;
	if (!pages)
		return 0;
	root = bpf_map_lookup_elem(&slice_root, &key);
	if (root && *root == memcg->css.cgroup->kn->id) {
		s->usage_bytes = (__u64)usage * page_size;
		s->usage_ns = now;
		s->sized_last_pages = pages;
		__sync_fetch_and_add(&s->sized_decisions, 1);
		return pages;
	}
	/* below the slice's own cgroup: its share, by usage, of the slice's protection */
	if (now - s->usage_ns >= USAGE_FRESH_NS || !s->usage_bytes)
		return pages;
	slice_pages = s->usage_bytes / page_size;
	if (!slice_pages || pages >= slice_pages)
		return usage;
	/* pages / slice_pages in 1/1024 (both below 2^44 pages: no overflow) */
	share = (pages << 10) / slice_pages;
	return (__u64)usage * share >> 10;
}

SEC("struct_ops/get_low")
unsigned long BPF_PROG(memcgd_get_low, struct mem_cgroup *memcg, unsigned long usage)
{
	return sized_protection(memcg, usage, MEMCGD_PROTECT_LOW);
}

SEC("struct_ops/get_min")
unsigned long BPF_PROG(memcgd_get_min, struct mem_cgroup *memcg, unsigned long usage)
{
	return sized_protection(memcg, usage, MEMCGD_PROTECT_MIN);
}

SEC("struct_ops/below_low")
bool BPF_PROG(memcgd_below_low, struct mem_cgroup *memcg)
{
	return protect(memcg, MEMCGD_PROTECT_LOW);
}

SEC("struct_ops/below_min")
bool BPF_PROG(memcgd_below_min, struct mem_cgroup *memcg)
{
	return protect(memcg, MEMCGD_PROTECT_MIN);
}

SEC("struct_ops/get_high_delay_ms")
unsigned int BPF_PROG(memcgd_get_high_delay_ms, struct mem_cgroup *memcg)
{
	int slot = resolve_slice(memcg);
	__u32 gen = active_gen, key;
	struct memcgd_slice_state *s;
	const struct memcgd_policy *p = slice_of_slot(gen, slot, &s);
	__u64 now, gap;

	if (!p || !p->delay_ms)
		return 0;
	key = (__u32)slot;
	now = bpf_ktime_get_ns();
	if ((p->flags & MEMCGD_POLICY_DELAY_ON_PRESSURE) ? !higher_level_pressured(gen, p->level, now)
							 : !higher_level_active(gen, p->level, now)) {
		if (s->throttle_streak_start_ns)
			s->throttle_streak_start_ns = 0;
		if (s->guard_tripped && __sync_val_compare_and_swap(&s->guard_tripped, 1, 0) == 1)
			emit(MEMCGD_EV_GUARD_CLEARED, key, now, 0);
		return 0;
	}

	/* a delay is due: not for memcgd itself nor the plumbing systemd needs (one lookup, paid
	 * only here, not on the common path above) */
	{
		__u64 id = memcg->css.cgroup->kn->id;

		if (bpf_map_lookup_elem(&exempt, &id)) {
			__sync_fetch_and_add(&exempt_skips, 1);
			return 0;
		}
	}

	/* the guard: a slice throttled continuously for longer than its limit is let go until
	 * the higher-priority activity ends */
	gap = STREAK_GAP_NS + 2ULL * p->delay_ms * 1000000;
	if (!s->throttle_streak_start_ns || now - s->throttle_last_ns > gap)
		s->throttle_streak_start_ns = now;
	s->throttle_last_ns = now;
	if (s->guard_tripped)
		return 0;
	if (p->max_throttle_ns && now - s->throttle_streak_start_ns > p->max_throttle_ns) {
		if (__sync_val_compare_and_swap(&s->guard_tripped, 0, 1) == 0) {
			__sync_fetch_and_add(&s->guard_trips, 1);
			emit(MEMCGD_EV_GUARD_TRIPPED, key, now, now - s->throttle_streak_start_ns);
		}
		return 0;
	}
	__sync_fetch_and_add(&s->throttle_decisions, 1);
	__sync_fetch_and_add(&s->throttle_ms, p->delay_ms);
	return p->delay_ms;
}

/* A cgroup created below an attachment: map it to its slice right away (existing cgroups
 * were added by memcgd when it attached). */
SEC("struct_ops/handle_cgroup_online")
void BPF_PROG(memcgd_cgroup_online, struct mem_cgroup *memcg)
{
	struct kernfs_node *kn = memcg->css.cgroup->kn;
	__u64 id = kn->id;
	__u32 *slot;

	kn = kn->parent;
	for (int depth = 0; depth < MEMCGD_MAX_DEPTH && kn; depth++) {
		__u64 pid = kn->id;

		slot = bpf_map_lookup_elem(&slice_of, &pid);
		if (slot) {
			__u32 found = *slot;

			count_map_full(bpf_map_update_elem(&slice_of, &id, &found, BPF_ANY));
			return;
		}
		kn = kn->parent;
	}
}

SEC("struct_ops/handle_cgroup_offline")
void BPF_PROG(memcgd_cgroup_offline, struct mem_cgroup *memcg)
{
	__u64 id = memcg->css.cgroup->kn->id;

	bpf_map_delete_elem(&slice_of, &id);
}

#include "reclaim.bpf.h"
#include "numa.bpf.h"

/* Attached by memcgd through one link per managed slice cgroup (BPF_F_ALLOW_OVERRIDE). On a
 * kernel without memcg_charged or numa_balancing, memcgd clears that member and does not load
 * its program. */
SEC(".struct_ops.link")
struct memcg_bpf_ops memcgd_ops = {
	.handle_cgroup_online = (void *)memcgd_cgroup_online,
	.handle_cgroup_offline = (void *)memcgd_cgroup_offline,
	.below_low = (void *)memcgd_below_low,
	.below_min = (void *)memcgd_below_min,
	.get_low = (void *)memcgd_get_low,
	.get_min = (void *)memcgd_get_min,
	.get_high_delay_ms = (void *)memcgd_get_high_delay_ms,
	.memcg_charged = (void *)memcgd_memcg_charged,
	.numa_balancing = (void *)memcgd_numa_balancing,
};
