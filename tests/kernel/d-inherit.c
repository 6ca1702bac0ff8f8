// SPDX-License-Identifier: GPL-2.0
/*
 * Test d: cgroups created below an attached cgroup after the attach run the
 * attached ops: get_high_delay_ms on their charges and below_min/below_low
 * when reclaim walks them, each called with the child's own cgroup id.
 * A sibling outside the attached subtree runs nothing.
 */
#include <errno.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "kt-proc.h"
#include "ktest.h"

int main(void)
{
	struct kt_cgroup *parent, *attached, *child, *mid, *grandchild, *outside;
	struct kt_work hold = { .bytes = 8 * KT_MiB };
	struct kt_child holder;
	struct bpf_link *link;
	struct hooks_bpf *skel;
	struct kt_hits h;
	int hits_fd, err;

	ktest_init("d-inherit");
	parent = kt_cg_parent();
	attached = kt_cg_create(parent, "attached", true);
	outside = kt_cg_create(parent, "outside", false);

	skel = KT_SKEL_LOAD(hooks_bpf);
	hits_fd = bpf_map__fd(skel->maps.hits);
	link = kt_attach_ok(skel->maps.ops_a, attached, 0);

	child = kt_cg_create(attached, "child", false);
	mid = kt_cg_create(attached, "mid", true);	/* no tasks: controllers for its child */
	grandchild = kt_cg_create(mid, "grandchild", false);
	ktest_log("created %s (id %llu) and %s (id %llu) after attaching",
		  child->path, (unsigned long long)child->id, grandchild->path,
		  (unsigned long long)grandchild->id);

	kt_expect_ops(hits_fd, child, KT_SEEN_A, "child created after attach");
	kt_expect_ops(hits_fd, grandchild, KT_SEEN_A, "grandchild created after attach");
	kt_expect_ops(hits_fd, outside, 0, "sibling outside the attached subtree");

	/* Reclaim from the attached cgroup walks the child: protection hooks run for it. */
	holder = kt_spawn(child, kt_work_hold, &hold);
	if (!kt_child_wait_ready(&holder, 300))
		ktest_fail("memory holder in %s did not start", child->path);
	kt_hits_clear(hits_fd);
	err = kt_cg_write(attached, "memory.reclaim", "%lu", 2 * KT_MiB);
	ktest_log("memory.reclaim 2M on %s: %s", attached->path,
		  err ? ktest_strerror(err) : "ok");
	h = kt_hits_of(hits_fd, child->id);
	if (!h.n[KT_OPS_A][KT_BELOW_MIN] || !h.n[KT_OPS_A][KT_BELOW_LOW]) {
		kt_hits_dump(hits_fd);
		ktest_fail("reclaim below %s did not call below_min and below_low with the child's id %llu (below_min=%llu below_low=%llu)",
			   attached->path, (unsigned long long)child->id,
			   h.n[KT_OPS_A][KT_BELOW_MIN], h.n[KT_OPS_A][KT_BELOW_LOW]);
	}
	ktest_log("reclaim called below_min %llu x and below_low %llu x with the child's id",
		  h.n[KT_OPS_A][KT_BELOW_MIN], h.n[KT_OPS_A][KT_BELOW_LOW]);
	kt_child_kill(&holder);

	kt_link_destroy(&link);
	kt_expect_ops(hits_fd, child, 0, "after detach");
	kt_expect_ops(hits_fd, grandchild, 0, "after detach");

	hooks_bpf__destroy(skel);
	ktest_pass();
}
