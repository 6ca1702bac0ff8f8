// SPDX-License-Identifier: GPL-2.0
/*
 * Test s: NUMA balancing decided per memory cgroup by
 * memcg_bpf_ops::numa_balancing(), on a guest with two NUMA nodes
 * (run-vm.sh --numa). Cgroup B runs the ops, O does not. A workload
 * touches its memory on node 0, then runs on a CPU of node 1 and keeps
 * using it.
 *  a. kernel.numa_balancing=0, the ops balance: the workload in B/leaf (a
 *     cgroup created after the attachment: inherited) ends with >= 90 % of
 *     its pages on node 1, B/leaf's memory.stat counts NUMA PTE updates,
 *     hinting faults and migrations; the same workload in O at the same
 *     time keeps every page on node 0 and O counts none of them. The
 *     program was called for B/leaf with the global scan parameters.
 *  b. kernel.numa_balancing=1, the ops say MEMCG_NUMAB_OFF: the workload
 *     in B/leaf2 stays on node 0 and its cgroup counts no NUMA PTE update,
 *     while the one in O, globally balanced, moves to node 1. Then the ops
 *     say MEMCG_NUMAB_DEFAULT: the workload in B/leaf4 is balanced as
 *     kernel.numa_balancing=1 says.
 *  c. Parameters outside the safe ranges (0 MB per scan, 0 ms periods) are
 *     clamped, not obeyed: with them the workload is still scanned.
 *  d. A program that writes kernel memory other than struct
 *     memcg_numa_params does not load.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"
#include "numa.bpf.skel.h"
#include "numa_bad.bpf.skel.h"

/* enum memcg_numab_decision (include/linux/sched/numa_balancing.h) */
enum { NUMAB_DEFAULT, NUMAB_ON, NUMAB_OFF };

#define PAGE 4096UL
#define WORK_BYTES (64 * KT_MiB)
#define CLAMP_BYTES (16 * KT_MiB)
#define BALANCED_SHARE 0.90
#define WORK_SECONDS 120.0

static const char numa_sysctl[] = "/proc/sys/kernel/numa_balancing";
static char saved_sysctl[16];
static int cpu_of_node[2];

struct numa_work {
	size_t bytes;
	double seconds;		/* longest time on node 1 */
	double stop_share;	/* stop early once this share is on node 1 (> 1: never) */
	struct kt_report *report;	/* value[0]: share on node 0 before, [1]: share on node 1 at the end (ppm) */
};

static int first_cpu_of_node(int node)
{
	char path[96], buf[64];
	FILE *f;
	int cpu = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%d", &cpu) != 1)
		cpu = -1;
	fclose(f);
	return cpu;
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ktest_fail("sched_setaffinity(CPU %d): %s", cpu, strerror(errno));
}

/* Share of the pages of [p, p + bytes) that are on `node` (move_pages query). */
static double share_on_node(char *p, size_t bytes, int node)
{
	enum { BATCH = 512 };
	size_t n = bytes / PAGE, done, i, on = 0;
	void *pages[BATCH];
	int status[BATCH];

	for (done = 0; done < n; done += BATCH) {
		size_t count = n - done < BATCH ? n - done : BATCH;

		for (i = 0; i < count; i++)
			pages[i] = p + (done + i) * PAGE;
		if (syscall(SYS_move_pages, 0, count, pages, NULL, status, 0))
			ktest_fail("move_pages (query): %s", strerror(errno));
		for (i = 0; i < count; i++)
			on += status[i] == node;
	}
	return (double)on / n;
}

/*
 * The workload: memory first touched from node 0, then used from node 1
 * until stop_share of it is there or the time is up.
 */
static int numa_workload(void *arg)
{
	struct numa_work *w = arg;
	double start, next;
	char *p;
	size_t i;

	pin_to(cpu_of_node[0]);
	p = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ktest_fail("mmap %zu bytes: %s", w->bytes, strerror(errno));
	if (madvise(p, w->bytes, MADV_NOHUGEPAGE))
		ktest_fail("madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
	memset(p, 1, w->bytes);
	w->report->value[0] = (uint64_t)(share_on_node(p, w->bytes, 0) * 1e6);

	pin_to(cpu_of_node[1]);
	kt_child_ready();
	start = ktest_now();
	next = start + 1;
	for (;;) {
		for (i = 0; i < w->bytes; i += PAGE)
			p[i]++;
		if (ktest_now() < next)
			continue;
		next = ktest_now() + 1;
		w->report->value[1] = (uint64_t)(share_on_node(p, w->bytes, 1) * 1e6);
		w->report->seconds = ktest_now() - start;
		if (w->report->value[1] >= w->stop_share * 1e6 || w->report->seconds >= w->seconds)
			break;
	}
	return 0;
}

struct run {
	struct numa_work work;
	struct kt_child child;
	const struct kt_cgroup *cg;
};

static void start_run(struct run *r, const struct kt_cgroup *cg, size_t bytes, double seconds,
		      double stop_share)
{
	r->cg = cg;
	r->work = (struct numa_work){ .bytes = bytes, .seconds = seconds,
				      .stop_share = stop_share, .report = kt_report_alloc() };
	r->child = kt_spawn(cg, numa_workload, &r->work);
	if (!kt_child_wait_ready(&r->child, 300))
		ktest_fail("the workload in %s did not get going", cg->path);
}

static void finish_run(struct run *r)
{
	if (kt_child_wait(&r->child, WORK_SECONDS + 120))
		ktest_fail("the workload in %s failed", r->cg->path);
	ktest_log("%s: %.1f %% first on node 0, %.1f %% on node 1 after %.0f s; numa_pte_updates %llu, numa_hint_faults %llu, numa_pages_migrated %llu",
		  r->cg->path, r->work.report->value[0] / 1e4, r->work.report->value[1] / 1e4,
		  r->work.report->seconds,
		  (unsigned long long)kt_cg_stat(r->cg, "memory.stat", "numa_pte_updates"),
		  (unsigned long long)kt_cg_stat(r->cg, "memory.stat", "numa_hint_faults"),
		  (unsigned long long)kt_cg_stat(r->cg, "memory.stat", "numa_pages_migrated"));
	KT_ASSERT(r->work.report->value[0] >= 990000,
		  "the workload in %s first touched its memory on node 0 (%.1f %% there)",
		  r->cg->path, r->work.report->value[0] / 1e4);
}

static double share_node1(const struct run *r)
{
	return r->work.report->value[1] / 1e6;
}

static void set_numa_balancing(const char *value)
{
	if (kt_write_file(numa_sysctl, value))
		ktest_fail("writing %s to %s", value, numa_sysctl);
}

static void restore_sysctl(void *data)
{
	(void)data;
	if (saved_sysctl[0])
		kt_write_file(numa_sysctl, saved_sysctl);
}

/* The global value of a NUMA balancing knob from debugfs, or fallback. */
static unsigned int global_knob(const char *name, unsigned int fallback)
{
	char path[128];
	unsigned int v = fallback;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/sched/numa_balancing/%s", name);
	f = fopen(path, "r");
	if (!f)
		return fallback;
	if (fscanf(f, "%u", &v) != 1)
		v = fallback;
	fclose(f);
	return v;
}

static void check_balanced(struct numa_bpf *skel, const struct kt_cgroup *b,
			   const struct kt_cgroup *o)
{
	struct kt_cgroup *leaf;
	struct run in_b, in_o;

	ktest_log("--- a. numa_balancing=0, the ops balance B (and B/leaf, made after the attachment)");
	set_numa_balancing("0");
	leaf = kt_cg_create(b, "leaf", false);
	skel->bss->decision = NUMAB_ON;
	skel->bss->scan_period_min_ms = 100;
	skel->bss->scan_period_max_ms = 1000;
	skel->bss->scan_size_mb = 256;
	start_run(&in_b, leaf, WORK_BYTES, WORK_SECONDS, BALANCED_SHARE);
	/* O runs as long as B's workload did, or the whole time if B never balances */
	start_run(&in_o, o, WORK_BYTES, WORK_SECONDS, 2.0);
	finish_run(&in_b);
	kt_child_kill(&in_o.child);
	in_o.work.report->seconds = in_b.work.report->seconds;
	ktest_log("%s: %.1f %% on node 1 (stopped with B's workload)", o->path, share_node1(&in_o) * 100);

	KT_ASSERT(share_node1(&in_b) >= BALANCED_SHARE,
		  "the ops moved >= %.0f %% of B/leaf's pages to the node it runs on (%.1f %%)",
		  BALANCED_SHARE * 100, share_node1(&in_b) * 100);
	KT_ASSERT(kt_cg_stat(leaf, "memory.stat", "numa_pte_updates") > 0, "B/leaf counts NUMA PTE updates");
	KT_ASSERT(kt_cg_stat(leaf, "memory.stat", "numa_hint_faults") > 0, "B/leaf counts NUMA hinting faults");
	KT_ASSERT(kt_cg_stat(leaf, "memory.stat", "numa_pages_migrated") > 0, "B/leaf counts NUMA migrations");
	KT_ASSERT(share_node1(&in_o) == 0, "no page of O moved (%.2f %% on node 1)", share_node1(&in_o) * 100);
	KT_ASSERT_EQ(kt_cg_stat(o, "memory.stat", "numa_pte_updates"), 0, "O's numa_pte_updates");
	KT_ASSERT_EQ(kt_cg_stat(o, "memory.stat", "numa_hint_faults"), 0, "O's numa_hint_faults");
	KT_ASSERT_EQ(kt_cg_stat(o, "memory.stat", "numa_pages_migrated"), 0, "O's numa_pages_migrated");

	KT_ASSERT(skel->bss->calls > 0, "the program was called");
	KT_ASSERT_EQ(skel->bss->last_cgroup_id, leaf->id, "memory cgroup the program was called for (B/leaf)");
	KT_ASSERT_EQ(skel->bss->seen_scan_period_min_ms, global_knob("scan_period_min_ms", 1000),
		     "scan_period_min_ms passed in (the global value)");
	KT_ASSERT_EQ(skel->bss->seen_scan_period_max_ms, global_knob("scan_period_max_ms", 60000),
		     "scan_period_max_ms passed in");
	KT_ASSERT_EQ(skel->bss->seen_scan_size_mb, global_knob("scan_size_mb", 256), "scan_size_mb passed in");
	KT_ASSERT_EQ(skel->bss->seen_hot_threshold_ms, global_knob("hot_threshold_ms", 1000),
		     "hot_threshold_ms passed in");
	ktest_log("ok: B/leaf balanced, O untouched, %llu calls", (unsigned long long)skel->bss->calls);
}

static void check_opt_out(struct numa_bpf *skel, const struct kt_cgroup *b,
			  const struct kt_cgroup *o)
{
	struct kt_cgroup *leaf;
	struct run in_b, in_o;
	uint64_t o_updates = kt_cg_stat(o, "memory.stat", "numa_pte_updates");

	ktest_log("--- b. numa_balancing=1, the ops say no for B");
	set_numa_balancing("1");
	leaf = kt_cg_create(b, "leaf2", false);
	skel->bss->decision = NUMAB_OFF;
	start_run(&in_o, o, WORK_BYTES, WORK_SECONDS, BALANCED_SHARE);
	start_run(&in_b, leaf, WORK_BYTES, WORK_SECONDS, 2.0);
	finish_run(&in_o);
	kt_child_kill(&in_b.child);
	ktest_log("%s: %.1f %% on node 1 (stopped with O's workload)", leaf->path, share_node1(&in_b) * 100);

	KT_ASSERT(share_node1(&in_o) >= BALANCED_SHARE,
		  "global balancing moved O's pages (%.1f %% on node 1)", share_node1(&in_o) * 100);
	KT_ASSERT(kt_cg_stat(o, "memory.stat", "numa_pte_updates") > o_updates, "O counts NUMA PTE updates");
	KT_ASSERT(share_node1(&in_b) == 0, "no page of B/leaf2 moved (%.2f %% on node 1)", share_node1(&in_b) * 100);
	KT_ASSERT_EQ(kt_cg_stat(leaf, "memory.stat", "numa_pte_updates"), 0, "B/leaf2's numa_pte_updates");
	KT_ASSERT_EQ(kt_cg_stat(leaf, "memory.stat", "numa_hint_faults"), 0, "B/leaf2's numa_hint_faults");
	ktest_log("ok: B opted out under global balancing, O balanced");

	leaf = kt_cg_create(b, "leaf4", false);
	skel->bss->decision = NUMAB_DEFAULT;
	start_run(&in_b, leaf, WORK_BYTES, WORK_SECONDS, BALANCED_SHARE);
	finish_run(&in_b);
	set_numa_balancing("0");
	KT_ASSERT(share_node1(&in_b) >= BALANCED_SHARE,
		  "MEMCG_NUMAB_DEFAULT left B/leaf4 to global balancing (%.1f %% on node 1)",
		  share_node1(&in_b) * 100);
	ktest_log("ok: MEMCG_NUMAB_DEFAULT follows kernel.numa_balancing");
}

static void check_clamp(struct numa_bpf *skel, const struct kt_cgroup *b)
{
	struct kt_cgroup *leaf;
	struct run in_b;

	ktest_log("--- c. 0 MB per scan and 0 ms periods are clamped, not obeyed");
	leaf = kt_cg_create(b, "leaf3", false);
	skel->bss->decision = NUMAB_ON;
	skel->bss->scan_period_min_ms = 0;
	skel->bss->scan_period_max_ms = 0;
	skel->bss->scan_size_mb = 0;
	start_run(&in_b, leaf, CLAMP_BYTES, 30, 2.0);
	finish_run(&in_b);
	KT_ASSERT(kt_cg_stat(leaf, "memory.stat", "numa_pte_updates") > 0,
		  "B/leaf3 was scanned with the clamped parameters (a 0 MB scan would mark nothing)");
	ktest_log("ok: clamped");
}

static void check_bad_write(void)
{
	char log[16384] = "";
	LIBBPF_OPTS(bpf_object_open_opts, opts, .kernel_log_buf = log, .kernel_log_size = sizeof(log),
		    .kernel_log_level = 1);
	struct numa_bad_bpf *bad;
	int err;

	ktest_log("--- d. writing the memory cgroup instead of the parameters");
	bad = numa_bad_bpf__open_opts(&opts);
	if (!bad)
		ktest_fail("opening numa_bad_bpf: %s", ktest_strerror(-errno));
	err = numa_bad_bpf__load(bad);
	numa_bad_bpf__destroy(bad);
	KT_ASSERT(err < 0, "the verifier refuses the write (load: %d)", err);
	KT_ASSERT(strstr(log, "only struct memcg_numa_params is writable"),
		  "the verifier says why; its log ends: %s", log + (strlen(log) > 400 ? strlen(log) - 400 : 0));
	ktest_log("ok: refused: %s", ktest_strerror(err));
}

int main(void)
{
	struct kt_cgroup *top, *b, *o;
	struct bpf_link *link;
	struct numa_bpf *skel;
	FILE *f;

	ktest_init("s-numa");
	cpu_of_node[0] = first_cpu_of_node(0);
	cpu_of_node[1] = first_cpu_of_node(1);
	if (cpu_of_node[0] < 0 || cpu_of_node[1] < 0)
		ktest_skip("needs two NUMA nodes with CPUs (run-vm.sh --numa)");
	f = fopen(numa_sysctl, "r");
	if (!f || !fgets(saved_sysctl, sizeof(saved_sysctl), f))
		ktest_fail("reading %s: %s (CONFIG_NUMA_BALANCING?)", numa_sysctl, strerror(errno));
	fclose(f);
	ktest_on_exit(restore_sysctl, NULL);

	top = kt_cg_parent();
	b = kt_cg_create(top, "b", true);
	o = kt_cg_create(top, "o", false);
	skel = KT_SKEL_LOAD(numa_bpf);
	link = kt_attach_ok(skel->maps.numa_ops, b, 0);

	check_balanced(skel, b, o);
	check_opt_out(skel, b, o);
	check_clamp(skel, b);
	check_bad_write();

	kt_link_destroy(&link);
	numa_bpf__destroy(skel);
	ktest_pass();
}
