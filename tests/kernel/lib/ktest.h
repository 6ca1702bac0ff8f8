/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reporting and assertions for the memcgd kernel tests.
 *
 * Every test is one executable run as root inside the QEMU guest. It exits
 * 0 on success, KTEST_EXIT_SKIP (77) when the kernel or the machine cannot
 * run it (with the reason on stdout), anything else on failure. Failures
 * print "FAIL: <what was expected> (<what was observed>)", then run the
 * registered cleanups (cgroups, child processes) before exiting.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define KTEST_EXIT_SKIP 77

/* Name the test, check root/cgroup2/BTF prerequisites, set up libbpf logging. */
void ktest_init(const char *name);
const char *ktest_name(void);

void ktest_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void ktest_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void ktest_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Record a failure, keep going; ktest_pass() then fails the test. */
void ktest_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit 0 unless ktest_error() was called. */
_Noreturn void ktest_pass(void);

/* Cleanups run in reverse registration order on every exit path. */
typedef void (*ktest_cleanup_fn)(void *data);
void ktest_on_exit(ktest_cleanup_fn fn, void *data);

/* Monotonic seconds. */
double ktest_now(void);
void ktest_sleep_ms(unsigned int ms);

/*
 * Poll cond(data) every poll_ms until it returns true or timeout_s elapses.
 * Returns true when the condition became true.
 */
bool ktest_wait_for(bool (*cond)(void *data), void *data, double timeout_s,
		    unsigned int poll_ms);

/* Hard assertions: print what was expected and what was seen, then fail. */
#define KT_ASSERT(cond, fmt, ...)                                                 \
	do {                                                                      \
		if (!(cond))                                                      \
			ktest_fail("%s:%d: expected %s: " fmt, __FILE__, __LINE__, \
				   #cond, ##__VA_ARGS__);                         \
	} while (0)

#define KT_ASSERT_EQ(a, b, what)                                                  \
	do {                                                                      \
		long long __a = (long long)(a), __b = (long long)(b);             \
		if (__a != __b)                                                   \
			ktest_fail("%s:%d: %s: expected %lld, got %lld", __FILE__, \
				   __LINE__, what, __b, __a);                     \
	} while (0)

/* An operation returning 0 or -errno must succeed. */
#define KT_OK(expr, what)                                                         \
	do {                                                                      \
		int __err = (expr);                                               \
		if (__err < 0)                                                    \
			ktest_fail("%s:%d: %s failed: %d (%s)", __FILE__, __LINE__, \
				   what, __err, ktest_strerror(__err));           \
	} while (0)

/* An operation returning 0 or -errno must fail with exactly -errno `want`. */
#define KT_ERRNO(expr, want, what)                                                \
	do {                                                                      \
		int __err = (expr);                                               \
		if (__err != -(want))                                             \
			ktest_fail("%s:%d: %s: expected -%s (%d), got %d (%s)",   \
				   __FILE__, __LINE__, what, ktest_errname(want), \
				   -(want), __err,                                \
				   __err ? ktest_strerror(__err) : "success");   \
		ktest_log("ok: %s -> -%s", what, ktest_errname(want));             \
	} while (0)

/* Like KT_ERRNO, but a mismatch is recorded with ktest_error() and the test goes on. */
#define KT_EXPECT_ERRNO(expr, want, what)                                         \
	do {                                                                      \
		int __err = (expr);                                               \
		if (__err != -(want))                                             \
			ktest_error("%s:%d: %s: expected -%s (%d), got %d (%s)",  \
				    __FILE__, __LINE__, what, ktest_errname(want), \
				    -(want), __err,                               \
				    __err ? ktest_strerror(__err) : "success");  \
		else                                                              \
			ktest_log("ok: %s -> -%s", what, ktest_errname(want));    \
	} while (0)

/* strerror() of a negative errno. */
const char *ktest_strerror(int neg_errno);
/* "EBUSY" for EBUSY; numeric for the rest. */
const char *ktest_errname(int errnum);
