// SPDX-License-Identifier: GPL-2.0-only
/* memcgctl: show what memcgd is doing, validate its configuration. See memcgctl(1). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <systemd/sd-bus.h>
#include <time.h>

#include "cgroup-files.h"
#include "conf.h"
#include "config.h"
#include "kernel-probe-cache.h"
#include "kernel-probe.h"
#include "min-budget.h"
#include "state.h"
#include "status-openmetrics.h"
#include "status-render.h"
#include "systemd-bus.h"
#include "units-parse.h"
#include "util.h"

#define EXIT_NOT_RUNNING 3

enum output_format { FORMAT_TABLE, FORMAT_JSON, FORMAT_OPENMETRICS, FORMAT_PROMETHEUS };

static const char *const format_names[] = {
	[FORMAT_TABLE] = "table",
	[FORMAT_JSON] = "json",
	[FORMAT_OPENMETRICS] = "openmetrics",
	[FORMAT_PROMETHEUS] = "prometheus",
};

static struct {
	enum output_format format;
	bool legend;
	const char *state_file;
	const char *root;
	const char *cgroup_root;
} arg = {
	.legend = true,
	.state_file = MEMCGD_STATE_FILE,
	.root = "",
	.cgroup_root = CGROUP_ROOT,
};

static bool pid_alive(pid_t pid);

static void help(void)
{
	printf("Usage: memcgctl [OPTIONS] COMMAND\n"
	       "\n"
	       "Show and check memcgd, the per-slice memory priority daemon.\n"
	       "\n"
	       "Commands:\n"
	       "  status [SLICE]    daemon state, kernel support and, per managed slice, its cgroup,\n"
	       "                    priority, attachment, live fault rate, activity, counters, memory\n"
	       "                    and NUMA balancing\n"
	       "  reload            make memcgd (memcgd.service's main process) re-read its configuration\n"
	       "                    and wait for the result (exit 1 when it was refused: the previous\n"
	       "                    policy stays); needs root\n"
	       "  check [FILE...]   validate the configuration (default: memcgd.conf and memcgd.d/*.conf\n"
	       "                    from /etc, /run, /usr/local/lib, /usr/lib) without running anything\n"
	       "\n"
	       "Options:\n"
	       "  --format=FORMAT   status as table (the default), json, openmetrics (OpenMetrics 1.0\n"
	       "                    text) or prometheus (Prometheus text 0.0.4, for node_exporter)\n"
	       "  --json            status as JSON (--format=json)\n"
	       "  --no-legend       status: the table's rows alone, without the overview, the column\n"
	       "                    headers and the per-slice details\n"
	       "  --no-pager        accepted for systemctl's sake: memcgctl never pages\n"
	       "  --root=DIR        read configuration below DIR instead of /\n"
	       "  --memory=SIZE     check: the nodes' memory, for the Mode=min budget (default: this\n"
	       "                    machine's)\n"
	       "  --state-file=PATH memcgd state file (default " MEMCGD_STATE_FILE ")\n"
	       "  --cgroup-root=DIR where cgroup2 is mounted (default " CGROUP_ROOT ")\n"
	       "  -h --help         this help\n"
	       "  --version         version\n");
}

static uint64_t now_realtime_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * USEC_PER_SEC + (uint64_t)ts.tv_nsec / 1000;
}

static void fill_memory(struct slice_status *sl)
{
	_cleanup_free_ char *dir = NULL;

	if (!sl->cgroup || !sl->cgroup[0])
		return;
	dir = strjoin3(arg.cgroup_root, sl->cgroup[0] == '/' ? "" : "/", sl->cgroup);
	if (!dir)
		return;
	if (cgroup_read_memory_value(dir, "memory.current", &sl->memory_current) < 0)
		return;
	sl->have_memory = true;
	if (cgroup_read_memory_value(dir, "memory.min", &sl->memory_min) < 0)
		sl->memory_min = 0;
	if (cgroup_read_memory_value(dir, "memory.low", &sl->memory_low) < 0)
		sl->memory_low = 0;
	if (cgroup_read_memory_value(dir, "memory.high", &sl->memory_high) < 0)
		sl->memory_high = UINT64_MAX;
	{
		static const char *const keys[] = { "numa_pte_updates", "numa_hint_faults", "numa_pages_migrated" };
		uint64_t v[ARRAY_SIZE(keys)];

		sl->have_numa_stat = cgroup_read_stat(dir, "memory.stat", keys, ARRAY_SIZE(keys), v) == 0;
		if (sl->have_numa_stat) {
			sl->numa_pte_updates = v[0];
			sl->numa_hint_faults = v[1];
			sl->numa_pages_migrated = v[2];
		}
	}
}

/* kernel.numa_balancing (0 off, 1 normal, 2 memory tiering, 3 both), -1 when it cannot be read
 * (a kernel without NUMA balancing) */
static int numa_sysctl(void)
{
	_cleanup_free_ char *line = NULL;
	char *end;
	long v;

	if (read_one_line("/proc/sys/kernel/numa_balancing", &line) < 0)
		return -1;
	v = strtol(line, &end, 10);
	return end == line || *end || v < 0 || v > INT32_MAX ? -1 : (int)v;
}

static int not_running(const char *why)
{
	struct kernel_support ks;
	int r = kernel_probe_cached(MEMCGD_KERNEL_PROBE_CACHE, false, &ks);

	if (arg.format == FORMAT_JSON) {
		status_render_json_not_running(stdout, why, ks.release, r == 0, ks.hook_names, numa_sysctl());
	} else if (arg.format == FORMAT_OPENMETRICS || arg.format == FORMAT_PROMETHEUS) {
		status_render_metrics_not_running(stdout, ks.release, r == 0, ks.hook_names, numa_sysctl(),
						  arg.format == FORMAT_OPENMETRICS ? METRICS_OPENMETRICS
										   : METRICS_PROMETHEUS);
	} else if (!arg.legend) {
		/* the rows alone: none, and the reason where a script's reader sees it */
		fprintf(stderr, "memcgd is not running (%s).\n", why);
	} else {
		printf("memcgd is not running (%s).\n", why);
		printf("Start it with: systemctl start memcgd\n");
		printf("Kernel: %s, %s; memcg_bpf_ops hooks: %s\n", ks.release,
		       r == 0 ? "supported" : "NOT supported", ks.hook_names[0] ? ks.hook_names : "none");
		if (r < 0)
			printf("        %s\n", ks.error);
		printf("Without memcgd the kernel's own memory.min/memory.low settings apply.\n");
	}
	return EXIT_NOT_RUNNING;
}

static int cmd_status(int argc, char **argv)
{
	struct daemon_status s;
	const char *slice = argc > 1 ? argv[1] : NULL;
	char why[256];
	bool found = !slice;
	int r;

	if (argc > 2) {
		fprintf(stderr, "memcgctl: status takes at most one slice name\n");
		return EXIT_FAILURE;
	}
	r = state_read_file(arg.state_file, &s);
	if (r == -ENOENT) {
		snprintf(why, sizeof(why), "no %s", arg.state_file);
		return not_running(why);
	}
	if (r < 0) {
		fprintf(stderr, "memcgctl: cannot read %s: %s\n", arg.state_file, strerror(-r));
		daemon_status_done(&s);
		return EXIT_FAILURE;
	}
	if (!pid_alive(s.pid)) {
		snprintf(why, sizeof(why), "process %d from %s is gone", (int)s.pid, arg.state_file);
		daemon_status_done(&s);
		return not_running(why);
	}
	s.numa_sysctl = numa_sysctl();
	for (size_t i = 0; i < s.n_slices; i++) {
		fill_memory(&s.slices[i]);
		if (slice && s.slices[i].name && streq(s.slices[i].name, slice))
			found = true;
	}
	if (!found) {
		fprintf(stderr, "memcgctl: %s is not managed by memcgd (no file in memcgd.d names it)\n", slice);
		daemon_status_done(&s);
		return EXIT_FAILURE;
	}
	switch (arg.format) {
	case FORMAT_JSON:
		status_render_json(stdout, &s, slice, now_realtime_usec());
		break;
	case FORMAT_OPENMETRICS:
	case FORMAT_PROMETHEUS:
		status_render_metrics(stdout, &s, slice, now_realtime_usec(),
				      arg.format == FORMAT_OPENMETRICS ? METRICS_OPENMETRICS : METRICS_PROMETHEUS);
		break;
	case FORMAT_TABLE:
		if (arg.legend)
			status_render_text(stdout, &s, slice, now_realtime_usec());
		else
			status_render_table(stdout, &s, slice, false);
		break;
	}
	daemon_status_done(&s);
	return EXIT_SUCCESS;
}

static bool pid_alive(pid_t pid)
{
	return pid > 0 && !(kill(pid, 0) < 0 && errno == ESRCH);
}

/* memcgd's pid as systemd knows it: MainPID of memcgd.service (0 when it is not running).
 * Returns 0, or -errno with the reason in err. */
static int systemd_main_pid(pid_t *ret, char *err, size_t len)
{
	const struct bus_unit_query q = { .unit = "memcgd.service", .property = "MainPID", .type = 'u' };
	struct bus_unit_result res;
	sd_bus *bus = NULL;
	int r;

	r = sd_bus_open_system(&bus);
	if (r < 0) {
		snprintf(err, len, "cannot reach systemd on the system bus: %s", strerror(-r));
		return r;
	}
	/* the lookup memcgd itself uses (systemd-bus.c), with the same deadline */
	r = bus_unit_lookup(bus, &q, BUS_DEADLINE_USEC, &res);
	if (r < 0)
		snprintf(err, len, "no answer from systemd about memcgd.service: %s", strerror(-r));
	else if (res.r < 0)
		snprintf(err, len, "%s", res.reason);
	else
		*ret = res.r > 0 ? (pid_t)res.u32 : 0; /* not loaded: not running */
	if (r >= 0 && res.r < 0)
		r = res.r;
	free(res.str);
	sd_bus_close_unref(bus);
	return r < 0 ? r : 0;
}

/* A pidfd for pid after checking that it is memcgd (its comm). The pidfd pins the process: a
 * pid reused after the check cannot receive the signal. Returns the fd or -errno. */
static int open_memcgd(pid_t pid, uid_t *ret_uid, char *err, size_t len)
{
	char path[64], comm[32] = "";
	struct stat st;
	int fd, r;
	FILE *f;

	fd = pidfd_open(pid, 0);
	if (fd < 0) {
		r = -errno;
		snprintf(err, len, "process %d: %s", (int)pid, r == -ESRCH ? "gone" : strerror(-r));
		return r;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	/* read after opening the pidfd: if the process is still alive now, this was its comm */
	if (stat(path, &st) < 0 || (pidfd_send_signal(fd, 0, NULL, 0) < 0 && errno != EPERM)) {
		snprintf(err, len, "process %d is gone", (int)pid);
		close(fd);
		return -ESRCH;
	}
	if (!streq(comm, "memcgd")) {
		snprintf(err, len, "process %d is '%s', not memcgd (a stale pid?)", (int)pid, comm);
		close(fd);
		return -ESRCH;
	}
	*ret_uid = st.st_uid;
	return fd;
}

static int cmd_reload(bool use_systemd)
{
	struct daemon_status s;
	_cleanup_close_ int pidfd = -1;
	uint64_t before = 0;
	char err[256];
	const char *env;
	pid_t pid = 0;
	uid_t uid = (uid_t)-1;
	int r;

	/* which process: systemd's MainPID (ExecReload= gets it as $MAINPID), never a pid that
	 * only a file remembers; a memcgd started by hand with --state-file is found through it */
	env = getenv("MAINPID");
	if (use_systemd && env && getenv("INVOCATION_ID")) {
		pid = (pid_t)strtol(env, NULL, 10);
	} else if (use_systemd) {
		r = systemd_main_pid(&pid, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "memcgctl: cannot find memcgd: %s\n", err);
			return EXIT_FAILURE;
		}
		if (pid <= 0) {
			fprintf(stderr, "memcgctl: memcgd is not running (memcgd.service has no main process); "
				"start it with: systemctl start memcgd\n");
			return EXIT_NOT_RUNNING;
		}
	} else {
		r = state_read_file(arg.state_file, &s);
		pid = r < 0 ? 0 : s.pid;
		daemon_status_done(&s);
		if (pid <= 0) {
			fprintf(stderr, "memcgctl: memcgd is not running (%s: %s)\n", arg.state_file,
				r < 0 ? strerror(-r) : "no pid");
			return EXIT_NOT_RUNNING;
		}
	}
	pidfd = open_memcgd(pid, &uid, err, sizeof(err));
	if (pidfd < 0) {
		fprintf(stderr, "memcgctl: memcgd is not running: %s\n", err);
		return EXIT_NOT_RUNNING;
	}
	if (geteuid() != 0 && geteuid() != uid) {
		fprintf(stderr, "memcgctl: permission denied: only root can reload memcgd (pid %d); "
			"status works for everyone. Try: sudo systemctl reload memcgd\n", (int)pid);
		return EXIT_FAILURE;
	}
	if (state_read_file(arg.state_file, &s) == 0 && s.pid == pid)
		before = s.reloads;
	else if (!use_systemd) {
		fprintf(stderr, "memcgctl: %s does not belong to memcgd (pid %d)\n", arg.state_file, (int)pid);
		daemon_status_done(&s);
		return EXIT_FAILURE;
	}
	daemon_status_done(&s);
	if (pidfd_send_signal(pidfd, SIGHUP, NULL, 0) < 0) {
		fprintf(stderr, "memcgctl: cannot signal memcgd (pid %d): %s\n", (int)pid, strerror(errno));
		return errno == EPERM ? EXIT_FAILURE : EXIT_NOT_RUNNING;
	}
	for (int i = 0; i < 300; i++) { /* 30 s */
		struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		if (state_read_file(arg.state_file, &s) == 0 && s.pid == pid && s.reloads > before) {
			bool failed = s.reload_error && s.reload_error[0];

			if (failed) {
				fprintf(stderr, "memcgctl: reload failed, previous policy (generation %" PRIu64 ") kept: %s\n",
					s.config_generation, s.reload_error);
				daemon_status_done(&s);
				return EXIT_FAILURE;
			}
			printf("memcgd reloaded: configuration generation %" PRIu64 ", %zu slices\n", s.config_generation,
			       s.n_slices);
			/* the valid files apply and the reload succeeded (systemctl reload too: memcgd.d(5));
			 * the files left out are named, as memcgctl check would */
			for (size_t k = 0; k < s.n_skipped; k++)
				if (s.skipped[k].line)
					fprintf(stderr, "%s:%u: %s\n", s.skipped[k].file, s.skipped[k].line, s.skipped[k].message);
				else
					fprintf(stderr, "%s: %s\n", s.skipped[k].file, s.skipped[k].message);
			if (s.n_skipped)
				fprintf(stderr, "memcgctl: warning: %zu problem%s above: those files were left out (a slice "
					"they had configured keeps its previous policy until they are fixed); the other files "
					"apply\n", s.n_skipped, s.n_skipped == 1 ? "" : "s");
			daemon_status_done(&s);
			return EXIT_SUCCESS;
		}
		daemon_status_done(&s);
		if (pidfd_send_signal(pidfd, 0, NULL, 0) < 0) {
			fprintf(stderr, "memcgctl: memcgd (pid %d) exited during the reload\n", (int)pid);
			return EXIT_FAILURE;
		}
	}
	fprintf(stderr, "memcgctl: memcgd (pid %d) did not finish reloading within 30 s\n", (int)pid);
	return EXIT_FAILURE;
}

static int cmd_check(int argc, char **argv)
{
	struct memcgd_config c;
	struct diag_list d = {}, notes = {};
	char a[64], b[64], tuning[256];
	int r;

	if (argc > 1)
		r = config_load_files(argv + 1, (size_t)(argc - 1), &c, &d);
	else
		r = config_load(arg.root, &c, &d);
	diag_list_print(&d, stderr);
	if (r < 0) {
		fprintf(stderr, "memcgctl: configuration has %zu error%s; memcgd would refuse it (a running memcgd "
			"keeps its current policy on reload)\n", d.n, d.n == 1 ? "" : "s");
		memcgd_config_done(&c);
		diag_list_clear(&d);
		return EXIT_FAILURE;
	}
	if (c.daemon.file)
		printf("%s: daemon defaults%s\n", c.daemon.file, c.daemon.dry_run ? ", DryRun=yes" : "");
	for (size_t i = 0; i < c.n_slices; i++) {
		const struct slice_conf *s = &c.slices[i];

		char cpu[48] = "", reclaim[96] = "", busy[96], h[32], rate[32];

		if (s->settings.cpu_usage_percent == CPU_USAGE_ANY)
			snprintf(cpu, sizeof(cpu), " or at any CPU time");
		else if (s->settings.cpu_usage_percent)
			snprintf(cpu, sizeof(cpu), " or at %" PRIu64 "%% CPU", s->settings.cpu_usage_percent);
		if (s->settings.reclaim_background)
			snprintf(reclaim, sizeof(reclaim), ", background reclaim below %s free, %s%s",
				 format_size(h, sizeof(h), s->settings.reclaim_headroom),
				 s->settings.reclaim_rate == SIZE_INFINITY ? "no rate limit"
									    : format_size(rate, sizeof(rate), s->settings.reclaim_rate),
				 s->settings.reclaim_rate == SIZE_INFINITY ? "" : "/s");
		if (s->settings.fault_rate > 1)
			snprintf(busy, sizeof(busy), "active above %" PRIu64 " faults/s over %s", s->settings.fault_rate,
				 format_duration(a, sizeof(a), s->settings.window_usec));
		else
			snprintf(busy, sizeof(busy), "busy at any page fault");
		printf("%s: %s priority %ld, %s%s, protect %s, throttle %s%s\n",
		       s->file, s->name, s->priority, busy, cpu,
		       protect_mode_to_string(s->settings.protect),
		       s->settings.throttle_delay_usec ? format_duration(b, sizeof(b), s->settings.throttle_delay_usec)
						       : "never", reclaim);
		/* on lines of their own: the line above is what scripts parse */
		if (s->settings.numa == NUMA_BALANCING_ON)
			printf("  [NUMA] Balancing=yes, %s\n",
			       numa_tuning_text(tuning, sizeof(tuning), s->settings.numa_scan_period_min_usec,
						s->settings.numa_scan_period_max_usec, s->settings.numa_scan_size,
						s->settings.numa_hot_threshold_usec));
		else if (s->settings.numa == NUMA_BALANCING_OFF)
			printf("  [NUMA] Balancing=no (never NUMA balanced, whatever kernel.numa_balancing says)\n");
		else
			printf("  [NUMA] Balancing=default (as kernel.numa_balancing)\n");
		printf("  [Activity] Hold=%s%s%s, [Protect] Size=%s%s%s, [Throttle] When=%s\n",
		       s->settings.hold_usec == HOLD_AUTO ? "auto (learned, at most " : "",
		       format_duration(a, sizeof(a), s->settings.hold_usec == HOLD_AUTO ? s->settings.max_hold_usec
											: s->settings.hold_usec),
		       s->settings.hold_usec == HOLD_AUTO ? ")" : "",
		       protect_size_to_string(s->settings.protect_size),
		       s->settings.protect_wake_reserve ? " WakeReserve=" : "",
		       s->settings.protect_wake_reserve ? format_size(h, sizeof(h), s->settings.protect_wake_reserve) : "",
		       throttle_when_to_string(s->settings.throttle_when));
	}
	config_notes(&c, &notes);
	diag_list_print(&notes, stdout);
	printf("configuration OK: %zu slice%s\n", c.n_slices, c.n_slices == 1 ? "" : "s");
	memcgd_config_done(&c);
	diag_list_clear(&d);
	diag_list_clear(&notes);
	return EXIT_SUCCESS;
}

static int parse_format(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++)
		if (streq(name, format_names[i])) {
			arg.format = (enum output_format)i;
			return 0;
		}
	fprintf(stderr, "memcgctl: unknown --format '%s' (table, json, openmetrics or prometheus)\n", name);
	return -EINVAL;
}

enum {
	OPT_JSON = 0x100, OPT_FORMAT, OPT_NO_LEGEND, OPT_NO_PAGER, OPT_ROOT, OPT_MEMORY, OPT_STATE, OPT_CGROOT, OPT_VERSION
};

static const struct option options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "no-legend", no_argument, NULL, OPT_NO_LEGEND },
	{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "state-file", required_argument, NULL, OPT_STATE },
	{ "cgroup-root", required_argument, NULL, OPT_CGROOT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{}
};

/* Options into arg. in_order: stop at the first non-option (the command); otherwise options and
 * operands may be mixed (memcgctl status high.slice --json) and the operands end up first.
 * Returns 1 to go on, 0 to exit successfully (--help, --version), -EINVAL for bad usage. */
static int parse_options(int argc, char **argv, bool in_order)
{
	int c;

	optind = 0; /* glibc: initialize afresh, so that a second pass may permute */
	while ((c = getopt_long(argc, argv, in_order ? "+h" : "h", options, NULL)) >= 0) {
		switch (c) {
		case OPT_JSON:
			arg.format = FORMAT_JSON;
			break;
		case OPT_FORMAT:
			if (parse_format(optarg) < 0)
				return -EINVAL;
			break;
		case OPT_NO_LEGEND:
			arg.legend = false;
			break;
		case OPT_NO_PAGER:
			break; /* memcgctl writes to stdout and never starts a pager */
		case OPT_ROOT:
			arg.root = optarg;
			break;
		case OPT_MEMORY: {
			uint64_t bytes;

			if (parse_size(optarg, &bytes) < 0 || bytes == 0 || bytes == SIZE_INFINITY) {
				fprintf(stderr, "memcgctl: --memory='%s' is not a memory size (e.g. 64G)\n", optarg);
				return -EINVAL;
			}
			min_budget_set_ram(bytes);
			break;
		}
		case OPT_STATE:
			arg.state_file = optarg;
			break;
		case OPT_CGROOT:
			arg.cgroup_root = optarg;
			break;
		case 'h':
			help();
			return 0;
		case OPT_VERSION:
			printf("memcgctl %s\n", MEMCGD_VERSION);
			return 0;
		default:
			return -EINVAL;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	int r = parse_options(argc, argv, true);

	if (r <= 0)
		return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	argc -= optind;
	argv += optind;
	if (argc == 0 || streq(argv[0], "status")) {
		/* options may also follow the command, before or after the slice: memcgctl status --json */
		char *rest[] = { "status", NULL, NULL };
		int n = 0;

		if (argc > 1) {
			r = parse_options(argc, argv, false);
			if (r <= 0)
				return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
			for (int i = optind; i < argc; i++) {
				if (n == 1) {
					fprintf(stderr, "memcgctl: unexpected argument '%s'\n", argv[i]);
					return EXIT_FAILURE;
				}
				rest[++n] = argv[i];
			}
		}
		return cmd_status(n + 1, rest);
	}
	if (streq(argv[0], "check"))
		return cmd_check(argc, argv);
	if (streq(argv[0], "reload") && argc == 1)
		/* a state file of one's own (memcgd --state-file=) names a memcgd not run by systemd */
		return cmd_reload(streq(arg.state_file, MEMCGD_STATE_FILE));
	fprintf(stderr, "memcgctl: unknown command '%s' (see memcgctl --help)\n", argv[0]);
	return EXIT_FAILURE;
}
