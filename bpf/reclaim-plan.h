/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How much background reclaim ([Reclaim] Background=) takes from which slice: one function,
 * compiled into memcgd.bpf.c (the kernel path: a bpf_wq work item) and into memcgd (the
 * fallback through memory.reclaim), unit-tested on the host (tests/unit/test-reclaim-plan.c).
 *
 * The entries are the Background= slices that may give memory now (a priority level above
 * their own is active), sorted by level, lowest first. Each has its own Headroom= and is above
 * its own protection by `excess` pages. Levels are asked in turn, lowest first: a level's
 * slices together give what the largest Headroom= among them still lacks (after what the
 * levels below gave), each in proportion to its excess, never more than its excess, than its
 * own Headroom= lacks, or than its Rate= budget. Plain C with fixed bounds, so that the
 * verifier accepts it. All amounts are in pages.
 */
#ifndef MEMCGD_RECLAIM_PLAN_H
#define MEMCGD_RECLAIM_PLAN_H

#include "memcgd.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

struct memcgd_reclaim_entry {
	__u32 slot;
	__u32 level;          /* dense rank of Priority=; entries sorted ascending */
	__u64 headroom;       /* Headroom= in pages */
	__u64 excess;         /* pages above the slice's own memory.min/memory.low; 0 = skip */
	__u64 budget;         /* pages Rate= allows now */
	__u64 take;           /* out: pages to reclaim */
};

struct memcgd_reclaim_plan {
	__u32 n;              /* entries in use, at most MEMCGD_MAX_RECLAIM_SLICES */
	__u32 cur_level;      /* pass 2: the level being asked */
	__u64 avail;          /* available memory, pages */
	__u64 taken;          /* pass 2: pages planned so far */
	__u64 level_want;     /* pass 2: what the current level is asked for */
	struct memcgd_reclaim_entry e[MEMCGD_MAX_RECLAIM_SLICES];
	__u64 level_excess[MEMCGD_MAX_LEVELS];   /* pass 1 */
	__u64 level_headroom[MEMCGD_MAX_LEVELS]; /* pass 1 */
};

/* One entry's part of its level's want: proportional to its excess, rounded up. */
static __always_inline __u64 memcgd_reclaim_share(__u64 level_want, __u64 own_want, __u64 excess,
						  __u64 level_excess, __u64 budget)
{
	__u64 share;

	if (!level_excess || !level_want || !own_want || !excess)
		return 0;
	/* page counts of a machine below 2^32 pages (16 TiB): the product fits */
	share = (level_want * excess + level_excess - 1) / level_excess;
	if (share > excess)
		share = excess;
	if (share > own_want)
		share = own_want;
	if (share > budget)
		share = budget;
	return share;
}

/*
 * The plan in steps, so that the BPF side can run each pass as a bpf_loop() callback (the
 * verifier checks a callback once, where it would walk an unrolled loop 64 times):
 * memcgd_plan_start(), then memcgd_plan_count() for every entry, then memcgd_plan_take() for
 * every entry in order. memcgd_reclaim_plan() does it all.
 */
static __always_inline void memcgd_plan_start(struct memcgd_reclaim_plan *pl, __u64 avail)
{
	pl->avail = avail;
	pl->taken = 0;
	pl->level_want = 0;
	pl->cur_level = MEMCGD_MAX_LEVELS;
	for (__u32 l = 0; l < MEMCGD_MAX_LEVELS; l++) {
		pl->level_excess[l] = 0;
		pl->level_headroom[l] = 0;
	}
}

/* Pass 1: entry i counts in its level (if its own Headroom= is not met). */
static __always_inline void memcgd_plan_count(struct memcgd_reclaim_plan *pl, __u32 i)
{
	struct memcgd_reclaim_entry *e = &pl->e[i & (MEMCGD_MAX_RECLAIM_SLICES - 1)];
	__u32 l = e->level & (MEMCGD_MAX_LEVELS - 1);

	e->take = 0;
	if (!e->excess || e->headroom <= pl->avail)
		return;
	pl->level_excess[l] += e->excess;
	if (pl->level_headroom[l] < e->headroom)
		pl->level_headroom[l] = e->headroom;
}

/* Pass 2, entries in order: entry i's take. */
static __always_inline void memcgd_plan_take(struct memcgd_reclaim_plan *pl, __u32 i)
{
	struct memcgd_reclaim_entry *e = &pl->e[i & (MEMCGD_MAX_RECLAIM_SLICES - 1)];
	__u32 l = e->level & (MEMCGD_MAX_LEVELS - 1);
	__u64 have = pl->avail + pl->taken, own_want;

	if (l != pl->cur_level) {
		/* a new level: what its largest Headroom= lacks after the levels below */
		pl->cur_level = l;
		pl->level_want = pl->level_headroom[l] > have ? pl->level_headroom[l] - have : 0;
	}
	if (!e->excess || e->headroom <= pl->avail)
		return;
	own_want = e->headroom > have ? e->headroom - have : 0;
	e->take = memcgd_reclaim_share(pl->level_want, own_want, e->excess, pl->level_excess[l], e->budget);
	pl->taken += e->take;
}

/* Fills e[].take for an available memory of avail pages; returns the pages planned in all. */
static inline __u64 memcgd_reclaim_plan(struct memcgd_reclaim_plan *pl, __u64 avail)
{
	__u32 n = pl->n < MEMCGD_MAX_RECLAIM_SLICES ? pl->n : MEMCGD_MAX_RECLAIM_SLICES;

	memcgd_plan_start(pl, avail);
	for (__u32 i = 0; i < n; i++)
		memcgd_plan_count(pl, i);
	for (__u32 i = 0; i < n; i++)
		memcgd_plan_take(pl, i);
	return pl->taken;
}

#endif /* MEMCGD_RECLAIM_PLAN_H */
