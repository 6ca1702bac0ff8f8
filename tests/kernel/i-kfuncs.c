// SPDX-License-Identifier: GPL-2.0
/*
 * Test i: the memcg kfuncs are callable from a memcg_bpf_ops program and
 * return the cgroup's real numbers. A child holds 16 MiB in "target";
 * reclaim from its parent makes below_low of the ops attached to "target"
 * sample bpf_mem_cgroup_usage, bpf_mem_cgroup_vm_events(PGFAULT),
 * bpf_mem_cgroup_page_state(NR_ANON_MAPPED),
 * bpf_mem_cgroup_memory_events(MEMCG_LOW) and, through
 * bpf_get_root_mem_cgroup/bpf_put_mem_cgroup, the root's usage. Each is
 * compared with memory.current, memory.stat and memory.events: the kfuncs
 * return what upstream's (v7.0) return, so page state is in memory.stat's
 * unit (bytes for NR_ANON_MAPPED), and an item the memory controller does
 * not account reads as (unsigned long)-1, never 0.
 */
#include <errno.h>

#include "kfuncs.h"
#include "kfuncs.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"

#define HOLD_BYTES (16 * KT_MiB)

static void within(const char *what, uint64_t got, uint64_t lo, uint64_t hi)
{
	if (got < lo || got > hi)
		ktest_fail("%s: kfunc returned %llu, expected within [%llu, %llu]", what,
			   (unsigned long long)got, (unsigned long long)lo,
			   (unsigned long long)hi);
	ktest_log("ok: %s = %llu (expected [%llu, %llu])", what, (unsigned long long)got,
		  (unsigned long long)lo, (unsigned long long)hi);
}

/* A kfunc returns (unsigned long)-1 for an item it cannot read; the BPF side is 64-bit. */
static void expect_invalid(const char *what, uint64_t got)
{
	if (got != UINT64_MAX)
		ktest_fail("%s: kfunc returned %llu, expected (unsigned long)-1", what,
			   (unsigned long long)got);
	ktest_log("ok: %s = (unsigned long)-1", what);
}

int main(void)
{
	struct kt_work hold = { .bytes = HOLD_BYTES };
	uint64_t cur_before, cur_after, pgfault, anon, low_events, slack;
	struct kt_cgroup *parent, *mid, *target;
	struct kt_child holder;
	struct bpf_link *link;
	struct kfuncs_bpf *skel;
	int err;

	ktest_init("i-kfuncs");
	parent = kt_cg_parent();
	mid = kt_cg_create(parent, "mid", true);
	target = kt_cg_create(mid, "target", false);

	skel = KT_SKEL_LOAD(kfuncs_bpf);
	skel->bss->target_cgid = target->id;
	link = kt_attach_ok(skel->maps.kfunc_ops, target, 0);

	holder = kt_spawn(target, kt_work_hold, &hold);
	if (!kt_child_wait_ready(&holder, 300))
		ktest_fail("memory holder in %s did not start", target->path);
	/* Let the periodic (2 s) stats flush settle the counters. */
	ktest_sleep_ms(4500);

	cur_before = kt_cg_read_u64(target, "memory.current");
	pgfault = kt_cg_stat(target, "memory.stat", "pgfault");
	anon = kt_cg_stat(target, "memory.stat", "anon");
	low_events = kt_cg_stat(target, "memory.events", "low");
	err = kt_cg_write(mid, "memory.reclaim", "%lu", 1 * KT_MiB);
	ktest_log("memory.reclaim 1M on %s: %s", mid->path, err ? ktest_strerror(err) : "ok");
	cur_after = kt_cg_read_u64(target, "memory.current");

	if (!skel->bss->sample.calls)
		ktest_fail("below_low never ran for %s during reclaim of its parent (other cgroups: %llu calls)",
			   target->path, (unsigned long long)skel->bss->other_calls);
	ktest_log("below_low ran %llu x for the target", skel->bss->sample.calls);

	slack = KT_MiB;
	within("bpf_mem_cgroup_usage (bytes) vs memory.current around the reclaim",
	       skel->bss->sample.usage, (cur_after < cur_before ? cur_after : cur_before) - slack,
	       (cur_after > cur_before ? cur_after : cur_before) + slack);
	within("bpf_mem_cgroup_vm_events(PGFAULT) vs memory.stat pgfault",
	       skel->bss->sample.pgfault, pgfault > 64 ? pgfault - 64 : 0, pgfault + 64);
	KT_ASSERT(skel->bss->sample.pgfault >= HOLD_BYTES / 4096,
		  "PGFAULT count %llu covers the %lu pages the holder faulted",
		  skel->bss->sample.pgfault, HOLD_BYTES / 4096);
	KT_ASSERT(anon >= HOLD_BYTES / 2, "memory.stat anon of %s is %llu bytes while the holder maps %lu",
		  target->path, (unsigned long long)anon, HOLD_BYTES);
	within("bpf_mem_cgroup_page_state(NR_ANON_MAPPED) (bytes) vs memory.stat anon",
	       skel->bss->sample.anon, anon > slack ? anon - slack : 0, anon + slack);
	within("bpf_mem_cgroup_memory_events(MEMCG_LOW) vs memory.events low",
	       skel->bss->sample.low_events, low_events, low_events);
	KT_ASSERT(skel->bss->sample.root_ok, "bpf_get_root_mem_cgroup() returned NULL");
	KT_ASSERT(skel->bss->sample.root_usage >= skel->bss->sample.usage,
		  "root usage %llu >= the target's usage %llu", skel->bss->sample.root_usage,
		  skel->bss->sample.usage);
	ktest_log("ok: root memcg usage %llu bytes", skel->bss->sample.root_usage);

	expect_invalid("bpf_mem_cgroup_page_state(-1)", skel->bss->sample.bad_page_state_neg);
	expect_invalid("bpf_mem_cgroup_page_state(MEMCG_NR_STAT)",
		       skel->bss->sample.bad_page_state_nr);
	expect_invalid("bpf_mem_cgroup_vm_events(NR_VM_EVENT_ITEMS)", skel->bss->sample.bad_vm_event);
	expect_invalid("bpf_mem_cgroup_memory_events(MEMCG_NR_MEMORY_EVENTS)",
		       skel->bss->sample.bad_memory_event);

	kt_child_kill(&holder);
	kt_link_destroy(&link);
	kfuncs_bpf__destroy(skel);
	ktest_pass();
}
