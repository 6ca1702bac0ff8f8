// SPDX-License-Identifier: GPL-2.0-only
/* State file round trip, memcgctl status text and JSON. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>

#include "cgroup-files.h"
#include "state.h"
#include "status-render.h"
#include "tests.h"

/* --- a minimal JSON validator: enough to prove the output parses --- */
static const char *json_value(const char *p);

static const char *ws(const char *p)
{
	while (*p && isspace((unsigned char)*p))
		p++;
	return p;
}

static const char *json_str(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p && *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (!*p || !strchr("\"\\/bfnrtu", *p))
				return NULL;
		}
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *json_value(const char *p)
{
	p = ws(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		bool obj = *p == '{';

		p = ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				p = json_str(ws(p));
				if (!p)
					return NULL;
				p = ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = json_value(p);
			if (!p)
				return NULL;
			p = ws(p);
			if (*p == ',') {
				p++;
				continue;
			}
			return *p == close ? p + 1 : NULL;
		}
	}
	if (*p == '"')
		return json_str(p);
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	if (*p == '-' || isdigit((unsigned char)*p)) {
		char *end;

		strtod(p, &end);
		return end;
	}
	return NULL;
}

static bool json_valid(const char *s)
{
	const char *end = json_value(s);

	return end && *ws(end) == '\0';
}

static void make_status(struct daemon_status *s)
{
	memset(s, 0, sizeof(*s));
	s->pid = 4321;
	s->state = strdup("running");
	s->mode = strdup("enforce");
	s->started_usec = 1764756000000000ULL; /* 2025-12-03 10:00:00 UTC */
	s->updated_usec = s->started_usec + 60000000;
	s->update_interval_usec = 1000000;
	s->config_generation = 2;
	s->reload_error = strdup("/etc/memcgd.d/20-batch.conf:7: Mode='max' is not a protection mode");
	s->kernel_release = strdup("6.12.118-memcgd-default");
	s->kernel_supported = true;
	s->hooks = strdup("handle_cgroup_online handle_cgroup_offline below_low below_min get_high_delay_ms");
	s->libbpf = strdup("1.5");
	s->n_slices = 2;
	s->slices = calloc(2, sizeof(*s->slices));
	s->slices[0] = (struct slice_status){
		.name = strdup("high.slice"), .priority = 50, .level = 1, .slot = 0,
		.file = strdup("/etc/memcgd.d/50-high.conf"), .cgroup = strdup("/high.slice"), .cgroup_id = 1234,
		.attach = strdup("attached"), .reason = strdup(""), .protect = strdup("min"),
		.fault_rate_threshold = 1000, .window_usec = 1000000, .hold_usec = 2000000, .delay_ms = 0,
		.max_continuous_usec = UINT64_MAX, .max_usage = UINT64_MAX,
		.cpu_usage_threshold = 50, .cpu_percent = 93.5,
		.fault_rate = 15234.5, .active = true, .faults = 999, .activations = 3, .active_usec = 62000000,
		.protect_decisions = 17, .have_memory = true, .memory_current = 3ULL << 29, .memory_high = UINT64_MAX,
		.protect_size = strdup("footprint"), .throttle_when = strdup("pressure"), .max_hold_usec = 300000000,
		.wake_reserve = 64ULL << 20, .state = strdup("holding"), .escalation = strdup("reclaim"),
		.why = strdup("refaults: lower slices reclaimed in the background"), .hold_learned_usec = 20000000,
		.protect_bytes = 700ULL << 20, .usage = 650ULL << 20, .refault_rate = 4096, .psi_some = 1.25,
		.episodes = 4, .sized_decisions = 99,
	};
	s->slices[1] = (struct slice_status){
		.name = strdup("low-batch.slice"), .priority = 10, .level = 0, .slot = 1,
		.file = strdup("/etc/memcgd.d/10-low \"batch\".conf"), .cgroup = strdup(""),
		.attach = strdup("not-running"), .reason = strdup("slice not started\tyet"), .protect = strdup("none"),
		.fault_rate_threshold = 500, .window_usec = 500000, .hold_usec = 0, .delay_ms = 100,
		.max_continuous_usec = 300000000, .max_usage = 1ULL << 30, .throttling = true, .cpu_percent = -1,
		.throttle_decisions = 40, .throttle_ms = 4000, .guard_trips = 1, .ceiling_refusals = 7,
		.protect_suspended = true,
		.background = true, .headroom = 256ULL << 20, .reclaim_rate = 64ULL << 20,
		.reclaimed = 3ULL << 29, .reclaim_passes = 12, .reclaim_errors = 1, .reclaim_last_error = -16,
		.reclaim_ago_usec = 3500000, .reclaim_last_free = 200ULL << 20, .reclaim_because = strdup("web.slice"),
	};
	s->exempt = strdup("/system.slice/system-memcgd.slice/memcgd.service /init.scope");
	s->exempt_skips = 12;
	s->max_cgroups = 64;
	s->unmapped_cgroups = 37;
	s->reclaim_path = strdup("kernel");
	s->reclaim_note = strdup("in the kernel: memcg_charged starts a bpf_wq");
	s->free_bytes = 300ULL << 20;
	s->reclaim_room = 500ULL << 20;
	s->slices[0].reclaim_ago_usec = UINT64_MAX;
	s->slices[0].reclaim_rate = UINT64_MAX;
	/* NUMA: high balanced by memcgd, with two parameters of its own; low asks for none but is not
	 * attached */
	s->numa_hook = s->numa_loaded = true;
	s->numa_sysctl = 0;
	s->slices[0].numa = strdup("yes");
	s->slices[0].numa_scan_period_min_usec = 100000;
	s->slices[0].numa_scan_period_max_usec = 1000000;
	s->slices[0].numa_on_decisions = 42;
	s->slices[0].have_numa_stat = true;
	s->slices[0].numa_pte_updates = 16384;
	s->slices[0].numa_hint_faults = 16000;
	s->slices[0].numa_pages_migrated = 15900;
	s->slices[1].numa = strdup("no");
	s->slices[1].numa_off_decisions = 3;
	s->n_skipped = 2;
	s->skipped = calloc(2, sizeof(*s->skipped));
	s->skipped[0] = (struct config_problem){ .file = strdup("/etc/memcgd.d/60-bad.conf"), .line = 5,
						 .message = strdup("Mode='maximum' is not a protection mode") };
	s->skipped[1] = (struct config_problem){ .file = strdup("/etc/memcgd.d/70-open.conf"), .line = 0,
						 .message = strdup("refused: world-writable (mode 0666)") };
}

static uint64_t render_now;

static char *render(void (*fn)(FILE *, const struct daemon_status *, const char *, uint64_t),
		    const struct daemon_status *s, const char *slice)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s, slice, render_now ? render_now : s->updated_usec + 500000);
	fclose(f);
	return buf;
}

static void test_roundtrip(void)
{
	struct daemon_status a, b;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	make_status(&a);
	CHECK(state_write(f, &a) == 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	CHECK(state_read(f, &b) == 0);
	fclose(f);
	CHECK(b.pid == 4321);
	CHECK_STREQ(b.state, "running");
	CHECK_STREQ(b.reload_error, a.reload_error);
	CHECK(b.config_generation == 2);
	CHECK(b.kernel_supported);
	CHECK(b.n_slices == 2);
	if (b.n_slices == 2) {
		CHECK_STREQ(b.slices[0].name, "high.slice");
		CHECK(b.slices[0].cgroup_id == 1234);
		CHECK(b.slices[0].fault_rate > 15234.4 && b.slices[0].fault_rate < 15234.6);
		CHECK(b.slices[0].active);
		CHECK(b.slices[0].cpu_usage_threshold == 50);
		CHECK(b.slices[0].cpu_percent > 93.4 && b.slices[0].cpu_percent < 93.6);
		CHECK(b.slices[1].cpu_percent < 0);
		/* the policy engine's state */
		CHECK_STREQ(b.slices[0].state, "holding");
		CHECK_STREQ(b.slices[0].escalation, "reclaim");
		CHECK_STREQ(b.slices[0].why, "refaults: lower slices reclaimed in the background");
		CHECK_STREQ(b.slices[0].protect_size, "footprint");
		CHECK_STREQ(b.slices[0].throttle_when, "pressure");
		CHECK(b.slices[0].hold_learned_usec == 20000000 && b.slices[0].max_hold_usec == 300000000);
		CHECK(b.slices[0].protect_bytes == 700ULL << 20 && b.slices[0].usage == 650ULL << 20);
		CHECK(b.slices[0].wake_reserve == 64ULL << 20);
		CHECK(b.slices[0].refault_rate > 4095 && b.slices[0].refault_rate < 4097);
		CHECK(b.slices[0].psi_some > 1.24 && b.slices[0].psi_some < 1.26);
		CHECK(b.slices[0].episodes == 4 && b.slices[0].sized_decisions == 99);
		CHECK(!b.slices[1].state || !b.slices[1].state[0]); /* not measured (a memcgd before the engine) */
		CHECK(b.slices[0].max_usage == UINT64_MAX);
		CHECK_STREQ(b.slices[1].reason, "slice not started\tyet"); /* escaped and back */
		CHECK_STREQ(b.slices[1].file, "/etc/memcgd.d/10-low \"batch\".conf");
		CHECK(b.slices[1].throttling);
		CHECK(b.slices[1].guard_trips == 1);
		CHECK(b.slices[1].max_continuous_usec == 300000000);
		/* background reclaim */
		CHECK(b.slices[1].background && !b.slices[0].background);
		CHECK(b.slices[1].headroom == 256ULL << 20 && b.slices[1].reclaim_rate == 64ULL << 20);
		CHECK(b.slices[0].reclaim_rate == UINT64_MAX && b.slices[0].reclaim_ago_usec == UINT64_MAX);
		CHECK(b.slices[1].reclaimed == 3ULL << 29 && b.slices[1].reclaim_passes == 12);
		CHECK(b.slices[1].reclaim_errors == 1 && b.slices[1].reclaim_last_error == -16);
		CHECK(b.slices[1].reclaim_ago_usec == 3500000 && b.slices[1].reclaim_last_free == 200ULL << 20);
		CHECK_STREQ(b.slices[1].reclaim_because, "web.slice");
	}
	CHECK(b.numa_hook && b.numa_loaded);
	if (b.n_slices == 2) {
		CHECK_STREQ(b.slices[0].numa, "yes");
		CHECK(b.slices[0].numa_scan_period_min_usec == 100000 && b.slices[0].numa_scan_period_max_usec == 1000000);
		CHECK(b.slices[0].numa_scan_size == 0 && b.slices[0].numa_hot_threshold_usec == 0);
		CHECK(b.slices[0].numa_on_decisions == 42 && b.slices[0].numa_off_decisions == 0);
		CHECK_STREQ(b.slices[1].numa, "no");
		CHECK(b.slices[1].numa_off_decisions == 3);
		/* memcgctl reads memory.stat itself: not in the state file */
		CHECK(!b.slices[0].have_numa_stat && b.slices[0].numa_pte_updates == 0);
	}
	CHECK_STREQ(b.reclaim_path, "kernel");
	CHECK_STREQ(b.reclaim_note, a.reclaim_note);
	CHECK(b.free_bytes == 300ULL << 20);
	CHECK(b.reclaim_room == 500ULL << 20);
	/* files left out at start survive the state file */
	CHECK(b.n_skipped == 2);
	if (b.n_skipped == 2) {
		CHECK_STREQ(b.skipped[0].file, "/etc/memcgd.d/60-bad.conf");
		CHECK(b.skipped[0].line == 5);
		CHECK_STREQ(b.skipped[0].message, "Mode='maximum' is not a protection mode");
		CHECK(b.skipped[1].line == 0);
	}
	CHECK_STREQ(b.exempt, a.exempt);
	CHECK(b.exempt_skips == 12);
	CHECK(b.max_cgroups == 64);
	CHECK(b.unmapped_cgroups == 37);
	daemon_status_done(&a);
	daemon_status_done(&b);
	free(buf);

	/* garbage is rejected, unknown records and keys are ignored */
	f = fmemopen((char *)"hello\n", 6, "r");
	CHECK(state_read(f, &b) < 0);
	fclose(f);
	daemon_status_done(&b);
	{
		const char *t = "future\tx=1\ndaemon\tpid=7\tnewkey=3\n";

		f = fmemopen((char *)t, strlen(t), "r");
		CHECK(state_read(f, &b) == 0);
		CHECK(b.pid == 7);
		fclose(f);
		daemon_status_done(&b);
	}
}

static void test_text(void)
{
	struct daemon_status s;
	char *out;

	make_status(&s);
	out = render(status_render_text, &s, NULL);
	CHECK_CONTAINS(out, "memcgd:   running (pid 4321), enforcing, since Wed 2025-12-03 10:00:00 UTC\n");
	CHECK_CONTAINS(out, "Kernel:   6.12.118-memcgd-default, supported; memcg_bpf_ops hooks: handle_cgroup_online");
	CHECK_CONTAINS(out, "last reload FAILED, previous policy kept: /etc/memcgd.d/20-batch.conf:7:");
	/* the table is aligned: header and rows share column positions */
	CHECK_CONTAINS(out, "\nSLICE            PRIO STATE        FAULTS/S ACTIVE ACTION        MEMORY\n");
	CHECK_CONTAINS(out, "\nhigh.slice         50 attached      15234.5 yes    protect-min   1.5G\n");
	CHECK_CONTAINS(out, "\nlow-batch.slice    10 not-running       0.0 no     -             -\n");
	CHECK_CONTAINS(out, "  Cgroup:       /high.slice (id 1234)\n");
	CHECK_CONTAINS(out, "  Priority:     50 (level 2 of 2)\n");
	CHECK_CONTAINS(out, "  Attached:     yes\n");
	CHECK_CONTAINS(out, "  Attached:     no: not-running, slice not started\tyet\n");
	CHECK_CONTAINS(out, "  Activity sum: 3 activations, active for 1min 2s, 999 faults\n");
	CHECK_CONTAINS(out, "  Policy:       holding (refaults: lower slices reclaimed in the background), escalation "
			    "reclaim, footprint 700M, refaults 4K/s, memory PSI some 1.25%\n");
	CHECK_CONTAINS(out, "  Protect:      min, its footprint while active; 64M while idle\n");
	CHECK_CONTAINS(out, "116 protect decisions"); /* below_min's and get_min's */
	CHECK_CONTAINS(out, "  Activity:     active above 1000 faults/s over 1s or at 50% CPU, hold 2s\n");
	CHECK_CONTAINS(out, "  Activity:     active above 500 faults/s over 500ms, hold 0\n");
	CHECK_CONTAINS(out, "  Now:          15234.5 faults/s, 94% CPU, active, protect-min\n");
	CHECK_CONTAINS(out, "  Now:          0.0 faults/s, inactive\n");
	CHECK_CONTAINS(out, "  Memory:       current 1.5G, min 0B, low 0B, high max\n");
	CHECK_CONTAINS(out, "  Throttle:     100ms per charge while a higher priority is active, guard after 5min\n");
	CHECK_CONTAINS(out, "40 throttle decisions (4s requested), 1 guard trips");
	CHECK_CONTAINS(out, "  Protect:      none while active, up to 1G\n");
	CHECK_CONTAINS(out, "  Ceiling:      7 protections refused above MaxUsage=; over it now: not protected until it shrinks\n");
	/* a protected slice gives back while idle; one of memcgd 2 (no engine state) does not say so */
	CHECK_CONTAINS(out, "  Reclaim:      while idle, what it holds above 64M, in the background (giving back)\n");
	CHECK_CONTAINS(out, "  Reclaim:      in the background while a higher priority is active and less than 256M is "
			    "free, at most 64M/s\n");
	CHECK_CONTAINS(out, "  Reclaimed:    1.5G in 12 passes, last 3s ago: 200M free, web.slice active; 1 error, "
			    "last: Device or resource busy\n");
	CHECK_CONTAINS(out, "\nReclaim:  background reclaim in the kernel: memcg_charged starts a bpf_wq; 300M free now, keeps at least 500M\n");
	CHECK_CONTAINS(out, "\nExempt:   never delayed: /system.slice/system-memcgd.slice/memcgd.service /init.scope "
			    "(12 delays skipped)\n");
	CHECK_CONTAINS(out, "\nSkipped:  /etc/memcgd.d/60-bad.conf:5: Mode='maximum' is not a protection mode\n"
			    "          /etc/memcgd.d/70-open.conf: refused: world-writable (mode 0666)\n");
	CHECK_CONTAINS(out, "\nWarning:  slice_of full (MaxCgroups=64): 37 cgroups not mapped to their slice, their "
			    "page faults are not counted\n");

	/* NUMA: the daemon's line, the slice's policy in force and memory.stat's counters */
	CHECK_CONTAINS(out, "\nNUMA:     memcg_bpf_ops::numa_balancing loaded: [NUMA] Balancing= decides per slice, "
			    "kernel.numa_balancing=0 for the others\n");
	CHECK_CONTAINS(out, "  NUMA:         on (Balancing=yes, whatever kernel.numa_balancing=0 says): ScanPeriodMin=100ms "
			    "ScanPeriodMax=1s, the kernel's other parameters; 42 on, 0 off decisions\n"
			    "  NUMA stat:    16384 PTE updates, 16000 hinting faults, 15900 pages migrated (memory.stat)\n");
	CHECK_CONTAINS(out, "  NUMA:         as kernel.numa_balancing=0, not Balancing=no: not attached\n");
	free(out);

	/* every other case of the slice's line */
	free(s.slices[1].attach);
	s.slices[1].attach = strdup("attached");
	out = render(status_render_text, &s, "low-batch.slice");
	CHECK_CONTAINS(out, "  NUMA:         off (Balancing=no, whatever kernel.numa_balancing=0 says); 0 on, 3 off decisions\n");
	CHECK(strstr(out, "NUMA stat:") == NULL); /* no memory.stat read */
	free(out);
	free(s.slices[1].numa);
	s.slices[1].numa = strdup("default");
	s.numa_sysctl = -1; /* /proc/sys/kernel/numa_balancing unreadable */
	out = render(status_render_text, &s, "low-batch.slice");
	CHECK_CONTAINS(out, "  NUMA:         as kernel.numa_balancing (Balancing=default)\n");
	CHECK_CONTAINS(out, "\nNUMA:     memcg_bpf_ops::numa_balancing loaded: [NUMA] Balancing= decides per slice, "
			    "kernel.numa_balancing for the others\n");
	free(out);
	s.numa_sysctl = 1;
	s.slices[0].numa_scan_size = 512ULL << 20;
	s.slices[0].numa_hot_threshold_usec = 2000000;
	out = render(status_render_text, &s, "high.slice");
	CHECK_CONTAINS(out, "  NUMA:         on (Balancing=yes, whatever kernel.numa_balancing=1 says): ScanPeriodMin=100ms "
			    "ScanPeriodMax=1s ScanSize=512M HotThreshold=2s; 42 on, 0 off decisions\n");
	free(out);
	s.slices[0].numa_scan_period_min_usec = s.slices[0].numa_scan_period_max_usec = 0;
	s.slices[0].numa_scan_size = s.slices[0].numa_hot_threshold_usec = 0;
	out = render(status_render_text, &s, "high.slice");
	CHECK_CONTAINS(out, "says): the kernel's scan parameters; 42 on");
	free(out);
	/* the kernel lacks the hook: Balancing= is not in force, and the daemon's line says why */
	s.numa_hook = s.numa_loaded = false;
	out = render(status_render_text, &s, NULL);
	CHECK_CONTAINS(out, "\nNUMA:     the kernel lacks memcg_bpf_ops::numa_balancing: kernel.numa_balancing=1 for every slice\n");
	CHECK_CONTAINS(out, "  NUMA:         as kernel.numa_balancing=1, not Balancing=yes: the kernel lacks "
			    "memcg_bpf_ops::numa_balancing\n");
	CHECK_CONTAINS(out, "  NUMA:         as kernel.numa_balancing=1 (Balancing=default)\n");
	free(out);
	/* a dry run loads no numa_balancing */
	s.numa_hook = true;
	free(s.mode);
	s.mode = strdup("dry-run");
	out = render(status_render_text, &s, NULL);
	CHECK_CONTAINS(out, "\nNUMA:     the kernel offers memcg_bpf_ops::numa_balancing, not loaded in a dry run: "
			    "kernel.numa_balancing=1 for every slice\n");
	CHECK_CONTAINS(out, "  NUMA:         as kernel.numa_balancing=1, not Balancing=yes: a dry run decides nothing\n");
	daemon_status_done(&s);
	free(out);
	make_status(&s);

	/* nothing refused: no warning */
	s.unmapped_cgroups = 0;
	out = render(status_render_text, &s, NULL);
	CHECK(strstr(out, "slice_of full") == NULL);
	free(out);
	s.unmapped_cgroups = 37;

	/* one slice only */
	out = render(status_render_text, &s, "high.slice");
	CHECK_CONTAINS(out, "\nhigh.slice\n");
	CHECK(strstr(out, "low-batch.slice") == NULL);
	free(out);

	/* a stale snapshot is flagged */
	render_now = s.updated_usec + 10000000;
	out = render(status_render_text, &s, NULL);
	render_now = 0;
	CHECK_CONTAINS(out, "Warning:  last update 10s ago: memcgd may be stuck");
	free(out);
	daemon_status_done(&s);
}

static void test_json(void)
{
	struct daemon_status s;
	char *out;

	make_status(&s);
	out = render(status_render_json, &s, NULL);
	CHECK(json_valid(out));
	CHECK_CONTAINS(out, "{\"version\":1,\"daemon\":{\"running\":true,\"reason\":null,\"pid\":4321,\"state\":\"running\",\"mode\":\"enforce\"");
	CHECK_CONTAINS(out, "\"hooks\":[\"handle_cgroup_online\",\"handle_cgroup_offline\",\"below_low\",\"below_min\",\"get_high_delay_ms\"]");
	CHECK_CONTAINS(out, "{\"name\":\"high.slice\",\"priority\":50,\"level\":1,");
	CHECK_CONTAINS(out, "\"cgroup\":\"/high.slice\",\"cgroup_id\":1234,\"attached\":true");
	CHECK_CONTAINS(out, "\"fault_rate\":15234.5,\"cpu_percent\":93.5,\"active\":true,\"action\":\"protect-min\"");
	CHECK_CONTAINS(out, "\"policy\":{\"page_fault_rate\":1000,\"cpu_usage_percent\":50,");
	CHECK_CONTAINS(out, "\"engine\":{\"state\":\"holding\",\"escalation\":\"reclaim\",\"why\":\"refaults: lower "
			    "slices reclaimed in the background\",\"hold_usec\":20000000,\"protect_bytes\":734003200,"
			    "\"usage\":681574400,\"refault_rate\":4096.0,\"psi_some\":1.2");
	CHECK_CONTAINS(out, "\"episodes\":4,\"sized_decisions\":99}");
	CHECK_CONTAINS(out, "\"protect_size\":\"footprint\",\"wake_reserve\":67108864,\"throttle_when\":\"pressure\"");
	CHECK_CONTAINS(out, "\"numa\":\"kernel\",\"engine\":null,");
	CHECK_CONTAINS(out, "\"fault_rate\":0.0,\"cpu_percent\":null,\"active\":false");
	CHECK_CONTAINS(out, "\"memory\":{\"current\":1610612736,\"min\":0,\"low\":0,\"high\":\"max\"}");
	CHECK_CONTAINS(out, "\"cgroup\":null,\"cgroup_id\":0,\"attached\":false,\"attach_state\":\"not-running\",\"reason\":\"slice not started\\tyet\"");
	CHECK_CONTAINS(out, "\"config_file\":\"/etc/memcgd.d/10-low \\\"batch\\\".conf\"");
	CHECK_CONTAINS(out, "\"max_usage\":null");
	CHECK_CONTAINS(out, "\"max_usage\":1073741824,\"throttle_delay_ms\":100,\"max_continuous_usec\":300000000");
	CHECK_CONTAINS(out, "\"exempt\":[\"/system.slice/system-memcgd.slice/memcgd.service\",\"/init.scope\"],"
			    "\"exempt_skips\":12,\"max_cgroups\":64,\"unmapped_cgroups\":37,");
	CHECK_CONTAINS(out, "\"skipped\":[{\"file\":\"/etc/memcgd.d/60-bad.conf\",\"line\":5,\"message\":"
			    "\"Mode='maximum' is not a protection mode\"},{\"file\":\"/etc/memcgd.d/70-open.conf\","
			    "\"line\":null,");
	CHECK_CONTAINS(out, "\"counters\":{\"faults\":0,\"activations\":0,\"active_usec\":0,\"protect_decisions\":0,\"throttle_decisions\":40,\"throttle_ms\":4000,\"guard_trips\":1,\"ceiling_refusals\":7,"
			    "\"reclaimed_bytes\":1610612736,\"reclaim_passes\":12,\"reclaim_errors\":1,\"numa_on_decisions\":0,"
			    "\"numa_off_decisions\":3}");
	CHECK_CONTAINS(out, "\"background_reclaim\":true,\"reclaim_headroom\":268435456,\"reclaim_rate\":67108864,"
			    "\"numa_balancing\":\"no\",\"numa_scan_period_min_usec\":null,\"numa_scan_period_max_usec\":null,"
			    "\"numa_scan_size\":null,\"numa_hot_threshold_usec\":null}");
	CHECK_CONTAINS(out, "\"background_reclaim\":false,\"reclaim_headroom\":0,\"reclaim_rate\":null,"
			    "\"numa_balancing\":\"yes\",\"numa_scan_period_min_usec\":100000,\"numa_scan_period_max_usec\":1000000,"
			    "\"numa_scan_size\":null,\"numa_hot_threshold_usec\":null}");
	/* NUMA in force (low is not attached), decisions, memory.stat's items, the kernel's switch */
	CHECK_CONTAINS(out, "\"protect_suspended\":false,\"numa\":\"on\",");
	CHECK_CONTAINS(out, "\"protect_suspended\":true,\"numa\":\"kernel\",");
	CHECK_CONTAINS(out, "\"numa_on_decisions\":42,\"numa_off_decisions\":0}");
	CHECK_CONTAINS(out, "\"memory_stat\":{\"numa_pte_updates\":16384,\"numa_hint_faults\":16000,"
			    "\"numa_pages_migrated\":15900}}");
	CHECK_CONTAINS(out, "\"memory\":null,\"memory_stat\":null}");
	CHECK_CONTAINS(out, "\"free_bytes\":314572800,\"reclaim_room\":524288000,\"numa_hook\":true,\"numa_loaded\":true,\"skipped\":");
	CHECK_CONTAINS(out, "\"get_high_delay_ms\"],\"numa_balancing\":0}");
	CHECK_CONTAINS(out, "\"last_reclaim_ago_usec\":3500000,\"last_reclaim_free\":209715200,\"last_reclaim_because\":\"web.slice\"");
	CHECK_CONTAINS(out, "\"last_reclaim_ago_usec\":null,\"last_reclaim_free\":null,\"last_reclaim_because\":null");
	CHECK_CONTAINS(out, "\"reclaim_path\":\"kernel\",\"reclaim_note\":\"in the kernel: memcg_charged starts a bpf_wq\",\"free_bytes\":314572800,");
	free(out);

	out = render(status_render_json, &s, "low-batch.slice");
	CHECK(json_valid(out));
	CHECK(strstr(out, "high.slice") == NULL);
	free(out);

	/* no slices at all is still valid JSON */
	s.n_slices = 0;
	out = render(status_render_json, &s, NULL);
	CHECK(json_valid(out));
	CHECK_CONTAINS(out, "\"slices\":[]");
	free(out);
	s.n_slices = 2;
	daemon_status_done(&s);

	/* not running: the same shape, every daemon key present (null) */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		status_render_json_not_running(f, "no /run/memcgd/state", "6.12", false, "below_low below_min", -1);
		fclose(f);
		CHECK(json_valid(buf));
		CHECK_STREQ(buf, "{\"version\":1,\"daemon\":{\"running\":false,\"reason\":\"no /run/memcgd/state\","
				 "\"pid\":null,\"state\":null,\"mode\":null,\"started_usec\":null,\"updated_usec\":null,"
				 "\"age_usec\":null,\"update_interval_usec\":null,\"config_generation\":null,\"reload_error\":null,\"events_dropped\":null,"
				 "\"libbpf\":null,\"exempt\":[],\"exempt_skips\":null,\"max_cgroups\":null,\"unmapped_cgroups\":null,"
				 "\"reclaim_path\":null,\"reclaim_note\":null,\"free_bytes\":null,\"reclaim_room\":null,\"numa_hook\":null,\"numa_loaded\":null,"
				 "\"skipped\":[]},\"kernel\":{\"release\":\"6.12\",\"supported\":false,\"hooks\":[\"below_low\","
				 "\"below_min\"],\"numa_balancing\":null},\"slices\":[]}\n");
		free(buf);
	}

	CHECK(!json_valid("{\"a\":}"));
	CHECK(!json_valid("{\"a\":1,}"));
}

static void test_action(void)
{
	struct slice_status sl = { .attach = (char *)"attached", .protect = (char *)"low", .active = true };

	CHECK_STREQ(slice_action(&sl), "protect-low");
	sl.protect_suspended = true;
	CHECK_STREQ(slice_action(&sl), "over-maxusage");
	sl.active = false;
	CHECK_STREQ(slice_action(&sl), "-");
	sl.throttling = true;
	CHECK_STREQ(slice_action(&sl), "throttle");
	sl.guard_tripped = true;
	CHECK_STREQ(slice_action(&sl), "guard-stopped");
	sl.attach = (char *)"failed";
	CHECK_STREQ(slice_action(&sl), "-");
}

/* memory.pressure's "some" line, as the sampler reads it for the policy engine */
static void test_psi_parse(void)
{
	double v = -1;

	CHECK(cgroup_parse_psi_some_avg10("some avg10=1.25 avg60=0.50 avg300=0.10 total=12345", &v) == 0 && v == 1.25);
	CHECK(cgroup_parse_psi_some_avg10("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
					  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0", &v) == 0 && v == 0);
	CHECK(cgroup_parse_psi_some_avg10("full avg10=3.00 avg60=0.00 avg300=0.00 total=0", &v) == -EBADMSG);
	CHECK(cgroup_parse_psi_some_avg10("something avg10=3.00", &v) == -EBADMSG);
	CHECK(cgroup_parse_psi_some_avg10("some avg60=3.00", &v) == -EBADMSG);
	CHECK(cgroup_parse_psi_some_avg10("some avg10=x", &v) == -EBADMSG);
	CHECK(cgroup_parse_psi_some_avg10("some avg10=101.00", &v) == -EBADMSG);
	CHECK(cgroup_parse_psi_some_avg10("", &v) == -EBADMSG);
}

int main(void)
{
	test_psi_parse();
	test_roundtrip();
	test_text();
	test_json();
	test_action();
	return test_summary("test-status");
}
