// SPDX-License-Identifier: GPL-2.0
/*
 * Test e: BPF_F_ALLOW_OVERRIDE rules of memcg_bpf_ops, observed through
 * which ops map's get_high_delay_ms runs for charges in each cgroup.
 *
 *   x/            ops_a here (with or without BPF_F_ALLOW_OVERRIDE)
 *   x/c1/         ops_b here when allowed
 *   x/c1/w/       inherits from the nearest attached ancestor: shows c1's ops
 *   x/c2/         inherits from x: shows x's ops
 *
 * x and c1 enable the memory controller for their children and so cannot
 * hold tasks (cgroup v2's no-internal-process rule): their ops are observed
 * through the leaves w and c2, which never have attachments of their own.
 */
#include <errno.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "ktest.h"

static int hits_fd;
static struct kt_cgroup *x, *c1, *c2, *w;

/* Which ops run in c1's subtree (seen in w) and in the rest of x (seen in c2). */
static void expect(unsigned int want_c1, unsigned int want_c2, const char *when)
{
	kt_expect_ops(hits_fd, w, want_c1, when);
	kt_expect_ops(hits_fd, c2, want_c2, when);
}

int main(void)
{
	struct bpf_link *link_x = NULL, *link_c1 = NULL, *extra = NULL;
	struct kt_cgroup *parent, *late;
	struct hooks_bpf *skel;
	const struct bpf_map *a, *b;

	ktest_init("e-override");
	parent = kt_cg_parent();
	x = kt_cg_create(parent, "x", true);
	c1 = kt_cg_create(x, "c1", true);
	c2 = kt_cg_create(x, "c2", false);
	w = kt_cg_create(c1, "w", false);

	skel = KT_SKEL_LOAD(hooks_bpf);
	hits_fd = bpf_map__fd(skel->maps.hits);
	a = skel->maps.ops_a;
	b = skel->maps.ops_b;

	ktest_log("--- parent attached without BPF_F_ALLOW_OVERRIDE");
	link_x = kt_attach_ok(a, x, 0);
	KT_ERRNO(kt_attach(b, c1, 0, &extra), EBUSY, "attach ops_b to child of a non-override parent");
	KT_ERRNO(kt_attach(b, c1, BPF_F_ALLOW_OVERRIDE, &extra), EBUSY,
		 "attach ops_b with ALLOW_OVERRIDE to child of a non-override parent");
	KT_ERRNO(kt_attach(a, c1, BPF_F_ALLOW_OVERRIDE, &extra), EBUSY,
		 "attach the parent's own map ops_a to its child (same ops, second link)");
	KT_ERRNO(kt_attach(b, x, BPF_F_ALLOW_OVERRIDE, &extra), EBUSY,
		 "attach ops_b to a cgroup that has its own attachment");
	KT_ERRNO(kt_attach(b, w, 0, &extra), EBUSY, "attach ops_b to a grandchild of a non-override parent");
	expect(KT_SEEN_A, KT_SEEN_A, "ops_a on x only");
	kt_link_destroy(&link_x);
	expect(0, 0, "ops_a detached from x");

	ktest_log("--- parent attached with BPF_F_ALLOW_OVERRIDE, child detached first");
	link_x = kt_attach_ok(a, x, BPF_F_ALLOW_OVERRIDE);
	link_c1 = kt_attach_ok(b, c1, 0);
	KT_ERRNO(kt_attach(b, c1, BPF_F_ALLOW_OVERRIDE, &extra), EBUSY,
		 "second attachment at c1");
	KT_ERRNO(kt_attach(a, w, 0, &extra), EBUSY,
		 "attach below c1, which was attached without ALLOW_OVERRIDE");
	expect(KT_SEEN_B, KT_SEEN_A, "ops_a on x (override), ops_b on c1");
	kt_link_destroy(&link_c1);
	expect(KT_SEEN_A, KT_SEEN_A, "ops_b detached from c1: parent's ops restored");
	kt_link_destroy(&link_x);
	expect(0, 0, "then ops_a detached from x");

	ktest_log("--- parent attached with BPF_F_ALLOW_OVERRIDE, parent detached first");
	link_x = kt_attach_ok(a, x, BPF_F_ALLOW_OVERRIDE);
	link_c1 = kt_attach_ok(b, c1, 0);
	expect(KT_SEEN_B, KT_SEEN_A, "ops_a on x (override), ops_b on c1");
	kt_link_destroy(&link_x);
	expect(KT_SEEN_B, 0, "ops_a detached from x: c1 keeps ops_b");
	kt_link_destroy(&link_c1);
	expect(0, 0, "then ops_b detached from c1");

	ktest_log("--- one map through two links: ops_a on x (override) and on c1");
	link_x = kt_attach_ok(a, x, BPF_F_ALLOW_OVERRIDE);
	link_c1 = kt_attach_ok(a, c1, 0);
	expect(KT_SEEN_A, KT_SEEN_A, "ops_a on x and on c1");
	kt_link_destroy(&link_c1);
	expect(KT_SEEN_A, KT_SEEN_A, "c1's link destroyed: x's link still covers c1");
	link_c1 = kt_attach_ok(a, c1, 0);
	kt_link_destroy(&link_x);
	expect(KT_SEEN_A, 0, "x's link destroyed: c1's own link still in force");
	KT_ERRNO(kt_attach(b, x, 0, &extra), EBUSY,
		 "attach without ALLOW_OVERRIDE above c1's attachment");
	kt_link_destroy(&link_c1);
	expect(0, 0, "both links destroyed");

	ktest_log("--- child attached first, then the parent");
	link_c1 = kt_attach_ok(b, c1, BPF_F_ALLOW_OVERRIDE);
	KT_ERRNO(kt_attach(a, x, 0, &extra), EBUSY,
		 "attach without ALLOW_OVERRIDE above an attached descendant");
	link_x = kt_attach_ok(a, x, BPF_F_ALLOW_OVERRIDE);
	late = kt_cg_create(x, "late", false);
	kt_expect_ops(hits_fd, late, KT_SEEN_A, "cgroup created under x after both attachments");
	expect(KT_SEEN_B, KT_SEEN_A, "ops_b on c1, then ops_a on x (override)");
	kt_link_destroy(&link_x);
	kt_expect_ops(hits_fd, late, 0, "ops_a detached from x");
	expect(KT_SEEN_B, 0, "ops_a detached from x");
	link_x = kt_attach_ok(a, x, BPF_F_ALLOW_OVERRIDE);
	kt_link_destroy(&link_c1);
	expect(KT_SEEN_A, KT_SEEN_A, "ops_a re-attached to x, ops_b detached from c1");
	kt_link_destroy(&link_x);
	expect(0, 0, "everything detached");

	hooks_bpf__destroy(skel);
	ktest_pass();
}
