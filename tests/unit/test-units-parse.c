// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>

#include "tests.h"
#include "units-parse.h"

static uint64_t dur(const char *s, int expect_r)
{
	uint64_t v = 12345;
	int r = parse_duration(s, &v);

	if (r != expect_r)
		fprintf(stderr, "parse_duration(\"%s\") = %d, expected %d\n", s, r, expect_r);
	CHECK(r == expect_r);
	return v;
}

static void test_durations(void)
{
	CHECK(dur("1s", 0) == 1000000);
	CHECK(dur("250ms", 0) == 250000);
	CHECK(dur("1min 30s", 0) == 90000000);
	CHECK(dur("1min30s", 0) == 90000000);
	CHECK(dur("2", 0) == 2000000);              /* bare number: seconds, like systemd */
	CHECK(dur("1.5s", 0) == 1500000);
	CHECK(dur("0.5ms", 0) == 500);
	CHECK(dur("100us", 0) == 100);
	CHECK(dur("2h", 0) == 7200000000ULL);
	CHECK(dur("1d", 0) == 86400000000ULL);
	CHECK(dur(" 5 sec", 0) == 5000000);
	CHECK(dur("0", 0) == 0);
	CHECK(dur("infinity", 0) == USEC_INFINITY);
	dur("", -EINVAL);
	dur("s", -EINVAL);
	dur("1x", -EINVAL);
	dur("-1s", -EINVAL);
	dur("1s 2", -EINVAL);                       /* a bare number only alone */
	dur("1.s", -EINVAL);
	dur("99999999999999999999s", -ERANGE);
	dur("999999999999999d", -ERANGE);
}

static void test_sizes(void)
{
	uint64_t v;

	CHECK(parse_size("64M", &v) == 0 && v == 64ULL << 20);
	CHECK(parse_size("1G", &v) == 0 && v == 1ULL << 30);
	CHECK(parse_size("1.5G", &v) == 0 && v == 3ULL << 29);
	CHECK(parse_size("512K", &v) == 0 && v == 512ULL << 10);
	CHECK(parse_size("2GiB", &v) == 0 && v == 2ULL << 30);
	CHECK(parse_size("4096", &v) == 0 && v == 4096);
	CHECK(parse_size("infinity", &v) == 0 && v == SIZE_INFINITY);
	CHECK(parse_size("1.5", &v) == -EINVAL);
	CHECK(parse_size("12Q", &v) == -EINVAL);
	CHECK(parse_size("M", &v) == -EINVAL);
	CHECK(parse_size("", &v) == -EINVAL);
	CHECK(parse_size("99999999999T", &v) == -ERANGE);
}

static void test_counts_ints_bools(void)
{
	uint64_t v;
	long l;
	bool b;

	CHECK(parse_count("2000", &v) == 0 && v == 2000);
	CHECK(parse_count("20k", &v) == 0 && v == 20000);
	CHECK(parse_count("1.5k", &v) == 0 && v == 1500);
	CHECK(parse_count("2M", &v) == 0 && v == 2000000);
	CHECK(parse_count("1.5", &v) == -EINVAL);
	CHECK(parse_count("x", &v) == -EINVAL);
	CHECK(parse_count("10 apples", &v) == -EINVAL);

	CHECK(parse_int_range("50", 0, 1000, &l) == 0 && l == 50);
	CHECK(parse_int_range("0", 0, 1000, &l) == 0 && l == 0);
	CHECK(parse_int_range("1000", 0, 1000, &l) == 0 && l == 1000);
	CHECK(parse_int_range("1001", 0, 1000, &l) == -ERANGE);
	CHECK(parse_int_range("-1", 0, 1000, &l) == -ERANGE);
	CHECK(parse_int_range("-5", -10, 10, &l) == 0 && l == -5);
	CHECK(parse_int_range("5x", 0, 1000, &l) == -EINVAL);
	CHECK(parse_int_range("", 0, 1000, &l) == -EINVAL);
	CHECK(parse_int_range("99999999999999999999999", 0, 1000, &l) == -ERANGE);

	CHECK(parse_bool("yes", &b) == 0 && b);
	CHECK(parse_bool("off", &b) == 0 && !b);
	CHECK(parse_bool("True", &b) == 0 && b);
	CHECK(parse_bool("maybe", &b) == -EINVAL);
}

static void test_format(void)
{
	char buf[64];

	CHECK_STREQ(format_duration(buf, sizeof(buf), 90000000), "1min 30s");
	CHECK_STREQ(format_duration(buf, sizeof(buf), 250000), "250ms");
	CHECK_STREQ(format_duration(buf, sizeof(buf), 0), "0");
	CHECK_STREQ(format_duration(buf, sizeof(buf), USEC_INFINITY), "infinity");
	CHECK_STREQ(format_size(buf, sizeof(buf), 64ULL << 20), "64M");
	CHECK_STREQ(format_size(buf, sizeof(buf), 3ULL << 29), "1.5G");
	CHECK_STREQ(format_size(buf, sizeof(buf), 1000), "1000B");
	CHECK_STREQ(format_size(buf, sizeof(buf), SIZE_INFINITY), "infinity");
}

int main(void)
{
	test_durations();
	test_sizes();
	test_counts_ints_bools();
	test_format();
	return test_summary("test-units-parse");
}
