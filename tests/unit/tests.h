/* SPDX-License-Identifier: GPL-2.0-only */
/* Minimal assertions for the host unit tests: every failed check is printed, the test exits 1. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;
static int test_checks;

#define CHECK(expr)                                                                   \
	do {                                                                          \
		test_checks++;                                                        \
		if (!(expr)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #expr); \
			test_failures++;                                              \
		}                                                                     \
	} while (0)

#define CHECK_STREQ(a, b)                                                             \
	do {                                                                          \
		const char *_a = (a), *_b = (b);                                      \
		test_checks++;                                                        \
		if (!_a || !_b || strcmp(_a, _b) != 0) {                              \
			fprintf(stderr, "%s:%d: check failed: %s == %s\n  got:      \"%s\"\n  expected: \"%s\"\n", \
				__FILE__, __LINE__, #a, #b, _a ? _a : "(null)", _b ? _b : "(null)"); \
			test_failures++;                                              \
		}                                                                     \
	} while (0)

#define CHECK_CONTAINS(haystack, needle)                                              \
	do {                                                                          \
		const char *_h = (haystack), *_n = (needle);                          \
		test_checks++;                                                        \
		if (!_h || !strstr(_h, _n)) {                                         \
			fprintf(stderr, "%s:%d: check failed: \"%s\" contains \"%s\"\n", \
				__FILE__, __LINE__, _h ? _h : "(null)", _n);          \
			test_failures++;                                              \
		}                                                                     \
	} while (0)

static inline int test_summary(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
	return test_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
