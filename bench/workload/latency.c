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
 *
 * --zipf S chooses the pages Zipf-skewed instead of uniformly: the page of
 * popularity rank k (1..N) with probability proportional to 1 / k^S, ranks
 * spread over the working set by a fixed stride coprime with N (the hot
 * pages are not one contiguous run). --periods B1,I1[,B2,I2]... turns the
 * measured run into an on/off service: busy B1 seconds of requests, idle I1
 * seconds, busy B2, ..., the list repeated until --seconds; with it --wake K
 * counts the first K requests of every busy period after an idle gap as
 * wake_* (they also count in the run). touched_pages is the number of
 * distinct pages the run's requests touched.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
	double *cdf;		/* --zipf: cumulative probability of ranks 1..pages, or NULL */
	size_t stride;		/* --zipf: rank r is page (r * stride) % pages */
	uint8_t *touched;	/* a bit per page the run touched, or NULL outside the run */
};

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The Zipf(s) distribution over the ranks of @ws's pages; -ENOMEM with a message. */
static int zipf_setup(struct working_set *ws, double s)
{
	double sum = 0;

	ws->cdf = malloc(ws->pages * sizeof(*ws->cdf));
	if (!ws->cdf) {
		fprintf(stderr, "memcgd-bench latency: no memory for --zipf's table of %zu pages\n", ws->pages);
		return -ENOMEM;
	}
	for (size_t k = 0; k < ws->pages; k++) {
		sum += pow((double)(k + 1), -s);
		ws->cdf[k] = sum;
	}
	for (size_t k = 0; k < ws->pages; k++)
		ws->cdf[k] /= sum;
	/* about 0.618 N, coprime with N: neighbouring ranks far apart */
	ws->stride = (size_t)(0.6180339887 * (double)ws->pages) | 1;
	while (ws->pages > 1 && gcd(ws->stride, ws->pages) != 1)
		ws->stride += 2;
	return 0;
}

static size_t pick_page(struct working_set *ws)
{
	uint64_t r = next_random(&ws->rng);
	size_t lo = 0, hi;
	double u;

	if (!ws->cdf)
		return r % ws->pages;
	u = (double)(r >> 11) * 0x1.0p-53;
	hi = ws->pages - 1;
	while (lo < hi) {	/* the first rank whose cumulative probability reaches u */
		size_t mid = lo + (hi - lo) / 2;

		if (ws->cdf[mid] >= u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (size_t)(((unsigned __int128)lo * ws->stride) % ws->pages);
}

static void request(struct working_set *ws)
{
	for (unsigned int i = 0; i < ws->touches; i++) {
		size_t page = pick_page(ws);

		ws->buf[page * ws->words_per_page] += 1;
		if (ws->touched)
			ws->touched[page / 8] |= (uint8_t)(1u << (page % 8));
	}
}

static size_t touched_pages(const struct working_set *ws)
{
	size_t n = 0;

	for (size_t i = 0; ws->touched && i < (ws->pages + 7) / 8; i++)
		n += (size_t)__builtin_popcount(ws->touched[i]);
	return n;
}

/*
 * Runs requests at @rate from now on: @count of them, or (count 0) those
 * scheduled within @seconds (0: until stopped), or until *@end_flag is set.
 * Records each in @s.
 */
static int run_phase(struct working_set *ws, double rate, uint64_t count, double seconds,
		     volatile sig_atomic_t *end_flag, struct progress *p, struct samples *s,
		     struct samples *first, uint64_t first_count)
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
		if (!r && first && i < first_count)
			r = samples_add(first, due, done - start - due);
		if (r < 0)
			return r;
		if (p)
			progress_add(p, 1);
	}
	/* n requests on schedule take n intervals: the last one's counts too */
	s->elapsed_s = s->n ? (double)(done - start) / NS_PER_SEC + 1 / rate : 0;
	return 0;
}

#define MAX_PERIODS 256

/* --periods into @out (pairs of busy, idle seconds); the number of values, or -EINVAL */
static int parse_periods(const char *text, double *out)
{
	const char *s = text;
	int n = 0;

	for (;;) {
		char *end;
		double v;

		errno = 0;
		v = strtod(s, &end);
		if (errno || end == s || !isfinite(v) || v < 0 || v > 86400 || (n % 2 == 0 && v == 0) ||
		    n == MAX_PERIODS)
			goto bad;
		out[n++] = v;
		if (!*end)
			break;
		if (*end != ',')
			goto bad;
		s = end + 1;
	}
	if (n % 2 == 0)
		return n;
bad:
	fprintf(stderr, "memcgd-bench latency: --periods wants BUSY,IDLE[,BUSY,IDLE]... seconds "
		"(busy > 0, idle >= 0, at most %d values), got '%s'\n", MAX_PERIODS, text);
	return -EINVAL;
}

/*
 * The on/off run: busy period[0] s, idle period[1] s, busy period[2] s, ...,
 * the list repeated, within --seconds from now; each busy period's first
 * --wake requests after an idle gap also go to @wake.
 */
static int run_periods(struct working_set *ws, const struct workload_args *a, const double *period,
		       int n, struct progress *p, struct samples *run, struct samples *wake)
{
	uint64_t start = monotonic_ns(), end = start + (uint64_t)(a->seconds * NS_PER_SEC);
	uint64_t at = start;	/* the current period's start */
	struct samples part = {};
	int r = 0;

	for (int k = 0; !r && !stop_requested && at < end; k = (k + 2) % n) {
		double busy = fmin(period[k], (double)(end - at) / NS_PER_SEC);
		bool after_gap = at > start;

		sleep_until(at, NULL);
		if (stop_requested)
			break;
		part.n = 0;
		r = run_phase(ws, a->rate, 0, busy, NULL, p, &part, after_gap ? wake : NULL,
			      after_gap ? a->wake : 0);
		for (size_t i = 0; !r && i < part.n; i++)
			r = samples_add(run, part.sched_ns[i] + (at - start), part.lat_ns[i]);
		at += (uint64_t)((period[k] + period[k + 1]) * NS_PER_SEC);
	}
	run->elapsed_s = (double)(fmin((double)(monotonic_ns() - start), (double)(end - start))) / NS_PER_SEC;
	wake->elapsed_s = (double)wake->n / a->rate;	/* their scheduled time: gaps apart */
	samples_free(&part);
	return r;
}

static int check_args(const struct workload_args *a)
{
	if (a->periods && a->seconds == 0) {
		fprintf(stderr, "memcgd-bench latency: --periods needs --seconds > 0\n");
		return -EINVAL;
	}
	if (a->periods && a->idle > 0) {
		fprintf(stderr, "memcgd-bench latency: --idle does not apply with --periods (its gaps are the idle times)\n");
		return -EINVAL;
	}
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
		  const struct samples *run, const struct samples *wake, size_t touched, FILE *latencies)
{
	int r = 0;

	printf("latency requested_rate %g req/s\n", a->rate);
	printf("latency pages_per_request %u pages\n", a->pages);
	if (a->warm_up > 0)
		r = samples_summary(stdout, "latency", "warm_", warm, a->over_ms);
	if (!r)
		r = samples_summary(stdout, "latency", "", run, a->over_ms);
	if (!r)
		printf("latency touched_pages %zu pages\n", touched);
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
	double period[MAX_PERIODS];
	int periods = 0;
	size_t touched = 0;
	struct progress p;
	int r;

	r = check_args(a);
	if (r < 0)
		return r;
	if (a->periods) {
		periods = parse_periods(a->periods, period);
		if (periods < 0)
			return periods;
	}
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
	if (a->zipf > 0) {
		r = zipf_setup(&ws, a->zipf);
		if (r < 0)
			goto out;
	}
	/* non-zero words: swap must really write and read these pages */
	for (size_t i = 0; i < words; i++)
		ws.buf[i] = i * 0x9e3779b97f4a7c15ULL | 1;
	r = announce_ready("latency", a->ready_path);
	if (r < 0)
		goto out;
	progress_start(&p, log, 0);
	r = a->warm_up > 0 ? run_phase(&ws, a->rate, 0, a->warm_up, &warm_up_ended, &p, &warm, NULL, 0) : 0;
	ws.touched = calloc((ws.pages + 7) / 8, 1);
	if (!r && !ws.touched) {
		fprintf(stderr, "memcgd-bench latency: no memory for the touched-page bitmap\n");
		r = -ENOMEM;
	}
	if (!r && !stop_requested && periods)
		r = run_periods(&ws, a, period, periods, &p, &run, &wake);
	else if (!r && !stop_requested)
		r = run_phase(&ws, a->rate, 0, a->seconds, NULL, &p, &run, NULL, 0);
	if (!r && a->wake && !periods && !stop_requested) {
		size_t keep = touched_pages(&ws);

		sleep_until(monotonic_ns() + (uint64_t)(a->idle * NS_PER_SEC), NULL);
		/* the run's touched pages, not the wake-up's */
		free(ws.touched);
		ws.touched = NULL;
		r = run_phase(&ws, a->rate, a->wake, 0, NULL, &p, &wake, NULL, 0);
		touched = keep;
	} else {
		touched = touched_pages(&ws);
	}
	progress_finish(&p);
	if (!r)
		r = report(a, &warm, &run, &wake, touched, latencies);
out:
	free(ws.cdf);
	free(ws.touched);
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
