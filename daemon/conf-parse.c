// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "conf-parse.h"
#include "units-parse.h"
#include "util.h"

enum file_kind {
	FILE_SLICE = 1 << 0,
	FILE_MAIN = 1 << 1,
};

struct parse_state;
typedef int (*key_parser)(struct parse_state *st, const char *value, void *field, char *err, size_t errlen);

struct key_def {
	const char *section;
	const char *key;
	unsigned files; /* enum file_kind */
	key_parser parse;
	size_t offset;  /* into struct slice_settings, struct slice_conf or struct daemon_conf */
	unsigned target;
};

enum { IN_SETTINGS, IN_SLICE, IN_DAEMON };

struct parse_state {
	const char *path;
	enum file_kind kind;
	FILE *f;
	unsigned line;
	unsigned slice_section_line; /* line of the [Slice] header, 0 if none */
	bool in_broken_section;      /* after a malformed [header]: its keys are not reported again */
	unsigned seen_line[32];      /* per key_def: line where it was set */
	struct slice_settings *settings;
	struct slice_conf *slice;
	struct daemon_conf *daemon;
	struct diag_list *d;
	unsigned errors;
};

static int parse_name(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	char **p = field;

	if (strlen(v) > SLICE_NAME_MAX || !slice_name_valid(v)) {
		snprintf(err, len, "'%s' is not a valid slice unit name (expected e.g. database.slice; "
			 "the root slice -.slice cannot be managed)", v);
		return -EINVAL;
	}
	free(*p);
	*p = strdup(v);
	return *p ? 0 : -ENOMEM;
}

static int parse_priority(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	int r = parse_int_range(v, PRIORITY_MIN, PRIORITY_MAX, field);

	if (r < 0)
		snprintf(err, len, "'%s' is not a priority: expected an integer from %d to %d "
			 "(higher wins)", v, PRIORITY_MIN, PRIORITY_MAX);
	return r;
}

static int parse_rate(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_count(v, p);

	if (r == 0 && (*p == 0 || *p > UINT64_C(1000000000)))
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a page-fault rate: expected faults per second from 1 "
			 "to 1G, e.g. 2000 or 20k", v);
	return r;
}

static int parse_cpu_usage(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	size_t n = strlen(v);
	char num[32];
	int r = -EINVAL;

	if (streq(v, "off")) {
		*p = 0;
		return 0;
	}
	if (streq(v, "any")) {
		*p = CPU_USAGE_ANY;
		return 0;
	}
	if (n >= 2 && n < sizeof(num) && v[n - 1] == '%') {
		memcpy(num, v, n - 1);
		num[n - 1] = '\0';
		r = parse_count(num, p);
		if (r == 0 && (*p == 0 || *p > 100000))
			r = -ERANGE;
	}
	if (r < 0)
		snprintf(err, len, "'%s' is not a CPU usage: expected any, a percentage of one CPU from 1%% "
			 "to 100000%%, e.g. 50%%, or off", v);
	return r;
}

/* A duration within [min, max] (max = USEC_INFINITY allows "infinity"); *what names the key's
 * meaning in the message, *expect the accepted range. */
static int duration_in(const char *v, void *field, uint64_t min, uint64_t max, uint64_t multiple_of,
		       const char *what, const char *expect, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_duration(v, p);

	if (r == 0 && (*p < min || (*p > max) || (multiple_of && *p != USEC_INFINITY && *p % multiple_of)))
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not %s: expected %s", v, what, expect);
	return r;
}

static int parse_window(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	return duration_in(v, field, 10 * USEC_PER_MSEC, 3600 * USEC_PER_SEC, 0, "a window",
			   "a duration from 10ms to 1h, e.g. 1s", err, len);
}

static int parse_hold(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	if (streq(v, "auto")) {
		*(uint64_t *)field = HOLD_AUTO;
		return 0;
	}
	return duration_in(v, field, 0, 3600 * USEC_PER_SEC, 0, "a hold time",
			   "auto (learned from the slice's quiet spells) or a duration from 0 to 1h, e.g. 2s",
			   err, len);
}

static int parse_max_hold(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	return duration_in(v, field, USEC_PER_SEC, 3600 * USEC_PER_SEC, 0, "a hold bound",
			   "a duration from 1s to 1h, e.g. 5min", err, len);
}

static int parse_protect_size(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	int r = protect_size_from_string(v, field);

	if (r < 0)
		snprintf(err, len, "'%s' is not a protection size: expected footprint (what the slice has "
			 "been using) or all", v);
	return r;
}

static int parse_wake_reserve(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_size(v, p);

	if (r == 0 && *p == SIZE_INFINITY)
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a reserve: expected a size, e.g. 0, 64M or 1G", v);
	return r;
}

static int parse_throttle_when(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	int r = throttle_when_from_string(v, field);

	if (r < 0)
		snprintf(err, len, "'%s' is not a throttle condition: expected pressure (a higher slice "
			 "under pressure that background reclaim did not relieve) or active", v);
	return r;
}

static int parse_delay(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	return duration_in(v, field, 0, 2 * USEC_PER_SEC, USEC_PER_MSEC, "a throttle delay",
			   "whole milliseconds from 0 (never throttle) to 2s, e.g. 100ms", err, len);
}

static int parse_max_continuous(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_duration(v, p);

	/* the BPF side keeps nanoseconds: a finite limit must stay far from 2^64 ns */
	if (r == 0 && *p != USEC_INFINITY && (*p < USEC_PER_SEC || *p > MAX_CONTINUOUS_USEC))
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a time limit: expected a duration from 1s to 365d "
			 "(e.g. 5min) or infinity", v);
	return r;
}

static int parse_interval(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	return duration_in(v, field, 100 * USEC_PER_MSEC, 60 * USEC_PER_SEC, 0, "an update interval",
			   "a duration from 100ms to 1min", err, len);
}

static int parse_max_cgroups(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_count(v, p);

	if (r == 0 && (*p < MAX_CGROUPS_MIN || *p > MAX_CGROUPS_MAX))
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a number of cgroups: expected a count from %d to %" PRIu64
			 ", e.g. 65536 or 200k", v, MAX_CGROUPS_MIN, MAX_CGROUPS_MAX);
	return r;
}

static int parse_protect(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	int r = protect_mode_from_string(v, field);

	if (r < 0)
		snprintf(err, len, "'%s' is not a protection mode: expected min, low or none", v);
	return r;
}

static int parse_max_usage(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_size(v, p);

	if (r == 0 && *p == 0)
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a size: expected e.g. 512M, 4G or infinity", v);
	return r;
}

static int parse_headroom(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_size(v, p);

	if (r == 0 && (*p == 0 || *p == SIZE_INFINITY))
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a headroom: expected a size of free memory to keep, e.g. 256M or 1G", v);
	return r;
}

static int parse_reclaim_rate(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_size(v, p);

	if (r == 0 && (*p == 0 || (*p != SIZE_INFINITY && *p > RECLAIM_RATE_MAX)))
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a reclaim rate: expected a size per second from 1 to 64G, "
			 "e.g. 64M, or infinity", v);
	return r;
}

static int parse_reclaim_path(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	int r = reclaim_path_from_string(v, field);

	if (r < 0)
		snprintf(err, len, "'%s' is not a reclaim path: expected auto, kernel or memory.reclaim", v);
	return r;
}

static int parse_numa_balancing(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	int r = numa_balancing_from_string(v, field);

	if (r < 0)
		snprintf(err, len, "'%s' is not a NUMA balancing choice: expected yes, no or default "
			 "(as kernel.numa_balancing)", v);
	return r;
}

static int parse_numa_scan_period(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	return duration_in(v, field, NUMA_SCAN_PERIOD_MIN_USEC, NUMA_SCAN_PERIOD_MAX_USEC, USEC_PER_MSEC,
			   "a NUMA scan period", "whole milliseconds from 100ms to 10min, e.g. 1s", err, len);
}

static int parse_numa_scan_size(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	uint64_t *p = field;
	int r = parse_size(v, p);

	if (r == 0 && (*p < NUMA_SCAN_SIZE_MIN || *p > NUMA_SCAN_SIZE_MAX || *p % NUMA_SCAN_SIZE_MIN))
		r = -ERANGE;
	if (r < 0)
		snprintf(err, len, "'%s' is not a NUMA scan size: expected whole MiB from 1M to 2560M, e.g. 256M", v);
	return r;
}

static int parse_numa_hot_threshold(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	return duration_in(v, field, NUMA_HOT_THRESHOLD_MIN_USEC, NUMA_HOT_THRESHOLD_MAX_USEC, USEC_PER_MSEC,
			   "a hot-page threshold", "whole milliseconds from 1ms to 60s, e.g. 1s", err, len);
}

static int parse_yes_no(struct parse_state *st, const char *v, void *field, char *err, size_t len)
{
	int r = parse_bool(v, field);

	if (r < 0)
		snprintf(err, len, "'%s' is not a boolean: expected yes or no", v);
	return r;
}

#define SETTING(sec, k, fn, member) \
	{ sec, k, FILE_SLICE | FILE_MAIN, fn, offsetof(struct slice_settings, member), IN_SETTINGS }

static const struct key_def keys[] = {
	{ "Slice", "Name", FILE_SLICE, parse_name, offsetof(struct slice_conf, name), IN_SLICE },
	{ "Slice", "Priority", FILE_SLICE, parse_priority, offsetof(struct slice_conf, priority), IN_SLICE },
	SETTING("Activity", "PageFaultRate", parse_rate, fault_rate),
	SETTING("Activity", "Window", parse_window, window_usec),
	SETTING("Activity", "Hold", parse_hold, hold_usec),
	SETTING("Activity", "MaxHold", parse_max_hold, max_hold_usec),
	SETTING("Activity", "CPUUsage", parse_cpu_usage, cpu_usage_percent),
	SETTING("Protect", "Mode", parse_protect, protect),
	SETTING("Protect", "Size", parse_protect_size, protect_size),
	SETTING("Protect", "MaxUsage", parse_max_usage, protect_max_usage),
	SETTING("Protect", "WakeReserve", parse_wake_reserve, protect_wake_reserve),
	SETTING("Throttle", "Delay", parse_delay, throttle_delay_usec),
	SETTING("Throttle", "When", parse_throttle_when, throttle_when),
	SETTING("Throttle", "MaxContinuous", parse_max_continuous, throttle_max_usec),
	SETTING("Reclaim", "Background", parse_yes_no, reclaim_background),
	SETTING("Reclaim", "Headroom", parse_headroom, reclaim_headroom),
	SETTING("Reclaim", "Rate", parse_reclaim_rate, reclaim_rate),
	SETTING("NUMA", "Balancing", parse_numa_balancing, numa),
	SETTING("NUMA", "ScanPeriodMin", parse_numa_scan_period, numa_scan_period_min_usec),
	SETTING("NUMA", "ScanPeriodMax", parse_numa_scan_period, numa_scan_period_max_usec),
	SETTING("NUMA", "ScanSize", parse_numa_scan_size, numa_scan_size),
	SETTING("NUMA", "HotThreshold", parse_numa_hot_threshold, numa_hot_threshold_usec),
	{ "Daemon", "DryRun", FILE_MAIN, parse_yes_no, offsetof(struct daemon_conf, dry_run), IN_DAEMON },
	{ "Daemon", "UpdateInterval", FILE_MAIN, parse_interval,
	  offsetof(struct daemon_conf, update_interval_usec), IN_DAEMON },
	{ "Daemon", "MaxCgroups", FILE_MAIN, parse_max_cgroups, offsetof(struct daemon_conf, max_cgroups), IN_DAEMON },
	{ "Daemon", "ReclaimPath", FILE_MAIN, parse_reclaim_path, offsetof(struct daemon_conf, reclaim_path), IN_DAEMON },
};

_Static_assert(sizeof(keys) / sizeof(keys[0]) <= sizeof(((struct parse_state *)0)->seen_line) / sizeof(unsigned),
	       "parse_state.seen_line has a slot for every key");

enum {
	KEY_NAME = 0,
	KEY_PRIORITY = 1,
	KEY_RATE = 2,
	KEY_WINDOW = 3,
	KEY_BACKGROUND = 14,
	KEY_NUMA_BALANCING = 17,
	KEY_NUMA_TUNING = 18, /* the NUMA_TUNING_KEYS keys of enum numa_tuning_key, in its order */
};

static bool section_known(const char *section, enum file_kind kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (streq(keys[i].section, section) && (keys[i].files & kind))
			return true;
	return false;
}

static bool section_exists(const char *section)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (streq(keys[i].section, section))
			return true;
	return false;
}

static void error_at(struct parse_state *st, const char *fmt, const char *a, const char *b)
{
	diag_add(st->d, st->path, st->line, fmt, a, b);
	st->errors++;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse_state *st = user;
	char err[256];
	void *base;

	if (st->in_broken_section)
		return 1;
	if (!section[0]) {
		error_at(st, "%s= appears before any section header%s", name, "");
		return 1;
	}
	if (!section_known(section, st->kind)) {
		if (section_exists(section))
			error_at(st, "section [%s] does not belong in %s", section,
				 st->kind == FILE_MAIN ? "memcgd.conf (it goes in memcgd.d/*.conf)"
						       : "a slice file (it goes in memcgd.conf)");
		else
			error_at(st, "unknown section [%s]%s", section, "");
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct key_def *k = &keys[i];

		if (!streq(k->section, section) || !streq(k->key, name) || !(k->files & st->kind))
			continue;
		if (st->seen_line[i]) {
			char first[32];

			snprintf(first, sizeof(first), "%u", st->seen_line[i]);
			error_at(st, "%s= is set twice in this file (first at line %s)", name, first);
			return 1;
		}
		st->seen_line[i] = st->line;
		if (!value[0]) {
			error_at(st, "%s= has no value%s", name, "");
			return 1;
		}
		base = k->target == IN_SETTINGS ? (void *)st->settings
		     : k->target == IN_SLICE ? (void *)st->slice : (void *)st->daemon;
		err[0] = '\0';
		if (k->parse(st, value, (char *)base + k->offset, err, sizeof(err)) < 0)
			error_at(st, "%s=%s", name, err[0] ? err : "invalid value");
		return 1;
	}
	error_at(st, "unknown key %s= in section [%s]", name, section);
	return 1;
}

/* Reads one line for inih, keeping the line number for diagnostics. Lines inih would
 * misread (too long, neither section, comment nor Key=Value) are reported here, with their
 * number, and handed to inih as comments. */
static char *reader(char *buf, int size, void *stream)
{
	struct parse_state *st = stream;
	const char *p;
	size_t n;

	if (!fgets(buf, size, st->f))
		return NULL;
	st->line++;
	n = strlen(buf);
	if (n > 0 && buf[n - 1] != '\n' && !feof(st->f)) {
		int c;

		while ((c = fgetc(st->f)) != EOF && c != '\n')
			;
		diag_add(st->d, st->path, st->line, "line too long (at most %d characters)", size - 3);
		st->errors++;
		goto comment;
	}
	for (p = buf; *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'; p++)
		;
	if (!*p || *p == '#' || *p == ';')
		return buf;
	if (*p == '[') {
		if (!strchr(p, ']')) {
			diag_add(st->d, st->path, st->line, "syntax error: section header without ']'");
			st->errors++;
			st->in_broken_section = true;
			goto comment;
		}
		st->in_broken_section = false;
		if (strncmp(p, "[Slice]", 7) == 0 && !st->slice_section_line)
			st->slice_section_line = st->line;
		return buf;
	}
	if (!strchr(p, '=')) {
		diag_add(st->d, st->path, st->line, "syntax error: expected [Section], Key=Value or a comment");
		st->errors++;
		goto comment;
	}
	return buf;

comment:
	buf[0] = '#';
	buf[1] = '\0';
	return buf;
}

static int run_parser(struct parse_state *st)
{
	int r;

	ini_allow_multiline = false; /* systemd has no indented continuation lines */
	r = ini_parse_stream(reader, st, handler, st);
	if (r < 0) {
		diag_add(st->d, st->path, 0, "cannot parse: out of memory");
		return -ENOMEM;
	}
	if (r > 0 && st->errors == 0) {
		/* inih rejected a line the reader let through */
		diag_add(st->d, st->path, (unsigned)r, "syntax error");
		st->errors++;
	}
	return 0;
}

/* Where this file set its [NUMA] keys. */
static void numa_lines_of(const struct parse_state *st, struct numa_lines *ret)
{
	ret->balancing = st->seen_line[KEY_NUMA_BALANCING];
	for (unsigned k = 0; k < NUMA_TUNING_KEYS; k++)
		ret->tuning[k] = st->seen_line[KEY_NUMA_TUNING + k];
}

/* ScanPeriodMin= above ScanPeriodMax= in the settings s as this file leaves them (its own keys over
 * memcgd.conf's): an error at the line of the key this file set. When it set neither, memcgd.conf
 * set both and was reported itself. */
static void check_numa_periods(struct parse_state *st, const struct slice_settings *s, const struct numa_lines *l)
{
	unsigned min_line = l->tuning[NUMA_SCAN_PERIOD_MIN], max_line = l->tuning[NUMA_SCAN_PERIOD_MAX];
	char min[64], max[64];

	if (!s->numa_scan_period_min_usec || !s->numa_scan_period_max_usec ||
	    s->numa_scan_period_min_usec <= s->numa_scan_period_max_usec || (!min_line && !max_line))
		return;
	format_duration(min, sizeof(min), s->numa_scan_period_min_usec);
	format_duration(max, sizeof(max), s->numa_scan_period_max_usec);
	if (min_line && max_line)
		diag_add(st->d, st->path, min_line, "ScanPeriodMin=%s is above ScanPeriodMax=%s (line %u): the "
			 "shortest time between two NUMA scans cannot be longer than the longest", min, max, max_line);
	else if (min_line)
		diag_add(st->d, st->path, min_line, "ScanPeriodMin=%s is above ScanPeriodMax=%s of memcgd.conf: the "
			 "shortest time between two NUMA scans cannot be longer than the longest", min, max);
	else
		diag_add(st->d, st->path, max_line, "ScanPeriodMax=%s is below ScanPeriodMin=%s of memcgd.conf: the "
			 "longest time between two NUMA scans cannot be shorter than the shortest", max, min);
	st->errors++;
}

int conf_parse_slice_stream(FILE *f, const char *path, const struct slice_settings *defaults,
			    struct slice_conf *ret, struct diag_list *d)
{
	struct parse_state st = {
		.path = path,
		.kind = FILE_SLICE,
		.f = f,
		.settings = &ret->settings,
		.slice = ret,
		.d = d,
	};
	unsigned where;
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->priority = -1;
	ret->settings = *defaults;
	ret->file = strdup(path);
	if (!ret->file)
		return -ENOMEM;

	r = run_parser(&st);
	if (r < 0)
		return r;

	ret->name_line = st.seen_line[KEY_NAME];
	ret->priority_line = st.seen_line[KEY_PRIORITY];
	ret->rate_line = st.seen_line[KEY_RATE];
	ret->background_line = st.seen_line[KEY_BACKGROUND];
	ret->window_line = st.seen_line[KEY_WINDOW];
	numa_lines_of(&st, &ret->numa_lines);
	where = st.slice_section_line ? st.slice_section_line : 1;
	if (!st.seen_line[KEY_NAME]) {
		diag_add(d, path, where, "missing Name= in section [Slice] (the slice unit this file "
			 "configures, e.g. Name=database.slice)");
		st.errors++;
	}
	if (!st.seen_line[KEY_PRIORITY]) {
		diag_add(d, path, where, "missing Priority= in section [Slice] (%d to %d, higher wins)",
			 PRIORITY_MIN, PRIORITY_MAX);
		st.errors++;
	}
	/* the default PageFaultRate= (1: any fault) suits any Window= */
	if ((st.seen_line[KEY_RATE] || defaults->fault_rate > 1) && ret->settings.fault_rate &&
	    ret->settings.window_usec && ret->settings.fault_rate * ret->settings.window_usec < USEC_PER_SEC) {
		where = ret->rate_line ? ret->rate_line : ret->window_line ? ret->window_line : where;
		diag_add(d, path, where, "PageFaultRate= times Window= is less than one fault per window; "
			 "raise one of them");
		st.errors++;
	}
	check_numa_periods(&st, &ret->settings, &ret->numa_lines);
	return st.errors ? -EINVAL : 0;
}

int conf_file_check_owner(const char *path, const struct stat *st, uid_t trusted, struct diag_list *d)
{
	if (st->st_uid != 0 && st->st_uid != trusted) {
		diag_add(d, path, 0, "refused: owned by uid %u, not by root; whoever owns a policy file "
			 "controls memory priorities (chown root %s)", (unsigned)st->st_uid, path);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		diag_add(d, path, 0, "refused: %s-writable (mode %04o); anyone who can write a policy "
			 "file controls memory priorities (chmod go-w %s)",
			 st->st_mode & S_IWOTH ? "world" : "group", (unsigned)(st->st_mode & 07777), path);
		return -EPERM;
	}
	return 0;
}

/* Like sshd's StrictModes: a file that someone other than root could have written is refused,
 * and so is a file in a directory where someone else could replace it. */
static int check_trusted(FILE *f, const char *path, struct diag_list *d)
{
	_cleanup_free_ char *dir = strdup(path);
	struct stat st, dst;
	char *slash;
	int r;

	if (!dir)
		return -ENOMEM;
	if (fstat(fileno(f), &st) < 0) {
		r = -errno;
		diag_add(d, path, 0, "cannot stat: %s", strerror(-r));
		return r;
	}
	r = conf_file_check_owner(path, &st, geteuid(), d);
	if (r < 0)
		return r;
	slash = strrchr(dir, '/');
	if (!slash)
		return 0; /* a relative name in the working directory: memcgctl check ./x.conf */
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &dst) < 0)
		return 0;
	if ((dst.st_uid != 0 && dst.st_uid != geteuid()) ||
	    ((dst.st_mode & (S_IWGRP | S_IWOTH)) && !(dst.st_mode & S_ISVTX))) {
		diag_add(d, path, 0, "refused: its directory %s can be written by %s (uid %u, mode %04o), "
			 "so the file could be replaced", dir,
			 dst.st_uid != 0 && dst.st_uid != geteuid() ? "its owner, who is not root" : "other users",
			 (unsigned)dst.st_uid, (unsigned)(dst.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int conf_parse_slice_file(const char *path, const struct slice_settings *defaults,
			  struct slice_conf *ret, struct diag_list *d)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	int r;

	if (!f) {
		r = -errno;
		memset(ret, 0, sizeof(*ret));
		diag_add(d, path, 0, "cannot open: %s", strerror(-r));
		return r;
	}
	r = check_trusted(f, path, d);
	if (r < 0) {
		memset(ret, 0, sizeof(*ret));
		return r;
	}
	return conf_parse_slice_stream(f, path, defaults, ret, d);
}

int conf_parse_main_stream(FILE *f, const char *path, struct daemon_conf *ret, struct diag_list *d)
{
	struct parse_state st = {
		.path = path,
		.kind = FILE_MAIN,
		.f = f,
		.settings = &ret->defaults,
		.daemon = ret,
		.d = d,
	};
	int r;

	free(ret->file);
	ret->file = strdup(path);
	if (!ret->file)
		return -ENOMEM;
	r = run_parser(&st);
	if (r < 0)
		return r;
	if (st.seen_line[KEY_RATE] && ret->defaults.fault_rate * ret->defaults.window_usec < USEC_PER_SEC) {
		diag_add(d, path, st.seen_line[KEY_RATE] ? st.seen_line[KEY_RATE] : st.seen_line[KEY_WINDOW],
			 "PageFaultRate= times Window= is less than one fault per window; raise one of them");
		st.errors++;
	}
	numa_lines_of(&st, &ret->numa_lines);
	check_numa_periods(&st, &ret->defaults, &ret->numa_lines);
	return st.errors ? -EINVAL : 0;
}

int conf_parse_main_file(const char *path, struct daemon_conf *ret, struct diag_list *d)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	int r;

	if (!f) {
		r = -errno;
		diag_add(d, path, 0, "cannot open: %s", strerror(-r));
		free(ret->file);
		ret->file = strdup(path);
		return r;
	}
	r = check_trusted(f, path, d);
	if (r < 0) {
		free(ret->file);
		ret->file = strdup(path);
		return r;
	}
	return conf_parse_main_stream(f, path, ret, d);
}
