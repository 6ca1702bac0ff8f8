// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "units-parse.h"

struct unit_suffix {
	const char *name;
	uint64_t factor;
};

/* Longest names first where one is a prefix of another ("ms" before "m", "min" before "m"). */
static const struct unit_suffix duration_units[] = {
	{ "usec", 1 },
	{ "us", 1 },
	{ "msec", USEC_PER_MSEC },
	{ "ms", USEC_PER_MSEC },
	{ "seconds", USEC_PER_SEC },
	{ "second", USEC_PER_SEC },
	{ "sec", USEC_PER_SEC },
	{ "s", USEC_PER_SEC },
	{ "minutes", 60 * USEC_PER_SEC },
	{ "minute", 60 * USEC_PER_SEC },
	{ "min", 60 * USEC_PER_SEC },
	{ "m", 60 * USEC_PER_SEC },
	{ "hours", 3600 * USEC_PER_SEC },
	{ "hour", 3600 * USEC_PER_SEC },
	{ "hr", 3600 * USEC_PER_SEC },
	{ "h", 3600 * USEC_PER_SEC },
	{ "days", 86400 * USEC_PER_SEC },
	{ "day", 86400 * USEC_PER_SEC },
	{ "d", 86400 * USEC_PER_SEC },
};

static const struct unit_suffix size_units[] = {
	{ "KiB", UINT64_C(1) << 10 }, { "K", UINT64_C(1) << 10 },
	{ "MiB", UINT64_C(1) << 20 }, { "M", UINT64_C(1) << 20 },
	{ "GiB", UINT64_C(1) << 30 }, { "G", UINT64_C(1) << 30 },
	{ "TiB", UINT64_C(1) << 40 }, { "T", UINT64_C(1) << 40 },
	{ "B", 1 },
};

static const struct unit_suffix count_units[] = {
	{ "k", 1000 }, { "K", 1000 }, { "M", 1000000 }, { "G", 1000000000 },
};

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Parses an unsigned decimal number with an optional fraction ("1.5"); returns the
 * integer part and the fraction as numerator/denominator. */
static int parse_decimal(const char **p, uint64_t *ret_int, uint64_t *ret_frac, uint64_t *ret_den)
{
	const char *s = *p;
	uint64_t v = 0, frac = 0, den = 1;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		for (; isdigit((unsigned char)*s); s++) {
			if (den >= UINT64_C(1000000000))
				continue; /* ignore digits beyond nano precision */
			frac = frac * 10 + (uint64_t)(*s - '0');
			den *= 10;
		}
	}
	*p = s;
	*ret_int = v;
	*ret_frac = frac;
	*ret_den = den;
	return 0;
}

static const struct unit_suffix *match_suffix(const char **p, const struct unit_suffix *table,
					      size_t n, bool ignore_case)
{
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(table[i].name);
		int c = ignore_case ? strncasecmp(*p, table[i].name, l) : strncmp(*p, table[i].name, l);

		if (c == 0 && !isalpha((unsigned char)(*p)[l])) {
			*p += l;
			return &table[i];
		}
	}
	return NULL;
}

/* acc += (v + frac/den) * factor, checking for overflow. frac < den <= 10^9. */
static int mul_add(uint64_t v, uint64_t frac, uint64_t den, uint64_t factor, uint64_t *acc)
{
	uint64_t whole, part;

	if (factor && v > UINT64_MAX / factor)
		return -ERANGE;
	whole = v * factor;
	/* both terms are < factor and < 10^18: no overflow */
	part = frac * (factor / den) + (frac * (factor % den)) / den;
	if (whole > UINT64_MAX - part || *acc > UINT64_MAX - (whole + part))
		return -ERANGE;
	*acc += whole + part;
	return 0;
}

int parse_duration(const char *s, uint64_t *ret_usec)
{
	uint64_t total = 0;
	const char *p = skip_space(s);
	bool any = false;

	if (strcmp(p, "infinity") == 0) {
		*ret_usec = USEC_INFINITY;
		return 0;
	}
	while (*p) {
		uint64_t v, frac, den;
		const struct unit_suffix *u;
		int r;

		r = parse_decimal(&p, &v, &frac, &den);
		if (r < 0)
			return r;
		p = skip_space(p);
		u = match_suffix(&p, duration_units, sizeof(duration_units) / sizeof(duration_units[0]), false);
		if (!u) {
			if (*p || any) /* a bare number only as the whole value */
				return -EINVAL;
			r = mul_add(v, frac, den, USEC_PER_SEC, &total);
		} else {
			r = mul_add(v, frac, den, u->factor, &total);
		}
		if (r < 0)
			return r;
		any = true;
		p = skip_space(p);
	}
	if (!any)
		return -EINVAL;
	if (total == USEC_INFINITY)
		return -ERANGE;
	*ret_usec = total;
	return 0;
}

int parse_size(const char *s, uint64_t *ret_bytes)
{
	const char *p = skip_space(s);
	const struct unit_suffix *u;
	uint64_t v, frac, den, total = 0;
	int r;

	if (strcmp(p, "infinity") == 0) {
		*ret_bytes = SIZE_INFINITY;
		return 0;
	}
	r = parse_decimal(&p, &v, &frac, &den);
	if (r < 0)
		return r;
	p = skip_space(p);
	u = match_suffix(&p, size_units, sizeof(size_units) / sizeof(size_units[0]), false);
	if (!u && frac)
		return -EINVAL; /* "1.5" bytes */
	r = mul_add(v, frac, den, u ? u->factor : 1, &total);
	if (r < 0)
		return r;
	if (*skip_space(p))
		return -EINVAL;
	if (total == SIZE_INFINITY)
		return -ERANGE;
	*ret_bytes = total;
	return 0;
}

int parse_count(const char *s, uint64_t *ret)
{
	const char *p = skip_space(s);
	const struct unit_suffix *u;
	uint64_t v, frac, den, total = 0;
	int r;

	r = parse_decimal(&p, &v, &frac, &den);
	if (r < 0)
		return r;
	u = match_suffix(&p, count_units, sizeof(count_units) / sizeof(count_units[0]), false);
	if (!u && frac)
		return -EINVAL;
	r = mul_add(v, frac, den, u ? u->factor : 1, &total);
	if (r < 0)
		return r;
	if (*skip_space(p))
		return -EINVAL;
	*ret = total;
	return 0;
}

int parse_int_range(const char *s, long min, long max, long *ret)
{
	const char *p = skip_space(s);
	bool neg = false;
	int64_t v = 0;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > INT64_C(100000000000000000))
			return -ERANGE;
		v = v * 10 + (*p - '0');
	}
	if (*skip_space(p))
		return -EINVAL;
	if (neg)
		v = -v;
	if (v < min || v > max)
		return -ERANGE;
	*ret = (long)v;
	return 0;
}

int parse_bool(const char *s, bool *ret)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*ret = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*ret = false;
			return 0;
		}
	}
	return -EINVAL;
}

char *format_duration(char *buf, size_t len, uint64_t usec)
{
	static const struct unit_suffix parts[] = {
		{ "d", 86400 * USEC_PER_SEC }, { "h", 3600 * USEC_PER_SEC }, { "min", 60 * USEC_PER_SEC },
		{ "s", USEC_PER_SEC }, { "ms", USEC_PER_MSEC }, { "us", 1 },
	};
	size_t off = 0;

	if (usec == USEC_INFINITY) {
		snprintf(buf, len, "infinity");
		return buf;
	}
	if (usec == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && usec; i++) {
		uint64_t n = usec / parts[i].factor;
		int w;

		if (!n)
			continue;
		usec -= n * parts[i].factor;
		w = snprintf(buf + off, len - off, "%s%" PRIu64 "%s", off ? " " : "", n, parts[i].name);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
	}
	return buf;
}

char *format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char suffix[] = "KMGT";
	uint64_t unit = 1;
	int i = -1;

	if (bytes == SIZE_INFINITY) {
		snprintf(buf, len, "infinity");
		return buf;
	}
	while (i < 3 && bytes / unit >= 1024) {
		unit *= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64 "B", bytes);
	else if (bytes % unit == 0)
		snprintf(buf, len, "%" PRIu64 "%c", bytes / unit, suffix[i]);
	else
		snprintf(buf, len, "%.1f%c", (double)bytes / (double)unit, suffix[i]);
	return buf;
}
