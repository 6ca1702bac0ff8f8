// SPDX-License-Identifier: GPL-2.0-only
/* memcgd: per-slice memory priority with memcg_bpf_ops. See memcgd(8). */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>

#include "cgroup-files.h"
#include "config.h"
#include "kernel-check.h"
#include "log.h"
#include "manager.h"
#include "util.h"

#define EXIT_CONFIG 78 /* sysexits.h EX_CONFIG */

static void help(void)
{
	printf("Usage: memcgd [OPTIONS]\n"
	       "\n"
	       "Makes memory protection follow activity: while a slice configured in memcgd.d(5) faults\n"
	       "pages faster than its threshold it is protected from reclaim, and managed slices of\n"
	       "lower priority are throttled. Runs as memcgd.service; inspect with memcgctl status.\n"
	       "\n"
	       "Options:\n"
	       "  --dry-run           measure and report what would be done, attach nothing\n"
	       "  --root=DIR          read configuration below DIR instead of /\n"
	       "  --state-file=PATH   where memcgctl finds the state (default " MEMCGD_STATE_FILE ")\n"
	       "  --no-bus            find slice cgroups by name instead of asking systemd\n"
	       "  --cgroup-root=DIR   where cgroup2 is mounted (default " CGROUP_ROOT ")\n"
	       "  --check-kernel      exit 0 when the running kernel has memcg_bpf_ops, 1 (skip) when it\n"
	       "                      does not (memcgd.service's ExecCondition=)\n"
	       "  --debug             log debug messages (libbpf included)\n"
	       "  -h --help           this help\n"
	       "  --version           version\n");
}

int main(int argc, char **argv)
{
	enum { OPT_DRY = 0x100, OPT_ROOT, OPT_STATE, OPT_NOBUS, OPT_DEBUG, OPT_VERSION, OPT_CGROOT, OPT_CHECK_KERNEL };
	static const struct option options[] = {
		{ "dry-run", no_argument, NULL, OPT_DRY },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "state-file", required_argument, NULL, OPT_STATE },
		{ "cgroup-root", required_argument, NULL, OPT_CGROOT },
		{ "no-bus", no_argument, NULL, OPT_NOBUS },
		{ "debug", no_argument, NULL, OPT_DEBUG },
		{ "check-kernel", no_argument, NULL, OPT_CHECK_KERNEL },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{}
	};
	struct manager_options opt = {
		.root = "",
		.state_file = MEMCGD_STATE_FILE,
		.cgroup_root = CGROUP_ROOT,
		.use_bus = true,
	};
	static struct manager m;
	bool cannot_work, check_kernel = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (c) {
		case OPT_DRY:
			opt.dry_run = true;
			break;
		case OPT_ROOT:
			opt.root = optarg;
			break;
		case OPT_STATE:
			opt.state_file = optarg;
			break;
		case OPT_CGROOT:
			opt.cgroup_root = optarg;
			break;
		case OPT_NOBUS:
			opt.use_bus = false;
			break;
		case OPT_DEBUG:
			log_max_level = LOG_DEBUG;
			break;
		case OPT_CHECK_KERNEL:
			check_kernel = true;
			break;
		case 'h':
			help();
			return EXIT_SUCCESS;
		case OPT_VERSION:
			printf("memcgd %s\n", MEMCGD_VERSION);
			return EXIT_SUCCESS;
		default:
			return EXIT_FAILURE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "memcgd: unexpected argument '%s'\n", argv[optind]);
		return EXIT_FAILURE;
	}
	if (check_kernel) {
		char why[640];

		/* ExecCondition=: 1 skips the unit (the journal has this line), 0 starts memcgd */
		r = kernel_check(NULL, why, sizeof(why));
		printf("memcgd: %s\n", why);
		return r;
	}
	if (streq(opt.state_file, MEMCGD_STATE_FILE) && mkdir(MEMCGD_RUNTIME_DIR, 0755) < 0 && errno != EEXIST)
		log_warning("cannot create %s: %s", MEMCGD_RUNTIME_DIR, strerror(errno));

	r = manager_start(&m, &opt);
	if (r >= 0)
		r = manager_run(&m);
	if (r < 0)
		sd_notifyf(0, "ERRNO=%d", -r);
	cannot_work = m.cannot_work;
	manager_free(&m);
	if (r < 0) {
		log_error("memcgd exits: %s", strerror(-r));
		/* only a configuration or kernel that cannot work will not work after a restart either
		 * (the unit has RestartPreventExitStatus=78); a failed BPF load or attach may */
		return cannot_work ? EXIT_CONFIG : EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
