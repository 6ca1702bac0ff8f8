// SPDX-License-Identifier: GPL-2.0
/*
 * Test k: a get_high_delay_ms() of UINT_MAX does not put a task to sleep for
 * 49 days: each return to user space sleeps at most MEMCG_BPF_MAX_DELAY_MS
 * (2 s). And a task sleeping in that throttle dies promptly on SIGKILL,
 * long before its 2 s are over: the sleep is TASK_KILLABLE.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "delay.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"

#define MAX_DELAY_S 2.0			/* MEMCG_BPF_MAX_DELAY_MS */
#define CLAMP_BYTES (1 * KT_MiB)	/* a few charge batches of 64 pages */
#define KILL_ROUNDS 3
#define KILL_AFTER_MS 300		/* into the 2 s sleep */
#define KILL_MAX_S 1.0			/* an unkillable sleep would take 1.7 s more */

static struct delay_bpf *skel;
static struct kt_report *report;

/*
 * In the child, in the attached cgroup: fault CLAMP_BYTES in and report the
 * time taken and the get_high_delay_ms() calls made meanwhile (the skeleton's
 * .bss is a shared mapping, inherited across fork()). Each call's sleep ends
 * before the child reads the counter again, so the window holds whole sleeps.
 */
static int clamp_child(void *arg)
{
	uint64_t before = __atomic_load_n(&skel->bss->delay_calls, __ATOMIC_SEQ_CST);
	double t0 = ktest_now();
	void *p = kt_touch_anon(CLAMP_BYTES);

	report->seconds = ktest_now() - t0;
	report->value[0] = __atomic_load_n(&skel->bss->delay_calls, __ATOMIC_SEQ_CST) - before;
	kt_unmap(p, CLAMP_BYTES);
	return 0;
}

struct calls_above {
	uint64_t min;
};

static bool calls_increased(void *data)
{
	struct calls_above *c = data;

	return __atomic_load_n(&skel->bss->delay_calls, __ATOMIC_SEQ_CST) > c->min;
}

/* State letter of /proc/<pid>/stat ('D' while in a killable sleep), '?' on error. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *rp;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return '?';
	rp = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	return rp && rp[1] == ' ' ? rp[2] : '?';
}

int main(void)
{
	struct kt_work loop = { .bytes = 1 * KT_MiB };
	struct kt_cgroup *parent, *cg;
	struct bpf_link *link;
	struct kt_child child;
	double per_call, t0, dt, worst = 0;
	uint64_t calls;

	ktest_init("k-throttle-kill");
	report = kt_report_alloc();
	parent = kt_cg_parent();
	cg = kt_cg_create(parent, "throttled", false);

	skel = KT_SKEL_LOAD(delay_bpf);
	skel->bss->delay_ms = UINT_MAX;
	link = kt_attach_ok(skel->maps.delay_ops, cg, 0);

	/* Clamp: every call asked for UINT_MAX ms, each return slept 2 s. */
	child = kt_spawn(cg, clamp_child, NULL);
	if (kt_child_wait(&child, 300))
		ktest_fail("the faulting child in %s failed", cg->path);
	calls = report->value[0];
	ktest_log("faulting %lu KiB with get_high_delay_ms() = UINT_MAX: %.3f s, %llu calls",
		  CLAMP_BYTES / 1024, report->seconds, (unsigned long long)calls);
	KT_ASSERT(calls > 0, "get_high_delay_ms was called while the child faulted in %s",
		  cg->path);
	per_call = report->seconds / (double)calls;
	KT_ASSERT(per_call >= 0.95 * MAX_DELAY_S && per_call < MAX_DELAY_S + 1.0,
		  "a UINT_MAX delay sleeps the 2 s clamp per return: %.3f s per call", per_call);
	ktest_log("ok: %.3f s per call (clamp %.1f s)", per_call, MAX_DELAY_S);

	/* SIGKILL: kill a child KILL_AFTER_MS into its 2 s sleep. */
	for (int i = 0; i < KILL_ROUNDS; i++) {
		struct calls_above above = {
			.min = __atomic_load_n(&skel->bss->delay_calls, __ATOMIC_SEQ_CST),
		};
		char state;

		child = kt_spawn(cg, kt_work_fault_loop, &loop);
		if (!ktest_wait_for(calls_increased, &above, 60, 5))
			ktest_fail("round %d: the child in %s was never throttled", i, cg->path);
		ktest_sleep_ms(KILL_AFTER_MS);
		state = proc_state(child.pid);
		t0 = ktest_now();
		kt_child_kill(&child);
		dt = ktest_now() - t0;
		ktest_log("round %d: child in state %c, SIGKILL to reaped in %.3f s", i, state, dt);
		KT_ASSERT(state == 'D',
			  "round %d: the child sleeps in the throttle (state D) %u ms after get_high_delay_ms(), state %c",
			  i, KILL_AFTER_MS, state);
		if (dt > worst)
			worst = dt;
	}
	KT_ASSERT(worst < KILL_MAX_S,
		  "a throttled task dies promptly on SIGKILL: slowest %.3f s (limit %.1f s, sleep left %.1f s)",
		  worst, KILL_MAX_S, MAX_DELAY_S - KILL_AFTER_MS / 1000.0);
	ktest_log("ok: throttled children died within %.3f s of SIGKILL", worst);

	kt_link_destroy(&link);
	delay_bpf__destroy(skel);
	ktest_pass();
}
