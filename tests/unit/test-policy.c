// SPDX-License-Identifier: GPL-2.0-only
/* Compilation of the configuration into BPF map values. */
#include <errno.h>

#include "diag.h"
#include "policy.h"
#include "tests.h"
#include "units-parse.h"

static struct slice_conf mk(const char *name, long prio)
{
	struct slice_conf s = { .name = (char *)name, .priority = prio };

	slice_settings_init(&s.settings);
	return s;
}

static void test_levels(void)
{
	struct slice_conf v[] = { mk("a.slice", 50), mk("b.slice", 10), mk("c.slice", 1000), mk("d.slice", 10) };
	struct memcgd_config c = { .slices = v, .n_slices = 4 };
	uint32_t levels[4];

	CHECK(policy_levels(&c, levels) == 3);
	CHECK(levels[0] == 1);
	CHECK(levels[1] == 0);
	CHECK(levels[2] == 2);
	CHECK(levels[3] == 0);
}

static void test_too_many_levels(void)
{
	struct slice_conf v[MEMCGD_MAX_LEVELS + 1];
	struct memcgd_config c = { .slices = v, .n_slices = MEMCGD_MAX_LEVELS + 1 };
	uint32_t levels[MEMCGD_MAX_LEVELS + 1];

	for (int i = 0; i <= MEMCGD_MAX_LEVELS; i++)
		v[i] = mk("x.slice", i);
	CHECK(policy_levels(&c, levels) == -E2BIG);
	c.n_slices = MEMCGD_MAX_LEVELS;
	CHECK(policy_levels(&c, levels) == MEMCGD_MAX_LEVELS);
}

static void test_compile(void)
{
	struct slice_conf s = mk("db.slice", 50);
	struct memcgd_policy p;

	s.settings.fault_rate = 1000;
	s.settings.window_usec = 250 * USEC_PER_MSEC;
	s.settings.hold_usec = 2 * USEC_PER_SEC;
	s.settings.protect = PROTECT_MIN;
	s.settings.throttle_delay_usec = 150 * USEC_PER_MSEC;
	s.settings.throttle_max_usec = 60 * USEC_PER_SEC;
	policy_compile(&s, 3, 4242, &p);
	CHECK(p.cgroup_id == 4242);
	CHECK(p.faults_per_window == 250);
	CHECK(p.window_ns == 250000000ULL);
	CHECK(p.hold_ns == 2000000000ULL);
	CHECK(p.max_throttle_ns == 60000000000ULL);
	CHECK(p.level == 3);
	CHECK(p.protect == MEMCGD_PROTECT_MIN);
	CHECK(p.delay_ms == 150);
	/* the defaults: protection sized by the footprint, delay only under pressure, idle memory
	 * given back */
	CHECK(p.flags == (MEMCGD_POLICY_IN_USE | MEMCGD_POLICY_SIZED | MEMCGD_POLICY_DELAY_ON_PRESSURE |
			  MEMCGD_POLICY_GIVE_BACK));
	s.settings.protect_size = PROTECT_SIZE_ALL;
	s.settings.throttle_when = THROTTLE_WHEN_ACTIVE;
	policy_compile(&s, 3, 4242, &p);
	CHECK(p.flags == (MEMCGD_POLICY_IN_USE | MEMCGD_POLICY_GIVE_BACK));
	/* nothing to size or give back without protection */
	s.settings.protect_size = PROTECT_SIZE_FOOTPRINT;
	s.settings.protect = PROTECT_NONE;
	policy_compile(&s, 3, 4242, &p);
	CHECK(p.flags == MEMCGD_POLICY_IN_USE);
	s.settings.protect = PROTECT_MIN;
	/* Hold=auto: the fault path only bridges to memcgd's next update */
	s.settings.hold_usec = HOLD_AUTO;
	policy_compile(&s, 3, 4242, &p);
	CHECK(p.hold_ns == 0);
	s.settings.hold_usec = 2 * USEC_PER_SEC;
	s.settings.throttle_when = THROTTLE_WHEN_PRESSURE;

	/* rounding up: 3 faults/s over 500ms must mean 2 faults, not 1 */
	s.settings.fault_rate = 3;
	s.settings.window_usec = 500 * USEC_PER_MSEC;
	s.settings.protect = PROTECT_LOW;
	s.settings.throttle_max_usec = USEC_INFINITY;
	s.settings.throttle_delay_usec = 0;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.faults_per_window == 2);
	CHECK(p.protect == MEMCGD_PROTECT_LOW);
	CHECK(p.max_throttle_ns == 0); /* no guard */
	CHECK(p.delay_ms == 0);
	s.settings.protect = PROTECT_NONE;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.protect == MEMCGD_PROTECT_NONE);

	/* MaxUsage=: the ceiling the BPF hook enforces; the default is a share of RAM */
	s.settings.protect_max_usage = 512ULL << 20;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.max_usage_bytes == 512ULL << 20);
	s.settings.protect_max_usage = SIZE_INFINITY;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.max_usage_bytes == 0);
	s.settings.protect_max_usage = MAX_USAGE_DEFAULT;
	CHECK(policy_max_usage(&s.settings, 8ULL << 30) == (8ULL << 30) / 100 * MAX_USAGE_DEFAULT_PERCENT);
	s.settings.protect_max_usage = 1ULL << 30;
	CHECK(policy_max_usage(&s.settings, 8ULL << 30) == 1ULL << 30);
	s.settings.protect_max_usage = SIZE_INFINITY;
	CHECK(policy_max_usage(&s.settings, 8ULL << 30) == SIZE_INFINITY);
}

/* [NUMA] Balancing=: a flag for the numa_balancing program; the tuning only with yes, 0 where the
 * kernel's global value stays */
static void test_compile_numa(void)
{
	struct slice_conf s = mk("db.slice", 50);
	struct memcgd_policy p;

	/* the flags of this test only */
	s.settings.protect = PROTECT_NONE;
	s.settings.throttle_when = THROTTLE_WHEN_ACTIVE;

	policy_compile(&s, 0, 1, &p);
	CHECK(p.flags == MEMCGD_POLICY_IN_USE);
	CHECK(!p.numa_scan_period_min_ms && !p.numa_scan_period_max_ms && !p.numa_scan_size_mb && !p.numa_hot_threshold_ms);

	s.settings.numa = NUMA_BALANCING_ON;
	s.settings.numa_scan_period_min_usec = 250 * USEC_PER_MSEC;
	s.settings.numa_scan_size = 2560ULL << 20;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.flags == (MEMCGD_POLICY_IN_USE | MEMCGD_POLICY_NUMA_ON));
	CHECK(p.numa_scan_period_min_ms == 250 && p.numa_scan_size_mb == 2560);
	CHECK(p.numa_scan_period_max_ms == 0 && p.numa_hot_threshold_ms == 0); /* the kernel's */
	s.settings.numa_scan_period_max_usec = 600 * USEC_PER_SEC;
	s.settings.numa_hot_threshold_usec = USEC_PER_MSEC;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.numa_scan_period_max_ms == 600000 && p.numa_hot_threshold_ms == 1);

	/* no: never balanced, nothing to tune */
	s.settings.numa = NUMA_BALANCING_OFF;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.flags == (MEMCGD_POLICY_IN_USE | MEMCGD_POLICY_NUMA_OFF));
	CHECK(!p.numa_scan_period_min_ms && !p.numa_scan_period_max_ms && !p.numa_scan_size_mb && !p.numa_hot_threshold_ms);

	/* the other settings compile as before next to it */
	s.settings.reclaim_background = true;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.flags == (MEMCGD_POLICY_IN_USE | MEMCGD_POLICY_NUMA_OFF | MEMCGD_POLICY_RECLAIM));
	s.settings.numa = NUMA_BALANCING_DEFAULT;
	policy_compile(&s, 0, 1, &p);
	CHECK(p.flags == (MEMCGD_POLICY_IN_USE | MEMCGD_POLICY_RECLAIM));
}

static void test_slots(void)
{
	char *slots[MEMCGD_MAX_SLICES] = {};
	struct slice_conf v1[] = { mk("a.slice", 1), mk("b.slice", 2), mk("c.slice", 3) };
	struct slice_conf v2[] = { mk("c.slice", 3), mk("d.slice", 4), mk("a.slice", 1) };
	struct memcgd_config c1 = { .slices = v1, .n_slices = 3 }, c2 = { .slices = v2, .n_slices = 3 };
	int slot1[3], slot2[3];
	bool fresh[3];

	CHECK(policy_assign_slots(slots, &c1, slot1, fresh) == 0);
	CHECK(slot1[0] == 0 && slot1[1] == 1 && slot1[2] == 2);
	CHECK(fresh[0] && fresh[1] && fresh[2]);
	/* a reload keeps a and c where they were, frees b's slot and gives it to d */
	CHECK(policy_assign_slots(slots, &c2, slot2, fresh) == 0);
	CHECK(slot2[0] == 2 && !fresh[0]);
	CHECK(slot2[1] == 1 && fresh[1]);
	CHECK(slot2[2] == 0 && !fresh[2]);
	CHECK_STREQ(slots[1], "d.slice");
	for (int i = 0; i < MEMCGD_MAX_SLICES; i++)
		free(slots[i]);
}

static void test_levels_rebuild(void)
{
	struct memcgd_slice_state st[3] = {};
	struct memcgd_policy pol[3] = {};
	struct memcgd_levels l;

	pol[0] = (struct memcgd_policy){ .level = 0, .flags = MEMCGD_POLICY_IN_USE };
	pol[1] = (struct memcgd_policy){ .level = 2, .flags = MEMCGD_POLICY_IN_USE };
	pol[2] = (struct memcgd_policy){ .level = 1, .flags = 0 }; /* slot not in use */
	st[0].active_until_ns = 500;  /* expired at now=1000 */
	st[1].active_until_ns = 5000; /* active */
	st[2].active_until_ns = 9000; /* active but not in use */
	policy_levels_rebuild(st, pol, 3, 1000, &l);
	CHECK(l.active_mask == (1ULL << 2));
	CHECK(l.until_ns[2] == 5000);
	CHECK(policy_higher_level_active(&l, 0, 1000));
	CHECK(policy_higher_level_active(&l, 1, 1000));
	CHECK(!policy_higher_level_active(&l, 2, 1000)); /* not above itself */
	CHECK(!policy_higher_level_active(&l, 0, 6000)); /* expired */
	CHECK(!policy_higher_level_active(&l, 63, 1000));
}

/* [Reclaim] Background= slices in the order background reclaim asks them */
static void test_reclaim_order(void)
{
	struct slice_conf v[] = { mk("a.slice", 50), mk("b.slice", 10), mk("c.slice", 1000), mk("d.slice", 10),
				  mk("e.slice", 5) };
	struct memcgd_config c = { .slices = v, .n_slices = 5 };
	int slot_of[5] = { 4, 7, 0, 2, 9 };
	uint32_t levels[5], order[MEMCGD_MAX_RECLAIM_SLICES];
	uint64_t headroom = 1;

	CHECK(policy_levels(&c, levels) == 4);
	for (int i = 0; i < 5; i++)
		v[i].settings.protect = PROTECT_NONE;
	CHECK(policy_reclaim_order(&c, levels, slot_of, order, &headroom) == 0 && headroom == 0);
	v[0].settings.reclaim_background = v[1].settings.reclaim_background = true;
	v[3].settings.reclaim_background = v[4].settings.reclaim_background = true;
	v[1].settings.reclaim_headroom = 1ULL << 30;
	/* e (level 0), then b and d (level 1) by slot (d has 2, b has 7), then a (level 2) */
	CHECK(policy_reclaim_order(&c, levels, slot_of, order, &headroom) == 4);
	CHECK(order[0] == 9 && order[1] == 2 && order[2] == 7 && order[3] == 4);
	CHECK(headroom == 1ULL << 30);
	/* a protected slice without Background= (c, slot 0) gives back first, while idle */
	v[2].settings.protect = PROTECT_LOW;
	CHECK(policy_reclaim_order(&c, levels, slot_of, order, &headroom) == 5);
	CHECK(order[0] == 0 && order[1] == 9 && order[4] == 4);
	CHECK(headroom == 1ULL << 30);
	/* alone, with the default Headroom= */
	for (int i = 0; i < 5; i++)
		v[i].settings.reclaim_background = false;
	CHECK(policy_reclaim_order(&c, levels, slot_of, order, &headroom) == 1 && order[0] == 0);
	CHECK(headroom == RECLAIM_HEADROOM_DEFAULT);
}

/* at most MEMCGD_MAX_RECLAIM_SLICES Background= slices: the one beyond is named */
static void test_reclaim_limit(void)
{
	static struct slice_conf v[MEMCGD_MAX_RECLAIM_SLICES + 1];
	static char names[MEMCGD_MAX_RECLAIM_SLICES + 1][32];
	struct memcgd_config c = { .slices = v, .n_slices = MEMCGD_MAX_RECLAIM_SLICES + 1 };
	struct diag_list d = {};
	char buf[256];

	for (int i = 0; i <= MEMCGD_MAX_RECLAIM_SLICES; i++) {
		snprintf(names[i], sizeof(names[i]), "s%d.slice", i);
		v[i] = mk(names[i], 1);
		v[i].file = (char *)"/etc/memcgd.d/x.conf";
		v[i].name_line = 2;
		v[i].background_line = 9;
		v[i].settings.reclaim_background = true;
	}
	config_validate(&c, &d);
	CHECK(d.n == 1);
	if (d.n)
		CHECK_STREQ(diag_format(&d.items[0], buf, sizeof(buf)),
			    "/etc/memcgd.d/x.conf:9: too many slices with [Reclaim] Background=yes: at most 64");
	diag_list_clear(&d);
	c.n_slices = MEMCGD_MAX_RECLAIM_SLICES;
	config_validate(&c, &d);
	CHECK(d.n == 0);
}

int main(void)
{
	test_reclaim_order();
	test_reclaim_limit();
	test_levels();
	test_too_many_levels();
	test_compile();
	test_compile_numa();
	test_slots();
	test_levels_rebuild();
	return test_summary("test-policy");
}
