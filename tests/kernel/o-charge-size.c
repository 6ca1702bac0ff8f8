// SPDX-License-Identifier: GPL-2.0
/*
 * Test o: get_high_delay_ms() learns how much the task charged since it
 * last returned to user space (bpf_mem_cgroup_charged_pages()), so that a
 * policy can make one huge charge cost more than one page fault.
 *  - one mmap(MAP_POPULATE) of BIG_BYTES is one system call: the call made
 *    on its return sees (at least) all its pages at once;
 *  - the same amount faulted page by page returns to user space after
 *    every fault: no single call sees more than a few charge batches, and
 *    the calls together still see all the pages;
 *  - the count starts from zero again after each return: the second
 *    populate in the same process does not see the first one's pages.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "charge.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"

#define BIG_BYTES (32 * KT_MiB)
#define BIG_PAGES (BIG_BYTES / 4096)
/* MEMCG_CHARGE_BATCH is 64 pages; a fault may charge a page table too */
#define SMALL_MAX_PAGES 512

static struct charge_bpf *skel;

static void reset_counters(void)
{
	__atomic_store_n(&skel->bss->calls, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&skel->bss->max_pages, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&skel->bss->sum_pages, 0, __ATOMIC_SEQ_CST);
}

/* Two populates in one process, each a single system call. */
static int populate_child(void *arg)
{
	struct kt_report *report = arg;

	for (int i = 0; i < 2; i++) {
		void *p = mmap(NULL, BIG_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED)
			return 10;
		/* the return from mmap() ran get_high_delay_ms(): record what it saw */
		report->value[2 * i] = __atomic_load_n(&skel->bss->max_pages, __ATOMIC_SEQ_CST);
		report->value[2 * i + 1] = __atomic_load_n(&skel->bss->calls, __ATOMIC_SEQ_CST);
		__atomic_store_n(&skel->bss->max_pages, 0, __ATOMIC_SEQ_CST);
		/* keep the first mapping: the second populate charges new pages */
	}
	return 0;
}

int main(void)
{
	struct kt_work fault = { .bytes = BIG_BYTES };
	struct kt_cgroup *parent, *cg;
	struct kt_report *report;
	struct bpf_link *link;
	struct kt_child child;
	uint64_t calls, max, sum;

	ktest_init("o-charge-size");
	report = kt_report_alloc();
	parent = kt_cg_parent();
	cg = kt_cg_create(parent, "charged", false);

	skel = KT_SKEL_LOAD(charge_bpf);
	link = kt_attach_ok(skel->maps.charge_ops, cg, 0);

	/* One system call charging BIG_BYTES. */
	reset_counters();
	child = kt_spawn(cg, populate_child, report);
	if (kt_child_wait(&child, 300))
		ktest_fail("the populating child in %s failed", cg->path);
	for (int i = 0; i < 2; i++) {
		ktest_log("populate %d of %lu pages: the call on its return saw %llu pages (%llu calls so far)",
			  i + 1, (unsigned long)BIG_PAGES, (unsigned long long)report->value[2 * i],
			  (unsigned long long)report->value[2 * i + 1]);
		KT_ASSERT(report->value[2 * i + 1] > 0,
			  "get_high_delay_ms() ran on the return from populate %d", i + 1);
		KT_ASSERT(report->value[2 * i] >= BIG_PAGES * 95 / 100,
			  "populate %d: one call sees its %lu pages at once, saw %llu", i + 1,
			  (unsigned long)BIG_PAGES, (unsigned long long)report->value[2 * i]);
		KT_ASSERT(report->value[2 * i] <= BIG_PAGES * 3 / 2,
			  "populate %d: the count restarts after each return (%llu pages seen, %lu charged)",
			  i + 1, (unsigned long long)report->value[2 * i], (unsigned long)BIG_PAGES);
	}

	/* The same amount, one fault (and one return to user space) per page. */
	reset_counters();
	child = kt_spawn(cg, kt_work_fault, &fault);
	if (kt_child_wait(&child, 300))
		ktest_fail("the faulting child in %s failed", cg->path);
	calls = __atomic_load_n(&skel->bss->calls, __ATOMIC_SEQ_CST);
	max = __atomic_load_n(&skel->bss->max_pages, __ATOMIC_SEQ_CST);
	sum = __atomic_load_n(&skel->bss->sum_pages, __ATOMIC_SEQ_CST);
	ktest_log("faulting %lu pages one by one: %llu calls, at most %llu pages per call, %llu in all",
		  (unsigned long)BIG_PAGES, (unsigned long long)calls, (unsigned long long)max,
		  (unsigned long long)sum);
	KT_ASSERT(calls >= 2, "page faults return to user space between charges: %llu calls",
		  (unsigned long long)calls);
	KT_ASSERT(max <= SMALL_MAX_PAGES, "no single return sees more than a few charge batches: %llu",
		  (unsigned long long)max);
	KT_ASSERT(sum >= BIG_PAGES * 95 / 100, "the calls together see all %lu pages: %llu",
		  (unsigned long)BIG_PAGES, (unsigned long long)sum);

	kt_link_destroy(&link);
	charge_bpf__destroy(skel);
	ktest_pass();
}
