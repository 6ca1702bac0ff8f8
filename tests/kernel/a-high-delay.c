// SPDX-License-Identifier: GPL-2.0
/*
 * Test a: get_high_delay_ms throttles the low-priority cgroup (the RFC's
 * over_high scenario). A tracepoint program watches PGFAULT events of the
 * "high" cgroup, where a child keeps faulting; while high is active, the ops
 * attached to "low" return a delay. The same workload in "low" (faulting
 * WORK_BYTES page by page) must take at least twice as long with the ops
 * attached as without, and be fast again after the link is destroyed.
 *
 * The delay per call is calibrated from the unthrottled time and the number
 * of get_high_delay_ms calls one run makes, so the expected slow-down is
 * about 4x whatever the emulation speed; the assertion asks for 2x.
 * The delay must not be accounted as a memory stall in low's memory.pressure.
 * A delay of a few milliseconds is slept as asked: not shorter, and not
 * rounded up to a whole tick (HZ=250 would make 3 ms anything from 0 to 4).
 * That is measured on the sleep itself, from the task's switch-out to its
 * wakeup (sched_switch and sched_wakeup programs): the difference of two
 * workload runs' wall-clock times carried the emulator's noise (a 3-ms delay
 * "measured" 7.66 ms, rounds from -0.9 to 13.7 ms, in a full run of
 * 2026-12-07) and stays in the log for comparison.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"
#include "throttle.bpf.skel.h"

#define WORK_BYTES (4 * KT_MiB)
#define MIN_DELAY_MS 10
#define MAX_DELAY_MS 1000
#define PRECISE_DELAY_MS 3
#define PRECISE_ROUNDS 7

static struct kt_report *report;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double run_low(const struct kt_cgroup *low)
{
	struct kt_work work = { .bytes = WORK_BYTES, .report = report };
	struct kt_child child = kt_spawn(low, kt_work_fault, &work);
	int code = kt_child_wait(&child, 500);

	if (code)
		ktest_fail("low workload exited with %d", code);
	return report->seconds;
}

static uint64_t pressure_total_us(const struct kt_cgroup *low)
{
	char path[PATH_MAX + 32], line[256];
	unsigned long long total = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.pressure", low->path);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *t = strstr(line, "total=");

		if (!strncmp(line, "some", 4) && t)
			total = strtoull(t + 6, NULL, 10);
	}
	fclose(f);
	return total;
}

int main(void)
{
	struct kt_work loop = { .bytes = 2 * KT_MiB };
	double t0, t0b, t_cal, t1, t2, t3, base, extra, per_ms, round_ms[PRECISE_ROUNDS];
	double sleep_ms, round_sleep_ms[PRECISE_ROUNDS];
	struct bpf_link *sleeps_tp, *wakes_tp;
	struct kt_cgroup *parent, *high, *low;
	uint64_t calls, psi_before, psi_after, returned;
	struct kt_child faulter;
	struct throttle_bpf *skel;
	struct bpf_link *tp, *link;
	unsigned int delay;

	ktest_init("a-high-delay");
	report = kt_report_alloc();
	parent = kt_cg_parent();
	high = kt_cg_create(parent, "high", false);
	low = kt_cg_create(parent, "low", false);

	skel = KT_SKEL_LOAD(throttle_bpf);
	skel->bss->high_cgid = high->id;
	skel->bss->window_ns = 2000000000ULL;
	skel->bss->delay_ms = 0;
	tp = bpf_program__attach(skel->progs.kt_count_high_faults);
	if (!tp)
		ktest_fail("attach tp/memcg/count_memcg_events: %s", strerror(errno));

	faulter = kt_spawn(high, kt_work_fault_loop, &loop);
	if (!kt_child_wait_ready(&faulter, 300))
		ktest_fail("high-priority faulter did not start");
	KT_ASSERT(skel->bss->high_faults > 0, "the tracepoint saw no PGFAULT events of %s",
		  high->path);

	t0 = run_low(low);
	t0b = run_low(low);
	base = (t0 + t0b) / 2;
	ktest_log("without ops: low workload took %.3f s and %.3f s", t0, t0b);

	/* Calibration: attached, delay 0 -> how often is the hook consulted? */
	link = kt_attach_ok(skel->maps.low_ops, low, 0);
	skel->bss->delay_calls = 0;
	t_cal = run_low(low);
	calls = skel->bss->delay_calls;
	ktest_log("attached with delay 0: %.3f s, get_high_delay_ms called %llu x",
		  t_cal, (unsigned long long)calls);
	if (!calls)
		ktest_fail("get_high_delay_ms was never called for charges of %s", low->path);

	delay = (unsigned int)(4 * base * 1000 / calls) + 1;
	if (delay < MIN_DELAY_MS)
		delay = MIN_DELAY_MS;
	if (delay > MAX_DELAY_MS)
		delay = MAX_DELAY_MS;
	skel->bss->delay_ms = delay;
	skel->bss->delay_calls = 0;
	skel->bss->delays_returned = 0;
	psi_before = pressure_total_us(low);
	t1 = run_low(low);
	psi_after = pressure_total_us(low);
	ktest_log("throttled (%u ms per call): %.3f s, %llu calls, %llu returned the delay, ratio %.2f",
		  delay, t1, (unsigned long long)skel->bss->delay_calls,
		  (unsigned long long)skel->bss->delays_returned, t1 / base);
	KT_ASSERT(skel->bss->delays_returned > 0,
		  "the ops never returned a delay (high cgroup not seen as active)");
	KT_ASSERT(t1 >= 2 * base,
		  "throttled run %.3f s at least twice the unthrottled %.3f s (ratio %.2f)", t1,
		  base, t1 / base);

	extra = t1 - base;
	ktest_log("memory.pressure some total of low grew by %.3f s during %.3f s of delay",
		  (psi_after - psi_before) / 1e6, extra);
	KT_ASSERT((psi_after - psi_before) / 1e6 < extra / 2,
		  "the BPF delay is not accounted as a memory stall: memory.pressure grew by %.3f s, delay added %.3f s",
		  (psi_after - psi_before) / 1e6, extra);

	/* precision: each returned delay of PRECISE_DELAY_MS adds that much, measured against
	 * attached runs with delay 0 (same hook calls, no sleep), interleaved PRECISE_ROUNDS times;
	 * the median round decides, so that a few runs slowed by the host (a vCPU thread that
	 * QEMU did not get to run looks like a longer sleep to the guest) do not */
	sleeps_tp = bpf_program__attach(skel->progs.kt_delay_sleeps);
	wakes_tp = bpf_program__attach(skel->progs.kt_delay_wakes);
	if (!sleeps_tp || !wakes_tp)
		ktest_fail("attach tp_btf/sched_switch and tp_btf/sched_wakeup: %s", strerror(errno));
	returned = 0;
	for (int i = 0; i < PRECISE_ROUNDS; i++) {
		skel->bss->delay_ms = 0;
		t_cal = run_low(low);
		skel->bss->delay_ms = PRECISE_DELAY_MS;
		skel->bss->delays_returned = 0;
		skel->bss->sleeps = 0;
		skel->bss->slept_ns = 0;
		t3 = run_low(low);
		KT_ASSERT(skel->bss->delays_returned > 0, "no delay returned in %u ms round %d",
			  PRECISE_DELAY_MS, i);
		KT_ASSERT(skel->bss->sleeps > 0, "no sleep after %llu delays in round %d",
			  (unsigned long long)skel->bss->delays_returned, i);
		round_ms[i] = (t3 - t_cal) * 1000 / (double)skel->bss->delays_returned;
		round_sleep_ms[i] = skel->bss->slept_ns / 1e6 / (double)skel->bss->sleeps;
		returned += skel->bss->delays_returned;
	}
	bpf_link__destroy(wakes_tp);
	bpf_link__destroy(sleeps_tp);
	qsort(round_ms, PRECISE_ROUNDS, sizeof(round_ms[0]), cmp_double);
	qsort(round_sleep_ms, PRECISE_ROUNDS, sizeof(round_sleep_ms[0]), cmp_double);
	per_ms = round_ms[PRECISE_ROUNDS / 2];
	sleep_ms = round_sleep_ms[PRECISE_ROUNDS / 2];
	ktest_log("throttled (%u ms per call): %d rounds, %llu delays; wall clock: median %.2f ms more per delay (rounds from %.2f to %.2f ms)",
		  PRECISE_DELAY_MS, PRECISE_ROUNDS, (unsigned long long)returned, per_ms, round_ms[0],
		  round_ms[PRECISE_ROUNDS - 1]);
	ktest_log("slept from switch-out to wakeup: median %.2f ms per delay (rounds from %.2f to %.2f ms)",
		  sleep_ms, round_sleep_ms[0], round_sleep_ms[PRECISE_ROUNDS - 1]);
	KT_ASSERT(sleep_ms >= 0.95 * PRECISE_DELAY_MS && sleep_ms < PRECISE_DELAY_MS + 2,
		  "a %u ms delay sleeps %.2f ms (want %.2f to %u: not shorter, not rounded to ticks)",
		  PRECISE_DELAY_MS, sleep_ms, 0.95 * PRECISE_DELAY_MS, PRECISE_DELAY_MS + 2);

	kt_link_destroy(&link);
	t2 = run_low(low);
	ktest_log("after destroying the link: %.3f s", t2);
	KT_ASSERT(t2 < t1 / 2 || t2 < 1.5 * base,
		  "the workload is fast again after detach: %.3f s (throttled %.3f s, unthrottled %.3f s)",
		  t2, t1, base);

	kt_child_kill(&faulter);
	bpf_link__destroy(tp);
	throttle_bpf__destroy(skel);
	ktest_pass();
}
