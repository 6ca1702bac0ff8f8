// SPDX-License-Identifier: GPL-2.0
/*
 * Test f: one struct_ops map attached to two cgroups through two links.
 * Each link owns its attachment: destroying or detaching one link leaves the
 * other cgroup's ops in force, in either order. Each link's fdinfo names its
 * own cgroup.
 */
#include <errno.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "ktest.h"

int main(void)
{
	struct kt_cgroup *parent, *one, *two;
	struct bpf_link *link1, *link2;
	struct hooks_bpf *skel;
	int hits_fd;

	ktest_init("f-shared-map");
	parent = kt_cg_parent();
	one = kt_cg_create(parent, "one", false);
	two = kt_cg_create(parent, "two", false);

	skel = KT_SKEL_LOAD(hooks_bpf);
	hits_fd = bpf_map__fd(skel->maps.hits);

	link1 = kt_attach_ok(skel->maps.ops_a, one, 0);
	link2 = kt_attach_ok(skel->maps.ops_a, two, 0);
	KT_ASSERT_EQ(kt_link_cgroup_id(link1), one->id, "fdinfo cgroup_id of the link to 'one'");
	KT_ASSERT_EQ(kt_link_cgroup_id(link2), two->id, "fdinfo cgroup_id of the link to 'two'");
	kt_expect_ops(hits_fd, one, KT_SEEN_A, "both links");
	kt_expect_ops(hits_fd, two, KT_SEEN_A, "both links");

	kt_link_destroy(&link1);
	kt_expect_ops(hits_fd, one, 0, "link to 'one' destroyed");
	kt_expect_ops(hits_fd, two, KT_SEEN_A, "link to 'one' destroyed");

	link1 = kt_attach_ok(skel->maps.ops_a, one, 0);
	kt_expect_ops(hits_fd, one, KT_SEEN_A, "link to 'one' re-created");
	kt_link_destroy(&link2);
	kt_expect_ops(hits_fd, one, KT_SEEN_A, "link to 'two' destroyed");
	kt_expect_ops(hits_fd, two, 0, "link to 'two' destroyed");

	/* BPF_LINK_DETACH (not close) on one link, the other stays. */
	link2 = kt_attach_ok(skel->maps.ops_a, two, 0);
	KT_OK(bpf_link__detach(link1), "bpf_link__detach of the link to 'one'");
	kt_expect_ops(hits_fd, one, 0, "link to 'one' detached with BPF_LINK_DETACH");
	kt_expect_ops(hits_fd, two, KT_SEEN_A, "link to 'one' detached with BPF_LINK_DETACH");
	kt_link_destroy(&link1);
	kt_expect_ops(hits_fd, two, KT_SEEN_A, "detached link to 'one' closed");
	kt_link_destroy(&link2);
	kt_expect_ops(hits_fd, two, 0, "all links destroyed");

	hooks_bpf__destroy(skel);
	ktest_pass();
}
