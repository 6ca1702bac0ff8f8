// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf/reclaim-plan.h: which Background= slice gives how many pages, the same function in the
 * BPF work item and in memcgd's memory.reclaim fallback. All amounts in pages.
 */
#include <linux/types.h>

#include "../../bpf/reclaim-plan.h"
#include "tests.h"

#define NOCAP (~0ULL)

static struct memcgd_reclaim_plan pl;

static void entry(__u32 i, __u32 slot, __u32 level, __u64 headroom, __u64 excess, __u64 budget)
{
	pl.e[i] = (struct memcgd_reclaim_entry){ .slot = slot, .level = level, .headroom = headroom,
						 .excess = excess, .budget = budget, .take = 12345 };
	if (pl.n < i + 1)
		pl.n = i + 1;
}

static void reset(void)
{
	memset(&pl, 0, sizeof(pl));
}

int main(void)
{
	/* one slice: what the headroom lacks, at most its excess */
	reset();
	entry(0, 7, 0, 1000, 5000, NOCAP);
	CHECK(memcgd_reclaim_plan(&pl, 400) == 600 && pl.e[0].take == 600);
	CHECK(memcgd_reclaim_plan(&pl, 1000) == 0 && pl.e[0].take == 0); /* headroom reached */
	pl.e[0].excess = 250;
	CHECK(memcgd_reclaim_plan(&pl, 400) == 250 && pl.e[0].take == 250);
	pl.e[0].excess = 0; /* at its protection: never asked */
	CHECK(memcgd_reclaim_plan(&pl, 0) == 0 && pl.e[0].take == 0);

	/* one level: in proportion to the excess (300:100), rounded up */
	reset();
	entry(0, 1, 2, 1000, 300, NOCAP);
	entry(1, 2, 2, 1000, 100, NOCAP);
	CHECK(memcgd_reclaim_plan(&pl, 800) == 200 && pl.e[0].take == 150 && pl.e[1].take == 50);

	/* lowest level first: level 0 gives all it has (100), level 3 the rest (200) */
	reset();
	entry(0, 1, 0, 1000, 100, NOCAP);
	entry(1, 2, 3, 1000, 5000, NOCAP);
	CHECK(memcgd_reclaim_plan(&pl, 700) == 300 && pl.e[0].take == 100 && pl.e[1].take == 200);
	/* enough below: the higher level is not asked */
	pl.e[0].excess = 1000;
	CHECK(memcgd_reclaim_plan(&pl, 700) == 300 && pl.e[0].take == 300 && pl.e[1].take == 0);

	/* each slice's own Headroom=: a slice whose headroom is met gives nothing, and the level
	 * asks for its largest */
	reset();
	entry(0, 1, 0, 500, 1000, NOCAP);  /* 500 <= available 600: not asked */
	entry(1, 2, 0, 900, 1000, NOCAP);
	CHECK(memcgd_reclaim_plan(&pl, 600) == 300 && pl.e[0].take == 0 && pl.e[1].take == 300);
	/* a smaller own headroom caps the share within the level */
	reset();
	entry(0, 1, 1, 700, 1000, NOCAP);  /* lacks 100 */
	entry(1, 2, 1, 1000, 1000, NOCAP); /* lacks 400: the level asks 400, 200 each by excess */
	CHECK(memcgd_reclaim_plan(&pl, 600) == 300 && pl.e[0].take == 100 && pl.e[1].take == 200);

	/* Rate= budget caps a slice; the level does not make up for it, the next level does */
	reset();
	entry(0, 1, 0, 1000, 5000, 50);
	entry(1, 2, 1, 1000, 5000, NOCAP);
	CHECK(memcgd_reclaim_plan(&pl, 600) == 400 && pl.e[0].take == 50 && pl.e[1].take == 350);
	pl.e[0].budget = 0;
	CHECK(memcgd_reclaim_plan(&pl, 600) == 400 && pl.e[0].take == 0 && pl.e[1].take == 400);

	/* n bounds the entries; stale entries beyond it are not touched */
	reset();
	entry(0, 1, 0, 1000, 5000, NOCAP);
	entry(1, 2, 0, 1000, 5000, NOCAP);
	pl.n = 1;
	CHECK(memcgd_reclaim_plan(&pl, 0) == 1000 && pl.e[0].take == 1000 && pl.e[1].take == 12345);
	pl.n = MEMCGD_MAX_RECLAIM_SLICES + 5; /* never beyond the array */
	CHECK(memcgd_reclaim_plan(&pl, 0) >= 1000);

	/* large machines: 2^31 pages of excess do not overflow the proportion */
	reset();
	entry(0, 1, 0, 1ULL << 31, 1ULL << 31, NOCAP);
	entry(1, 2, 0, 1ULL << 31, 1ULL << 30, NOCAP);
	CHECK(memcgd_reclaim_plan(&pl, 0) == (1ULL << 31));
	CHECK(pl.e[0].take + pl.e[1].take == (1ULL << 31) && pl.e[1].take <= pl.e[0].take / 2 + 1);

	/* the share itself */
	CHECK(memcgd_reclaim_share(0, 10, 10, 10, NOCAP) == 0);
	CHECK(memcgd_reclaim_share(10, 10, 10, 0, NOCAP) == 0);
	CHECK(memcgd_reclaim_share(10, 3, 10, 10, NOCAP) == 3);
	CHECK(memcgd_reclaim_share(10, 10, 1, 3, NOCAP) == 1); /* 10/3 rounded up, capped by excess */
	return test_summary("test-reclaim-plan");
}
