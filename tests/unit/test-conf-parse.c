// SPDX-License-Identifier: GPL-2.0-only
/* Parsing of one slice file / memcgd.conf: every key, every error class, file:line. */
#include <errno.h>

#include "conf-parse.h"
#include "policy.h"
#include "tests.h"
#include "units-parse.h"
#include "util.h"

struct result {
	int r;
	struct slice_conf slice;
	struct diag_list d;
	char all[4096]; /* every diagnostic, "file:line: message\n" */
};

static void collect(struct result *res)
{
	size_t off = 0;
	char buf[1024];

	res->all[0] = '\0';
	for (size_t i = 0; i < res->d.n; i++) {
		int w = snprintf(res->all + off, sizeof(res->all) - off, "%s\n",
				 diag_format(&res->d.items[i], buf, sizeof(buf)));
		if (w > 0 && (size_t)w < sizeof(res->all) - off)
			off += (size_t)w;
	}
}

/* A slice file with the defaults memcgd.conf left in *defaults. */
static void parse_slice_with(const char *text, const struct slice_settings *defaults, struct result *res)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	memset(res, 0, sizeof(*res));
	res->r = conf_parse_slice_stream(f, "/etc/memcgd.d/50-test.conf", defaults, &res->slice, &res->d);
	fclose(f);
	collect(res);
}

static void parse_slice(const char *text, struct result *res)
{
	struct slice_settings defaults;

	slice_settings_init(&defaults);
	parse_slice_with(text, &defaults, res);
}

static void done(struct result *res)
{
	slice_conf_done(&res->slice);
	diag_list_clear(&res->d);
}

static void test_every_key(void)
{
	struct result res;

	parse_slice("# database\n"
		    "[Slice]\n"
		    "Name=database.slice\n"
		    "Priority=50\n"
		    "\n"
		    "[Activity]\n"
		    "PageFaultRate=20k\n"
		    "Window=500ms\n"
		    "Hold=3s\n"
		    "CPUUsage=150%\n"
		    "[Protect]\n"
		    "Mode=min\n"
		    "MaxUsage=4G\n"
		    "[Throttle]\n"
		    "Delay=250ms\n"
		    "MaxContinuous=10min\n", &res);
	CHECK(res.r == 0);
	CHECK(res.d.n == 0);
	CHECK_STREQ(res.slice.name, "database.slice");
	CHECK(res.slice.priority == 50);
	CHECK(res.slice.name_line == 3);
	CHECK(res.slice.priority_line == 4);
	CHECK(res.slice.settings.fault_rate == 20000);
	CHECK(res.slice.settings.window_usec == 500000);
	CHECK(res.slice.settings.hold_usec == 3000000);
	CHECK(res.slice.settings.cpu_usage_percent == 150);
	CHECK(res.slice.settings.protect == PROTECT_MIN);
	CHECK(res.slice.settings.protect_max_usage == 4ULL << 30);
	CHECK(res.slice.settings.throttle_delay_usec == 250000);
	CHECK(res.slice.settings.throttle_max_usec == 600000000ULL);
	done(&res);
}

static void test_defaults(void)
{
	struct result res;
	struct slice_settings def;

	slice_settings_init(&def);
	parse_slice("[Slice]\nName=batch.slice\nPriority=0\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.fault_rate == def.fault_rate);
	CHECK(res.slice.settings.window_usec == USEC_PER_SEC);
	CHECK(res.slice.settings.protect == PROTECT_LOW);
	CHECK(res.slice.settings.protect_max_usage == MAX_USAGE_DEFAULT); /* the share of RAM, resolved by memcgd */
	CHECK(res.slice.settings.throttle_delay_usec == 100000);
	CHECK(res.slice.settings.throttle_max_usec == 300 * USEC_PER_SEC);
	/* the policy engine's defaults (memcgd.d(5)): busy at any fault or CPU time, learned hold,
	 * protection sized by the footprint, delays only under pressure */
	CHECK(res.slice.settings.fault_rate == 1);
	CHECK(res.slice.settings.cpu_usage_percent == CPU_USAGE_ANY);
	CHECK(res.slice.settings.hold_usec == HOLD_AUTO);
	CHECK(res.slice.settings.max_hold_usec == 300 * USEC_PER_SEC);
	CHECK(res.slice.settings.protect_size == PROTECT_SIZE_FOOTPRINT);
	CHECK(res.slice.settings.protect_wake_reserve == 0);
	CHECK(res.slice.settings.throttle_when == THROTTLE_WHEN_PRESSURE);
	done(&res);

	/* each new key, and the values that bring back memcgd 2's behaviour */
	parse_slice("[Slice]\nName=batch.slice\nPriority=0\n[Activity]\nHold=auto\nMaxHold=90s\nCPUUsage=any\n"
		    "Window=100ms\n[Protect]\nSize=all\nWakeReserve=64M\n[Throttle]\nWhen=active\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.hold_usec == HOLD_AUTO && res.slice.settings.max_hold_usec == 90 * USEC_PER_SEC);
	CHECK(res.slice.settings.cpu_usage_percent == CPU_USAGE_ANY);
	CHECK(res.slice.settings.protect_size == PROTECT_SIZE_ALL);
	CHECK(res.slice.settings.protect_wake_reserve == 64ULL << 20);
	CHECK(res.slice.settings.throttle_when == THROTTLE_WHEN_ACTIVE);
	/* Window= shorter than a second with the default PageFaultRate=1: any fault, no error */
	CHECK(res.slice.settings.window_usec == 100 * USEC_PER_MSEC && res.d.n == 0);
	done(&res);
	parse_slice("[Slice]\nName=batch.slice\nPriority=0\n[Activity]\nPageFaultRate=1\nWindow=100ms\n", &res);
	CHECK(res.r == -EINVAL); /* set explicitly, the product still counts */
	CHECK_CONTAINS(res.all, "less than one fault per window");
	done(&res);

	parse_slice("[Slice]\nName=batch.slice\nPriority=0\n[Protect]\nMaxUsage=infinity\nMode=none\n"
		    "[Throttle]\nDelay=0\nMaxContinuous=infinity\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.protect == PROTECT_NONE);
	CHECK(res.slice.settings.throttle_delay_usec == 0);
	CHECK(res.slice.settings.throttle_max_usec == USEC_INFINITY);
	done(&res);
}

/* One bad line in an otherwise valid file: exactly one diagnostic naming that line. */
static void expect_error(const char *section, const char *line, const char *message)
{
	char text[1024];
	struct result res;
	char where[64];

	snprintf(text, sizeof(text), "[Slice]\nName=web.slice\nPriority=10\n%s\n%s\n", section, line);
	parse_slice(text, &res);
	snprintf(where, sizeof(where), "/etc/memcgd.d/50-test.conf:5: ");
	if (res.r != -EINVAL || res.d.n != 1)
		fprintf(stderr, "for \"%s\" got:\n%s", line, res.all);
	CHECK(res.r == -EINVAL);
	CHECK(res.d.n == 1);
	CHECK_CONTAINS(res.all, where);
	CHECK_CONTAINS(res.all, message);
	done(&res);
}

static void test_bad_values(void)
{
	expect_error("[Activity]", "PageFaultRate=0", "PageFaultRate='0' is not a page-fault rate");
	expect_error("[Activity]", "PageFaultRate=fast", "is not a page-fault rate");
	expect_error("[Activity]", "PageFaultRate=2G", "is not a page-fault rate");
	expect_error("[Activity]", "Window=5ms", "Window='5ms' is not a window");
	expect_error("[Activity]", "Window=2h", "is not a window");
	expect_error("[Activity]", "Window=soon", "is not a window");
	expect_error("[Activity]", "Hold=2h", "Hold='2h' is not a hold time");
	expect_error("[Activity]", "Hold=-1s", "is not a hold time");
	expect_error("[Activity]", "CPUUsage=50", "CPUUsage='50' is not a CPU usage: expected any, a percentage of one CPU");
	expect_error("[Activity]", "Hold=learned", "Hold='learned' is not a hold time: expected auto");
	expect_error("[Activity]", "MaxHold=500ms", "MaxHold='500ms' is not a hold bound: expected a duration from 1s to 1h");
	expect_error("[Activity]", "MaxHold=auto", "MaxHold='auto' is not a hold bound");
	expect_error("[Protect]", "Size=half", "Size='half' is not a protection size: expected footprint");
	expect_error("[Protect]", "WakeReserve=infinity", "WakeReserve='infinity' is not a reserve");
	expect_error("[Protect]", "WakeReserve=lots", "WakeReserve='lots' is not a reserve");
	expect_error("[Throttle]", "When=always", "When='always' is not a throttle condition: expected pressure");
	expect_error("[Activity]", "CPUUsage=0%", "is not a CPU usage");
	expect_error("[Activity]", "CPUUsage=200000%", "is not a CPU usage");
	expect_error("[Activity]", "CPUUsage=%", "is not a CPU usage");
	expect_error("[Protect]", "Mode=max", "Mode='max' is not a protection mode");
	expect_error("[Protect]", "MaxUsage=0", "MaxUsage='0' is not a size");
	expect_error("[Protect]", "MaxUsage=lots", "is not a size");
	expect_error("[Throttle]", "Delay=3s", "Delay='3s' is not a throttle delay");
	expect_error("[Throttle]", "Delay=1500us", "whole milliseconds");
	expect_error("[Throttle]", "MaxContinuous=500ms", "MaxContinuous='500ms' is not a time limit");
	expect_error("[Throttle]", "MaxContinuous=", "MaxContinuous= has no value");
	/* issue 17: microseconds that overflow as nanoseconds (18446744073709552us used to become
	 * 384 ns, a guard that trips at once), and anything above the documented year */
	expect_error("[Throttle]", "MaxContinuous=18446744073709552us", "is not a time limit: expected a duration from 1s to 365d");
	expect_error("[Throttle]", "MaxContinuous=18446744073709551us", "is not a time limit");
	expect_error("[Throttle]", "MaxContinuous=213503d", "is not a time limit");
	expect_error("[Throttle]", "MaxContinuous=366d", "is not a time limit");
	expect_error("[Throttle]", "MaxContinuous=99999999999999999999us", "is not a time limit");
	expect_error("[Reclaim]", "Background=sometimes", "Background='sometimes' is not a boolean");
	expect_error("[Reclaim]", "Headroom=0", "Headroom='0' is not a headroom");
	expect_error("[Reclaim]", "Headroom=infinity", "is not a headroom");
	expect_error("[Reclaim]", "Headroom=some", "is not a headroom");
	expect_error("[Reclaim]", "Rate=0", "Rate='0' is not a reclaim rate: expected a size per second from 1 to 64G");
	expect_error("[Reclaim]", "Rate=65G", "is not a reclaim rate");
	expect_error("[Reclaim]", "ReclaimPath=kernel", "unknown key ReclaimPath= in section [Reclaim]");
	expect_error("[Daemon]", "ReclaimPath=kernel", "section [Daemon] does not belong in a slice file");
}

/* [Reclaim]: background reclaim, off unless Background=yes; compiled into the policy */
static void test_reclaim(void)
{
	struct result res;
	struct memcgd_policy p;

	parse_slice("[Slice]\nName=batch.slice\nPriority=1\n", &res);
	CHECK(res.r == 0);
	CHECK(!res.slice.settings.reclaim_background);
	CHECK(res.slice.settings.reclaim_headroom == RECLAIM_HEADROOM_DEFAULT);
	CHECK(res.slice.settings.reclaim_rate == RECLAIM_RATE_DEFAULT);
	policy_compile(&res.slice, 0, 1, &p);
	CHECK(!(p.flags & MEMCGD_POLICY_RECLAIM) && p.headroom_bytes == 0);
	done(&res);

	parse_slice("[Slice]\nName=batch.slice\nPriority=1\n[Reclaim]\nBackground=yes\nHeadroom=1G\nRate=infinity\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.reclaim_background && res.slice.background_line == 5);
	CHECK(res.slice.settings.reclaim_headroom == 1ULL << 30);
	CHECK(res.slice.settings.reclaim_rate == SIZE_INFINITY);
	policy_compile(&res.slice, 3, 1, &p);
	CHECK((p.flags & MEMCGD_POLICY_RECLAIM) && p.headroom_bytes == 1ULL << 30 && p.reclaim_rate == 0);
	done(&res);

	parse_slice("[Slice]\nName=batch.slice\nPriority=1\n[Reclaim]\nBackground=yes\nRate=64G\n", &res);
	CHECK(res.r == 0 && res.slice.settings.reclaim_rate == RECLAIM_RATE_MAX);
	policy_compile(&res.slice, 3, 1, &p);
	CHECK(p.reclaim_rate == RECLAIM_RATE_MAX);
	done(&res);
}

/* memcgd.conf from text; 0 or -EINVAL, the diagnostics in *all */
static int parse_main(const char *text, struct daemon_conf *dc, char *all, size_t len)
{
	struct diag_list d = {};
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char buf[512];
	size_t off = 0;
	int r;

	daemon_conf_init(dc);
	r = conf_parse_main_stream(f, "/etc/memcgd.conf", dc, &d);
	fclose(f);
	all[0] = '\0';
	for (size_t i = 0; i < d.n; i++) {
		int w = snprintf(all + off, len - off, "%s\n", diag_format(&d.items[i], buf, sizeof(buf)));

		if (w > 0 && (size_t)w < len - off)
			off += (size_t)w;
	}
	diag_list_clear(&d);
	return r;
}

/* [NUMA]: who decides NUMA balancing for the slice, and the scan parameters with Balancing=yes */
static void test_numa(void)
{
	static const char *const good[][2] = {
		/* the line, the choice it gives */
		{ "Balancing=yes", "yes" }, { "Balancing=on", "yes" }, { "Balancing=true", "yes" },
		{ "Balancing=no", "no" }, { "Balancing=off", "no" }, { "Balancing=default", "default" },
	};
	struct slice_settings def;
	struct result res;
	struct memcgd_policy p;
	char all[2048];
	struct daemon_conf dc;

	/* not set: the kernel decides (kernel.numa_balancing), with its own parameters */
	parse_slice("[Slice]\nName=batch.slice\nPriority=1\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.numa == NUMA_BALANCING_DEFAULT);
	CHECK(res.slice.settings.numa_scan_period_min_usec == 0 && res.slice.settings.numa_scan_period_max_usec == 0);
	CHECK(res.slice.settings.numa_scan_size == 0 && res.slice.settings.numa_hot_threshold_usec == 0);
	CHECK(res.slice.numa_lines.balancing == 0);
	done(&res);

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		char text[256];

		snprintf(text, sizeof(text), "[Slice]\nName=batch.slice\nPriority=1\n[NUMA]\n%s\n", good[i][0]);
		parse_slice(text, &res);
		CHECK(res.r == 0);
		CHECK_STREQ(numa_balancing_to_string(res.slice.settings.numa), good[i][1]);
		CHECK(res.slice.numa_lines.balancing == 5);
		done(&res);
	}

	/* every key, with its line */
	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nBalancing=yes\nScanPeriodMin=500ms\n"
		    "ScanPeriodMax=2min\nScanSize=512M\nHotThreshold=2s\n", &res);
	CHECK(res.r == 0 && res.d.n == 0);
	CHECK(res.slice.settings.numa == NUMA_BALANCING_ON);
	CHECK(res.slice.settings.numa_scan_period_min_usec == 500 * USEC_PER_MSEC);
	CHECK(res.slice.settings.numa_scan_period_max_usec == 120 * USEC_PER_SEC);
	CHECK(res.slice.settings.numa_scan_size == 512ULL << 20);
	CHECK(res.slice.settings.numa_hot_threshold_usec == 2 * USEC_PER_SEC);
	CHECK(res.slice.numa_lines.balancing == 5);
	CHECK(res.slice.numa_lines.tuning[NUMA_SCAN_PERIOD_MIN] == 6 && res.slice.numa_lines.tuning[NUMA_SCAN_PERIOD_MAX] == 7);
	CHECK(res.slice.numa_lines.tuning[NUMA_SCAN_SIZE] == 8 && res.slice.numa_lines.tuning[NUMA_HOT_THRESHOLD] == 9);
	/* compiled: whole milliseconds and MiB, as struct memcg_numa_params has them */
	policy_compile(&res.slice, 0, 1, &p);
	CHECK(p.flags & MEMCGD_POLICY_NUMA_ON);
	CHECK(!(p.flags & MEMCGD_POLICY_NUMA_OFF));
	CHECK(p.numa_scan_period_min_ms == 500 && p.numa_scan_period_max_ms == 120000);
	CHECK(p.numa_scan_size_mb == 512 && p.numa_hot_threshold_ms == 2000);
	done(&res);

	/* the limits themselves are accepted: the kernel's clamp ranges */
	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nBalancing=yes\nScanPeriodMin=100ms\n"
		    "ScanPeriodMax=10min\nScanSize=2560M\nHotThreshold=60s\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.numa_scan_period_min_usec == NUMA_SCAN_PERIOD_MIN_USEC);
	CHECK(res.slice.settings.numa_scan_period_max_usec == NUMA_SCAN_PERIOD_MAX_USEC);
	CHECK(res.slice.settings.numa_scan_size == NUMA_SCAN_SIZE_MAX);
	CHECK(res.slice.settings.numa_hot_threshold_usec == NUMA_HOT_THRESHOLD_MAX_USEC);
	done(&res);
	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nBalancing=yes\nScanPeriodMin=10min\n"
		    "ScanPeriodMax=10min\nScanSize=1M\nHotThreshold=1ms\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.numa_scan_size == NUMA_SCAN_SIZE_MIN);
	CHECK(res.slice.settings.numa_hot_threshold_usec == NUMA_HOT_THRESHOLD_MIN_USEC);
	done(&res);

	/* Balancing=no: nothing to tune, never balanced; default: not in the policy at all */
	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nBalancing=no\nScanSize=64M\n", &res);
	CHECK(res.r == 0);
	policy_compile(&res.slice, 0, 1, &p);
	CHECK((p.flags & MEMCGD_POLICY_NUMA_OFF) && !(p.flags & MEMCGD_POLICY_NUMA_ON));
	CHECK(p.numa_scan_size_mb == 0);
	done(&res);
	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nScanSize=64M\n", &res);
	CHECK(res.r == 0);
	policy_compile(&res.slice, 0, 1, &p);
	CHECK(!(p.flags & (MEMCGD_POLICY_NUMA_ON | MEMCGD_POLICY_NUMA_OFF)) && p.numa_scan_size_mb == 0);
	done(&res);

	/* bad values: one diagnostic each, at its line */
	expect_error("[NUMA]", "Balancing=sometimes", "Balancing='sometimes' is not a NUMA balancing choice: "
		     "expected yes, no or default (as kernel.numa_balancing)");
	expect_error("[NUMA]", "Balancing=", "Balancing= has no value");
	expect_error("[NUMA]", "ScanPeriodMin=50ms", "ScanPeriodMin='50ms' is not a NUMA scan period: expected "
		     "whole milliseconds from 100ms to 10min");
	expect_error("[NUMA]", "ScanPeriodMin=11min", "is not a NUMA scan period");
	expect_error("[NUMA]", "ScanPeriodMin=100500us", "is not a NUMA scan period");
	expect_error("[NUMA]", "ScanPeriodMin=often", "is not a NUMA scan period");
	expect_error("[NUMA]", "ScanPeriodMax=infinity", "ScanPeriodMax='infinity' is not a NUMA scan period");
	expect_error("[NUMA]", "ScanPeriodMax=0", "is not a NUMA scan period");
	expect_error("[NUMA]", "ScanSize=512K", "ScanSize='512K' is not a NUMA scan size: expected whole MiB from "
		     "1M to 2560M");
	expect_error("[NUMA]", "ScanSize=1536K", "is not a NUMA scan size");
	expect_error("[NUMA]", "ScanSize=2561M", "is not a NUMA scan size");
	expect_error("[NUMA]", "ScanSize=3G", "is not a NUMA scan size");
	expect_error("[NUMA]", "ScanSize=infinity", "is not a NUMA scan size");
	expect_error("[NUMA]", "ScanSize=0", "is not a NUMA scan size");
	expect_error("[NUMA]", "HotThreshold=0", "HotThreshold='0' is not a hot-page threshold: expected whole "
		     "milliseconds from 1ms to 60s");
	expect_error("[NUMA]", "HotThreshold=61s", "is not a hot-page threshold");
	expect_error("[NUMA]", "HotThreshold=1500us", "is not a hot-page threshold");
	expect_error("[NUMA]", "ScanPeriod=1s", "unknown key ScanPeriod= in section [NUMA]");
	expect_error("[Numa]", "Balancing=yes", "unknown section [Numa]");

	/* ScanPeriodMin= above ScanPeriodMax= in one file: at ScanPeriodMin='s line; equal is fine */
	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nBalancing=yes\nScanPeriodMax=1min\n"
		    "ScanPeriodMin=2min\n", &res);
	CHECK(res.r == -EINVAL && res.d.n == 1);
	CHECK_CONTAINS(res.all, "/etc/memcgd.d/50-test.conf:7: ScanPeriodMin=2min is above ScanPeriodMax=1min "
		       "(line 6): the shortest time between two NUMA scans cannot be longer than the longest\n");
	done(&res);
	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nScanPeriodMax=1min\nScanPeriodMin=1min\n", &res);
	CHECK(res.r == 0);
	done(&res);

	/* ... and in the settings of one slice taken together with memcgd.conf's defaults */
	slice_settings_init(&def);
	def.numa_scan_period_max_usec = 60 * USEC_PER_SEC;
	parse_slice_with("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nScanPeriodMin=90s\n", &def, &res);
	CHECK(res.r == -EINVAL && res.d.n == 1);
	CHECK_CONTAINS(res.all, "50-test.conf:5: ScanPeriodMin=1min 30s is above ScanPeriodMax=1min of memcgd.conf");
	done(&res);
	parse_slice_with("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nScanPeriodMin=30s\n", &def, &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.numa_scan_period_min_usec == 30 * USEC_PER_SEC);
	CHECK(res.slice.settings.numa_scan_period_max_usec == 60 * USEC_PER_SEC);
	done(&res);
	slice_settings_init(&def);
	def.numa_scan_period_min_usec = 2 * USEC_PER_SEC;
	parse_slice_with("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nBalancing=yes\nScanPeriodMax=1s\n", &def, &res);
	CHECK(res.r == -EINVAL && res.d.n == 1);
	CHECK_CONTAINS(res.all, "50-test.conf:6: ScanPeriodMax=1s is below ScanPeriodMin=2s of memcgd.conf: the "
		       "longest time between two NUMA scans cannot be shorter than the shortest");
	done(&res);
	/* a slice that sets neither inherits memcgd.conf's pair, which memcgd.conf's own check covers */
	def.numa_scan_period_max_usec = USEC_PER_SEC;
	parse_slice_with("[Slice]\nName=web.slice\nPriority=5\n", &def, &res);
	CHECK(res.r == 0);
	done(&res);

	/* memcgd.conf: [NUMA] as the defaults of every slice, with the same checks */
	CHECK(parse_main("[NUMA]\nBalancing=no\nScanPeriodMin=2s\nScanPeriodMax=30s\nScanSize=128M\nHotThreshold=500ms\n",
			 &dc, all, sizeof(all)) == 0);
	CHECK_STREQ(all, "");
	CHECK(dc.defaults.numa == NUMA_BALANCING_OFF);
	CHECK(dc.defaults.numa_scan_period_min_usec == 2 * USEC_PER_SEC);
	CHECK(dc.defaults.numa_scan_period_max_usec == 30 * USEC_PER_SEC);
	CHECK(dc.defaults.numa_scan_size == 128ULL << 20);
	CHECK(dc.defaults.numa_hot_threshold_usec == 500 * USEC_PER_MSEC);
	CHECK(dc.numa_lines.balancing == 2 && dc.numa_lines.tuning[NUMA_HOT_THRESHOLD] == 6);
	free(dc.file);
	CHECK(parse_main("# defaults\n[NUMA]\nScanPeriodMin=2min\nScanPeriodMax=1min\nScanSize=2G 1K\n",
			 &dc, all, sizeof(all)) == -EINVAL);
	CHECK_CONTAINS(all, "/etc/memcgd.conf:3: ScanPeriodMin=2min is above ScanPeriodMax=1min (line 4)");
	CHECK_CONTAINS(all, "/etc/memcgd.conf:5: ScanSize='2G 1K' is not a NUMA scan size");
	free(dc.file);
}

/* memcgctl check's notes: tuning keys where no Balancing=yes applies them */
static void test_numa_notes(void)
{
	struct result a, b;
	struct memcgd_config c = {};
	struct diag_list d = {};
	char buf[512];

	parse_slice("[Slice]\nName=web.slice\nPriority=5\n[NUMA]\nHotThreshold=2s\nScanSize=64M\n", &a);
	parse_slice("[Slice]\nName=db.slice\nPriority=6\n[NUMA]\nBalancing=yes\nScanSize=64M\n", &b);
	CHECK(a.r == 0 && b.r == 0);
	c.slices = calloc(2, sizeof(*c.slices));
	c.slices[0] = a.slice;
	c.slices[1] = b.slice;
	c.n_slices = 2;
	daemon_conf_init(&c.daemon);
	c.daemon.file = strdup("/etc/memcgd.conf");
	config_notes(&c, &d);
	CHECK(d.n == 1);
	if (d.n == 1)
		CHECK_STREQ(diag_format(&d.items[0], buf, sizeof(buf)),
			    "/etc/memcgd.d/50-test.conf:5: note: [NUMA] ScanSize=, HotThreshold= apply only with "
			    "Balancing=yes; web.slice has Balancing=default");
	diag_list_clear(&d);

	/* memcgd.conf's tuning: a note only when no slice has Balancing=yes */
	c.daemon.numa_lines.tuning[NUMA_SCAN_SIZE] = 7;
	config_notes(&c, &d);
	CHECK(d.n == 1);
	diag_list_clear(&d);
	c.slices[1].settings.numa = NUMA_BALANCING_OFF;
	config_notes(&c, &d);
	CHECK(d.n == 3);
	if (d.n == 3) {
		CHECK_STREQ(diag_format(&d.items[1], buf, sizeof(buf)),
			    "/etc/memcgd.d/50-test.conf:6: note: [NUMA] ScanSize= applies only with Balancing=yes; "
			    "db.slice has Balancing=no");
		CHECK_STREQ(diag_format(&d.items[2], buf, sizeof(buf)),
			    "/etc/memcgd.conf:7: note: [NUMA] ScanSize= applies only with Balancing=yes, which no slice has");
	}
	diag_list_clear(&d);
	diag_list_clear(&a.d);
	diag_list_clear(&b.d);
	memcgd_config_done(&c);
}

static void test_max_continuous_limits(void)
{
	struct result res;
	struct memcgd_policy p;

	parse_slice("[Slice]\nName=a.slice\nPriority=1\n[Throttle]\nMaxContinuous=365d\n", &res);
	CHECK(res.r == 0);
	CHECK(res.slice.settings.throttle_max_usec == MAX_CONTINUOUS_USEC);
	policy_compile(&res.slice, 0, 1, &p);
	CHECK(p.max_throttle_ns == MAX_CONTINUOUS_USEC * 1000);
	CHECK(p.max_throttle_ns / 1000 == MAX_CONTINUOUS_USEC); /* no wrap */
	done(&res);
	parse_slice("[Slice]\nName=a.slice\nPriority=1\n[Throttle]\nMaxContinuous=infinity\n", &res);
	CHECK(res.r == 0);
	policy_compile(&res.slice, 0, 1, &p);
	CHECK(p.max_throttle_ns == 0); /* no guard */
	done(&res);
	/* a value no file can give saturates to "no guard" instead of wrapping */
	parse_slice("[Slice]\nName=a.slice\nPriority=1\n", &res);
	res.slice.settings.throttle_max_usec = UINT64_C(18446744073709552);
	policy_compile(&res.slice, 0, 1, &p);
	CHECK(p.max_throttle_ns == 0);
	done(&res);
}

static void test_structure_errors(void)
{
	struct result res;

	expect_error("[Activity]", "Rate=100", "unknown key Rate= in section [Activity]");
	expect_error("[Limits]", "Max=1", "unknown section [Limits]");
	expect_error("[Daemon]", "DryRun=yes", "section [Daemon] does not belong in a slice file");
	expect_error("[Activity]", "this is not a key value line", "syntax error");

	/* a malformed header is reported once; its keys do not cascade into more errors */
	parse_slice("[Slice]\nName=web.slice\nPriority=10\n[Activity\nWindow=1s\n", &res);
	CHECK(res.r == -EINVAL);
	CHECK(res.d.n == 1);
	CHECK_CONTAINS(res.all, "/etc/memcgd.d/50-test.conf:4: syntax error: section header without ']'");
	done(&res);

	/* duplicate keys name both lines */
	parse_slice("[Slice]\nName=a.slice\nPriority=1\nPriority=2\n", &res);
	CHECK(res.r == -EINVAL);
	CHECK(res.d.n == 1);
	CHECK_CONTAINS(res.all, "50-test.conf:4: Priority= is set twice in this file (first at line 3)");
	done(&res);

	/* keys before any section */
	parse_slice("Name=a.slice\n[Slice]\nName=a.slice\nPriority=1\n", &res);
	CHECK(res.r == -EINVAL);
	CHECK_CONTAINS(res.all, "50-test.conf:1: Name= appears before any section header");
	done(&res);

	/* missing Name= and Priority= point at the [Slice] header */
	parse_slice("# comment\n\n[Slice]\n", &res);
	CHECK(res.r == -EINVAL);
	CHECK(res.d.n == 2);
	CHECK_CONTAINS(res.all, "50-test.conf:3: missing Name= in section [Slice]");
	CHECK_CONTAINS(res.all, "50-test.conf:3: missing Priority= in section [Slice]");
	done(&res);

	/* an empty-looking file without [Slice]: line 1 */
	parse_slice("; nothing\n", &res);
	CHECK_CONTAINS(res.all, "50-test.conf:1: missing Name=");
	done(&res);

	/* invalid slice names */
	const char *bad_names[] = { "database", "-.slice", ".slice", "a--b.slice", "-a.slice", "a-.slice",
				    "data base.slice", "a/b.slice", "database.service" };
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text), "[Slice]\nName=%s\nPriority=1\n", bad_names[i]);
		parse_slice(text, &res);
		CHECK(res.r == -EINVAL);
		CHECK_CONTAINS(res.all, "50-test.conf:2: Name=");
		CHECK_CONTAINS(res.all, "is not a valid slice unit name");
		done(&res);
	}

	/* priority out of range */
	parse_slice("[Slice]\nName=a.slice\nPriority=1001\n", &res);
	CHECK_CONTAINS(res.all, "50-test.conf:3: Priority='1001' is not a priority: expected an integer from 0 to 1000");
	done(&res);
	parse_slice("[Slice]\nName=a.slice\nPriority=high\n", &res);
	CHECK_CONTAINS(res.all, "50-test.conf:3: Priority='high' is not a priority");
	done(&res);

	/* rate x window below one fault */
	parse_slice("[Slice]\nName=a.slice\nPriority=1\n[Activity]\nPageFaultRate=1\nWindow=100ms\n", &res);
	CHECK(res.r == -EINVAL);
	CHECK_CONTAINS(res.all, "50-test.conf:5: PageFaultRate= times Window= is less than one fault per window");
	done(&res);

	/* several errors are all reported, each with its line */
	parse_slice("[Slice]\nName=a.slice\nPriority=x\n[Activity]\nWindow=1y\nBogus=1\n", &res);
	CHECK(res.d.n == 3);
	CHECK_CONTAINS(res.all, ":3: Priority=");
	CHECK_CONTAINS(res.all, ":5: Window=");
	CHECK_CONTAINS(res.all, ":6: unknown key Bogus=");
	done(&res);
}

static void test_lexical(void)
{
	struct result res;
	char text[1024];

	/* comments, blank lines, spaces around '=', CRLF */
	parse_slice("; a comment\r\n#another\r\n[Slice]\r\nName = web.slice\r\n  Priority= 7 \r\n", &res);
	CHECK(res.r == 0);
	CHECK_STREQ(res.slice.name, "web.slice");
	CHECK(res.slice.priority == 7);
	done(&res);

	/* an over-long line is reported with its number and does not shift the following lines */
	memset(text, 0, sizeof(text));
	strcpy(text, "[Slice]\nName=web.slice\n# ");
	memset(text + strlen(text), 'x', 400);
	strcat(text, "\nPriority=oops\n");
	parse_slice(text, &res);
	CHECK_CONTAINS(res.all, "50-test.conf:3: line too long");
	CHECK_CONTAINS(res.all, "50-test.conf:4: Priority='oops'");
	done(&res);
}

static void test_main_file(void)
{
	struct daemon_conf dc;
	struct diag_list d = {};
	const char *text = "[Daemon]\nDryRun=yes\nUpdateInterval=500ms\nMaxCgroups=200k\nReclaimPath=memory.reclaim\n"
			   "[Activity]\nPageFaultRate=50\nWindow=2s\nHold=0\n"
			   "[Protect]\nMode=min\n[Throttle]\nDelay=1s\nMaxContinuous=1min\n"
			   "[Reclaim]\nBackground=yes\nHeadroom=512M\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char buf[256];

	daemon_conf_init(&dc);
	CHECK(conf_parse_main_stream(f, "/etc/memcgd.conf", &dc, &d) == 0);
	fclose(f);
	CHECK(d.n == 0);
	CHECK(dc.dry_run);
	CHECK(dc.update_interval_usec == 500000);
	CHECK(dc.max_cgroups == 200000);
	CHECK(dc.defaults.fault_rate == 50);
	CHECK(dc.defaults.window_usec == 2000000);
	CHECK(dc.defaults.hold_usec == 0);
	CHECK(dc.defaults.protect == PROTECT_MIN);
	CHECK(dc.defaults.throttle_delay_usec == 1000000);
	CHECK(dc.defaults.throttle_max_usec == 60000000);
	CHECK(dc.reclaim_path == RECLAIM_PATH_DAEMON);
	CHECK(dc.defaults.reclaim_background && dc.defaults.reclaim_headroom == 512ULL << 20);
	free(dc.file);

	text = "[Daemon]\nReclaimPath=bpf\n";
	f = fmemopen((void *)text, strlen(text), "r");
	daemon_conf_init(&dc);
	CHECK(dc.reclaim_path == RECLAIM_PATH_AUTO);
	CHECK(conf_parse_main_stream(f, "/etc/memcgd.conf", &dc, &d) == -EINVAL);
	fclose(f);
	CHECK(d.n == 1);
	CHECK_STREQ(diag_format(&d.items[0], buf, sizeof(buf)),
		    "/etc/memcgd.conf:2: ReclaimPath='bpf' is not a reclaim path: expected auto, kernel or memory.reclaim");
	free(dc.file);
	diag_list_clear(&d);

	text = "[Slice]\nName=a.slice\n[Daemon]\nUpdateInterval=10ms\nDryRun=perhaps\n";
	f = fmemopen((void *)text, strlen(text), "r");
	daemon_conf_init(&dc);
	CHECK(conf_parse_main_stream(f, "/etc/memcgd.conf", &dc, &d) == -EINVAL);
	fclose(f);
	CHECK(d.n == 3);
	CHECK_STREQ(diag_format(&d.items[0], buf, sizeof(buf)),
		    "/etc/memcgd.conf:2: section [Slice] does not belong in memcgd.conf (it goes in memcgd.d/*.conf)");
	CHECK_CONTAINS(diag_format(&d.items[1], buf, sizeof(buf)), "/etc/memcgd.conf:4: UpdateInterval='10ms'");
	CHECK_CONTAINS(diag_format(&d.items[2], buf, sizeof(buf)), "/etc/memcgd.conf:5: DryRun='perhaps' is not a boolean");
	free(dc.file);
	diag_list_clear(&d);
}

/* [Daemon] MaxCgroups=: the size of slice_of; default MEMCGD_MAX_CGROUPS, bounded both ways */
static void test_max_cgroups(void)
{
	static const struct {
		const char *value;
		uint64_t want; /* 0: refused */
	} cases[] = {
		{ "16", 16 }, { "64", 64 }, { "65536", 65536 }, { "1048576", 1048576 }, { "1M", 1000000 },
		{ "15", 0 }, { "0", 0 }, { "1048577", 0 }, { "2M", 0 }, { "-64", 0 }, { "many", 0 },
		{ "64 cgroups", 0 }, { "18446744073709551616", 0 }, { "1.5", 0 },
	};
	struct daemon_conf dc;
	char text[128], buf[256];

	daemon_conf_init(&dc);
	CHECK(dc.max_cgroups == MEMCGD_MAX_CGROUPS && MEMCGD_MAX_CGROUPS == 65536);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct diag_list d = {};
		FILE *f;
		int r;

		snprintf(text, sizeof(text), "# memcgd.conf\n[Daemon]\nMaxCgroups=%s\n", cases[i].value);
		f = fmemopen(text, strlen(text), "r");
		daemon_conf_init(&dc);
		r = conf_parse_main_stream(f, "/etc/memcgd.conf", &dc, &d);
		fclose(f);
		if (cases[i].want) {
			CHECK(r == 0 && d.n == 0);
			CHECK(dc.max_cgroups == cases[i].want);
		} else {
			CHECK(r == -EINVAL && d.n == 1);
			if (d.n == 1) {
				char want[160];

				snprintf(want, sizeof(want), "/etc/memcgd.conf:3: MaxCgroups='%s' is not a number of cgroups: "
					 "expected a count from 16 to 1048576", cases[i].value);
				CHECK_CONTAINS(diag_format(&d.items[0], buf, sizeof(buf)), want);
			}
		}
		free(dc.file);
		diag_list_clear(&d);
	}
	/* it belongs in memcgd.conf only */
	expect_error("[Daemon]", "MaxCgroups=64", "section [Daemon] does not belong in a slice file");
}

static void test_missing_file(void)
{
	struct slice_settings def;
	struct slice_conf s;
	struct diag_list d = {};

	slice_settings_init(&def);
	CHECK(conf_parse_slice_file("/nonexistent/memcgd.d/x.conf", &def, &s, &d) == -ENOENT);
	CHECK(d.n == 1);
	CHECK_STREQ(d.items[0].file, "/nonexistent/memcgd.d/x.conf");
	CHECK_CONTAINS(d.items[0].message, "cannot open");
	slice_conf_done(&s);
	diag_list_clear(&d);
}

int main(void)
{
	test_reclaim();
	test_numa();
	test_numa_notes();
	test_every_key();
	test_defaults();
	test_bad_values();
	test_max_continuous_limits();
	test_structure_errors();
	test_lexical();
	test_main_file();
	test_max_cgroups();
	test_missing_file();
	return test_summary("test-conf-parse");
}
