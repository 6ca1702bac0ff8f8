// SPDX-License-Identifier: GPL-2.0
/*
 * Test j: 1000 cycles of create cgroup -> attach -> fault memory -> detach
 * -> rmdir. Every cycle checks that the ops ran for the new cgroup. Detach
 * alternates between closing the link, BPF_LINK_DETACH, and (every tenth
 * cycle) removing the cgroup before detaching. Afterwards no struct_ops
 * link, fd or memcg may be left over: the system's struct_ops link count
 * and this process's fd count return to their baselines, the test parent
 * has no live or dying descendants left, and /proc/cgroups' memory count
 * returns to its baseline. The harness checks the console for splats.
 */
#include <errno.h>
#include <stdio.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "kt-proc.h"
#include "ktest.h"

#define CYCLES 1000
#define FAULT_BYTES (256 * 1024UL)
#define SETTLE_TIMEOUT_S 180.0

static struct kt_cgroup *parent;
static int base_links;

static bool links_settled(void *data)
{
	(void)data;
	return kt_count_struct_ops_links() <= base_links;
}

static bool memcgs_settled(void *data)
{
	(void)data;
	return kt_cg_stat(parent, "cgroup.stat", "nr_dying_descendants") == 0 &&
	       kt_cg_stat(parent, "cgroup.stat", "nr_descendants") == 0;
}

static void cycle(struct hooks_bpf *skel, int hits_fd, int i)
{
	struct kt_work work = { .bytes = FAULT_BYTES };
	bool rmdir_first = i % 10 == 9;
	struct kt_cgroup *cg;
	struct bpf_link *link;
	struct kt_child child;
	char name[32];
	__u64 key;
	int code;

	snprintf(name, sizeof(name), "c%04d", i);
	cg = kt_cg_create(parent, name, false);
	link = kt_attach_ok(skel->maps.ops_a, cg, 0);

	child = kt_spawn(cg, kt_work_fault, &work);
	code = kt_child_wait(&child, 120);
	if (code)
		ktest_fail("cycle %d: workload exited with %d", i, code);
	if (!kt_hit(hits_fd, cg->id, KT_OPS_A, KT_HIGH_DELAY))
		ktest_fail("cycle %d: get_high_delay_ms never ran for %s (id %llu)", i, cg->path,
			   (unsigned long long)cg->id);
	key = cg->id;
	bpf_map_delete_elem(hits_fd, &key);

	if (rmdir_first)
		KT_OK(kt_cg_remove(cg), "rmdir while attached");
	if (i % 2)
		KT_OK(bpf_link__detach(link), "BPF_LINK_DETACH");
	kt_link_destroy(&link);
	if (!rmdir_first)
		KT_OK(kt_cg_remove(cg), "rmdir after detach");
	kt_cg_free(cg);
}

int main(void)
{
	int base_fds, hits_fd, links, fds;
	long base_memcgs, memcgs;
	struct hooks_bpf *skel;
	double start;

	ktest_init("j-churn");
	parent = kt_cg_parent();
	skel = KT_SKEL_LOAD(hooks_bpf);
	hits_fd = bpf_map__fd(skel->maps.hits);

	base_links = kt_count_struct_ops_links();
	base_fds = kt_count_fds();
	base_memcgs = kt_memcg_count();
	ktest_log("baseline: %d struct_ops links, %d fds, %ld memory cgroups", base_links,
		  base_fds, base_memcgs);

	start = ktest_now();
	for (int i = 0; i < CYCLES; i++) {
		cycle(skel, hits_fd, i);
		if (i % 100 == 99) {
			uint64_t dying = 0;

			kt_cg_read_key(parent, "cgroup.stat", "nr_dying_descendants", &dying);
			ktest_log("%d cycles in %.1f s: %d struct_ops links, %ld memory cgroups, %llu dying below the parent",
				  i + 1, ktest_now() - start, kt_count_struct_ops_links(),
				  kt_memcg_count(), (unsigned long long)dying);
		}
	}

	if (!ktest_wait_for(links_settled, NULL, SETTLE_TIMEOUT_S, 200))
		ktest_fail("struct_ops links leaked: %d now, %d before the churn",
			   kt_count_struct_ops_links(), base_links);
	links = kt_count_struct_ops_links();
	fds = kt_count_fds();
	KT_ASSERT(fds == base_fds, "fd count back to %d after the churn, got %d", base_fds, fds);

	if (!ktest_wait_for(memcgs_settled, NULL, SETTLE_TIMEOUT_S, 500)) {
		/* Dying memcgs pinned by charges only: push them out once, then judge. */
		kt_cg_write(parent, "memory.reclaim", "%lu", 64 * KT_MiB);
		if (!ktest_wait_for(memcgs_settled, NULL, 30, 500))
			ktest_fail("memcgs leaked below %s: nr_descendants=%llu nr_dying_descendants=%llu %.0f s after the churn",
				   parent->path,
				   (unsigned long long)kt_cg_stat(parent, "cgroup.stat", "nr_descendants"),
				   (unsigned long long)kt_cg_stat(parent, "cgroup.stat",
								  "nr_dying_descendants"),
				   SETTLE_TIMEOUT_S + 30);
	}
	memcgs = kt_memcg_count();
	ktest_log("after %d cycles: %d struct_ops links (baseline %d), %d fds (baseline %d), %ld memory cgroups (baseline %ld), no dying memcgs below the parent",
		  CYCLES, links, base_links, fds, base_fds, memcgs, base_memcgs);
	/* Other cgroups on the system may come and go meanwhile (systemd units): allow a few. */
	KT_ASSERT(memcgs <= base_memcgs + 4,
		  "memory cgroup count %ld back to the baseline %ld (+4 for unrelated system activity)",
		  memcgs, base_memcgs);

	hooks_bpf__destroy(skel);
	ktest_pass();
}
