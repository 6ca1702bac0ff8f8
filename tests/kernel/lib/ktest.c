// SPDX-License-Identifier: GPL-2.0
/* Reporting, assertions and exit-time cleanup for the memcgd kernel tests. */
#include "ktest.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define MAX_CLEANUPS 32

static const char *test_name = "ktest";
static int n_errors;
static double start_time;
static pid_t main_pid;

static struct {
	ktest_cleanup_fn fn;
	void *data;
} cleanups[MAX_CLEANUPS];
static int n_cleanups;

const char *ktest_name(void)
{
	return test_name;
}

double ktest_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void ktest_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

bool ktest_wait_for(bool (*cond)(void *data), void *data, double timeout_s,
		    unsigned int poll_ms)
{
	double deadline = ktest_now() + timeout_s;

	for (;;) {
		if (cond(data))
			return true;
		if (ktest_now() > deadline)
			return false;
		ktest_sleep_ms(poll_ms);
	}
}

static void vlog(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	fprintf(f, "[%7.2f] %s: %s", ktest_now() - start_time, test_name, prefix);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

void ktest_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stdout, "", fmt, ap);
	va_end(ap);
}

void ktest_on_exit(ktest_cleanup_fn fn, void *data)
{
	if (n_cleanups == MAX_CLEANUPS) {
		fprintf(stderr, "%s: too many cleanups registered\n", test_name);
		abort();
	}
	cleanups[n_cleanups].fn = fn;
	cleanups[n_cleanups].data = data;
	n_cleanups++;
}

static void run_cleanups(void)
{
	/* Forked workload children inherit the table: only the test runs it. */
	if (getpid() != main_pid)
		return;
	while (n_cleanups > 0) {
		n_cleanups--;
		cleanups[n_cleanups].fn(cleanups[n_cleanups].data);
	}
}

static _Noreturn void finish(int code)
{
	run_cleanups();
	exit(code);
}

void ktest_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stdout, "FAIL: ", fmt, ap);
	va_end(ap);
	if (getpid() != main_pid)
		_exit(1);
	finish(1);
}

void ktest_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stdout, "SKIP: ", fmt, ap);
	va_end(ap);
	finish(KTEST_EXIT_SKIP);
}

void ktest_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(stdout, "FAIL: ", fmt, ap);
	va_end(ap);
	n_errors++;
}

void ktest_pass(void)
{
	if (n_errors) {
		ktest_log("FAIL: %d check(s) failed (see above)", n_errors);
		finish(1);
	}
	ktest_log("PASS");
	finish(0);
}

const char *ktest_strerror(int neg_errno)
{
	return strerror(neg_errno < 0 ? -neg_errno : neg_errno);
}

const char *ktest_errname(int errnum)
{
	static char buf[16];

	switch (errnum) {
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case E2BIG: return "E2BIG";
	case ENOTDIR: return "ENOTDIR";
	}
	snprintf(buf, sizeof(buf), "%d", errnum);
	return buf;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	fprintf(stdout, "[%7.2f] %s: libbpf: ", ktest_now() - start_time, test_name);
	return vfprintf(stdout, fmt, ap);
}

static void on_signal(int sig)
{
	/* Timeout or interrupt from the runner: still remove our cgroups. */
	fprintf(stdout, "%s: FAIL: killed by signal %d\n", test_name, sig);
	fflush(stdout);
	signal(sig, SIG_DFL);
	run_cleanups();
	raise(sig);
}

static void check_kernel_support(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const char *missing = NULL;

	if (!btf)
		ktest_skip("kernel has no BTF (/sys/kernel/btf/vmlinux): not the memcgd kernel");
	if (btf__find_by_name_kind(btf, "memcg_bpf_ops", BTF_KIND_STRUCT) < 0)
		missing = "struct memcg_bpf_ops";
	else if (btf__find_by_name_kind(btf, "trace_event_raw_memcg_rstat_events",
					BTF_KIND_STRUCT) < 0)
		missing = "struct trace_event_raw_memcg_rstat_events";
	btf__free(btf);
	if (missing)
		ktest_skip("kernel BTF lacks %s: this kernel does not carry the memcg_bpf_ops series",
			   missing);
}

void ktest_init(const char *name)
{
	struct statfs sfs;

	test_name = name;
	start_time = ktest_now();
	main_pid = getpid();
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGALRM, on_signal);
	libbpf_set_print(libbpf_print);

	if (geteuid() != 0)
		ktest_skip("needs root (loads BPF, creates cgroups)");
	if (statfs("/sys/fs/cgroup", &sfs) < 0 || sfs.f_type != CGROUP2_SUPER_MAGIC)
		ktest_skip("/sys/fs/cgroup is not a cgroup2 mount");
	check_kernel_support();
	ktest_log("start (pid %d)", (int)main_pid);
}
