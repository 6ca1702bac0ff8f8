// SPDX-License-Identifier: GPL-2.0
/*
 * Test c: handle_cgroup_online/offline run for memcgs that come online and
 * go offline below an attachment, with the right cgroup ids:
 *  - not for memcgs that already existed at attach time (online), nor for
 *    any cgroup at detach time (offline);
 *  - online exactly once for each child and grandchild created afterwards;
 *  - offline exactly once for each of them (and for the pre-existing child)
 *    when removed, and for the attached cgroup itself when it is removed;
 *  - nothing for cgroups outside the attached subtree or after detach.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "ktest.h"

#define OFFLINE_TIMEOUT_S 60.0

static int hits_fd;

struct offline_wait {
	uint64_t id;
};

static bool offline_seen(void *data)
{
	struct offline_wait *w = data;

	return kt_hit(hits_fd, w->id, KT_OPS_A, KT_OFFLINE) > 0;
}

static void expect_offline(const struct kt_cgroup *cg, uint64_t id)
{
	struct offline_wait w = { .id = id };

	if (!ktest_wait_for(offline_seen, &w, OFFLINE_TIMEOUT_S, 50)) {
		kt_hits_dump(hits_fd);
		ktest_fail("handle_cgroup_offline did not run for removed %s (id %llu) within %.0f s",
			   cg->path, (unsigned long long)id, OFFLINE_TIMEOUT_S);
	}
	KT_ASSERT_EQ(kt_hit(hits_fd, id, KT_OPS_A, KT_OFFLINE), 1, "offline calls for removed cgroup");
	ktest_log("offline ran once for %s (id %llu)", cg->path, (unsigned long long)id);
}

static void expect_hits(const struct kt_cgroup *cg, unsigned long long online,
			unsigned long long offline)
{
	struct kt_hits h = kt_hits_of(hits_fd, cg->id);

	if (h.n[KT_OPS_A][KT_ONLINE] != online || h.n[KT_OPS_A][KT_OFFLINE] != offline) {
		kt_hits_dump(hits_fd);
		ktest_fail("%s (id %llu): expected online=%llu offline=%llu, got online=%llu offline=%llu",
			   cg->path, (unsigned long long)cg->id, online, offline,
			   h.n[KT_OPS_A][KT_ONLINE], h.n[KT_OPS_A][KT_OFFLINE]);
	}
}

static void remove_ok(struct kt_cgroup *cg)
{
	KT_OK(kt_cg_remove(cg), cg->path);
}

int main(void)
{
	struct kt_cgroup *parent, *attached, *existing, *outside, *c1, *c2, *g1, *late;
	struct bpf_link *link;
	struct hooks_bpf *skel;
	uint64_t id_c2, id_g1, id_existing, id_attached;

	ktest_init("c-online-offline");
	parent = kt_cg_parent();
	attached = kt_cg_create(parent, "attached", true);
	existing = kt_cg_create(attached, "existing", false);
	outside = kt_cg_create(parent, "outside", true);

	skel = KT_SKEL_LOAD(hooks_bpf);
	hits_fd = bpf_map__fd(skel->maps.hits);

	link = kt_attach_ok(skel->maps.ops_a, attached, 0);
	ktest_log("attached ops_a to %s (id %llu)", attached->path,
		  (unsigned long long)attached->id);
	KT_ASSERT_EQ(kt_hits_count_ids(hits_fd, KT_OPS_A, KT_ONLINE), 0,
		     "cgroups with an online call right after attach (existing memcgs must not get one)");

	c1 = kt_cg_create(attached, "c1", true);
	c2 = kt_cg_create(attached, "c2", false);
	g1 = kt_cg_create(c1, "g1", false);
	kt_cg_free(kt_cg_create(outside, "elsewhere", false));

	expect_hits(c1, 1, 0);
	expect_hits(c2, 1, 0);
	expect_hits(g1, 1, 0);
	expect_hits(attached, 0, 0);
	expect_hits(existing, 0, 0);
	expect_hits(parent, 0, 0);
	if (kt_hits_count_ids(hits_fd, KT_OPS_A, KT_ONLINE) != 3) {
		kt_hits_dump(hits_fd);
		ktest_fail("online ran for %d cgroup ids, expected exactly 3 (c1, c2, g1)",
			   kt_hits_count_ids(hits_fd, KT_OPS_A, KT_ONLINE));
	}
	ktest_log("online ran exactly once for each of c1, c2, g1 and for nothing else");

	id_g1 = g1->id;
	id_c2 = c2->id;
	id_existing = existing->id;
	remove_ok(g1);
	expect_offline(g1, id_g1);
	remove_ok(c2);
	expect_offline(c2, id_c2);
	remove_ok(existing);
	expect_offline(existing, id_existing);
	expect_hits(c1, 1, 0);
	expect_hits(attached, 0, 0);

	/* Detaching runs no offline callback; afterwards nothing runs at all. */
	kt_link_destroy(&link);
	ktest_sleep_ms(2000);
	expect_hits(c1, 1, 0);
	expect_hits(attached, 0, 0);
	kt_hits_clear(hits_fd);
	late = kt_cg_create(attached, "late", false);
	remove_ok(late);
	remove_ok(c1);
	ktest_sleep_ms(3000);
	if (kt_hits_count_ids(hits_fd, KT_OPS_A, KT_ONLINE) ||
	    kt_hits_count_ids(hits_fd, KT_OPS_A, KT_OFFLINE)) {
		kt_hits_dump(hits_fd);
		ktest_fail("callbacks ran after the link was destroyed");
	}
	ktest_log("no callbacks after detach");

	/* The attached cgroup itself going offline runs its offline callback. */
	link = kt_attach_ok(skel->maps.ops_a, attached, 0);
	id_attached = attached->id;
	remove_ok(attached);
	expect_offline(attached, id_attached);
	kt_link_destroy(&link);

	hooks_bpf__destroy(skel);
	ktest_pass();
}
