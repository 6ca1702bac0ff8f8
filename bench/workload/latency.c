// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency: the protected service of the latency benchmark. Fills a working
 * set of --mib MiB with non-zero words, then issues requests at a fixed
 * --rate; each request updates one word in each of --pages pages chosen at
 * random (seeded: --seed), like a service looking up and updating state.
 *
 * Open loop: request i is scheduled at start + i / rate whatever happened
 * before, and its latency runs from that scheduled start to its completion.
 * A request that cannot start on time (the previous one was slow, or the
 * process did not run) starts as soon as it can and counts the wait: a
 * stall of 300 ms shows as ~rate * 0.3 late requests, not as one slow one
 * (no coordinated omission). Requests never overlap: when requests take
 * longer than 1 / rate for a while, the backlog and the latencies grow,
 * as a single-threaded server's would.
 *
 * Phases, each reported apart: --warm-up W seconds of requests, ended
 * earlier by SIGUSR1 (warm_*: the service on its own, before the scenario
 * adds its contention; the signal starts the measured run when the
 * contention does), --seconds
 * S of requests (0: until SIGTERM/SIGINT), then, with --wake K, --idle I
 * seconds without touching memory and K more requests at the same rate
 * (wake_*): the wake-up cost, the latency of the first requests after an
 * idle period in which the working set may have been reclaimed. --ready is
 * created when the working set is filled, as the warm-up starts.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "samples.h"
#include "workloads.h"

#define NS_PER_SEC 1000000000ULL

static volatile sig_atomic_t stop_requested, warm_up_ended;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		warm_up_ended = 1;
	else
		stop_requested = 1;
}

static int install_stop_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: sleeps return */

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL) ||
	    sigaction(SIGUSR1, &sa, NULL)) {
		fprintf(stderr, "memcgd-bench latency: sigaction: %s\n", strerror(errno));
		return -errno;
	}
	return 0;
}

/* splitmix64: small, fast, and the same sequence for the same --seed everywhere */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Sleeps until @when (CLOCK_MONOTONIC ns); returns early on a stop request or
 * when *@end_flag (if not NULL) is set.
 */
static void sleep_until(uint64_t when, volatile sig_atomic_t *end_flag)
{
	struct timespec ts = { .tv_sec = (time_t)(when / NS_PER_SEC),
			       .tv_nsec = (long)(when % NS_PER_SEC) };

	while (!stop_requested && !(end_flag && *end_flag) &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

struct working_set {
	volatile uint64_t *buf;
	size_t pages;
	size_t words_per_page;
	unsigned int touches;	/* pages per request */
	uint64_t rng;
};

static void request(struct working_set *ws)
{
	for (unsigned int i = 0; i < ws->touches; i++) {
		size_t page = next_random(&ws->rng) % ws->pages;

		ws->buf[page * ws->words_per_page] += 1;
	}
}

/*
 * Runs requests at @rate from now on: @count of them, or (count 0) those
 * scheduled within @seconds (0: until stopped), or until *@end_flag is set.
 * Records each in @s.
 */
static int run_phase(struct working_set *ws, double rate, uint64_t count, double seconds,
		     volatile sig_atomic_t *end_flag, struct progress *p, struct samples *s)
{
	uint64_t start = monotonic_ns(), duration = (uint64_t)(seconds * NS_PER_SEC);
	uint64_t done = start;
	int r;

	for (uint64_t i = 0; !stop_requested && !(end_flag && *end_flag); i++) {
		uint64_t due = (uint64_t)((double)i * NS_PER_SEC / rate);

		if (count ? i >= count : seconds > 0 && due >= duration)
			break;
		sleep_until(start + due, end_flag);
		if (stop_requested || (end_flag && *end_flag))
			break;
		request(ws);
		done = monotonic_ns();
		r = samples_add(s, due, done - start - due);
		if (r < 0)
			return r;
		if (p)
			progress_add(p, 1);
	}
	/* n requests on schedule take n intervals: the last one's counts too */
	s->elapsed_s = s->n ? (double)(done - start) / NS_PER_SEC + 1 / rate : 0;
	return 0;
}

static int check_args(const struct workload_args *a)
{
	if (a->wake && a->seconds == 0) {
		fprintf(stderr, "memcgd-bench latency: --wake needs --seconds > 0 (0 runs until stopped)\n");
		return -EINVAL;
	}
	if (a->idle > 0 && !a->wake) {
		fprintf(stderr, "memcgd-bench latency: --idle needs --wake (the requests after the idle time)\n");
		return -EINVAL;
	}
	return 0;
}

static int open_latencies(const char *path, FILE **out)
{
	*out = NULL;
	if (!path)
		return 0;
	*out = fopen(path, "we");
	if (!*out) {
		int r = -errno;

		fprintf(stderr, "memcgd-bench latency: cannot write --latencies %s: %s\n", path,
			strerror(-r));
		return r;
	}
	return 0;
}

static int report(const struct workload_args *a, const struct samples *warm,
		  const struct samples *run, const struct samples *wake, FILE *latencies)
{
	int r = 0;

	printf("latency requested_rate %g req/s\n", a->rate);
	printf("latency pages_per_request %u pages\n", a->pages);
	if (a->warm_up > 0)
		r = samples_summary(stdout, "latency", "warm_", warm, a->over_ms);
	if (!r)
		r = samples_summary(stdout, "latency", "", run, a->over_ms);
	if (!r && a->wake)
		r = samples_summary(stdout, "latency", "wake_", wake, a->over_ms);
	if (latencies) {
		samples_write(latencies, "warm", warm);
		samples_write(latencies, "run", run);
		samples_write(latencies, "wake", wake);
		if (fflush(latencies) && !r) {
			r = -errno;
			fprintf(stderr, "memcgd-bench latency: writing --latencies %s: %s\n",
				a->latencies_path, strerror(-r));
		}
	}
	return r;
}

int run_latency(const struct workload_args *a)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), words = (a->mib << 20) / sizeof(uint64_t);
	struct samples warm = {}, run = {}, wake = {};
	struct working_set ws = {
		.pages = (a->mib << 20) / page,
		.words_per_page = page / sizeof(uint64_t),
		.touches = a->pages,
		.rng = a->seed,
	};
	FILE *log = NULL, *latencies = NULL;
	struct progress p;
	int r;

	r = check_args(a);
	if (r < 0)
		return r;
	r = install_stop_handlers();
	if (r < 0)
		return r;
	r = open_progress_log("latency", a->log_path, &log);
	if (r < 0)
		return r;
	r = open_latencies(a->latencies_path, &latencies);
	if (r < 0)
		goto out;
	ws.buf = map_anon("latency", a->mib);
	if (!ws.buf) {
		r = -ENOMEM;
		goto out;
	}
	/* non-zero words: swap must really write and read these pages */
	for (size_t i = 0; i < words; i++)
		ws.buf[i] = i * 0x9e3779b97f4a7c15ULL | 1;
	r = announce_ready("latency", a->ready_path);
	if (r < 0)
		goto out;
	progress_start(&p, log, 0);
	r = a->warm_up > 0 ? run_phase(&ws, a->rate, 0, a->warm_up, &warm_up_ended, &p, &warm) : 0;
	if (!r && !stop_requested)
		r = run_phase(&ws, a->rate, 0, a->seconds, NULL, &p, &run);
	if (!r && a->wake && !stop_requested) {
		sleep_until(monotonic_ns() + (uint64_t)(a->idle * NS_PER_SEC), NULL);
		r = run_phase(&ws, a->rate, a->wake, 0, NULL, &p, &wake);
	}
	progress_finish(&p);
	if (!r)
		r = report(a, &warm, &run, &wake, latencies);
out:
	if (ws.buf)
		munmap((void *)ws.buf, a->mib << 20);
	if (latencies)
		fclose(latencies);
	close_progress_log(log);
	samples_free(&warm);
	samples_free(&run);
	samples_free(&wake);
	return r;
}
