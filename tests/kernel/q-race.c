// SPDX-License-Identifier: GPL-2.0
/*
 * Test q: attach/detach races mkdir/rmdir, memory controller toggles and
 * reclaim for RACE_SECONDS on two CPUs. Three processes hammer one subtree:
 *
 *   attacher    attaches ops_a to x (with and without BPF_F_ALLOW_OVERRIDE)
 *               and ops_b to whichever child of x exists, detaches them by
 *               closing or BPF_LINK_DETACH, in random order
 *   churner     creates x/c<n>, runs a task that faults memory in it,
 *               removes it again; every few rounds it disables and enables
 *               the memory controller in x's cgroup.subtree_control
 *   reclaimer   writes to x's memory.reclaim
 *
 * Every failure must be one the interface documents (EBUSY on x; EBUSY or
 * ENOENT on a child, which may have gone away or lost its memory
 * controller); each process must make progress; the debug
 * kernel's console must stay clean (lockdep, KASAN, RCU: the harness fails
 * the boot on any report); afterwards no struct_ops link is left and a
 * normal attachment still works.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "kt-proc.h"
#include "ktest.h"

#define RACE_SECONDS 60
#define NR_CHILDREN 4

enum { ATTACH_X_OK, ATTACH_CHILD_OK, ATTACH_EXPECTED_ERR, CHURN_ROUNDS, TOGGLES, RECLAIMS, UNEXPECTED };

static struct hooks_bpf *skel;
static struct kt_report *report;	/* value[] counters above, shared */
static const struct kt_cgroup *x;
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void count(int what)
{
	__atomic_fetch_add(&report->value[what], 1, __ATOMIC_RELAXED);
}

static void child_path(char *buf, size_t len, unsigned int n)
{
	if (snprintf(buf, len, "%s/c%u", x->path, n % NR_CHILDREN) >= (int)len)
		ktest_fail("cgroup path too long: %s", x->path);
}

static void note_attach_error(const char *what, int err, bool child)
{
	if (err == -EBUSY || (child && err == -ENOENT)) {
		count(ATTACH_EXPECTED_ERR);
		return;
	}
	count(UNEXPECTED);
	fprintf(stderr, "q-race: %s: unexpected %d (%s)\n", what, err, strerror(-err));
}

static int attacher(void *arg)
{
	struct bpf_link *on_x = NULL, *on_child = NULL;
	char path[PATH_MAX + 16];
	unsigned int n = 0;
	struct hooks_bpf *own;
	int x_fd;

	(void)arg;
	signal(SIGTERM, on_term);
	/* kt_spawn() closed every inherited fd: the skeleton's maps and x's fd are the child's own */
	own = KT_SKEL_LOAD(hooks_bpf);
	x_fd = open(x->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x_fd < 0)
		ktest_fail("open %s: %s", x->path, strerror(errno));
	srand(1);
	while (!stop) {
		int r = rand(), err, fd;

		if (!on_x) {
			err = kt_attach_fd(own->maps.ops_a, x_fd, r & 1 ? BPF_F_ALLOW_OVERRIDE : 0, &on_x);
			err ? note_attach_error("attach ops_a to x", err, false) : count(ATTACH_X_OK);
		}
		child_path(path, sizeof(path), n++);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && !on_child) {
			err = kt_attach_fd(own->maps.ops_b, fd, 0, &on_child);
			err ? note_attach_error("attach ops_b to a child", err, true) : count(ATTACH_CHILD_OK);
		}
		if (fd >= 0)
			close(fd);
		/* detach in a random order, by BPF_LINK_DETACH or by closing */
		if (on_child && (r & 2)) {
			if (r & 4)
				bpf_link__detach(on_child);
			bpf_link__destroy(on_child);
			on_child = NULL;
		}
		if (on_x && (r & 8)) {
			if (r & 16)
				bpf_link__detach(on_x);
			bpf_link__destroy(on_x);
			on_x = NULL;
		}
		usleep(r % 2000);
	}
	bpf_link__destroy(on_child);
	bpf_link__destroy(on_x);
	close(x_fd);
	hooks_bpf__destroy(own);
	return 0;
}

static int enter_and_fault(const char *path)
{
	char procs[PATH_MAX + 48];
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd;
		char *p;

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
		fd = open(procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(0);	/* the cgroup went away or lost its controller */
		close(fd);
		p = mmap(NULL, KT_MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (size_t i = 0; i < KT_MiB; i += 4096)
			p[i] = 1;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static int churner(void *arg)
{
	char path[PATH_MAX + 16], ctl[PATH_MAX + 32];
	unsigned int n = 0;

	(void)arg;
	signal(SIGTERM, on_term);
	snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", x->path);
	while (!stop) {
		child_path(path, sizeof(path), n);
		if (mkdir(path, 0755) && errno != EEXIST) {
			count(UNEXPECTED);
			fprintf(stderr, "q-race: mkdir %s: %s\n", path, strerror(errno));
		}
		if (enter_and_fault(path)) {
			count(UNEXPECTED);
			fprintf(stderr, "q-race: faulting in %s failed\n", path);
		}
		for (int i = 0; i < 100 && rmdir(path) && errno == EBUSY; i++)
			usleep(1000);	/* the task is still exiting */
		count(CHURN_ROUNDS);
		if (++n % 8 == 0) {
			/* all children gone: the controller can be disabled */
			for (unsigned int k = 0; k < NR_CHILDREN; k++) {
				child_path(path, sizeof(path), k);
				rmdir(path);
			}
			if (!kt_write_file(ctl, "-memory") && !kt_write_file(ctl, "+memory"))
				count(TOGGLES);
		}
	}
	return 0;
}

static int reclaimer(void *arg)
{
	char path[PATH_MAX + 32];

	(void)arg;
	signal(SIGTERM, on_term);
	snprintf(path, sizeof(path), "%s/memory.reclaim", x->path);
	while (!stop) {
		int err = kt_write_file(path, "1M");

		/* -EAGAIN: less than asked could be reclaimed; -EINTR: the SIGTERM that ends
		 * the race arrived during the write (memory.reclaim stops on a pending signal) */
		if (err && err != -EAGAIN && !(err == -EINTR && stop)) {
			count(UNEXPECTED);
			fprintf(stderr, "q-race: memory.reclaim: %s\n", strerror(-err));
		}
		count(RECLAIMS);
		usleep(5000);
	}
	return 0;
}

static bool links_at_most(void *data)
{
	return kt_count_struct_ops_links() <= *(int *)data;
}

static void stop_child(struct kt_child *c, const char *name)
{
	int status;

	kill(c->pid, SIGTERM);
	if (waitpid(c->pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		ktest_error("the %s process did not end cleanly (status %#x)", name, status);
}

int main(void)
{
	struct kt_child att, churn, recl;
	struct kt_cgroup *parent, *fresh;
	struct bpf_link *link;
	int baseline;

	ktest_init("q-race");
	report = kt_report_alloc();
	parent = kt_cg_parent();
	x = kt_cg_create(parent, "x", true);
	baseline = kt_count_struct_ops_links();
	skel = KT_SKEL_LOAD(hooks_bpf);

	att = kt_spawn(NULL, attacher, NULL);
	churn = kt_spawn(NULL, churner, NULL);
	recl = kt_spawn(NULL, reclaimer, NULL);
	ktest_log("racing attach/detach, mkdir/rmdir, memory controller toggles and reclaim for %d s",
		  RACE_SECONDS);
	sleep(RACE_SECONDS);
	stop_child(&att, "attacher");
	stop_child(&churn, "churner");
	stop_child(&recl, "reclaimer");

	ktest_log("attachments to x %llu, to a child %llu, documented refusals %llu, churn rounds %llu, controller toggles %llu, reclaims %llu, unexpected %llu",
		  (unsigned long long)report->value[ATTACH_X_OK],
		  (unsigned long long)report->value[ATTACH_CHILD_OK],
		  (unsigned long long)report->value[ATTACH_EXPECTED_ERR],
		  (unsigned long long)report->value[CHURN_ROUNDS],
		  (unsigned long long)report->value[TOGGLES],
		  (unsigned long long)report->value[RECLAIMS],
		  (unsigned long long)report->value[UNEXPECTED]);
	KT_ASSERT(report->value[UNEXPECTED] == 0, "only documented errors (see the lines above)");
	KT_ASSERT(report->value[ATTACH_X_OK] >= 10, "the attacher attached to x (%llu)",
		  (unsigned long long)report->value[ATTACH_X_OK]);
	KT_ASSERT(report->value[ATTACH_CHILD_OK] >= 10, "the attacher attached to a child (%llu)",
		  (unsigned long long)report->value[ATTACH_CHILD_OK]);
	KT_ASSERT(report->value[CHURN_ROUNDS] >= 10, "the churner went round (%llu)",
		  (unsigned long long)report->value[CHURN_ROUNDS]);
	KT_ASSERT(report->value[TOGGLES] >= 1, "the memory controller was toggled (%llu)",
		  (unsigned long long)report->value[TOGGLES]);
	KT_ASSERT(report->value[RECLAIMS] >= 10, "the reclaimer reclaimed (%llu)",
		  (unsigned long long)report->value[RECLAIMS]);

	/* The attacher's links are closed: none may be left behind. */
	KT_ASSERT(ktest_wait_for(links_at_most, &baseline, 10, 100),
		  "struct_ops links back to the baseline of %d (now %d)", baseline,
		  kt_count_struct_ops_links());
	fresh = kt_cg_create(parent, "fresh", false);
	link = kt_attach_ok(skel->maps.ops_a, fresh, 0);
	kt_expect_ops(bpf_map__fd(skel->maps.hits), fresh, KT_SEEN_A, "after the race");
	kt_link_destroy(&link);
	hooks_bpf__destroy(skel);
	ktest_pass();
}
