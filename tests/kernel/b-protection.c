// SPDX-License-Identifier: GPL-2.0
/*
 * Test b: below_min and below_low keep a protected cgroup's memory resident
 * under reclaim pressure from a sibling.
 *
 *   pressure/        memory.max = LIMIT
 *   pressure/prot    touches PROT_BYTES of anonymous memory, then idles
 *   pressure/hog     then touches HOG_BYTES (more than the limit leaves)
 *
 * Three runs: without ops, with ops on prot whose below_min returns true,
 * and with ops whose below_low returns true. Without ops, reclaim at the
 * limit takes prot's idle pages (swapped out). With either hook, prot keeps
 * them: its memory.stat anon stays near PROT_BYTES while hog is swapped
 * instead, and re-reading prot's memory afterwards causes (almost) no
 * swap-ins/refaults. Needs swap.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"
#include "protect.bpf.skel.h"

#define LIMIT (64 * KT_MiB)
#define PROT_BYTES (40 * KT_MiB)
#define HOG_BYTES (96 * KT_MiB)

enum mode { UNPROTECTED, BELOW_MIN, BELOW_LOW };
static const char *const mode_name[] = { "no ops", "below_min", "below_low" };

struct result {
	uint64_t anon_before, anon_after;	/* prot's memory.stat anon */
	uint64_t current_after;			/* prot's memory.current */
	uint64_t refaults;			/* prot's workingset_refault_anon while re-reading */
	uint64_t hook_calls;
};

/* prot: touch, report ready, re-read everything on SIGUSR1, report ready again. */
static int prot_work(void *arg)
{
	struct kt_work *work = arg;
	sigset_t set;
	int sig;
	void *p;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	p = kt_touch_anon(work->bytes);
	kt_child_ready();
	sigwait(&set, &sig);
	kt_read_pages(p, work->bytes);
	kt_child_ready();
	for (;;)
		pause();
	return 0;	/* not reached: killed by the test */
}

static uint64_t stat_or_zero(const struct kt_cgroup *cg, const char *key)
{
	uint64_t v = 0;

	kt_cg_read_key(cg, "memory.stat", key, &v);
	return v;
}

static struct result run(struct protect_bpf *skel, const struct kt_cgroup *parent, enum mode mode)
{
	struct kt_work prot_w = { .bytes = PROT_BYTES }, hog_w = { .bytes = HOG_BYTES };
	struct kt_cgroup *pressure, *prot, *hog;
	struct kt_child prot_c, hog_c;
	struct bpf_link *link = NULL;
	struct result r = { 0 };
	uint64_t refault_before;
	char path[PATH_MAX];

	ktest_log("--- run with %s", mode_name[mode]);
	pressure = kt_cg_create(parent, "pressure", true);
	KT_OK(kt_cg_write(pressure, "memory.max", "%lu", LIMIT), "set memory.max");
	prot = kt_cg_create(pressure, "prot", false);
	hog = kt_cg_create(pressure, "hog", false);

	skel->bss->protect_min = mode == BELOW_MIN;
	skel->bss->protect_low = mode == BELOW_LOW;
	skel->bss->below_min_calls = 0;
	skel->bss->below_low_calls = 0;
	if (mode != UNPROTECTED)
		link = kt_attach_ok(skel->maps.protect_ops, prot, 0);

	prot_c = kt_spawn(prot, prot_work, &prot_w);
	if (!kt_child_wait_ready(&prot_c, 300))
		ktest_fail("protected workload did not start");
	r.anon_before = kt_cg_stat(prot, "memory.stat", "anon");

	hog_c = kt_spawn(hog, kt_work_hold, &hog_w);
	if (!kt_child_wait_ready(&hog_c, 500))
		ktest_fail("hog did not finish touching %lu MiB within 500 s (killed?)",
			   HOG_BYTES / KT_MiB);
	r.anon_after = kt_cg_stat(prot, "memory.stat", "anon");
	r.current_after = kt_cg_read_u64(prot, "memory.current");

	refault_before = stat_or_zero(prot, "workingset_refault_anon");
	kill(prot_c.pid, SIGUSR1);
	if (!kt_child_wait_ready(&prot_c, 500))
		ktest_fail("protected workload did not re-read its memory");
	ktest_sleep_ms(2500);	/* periodic stats flush */
	r.refaults = stat_or_zero(prot, "workingset_refault_anon") - refault_before;
	r.hook_calls = mode == BELOW_MIN ? skel->bss->below_min_calls :
		       mode == BELOW_LOW ? skel->bss->below_low_calls : 0;

	ktest_log("%s: prot anon %llu MiB before, %llu MiB under pressure (memory.current %llu MiB), %llu anon refaults re-reading; hog anon %llu MiB; hook calls %llu; pressure memory.events max=%llu",
		  mode_name[mode], (unsigned long long)(r.anon_before / KT_MiB),
		  (unsigned long long)(r.anon_after / KT_MiB),
		  (unsigned long long)(r.current_after / KT_MiB),
		  (unsigned long long)r.refaults,
		  (unsigned long long)(stat_or_zero(hog, "anon") / KT_MiB),
		  (unsigned long long)r.hook_calls,
		  (unsigned long long)kt_cg_stat(pressure, "memory.events", "max"));

	kt_child_kill(&hog_c);
	kt_child_kill(&prot_c);
	if (link)
		kt_link_destroy(&link);
	snprintf(path, sizeof(path), "%s", pressure->path);
	kt_cg_free(hog);
	kt_cg_free(prot);
	kt_cg_free(pressure);
	kt_cg_destroy_tree(path);
	return r;
}

int main(void)
{
	struct result none, min, low;
	struct kt_cgroup *parent;
	struct protect_bpf *skel;
	uint64_t swap = kt_swap_total();
	uint64_t resident_floor = PROT_BYTES * 9 / 10;

	ktest_init("b-protection");
	if (swap < HOG_BYTES + PROT_BYTES)
		ktest_skip("needs at least %lu MiB of swap to reclaim anonymous memory, have %llu MiB",
			   (HOG_BYTES + PROT_BYTES) / KT_MiB, (unsigned long long)(swap / KT_MiB));
	parent = kt_cg_parent();
	skel = KT_SKEL_LOAD(protect_bpf);

	none = run(skel, parent, UNPROTECTED);
	min = run(skel, parent, BELOW_MIN);
	low = run(skel, parent, BELOW_LOW);

	KT_ASSERT(none.anon_before >= resident_floor,
		  "prot had its %lu MiB resident before the hog started (%llu MiB)",
		  PROT_BYTES / KT_MiB, (unsigned long long)(none.anon_before / KT_MiB));
	KT_ASSERT(none.anon_after < PROT_BYTES * 3 / 4,
		  "without ops the hog's pressure reclaims prot (anon %llu MiB of %lu MiB): otherwise this test proves nothing",
		  (unsigned long long)(none.anon_after / KT_MiB), PROT_BYTES / KT_MiB);

	KT_ASSERT(min.hook_calls > 0, "below_min was called during the pressure");
	KT_ASSERT(min.anon_after >= resident_floor,
		  "below_min keeps prot resident: anon %llu MiB, expected >= %llu MiB",
		  (unsigned long long)(min.anon_after / KT_MiB),
		  (unsigned long long)(resident_floor / KT_MiB));
	KT_ASSERT(low.hook_calls > 0, "below_low was called during the pressure");
	KT_ASSERT(low.anon_after >= resident_floor,
		  "below_low keeps prot resident: anon %llu MiB, expected >= %llu MiB",
		  (unsigned long long)(low.anon_after / KT_MiB),
		  (unsigned long long)(resident_floor / KT_MiB));

	KT_ASSERT(min.refaults <= none.refaults / 4 + 64 && low.refaults <= none.refaults / 4 + 64,
		  "protected runs refault far less than the unprotected one (refaults: none %llu, below_min %llu, below_low %llu)",
		  (unsigned long long)none.refaults, (unsigned long long)min.refaults,
		  (unsigned long long)low.refaults);

	protect_bpf__destroy(skel);
	ktest_pass();
}
