// SPDX-License-Identifier: GPL-2.0
/*
 * Test r: background reclaim from memcg_bpf_ops. A task in cgroup T (which
 * runs the ops) faults a little memory; on its return to user space
 * memcg_charged() starts a bpf_wq whose callback calls
 * bpf_try_to_free_mem_cgroup_pages() on a victim cgroup V.
 *  a. memcg_charged() is called with the pages T's task charged.
 *  b. Asked for RECLAIM_BYTES of V, full of clean page cache, the work item
 *     reclaims at least that much and not much more; V's memory.current
 *     and its memory.stat file drop accordingly and its pgsteal grows (the
 *     work is accounted to V).
 *  c. It refuses, leaving V alone: 0 pages and unknown flags (-EINVAL),
 *     more than 1 GiB (-E2BIG), the root memory cgroup (-EPERM).
 *  d. MEMCG_BPF_RECLAIM_NOSWAP: V2 holds anonymous memory only; with a
 *     swap file that the test adds, the flag reclaims none of it and the
 *     same request without the flag swaps it out.
 *  e. A memcg_bpf_ops program that calls the kfunc from memcg_charged()
 *     itself (not sleepable: the charging task's return path) does not load.
 *  f. The loader goes away (link, programs, maps closed) while the callback
 *     is inside the kfunc, swapping out V3's 64 MiB of anonymous memory: the callback
 *     runs to its end and writes its result (read through a map fd the test
 *     kept of .bss only). Before patch 26 the program was freed after an
 *     RCU grace period, its JIT memory filled with int3, and the kworker
 *     returned into it: an oops, which the console scan reports.
 * On the debug kernel (might_sleep, lockdep, KASAN) any splat of the work
 * item fails the run through the console scan.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"
#include "reclaim.bpf.skel.h"
#include "reclaim.h"
#include "reclaim_atomic.bpf.skel.h"

#define PAGE 4096UL
#define FILL_BYTES (64 * KT_MiB)	/* V's page cache */
#define RECLAIM_BYTES (16 * KT_MiB)	/* what b asks for */
#define ANON_BYTES (32 * KT_MiB)	/* V2's anonymous memory */
#define SWAP_BYTES (96 * KT_MiB)	/* d's swap file */
#define TOUCH_BYTES KT_MiB		/* T's task: a few charge batches */
#define NOSWAP_FLAG 1U			/* MEMCG_BPF_RECLAIM_NOSWAP */
#define MAX_PAGES (1024 * KT_MiB / PAGE)

static struct reclaim_bpf *skel;
static const struct kt_cgroup *trigger;

static bool request_done(void *arg)
{
	uint64_t seq = *(uint64_t *)arg;

	return __atomic_load_n(&skel->bss->done_seq, __ATOMIC_ACQUIRE) == seq;
}

/* One reclaim by the work item: ask, let a task in T charge, wait for the result. */
static long reclaim(uint64_t victim_id, uint64_t pages, uint32_t flags, uint64_t *charged)
{
	struct kt_work touch = { .bytes = TOUCH_BYTES };
	uint64_t seq = skel->bss->request_seq + 1, before;
	struct kt_child child;

	skel->bss->victim_id = victim_id;
	skel->bss->request_pages = pages;
	skel->bss->request_flags = flags;
	before = __atomic_load_n(&skel->bss->charged_pages, __ATOMIC_SEQ_CST);
	__atomic_store_n(&skel->bss->request_seq, seq, __ATOMIC_RELEASE);

	child = kt_spawn(trigger, kt_work_fault, &touch);
	if (kt_child_wait(&child, 120))
		ktest_fail("the charging child in %s failed", trigger->path);
	if (charged)
		*charged = __atomic_load_n(&skel->bss->charged_pages, __ATOMIC_SEQ_CST) - before;
	if (!ktest_wait_for(request_done, &seq, 120, 20))
		ktest_fail("the work item did not finish request %llu within 120 s (started: %llu, bpf_wq error %lld)",
			   (unsigned long long)seq, (unsigned long long)skel->bss->started_seq,
			   (long long)skel->bss->wq_error);
	return skel->bss->result;
}

static void check_notification_and_reclaim(const struct kt_cgroup *v)
{
	uint64_t cur0, file0, steal0, cur1, file1, steal1, charged, want = RECLAIM_BYTES / PAGE;
	long got;

	ktest_log("--- a, b: %lu MiB asked of V (%lu MiB of clean page cache)",
		  RECLAIM_BYTES / KT_MiB, FILL_BYTES / KT_MiB);
	cur0 = kt_cg_read_u64(v, "memory.current");
	file0 = kt_cg_stat(v, "memory.stat", "file");
	steal0 = kt_cg_stat(v, "memory.stat", "pgsteal");
	got = reclaim(kt_cg_id_of(v->path), want, 0, &charged);
	cur1 = kt_cg_read_u64(v, "memory.current");
	file1 = kt_cg_stat(v, "memory.stat", "file");
	steal1 = kt_cg_stat(v, "memory.stat", "pgsteal");
	ktest_log("memcg_charged saw %llu pages of the %lu touched; reclaimed %ld pages of %llu asked; V: memory.current %llu -> %llu KiB, file %llu -> %llu KiB, pgsteal +%llu",
		  (unsigned long long)charged, TOUCH_BYTES / PAGE, got, (unsigned long long)want,
		  (unsigned long long)cur0 / 1024, (unsigned long long)cur1 / 1024,
		  (unsigned long long)file0 / 1024, (unsigned long long)file1 / 1024,
		  (unsigned long long)(steal1 - steal0));

	KT_ASSERT(charged >= TOUCH_BYTES / PAGE * 95 / 100,
		  "memcg_charged() is told of the pages charged: %llu of %lu",
		  (unsigned long long)charged, TOUCH_BYTES / PAGE);
	KT_ASSERT(got >= (long)want, "the kfunc reclaims what it is asked: %ld of %llu pages",
		  got, (unsigned long long)want);
	KT_ASSERT(got <= (long)(2 * want), "and not much more: %ld pages for %llu asked",
		  got, (unsigned long long)want);
	KT_ASSERT((int64_t)(cur0 - cur1) >= (int64_t)(want * PAGE * 9 / 10),
		  "V's memory.current drops by what was reclaimed: %llu KiB",
		  (unsigned long long)(cur0 - cur1) / 1024);
	KT_ASSERT((int64_t)(file0 - file1) >= (int64_t)(want * PAGE * 9 / 10),
		  "the reclaimed memory is V's page cache: file dropped %llu KiB",
		  (unsigned long long)(file0 - file1) / 1024);
	KT_ASSERT(steal1 - steal0 >= want * 9 / 10,
		  "the reclaim is accounted to V (pgsteal +%llu)", (unsigned long long)(steal1 - steal0));
	KT_ASSERT(cur1 >= FILL_BYTES / 4, "V keeps the rest: %llu KiB left",
		  (unsigned long long)cur1 / 1024);
}

static void check_refusals(const struct kt_cgroup *v)
{
	uint64_t id = kt_cg_id_of(v->path), before, after;

	ktest_log("--- c. requests the kfunc refuses");
	before = kt_cg_read_u64(v, "memory.current");
	KT_EXPECT_ERRNO((int)reclaim(id, 0, 0, NULL), EINVAL, "reclaim 0 pages");
	KT_EXPECT_ERRNO((int)reclaim(id, 16, 1U << 7, NULL), EINVAL, "reclaim with an unknown flag");
	KT_EXPECT_ERRNO((int)reclaim(id, MAX_PAGES + 1, 0, NULL), E2BIG, "reclaim 1 GiB + 1 page");
	KT_EXPECT_ERRNO((int)reclaim(KT_RECLAIM_ROOT, 16, 0, NULL), EPERM,
			"reclaim the root memory cgroup");
	after = kt_cg_read_u64(v, "memory.current");
	KT_ASSERT((int64_t)(before - after) < (int64_t)KT_MiB,
		  "refused requests reclaim nothing from V: memory.current %llu -> %llu KiB",
		  (unsigned long long)before / 1024, (unsigned long long)after / 1024);
}

/* d: a swap file of the test's own, so that anonymous memory can be reclaimed */
static char swap_path[PATH_MAX];

static void swap_off(void *arg)
{
	(void)arg;
	if (swapoff(swap_path) < 0)
		ktest_log("swapoff %s: %s", swap_path, strerror(errno));
	unlink(swap_path);
}

/* Write a version-1 swap header (what mkswap writes) over a file of zeroes. */
static int make_swap_file(const char *path, size_t bytes)
{
	uint32_t header[3] = { 1, (uint32_t)(bytes / PAGE - 1), 0 };	/* version, last_page, nr_badpages */
	int fd, ret = -1;

	if (kt_write_clean_file(path, bytes))
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pwrite(fd, header, sizeof(header), 1024) == sizeof(header) &&
	    pwrite(fd, "SWAPSPACE2", 10, PAGE - 10) == 10 && fsync(fd) == 0)
		ret = 0;
	close(fd);
	return ret;
}

static void check_noswap(const struct kt_cgroup *top, const char *dir)
{
	struct kt_work hold = { .bytes = ANON_BYTES };
	uint64_t id, anon0, anon1, anon2;
	struct kt_cgroup *v2;
	struct kt_child child;
	long kept, swapped;

	ktest_log("--- d. MEMCG_BPF_RECLAIM_NOSWAP with %lu MiB of anonymous memory", ANON_BYTES / KT_MiB);
	snprintf(swap_path, sizeof(swap_path), "%s/r-reclaim.swap", dir);
	if (make_swap_file(swap_path, SWAP_BYTES))
		ktest_fail("cannot write a swap file at %s: %s", swap_path, strerror(errno));
	if (swapon(swap_path, 0) < 0)
		ktest_fail("swapon %s: %s", swap_path, strerror(errno));
	ktest_on_exit(swap_off, NULL);

	v2 = kt_cg_create(top, "v2", false);
	id = kt_cg_id_of(v2->path);
	child = kt_spawn(v2, kt_work_hold, &hold);
	if (!kt_child_wait_ready(&child, 120))
		ktest_fail("the child holding %lu MiB in %s did not get ready", ANON_BYTES / KT_MiB, v2->path);

	anon0 = kt_cg_stat(v2, "memory.stat", "anon");
	kept = reclaim(id, ANON_BYTES / 2 / PAGE, NOSWAP_FLAG, NULL);
	anon1 = kt_cg_stat(v2, "memory.stat", "anon");
	swapped = reclaim(id, ANON_BYTES / 2 / PAGE, 0, NULL);
	anon2 = kt_cg_stat(v2, "memory.stat", "anon");
	ktest_log("V2 anon %llu KiB; NOSWAP reclaimed %ld pages (anon then %llu KiB); without the flag %ld pages (anon then %llu KiB)",
		  (unsigned long long)anon0 / 1024, kept, (unsigned long long)anon1 / 1024, swapped,
		  (unsigned long long)anon2 / 1024);
	KT_ASSERT(anon0 >= ANON_BYTES * 9 / 10, "V2 holds its anonymous memory: %llu KiB",
		  (unsigned long long)anon0 / 1024);
	KT_ASSERT(kept >= 0 && (int64_t)(anon0 - anon1) < (int64_t)KT_MiB,
		  "with MEMCG_BPF_RECLAIM_NOSWAP no anonymous memory goes: %ld pages, anon -%lld KiB",
		  kept, (long long)(anon0 - anon1) / 1024);
	KT_ASSERT(swapped >= (long)(ANON_BYTES / 2 / PAGE) &&
		  (int64_t)(anon1 - anon2) >= (int64_t)(ANON_BYTES / 2 * 9 / 10),
		  "without it the same request swaps out: %ld pages, anon -%lld KiB",
		  swapped, (long long)(anon1 - anon2) / 1024);
	kt_child_kill(&child);
}

static void check_atomic_caller(void)
{
	struct reclaim_atomic_bpf *bad = reclaim_atomic_bpf__open();
	int err;

	ktest_log("--- e. calling the kfunc from memcg_charged() itself");
	if (!bad)
		ktest_fail("open reclaim_atomic.bpf.c: %s", strerror(errno));
	err = reclaim_atomic_bpf__load(bad);
	reclaim_atomic_bpf__destroy(bad);
	KT_ASSERT(err < 0, "the verifier refuses a sleepable kfunc in a non-sleepable callback (load: %d)", err);
	ktest_log("ok: load refused: %d (%s)", err, ktest_strerror(err));
}

static bool callback_running(void *arg)
{
	uint64_t seq = *(uint64_t *)arg;

	return __atomic_load_n(&skel->bss->running_seq, __ATOMIC_ACQUIRE) == seq ||
	       __atomic_load_n(&skel->bss->done_seq, __ATOMIC_ACQUIRE) == seq;
}

struct bss_probe {
	int fd;				/* the .bss map, kept after the object is closed */
	uint64_t seq;
	struct reclaim_bpf__bss value;
};

static bool bss_done(void *arg)
{
	struct bss_probe *p = arg;
	int key = 0;

	return bpf_map_lookup_elem(p->fd, &key, &p->value) == 0 && p->value.done_seq == p->seq;
}

/* f: the object closed under a running callback; returns with skel destroyed */
static void check_close_under_callback(const struct kt_cgroup *top, struct bpf_link **link)
{
	struct kt_work hold = { .bytes = 2 * ANON_BYTES }, touch = { .bytes = TOUCH_BYTES };
	struct bpf_map_info info = {};
	uint32_t info_len = sizeof(info);
	struct bss_probe probe;
	struct kt_cgroup *v3;
	struct kt_child child, charger;
	uint64_t anon0, anon1;

	ktest_log("--- f. the loader closes everything while the callback swaps out %lu MiB",
		  2 * ANON_BYTES / KT_MiB);
	v3 = kt_cg_create(top, "v3", false);
	child = kt_spawn(v3, kt_work_hold, &hold);
	if (!kt_child_wait_ready(&child, 120))
		ktest_fail("the child holding %lu MiB in %s did not get ready", 2 * ANON_BYTES / KT_MiB,
			   v3->path);
	anon0 = kt_cg_stat(v3, "memory.stat", "anon");

	if (bpf_map_get_info_by_fd(bpf_map__fd(skel->maps.bss), &info, &info_len))
		ktest_fail("bpf_map_get_info_by_fd(.bss): %s", strerror(errno));
	probe.fd = bpf_map_get_fd_by_id(info.id);
	if (probe.fd < 0)
		ktest_fail("bpf_map_get_fd_by_id(%u): %s", info.id, strerror(errno));

	probe.seq = skel->bss->request_seq + 1;
	skel->bss->victim_id = kt_cg_id_of(v3->path);
	skel->bss->request_pages = 2 * ANON_BYTES / PAGE;
	skel->bss->request_flags = 0;
	__atomic_store_n(&skel->bss->request_seq, probe.seq, __ATOMIC_RELEASE);
	charger = kt_spawn(trigger, kt_work_fault, &touch);
	if (!ktest_wait_for(callback_running, &probe.seq, 120, 1))
		ktest_fail("the callback for request %llu did not start within 120 s (bpf_wq error %lld)",
			   (unsigned long long)probe.seq, (long long)skel->bss->wq_error);
	KT_ASSERT(skel->bss->done_seq != probe.seq,
		  "the callback was still inside the kfunc when the loader closed everything");
	kt_link_destroy(link);
	reclaim_bpf__destroy(skel);
	skel = NULL;
	ktest_log("link, programs and maps closed with the callback in the kfunc");
	if (kt_child_wait(&charger, 120))
		ktest_fail("the charging child in %s failed", trigger->path);

	if (!ktest_wait_for(bss_done, &probe, 120, 20))
		ktest_fail("the callback of request %llu never finished (done_seq %llu)",
			   (unsigned long long)probe.seq, (unsigned long long)probe.value.done_seq);
	anon1 = kt_cg_stat(v3, "memory.stat", "anon");
	ktest_log("the callback finished after the close: %lld pages reclaimed; V3 anon %llu -> %llu KiB",
		  (long long)probe.value.result, (unsigned long long)anon0 / 1024,
		  (unsigned long long)anon1 / 1024);
	KT_ASSERT(probe.value.result > 0, "the callback's reclaim completed: %lld pages",
		  (long long)probe.value.result);
	close(probe.fd);
	kt_child_kill(&child);
}

static char fill_path[PATH_MAX];

static int fill_work(void *arg)
{
	(void)arg;
	return kt_write_clean_file(fill_path, FILL_BYTES);
}

static void unlink_fill(void *arg)
{
	(void)arg;
	unlink(fill_path);
}

int main(void)
{
	struct kt_cgroup *top, *t, *v;
	const char *dir;
	struct bpf_link *link;
	struct kt_child child;

	ktest_init("r-reclaim");
	dir = kt_disk_dir();
	if (!dir)
		ktest_skip("the work directory is on tmpfs: its page cache is not reclaimable without swap");
	top = kt_cg_parent();
	t = kt_cg_create(top, "t", false);
	v = kt_cg_create(top, "v", false);
	trigger = t;

	skel = KT_SKEL_LOAD(reclaim_bpf);
	link = kt_attach_ok(skel->maps.reclaim_ops, t, 0);

	snprintf(fill_path, sizeof(fill_path), "%s/r-reclaim-v.dat", dir);
	ktest_on_exit(unlink_fill, NULL);
	child = kt_spawn(v, fill_work, NULL);
	if (kt_child_wait(&child, 300))
		ktest_fail("writing %lu MiB of page cache in %s failed", FILL_BYTES / KT_MiB, v->path);

	check_notification_and_reclaim(v);
	check_refusals(v);
	check_noswap(top, dir);
	check_atomic_caller();
	check_close_under_callback(top, &link);
	ktest_pass();
}
