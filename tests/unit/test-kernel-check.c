// SPDX-License-Identifier: GPL-2.0-only
/* memcgd --check-kernel (ExecCondition=): 0 starts memcgd, 1 skips the unit.
 * usage: test-kernel-check FULL.o V7.o STOCK.o NOTP.o (BTF objects made by clang from btf/). */
#include "kernel-check.h"
#include "tests.h"

int main(int argc, char **argv)
{
	char why[640];

	if (argc != 5) {
		fprintf(stderr, "usage: %s FULL.o V7.o STOCK.o NOTP.o\n", argv[0]);
		return 2;
	}
	CHECK(kernel_check(argv[1], why, sizeof(why)) == KERNEL_CHECK_RUN);
	CHECK_CONTAINS(why, "has memcg_bpf_ops");
	/* an older hook set: memcgd starts and says what it lacks (a failed unit is worth it) */
	CHECK(kernel_check(argv[2], why, sizeof(why)) == KERNEL_CHECK_RUN);
	/* a stock kernel: skipped, saying why */
	CHECK(kernel_check(argv[3], why, sizeof(why)) == KERNEL_CHECK_SKIP);
	CHECK_CONTAINS(why, "skip: kernel");
	CHECK_CONTAINS(why, "has no memcg_bpf_ops in its BTF");
	/* the hooks without the tracepoint: memcgd starts and fails with the reason */
	CHECK(kernel_check(argv[4], why, sizeof(why)) == KERNEL_CHECK_RUN);
	CHECK_CONTAINS(why, "but: ");
	/* no BTF at all: no series either */
	CHECK(kernel_check("/nonexistent/vmlinux", why, sizeof(why)) == KERNEL_CHECK_SKIP);
	CHECK_CONTAINS(why, "cannot read kernel BTF");
	CHECK(KERNEL_CHECK_SKIP >= 1 && KERNEL_CHECK_SKIP <= 254); /* ExecCondition=: skip, not fail */
	return test_summary("test-kernel-check");
}
