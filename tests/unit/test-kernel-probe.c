// SPDX-License-Identifier: GPL-2.0-only
/* Kernel support as read from BTF: which hooks exist, and a clear error without them.
 * usage: test-kernel-probe FULL.o V7.o STOCK.o NOTP.o (BTF objects made by clang from btf/). */
#include <errno.h>

#include "kernel-probe.h"
#include "tests.h"

int main(int argc, char **argv)
{
	struct kernel_support ks;

	if (argc != 5) {
		fprintf(stderr, "usage: %s FULL.o V7.o STOCK.o NOTP.o\n", argv[0]);
		return 2;
	}

	CHECK(kernel_probe(argv[1], &ks) == 0);
	CHECK(ks.btf && ks.has_ops && ks.has_tracepoint);
	CHECK(ks.hooks == (HOOK_HANDLE_CGROUP_ONLINE | HOOK_HANDLE_CGROUP_OFFLINE | HOOK_BELOW_LOW | HOOK_BELOW_MIN |
			   HOOK_GET_LOW | HOOK_GET_MIN | HOOK_GET_HIGH_DELAY_MS | HOOK_MEMCG_CHARGED |
			   HOOK_NUMA_BALANCING));
	CHECK_STREQ(ks.hook_names, "handle_cgroup_online handle_cgroup_offline below_low below_min get_low get_min "
				   "get_high_delay_ms memcg_charged numa_balancing");
	CHECK_STREQ(memcg_hook_name(HOOK_NUMA_BALANCING), "numa_balancing");
	CHECK_STREQ(memcg_hook_name(HOOK_GET_MIN), "get_min");
	CHECK(ks.has_reclaim_kfunc);
	CHECK_STREQ(ks.error, "");

	/* a later hook set: reported as it is, unknown hooks included */
	CHECK(kernel_probe(argv[2], &ks) == 0);
	CHECK(!(ks.hooks & HOOK_GET_HIGH_DELAY_MS));
	CHECK(ks.hooks & HOOK_BELOW_MIN);
	CHECK_CONTAINS(ks.hook_names, "memcg_charged");
	CHECK(ks.hooks & HOOK_MEMCG_CHARGED);
	CHECK(!ks.has_reclaim_kfunc); /* the hook alone: no background reclaim in the kernel */
	CHECK(!(ks.hooks & HOOK_NUMA_BALANCING)); /* before patch 22: every slice follows kernel.numa_balancing */
	CHECK(!(ks.hooks & HOOKS_SIZED));         /* before patch 24: protection is all or nothing */

	/* no memcg_bpf_ops: a clear error */
	CHECK(kernel_probe(argv[3], &ks) == -EOPNOTSUPP);
	CHECK(!ks.has_ops && ks.has_tracepoint);
	CHECK_CONTAINS(ks.error, "has no memcg_bpf_ops in its BTF");
	CHECK_STREQ(ks.hook_names, "");
	CHECK(!ks.has_reclaim_kfunc);

	/* the hooks without the tracepoint memcgd measures with */
	CHECK(kernel_probe(argv[4], &ks) == -EOPNOTSUPP);
	CHECK(ks.has_ops && !ks.has_tracepoint);
	CHECK_CONTAINS(ks.error, "has no memcg:count_memcg_events tracepoint");

	/* unreadable BTF */
	CHECK(kernel_probe("/nonexistent/vmlinux", &ks) < 0);
	CHECK_CONTAINS(ks.error, "cannot read kernel BTF (/nonexistent/vmlinux)");
	return test_summary("test-kernel-probe");
}
