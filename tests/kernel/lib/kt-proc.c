// SPDX-License-Identifier: GPL-2.0
/* Workload child processes for the memcgd kernel tests. */
#include "kt-proc.h"
#include "ktest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CHILDREN 64

static pid_t children[MAX_CHILDREN];
static bool registered;
static int child_ready_fd = -1;	/* in a child: write end of its ready pipe */

void kt_forget_child(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
}

static void kill_children(void *data)
{
	(void)data;
	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] > 0) {
			kill(children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
	}
}

void kt_remember_child(pid_t pid)
{
	if (!registered) {
		ktest_on_exit(kill_children, NULL);
		registered = true;
	}
	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (!children[i]) {
			children[i] = pid;
			return;
		}
	}
	kill(pid, SIGKILL);
	ktest_fail("more than %d live children", MAX_CHILDREN);
}

struct kt_child kt_spawn(const struct kt_cgroup *cg, int (*fn)(void *arg), void *arg)
{
	struct kt_child c = { .pid = -1, .ready_fd = -1 };
	int pipefd[2], err;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		ktest_fail("pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	c.pid = fork();
	if (c.pid < 0)
		ktest_fail("fork: %s", strerror(errno));
	if (c.pid == 0) {
		/*
		 * Keep only stdio and the ready pipe: an inherited BPF link fd
		 * would keep an attachment alive after the test destroyed it.
		 */
		if (dup2(pipefd[1], 3) < 0)
			_exit(102);
		close_range(4, ~0U, 0);
		child_ready_fd = 3;
		if (cg) {
			err = kt_cg_enter(cg, 0);
			if (err) {
				fprintf(stdout, "child: cannot enter %s: %s\n", cg->path,
					ktest_strerror(err));
				_exit(100);
			}
		}
		_exit(fn(arg));
	}
	close(pipefd[1]);
	c.ready_fd = pipefd[0];
	kt_remember_child(c.pid);
	return c;
}

void kt_child_ready(void)
{
	char b = 'r';

	if (child_ready_fd >= 0 && write(child_ready_fd, &b, 1) != 1)
		_exit(101);
}

bool kt_child_wait_ready(struct kt_child *c, double timeout_s)
{
	struct pollfd pfd = { .fd = c->ready_fd, .events = POLLIN };
	char b;
	int n;

	do {
		n = poll(&pfd, 1, (int)(timeout_s * 1000));
	} while (n < 0 && errno == EINTR);
	if (n <= 0)
		return false;
	return read(c->ready_fd, &b, 1) == 1;
}

static void child_close(struct kt_child *c)
{
	if (c->ready_fd >= 0)
		close(c->ready_fd);
	c->ready_fd = -1;
	kt_forget_child(c->pid);
	c->pid = -1;
}

int kt_wait_pid(pid_t pid, double timeout_s, const char *what)
{
	double deadline = ktest_now() + timeout_s;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			ktest_fail("waitpid %d: %s", (int)pid, strerror(errno));
		if (ktest_now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			kt_forget_child(pid);
			ktest_fail("%s %d did not finish within %.0f s", what, (int)pid, timeout_s);
		}
		ktest_sleep_ms(20);
	}
	kt_forget_child(pid);
	if (WIFSIGNALED(status))
		ktest_fail("%s %d killed by signal %d%s", what, (int)pid, WTERMSIG(status),
			   WTERMSIG(status) == SIGKILL ? " (OOM killer?)" : "");
	return WEXITSTATUS(status);
}

int kt_child_wait(struct kt_child *c, double timeout_s)
{
	int code = kt_wait_pid(c->pid, timeout_s, "workload child");

	child_close(c);
	return code;
}

void kt_child_kill(struct kt_child *c)
{
	if (c->pid <= 0)
		return;
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
	child_close(c);
}

struct kt_report *kt_report_alloc(void)
{
	void *p = mmap(NULL, sizeof(struct kt_report), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ktest_fail("mmap report page: %s", strerror(errno));
	memset(p, 0, sizeof(struct kt_report));
	return p;
}

void *kt_touch_anon(size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ktest_fail("mmap %zu bytes: %s", bytes, strerror(errno));
	/* One fault and one charge per 4 KiB page, whatever the THP setting. */
	if (madvise(p, bytes, MADV_NOHUGEPAGE) < 0 && errno != EINVAL)
		ktest_fail("madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
	for (size_t off = 0; off < bytes; off += page)
		((volatile char *)p)[off] = (char)(off / page + 1);
	return p;
}

unsigned long kt_read_pages(const void *p, size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long sum = 0;

	for (size_t off = 0; off < bytes; off += page)
		sum += ((const volatile char *)p)[off];
	return sum;
}

void kt_unmap(void *p, size_t bytes)
{
	if (munmap(p, bytes) < 0)
		ktest_fail("munmap: %s", strerror(errno));
}

int kt_work_fault(void *arg)
{
	struct kt_work *work = arg;
	double start = ktest_now();
	void *p;

	p = kt_touch_anon(work->bytes);
	if (work->report)
		work->report->seconds = ktest_now() - start;
	kt_unmap(p, work->bytes);
	return 0;
}

int kt_work_hold(void *arg)
{
	struct kt_work *work = arg;

	kt_touch_anon(work->bytes);
	kt_child_ready();
	for (;;)
		pause();
	return 0;	/* not reached: killed by the test */
}

int kt_work_fault_loop(void *arg)
{
	struct kt_work *work = arg;
	bool first = true;

	for (;;) {
		void *p = kt_touch_anon(work->bytes);

		kt_unmap(p, work->bytes);
		if (first)
			kt_child_ready();
		first = false;
		if (work->report)
			work->report->value[0]++;
	}
}

int kt_write_clean_file(const char *path, size_t bytes)
{
	static char buf[KT_MiB];
	int fd, ret = 0;

	memset(buf, 0x5a, sizeof(buf));
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ktest_log("create %s: %s", path, strerror(errno));
		return 1;
	}
	for (size_t off = 0; off < bytes && !ret;) {
		ssize_t n = write(fd, buf, sizeof(buf));

		if (n <= 0) {
			ktest_log("write %s: %s", path, n < 0 ? strerror(errno) : "no progress");
			ret = 1;
		}
		off += n > 0 ? n : 0;
	}
	if (!ret && fsync(fd) < 0) {
		ktest_log("fsync %s: %s", path, strerror(errno));
		ret = 1;
	}
	close(fd);
	return ret;
}

int kt_make_sparse_file(const char *path, size_t bytes)
{
	int fd, ret = 0;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ktest_log("create %s: %s", path, strerror(errno));
		return 1;
	}
	if (ftruncate(fd, (off_t)bytes) < 0) {
		ktest_log("ftruncate %s to %zu bytes: %s", path, bytes, strerror(errno));
		ret = 1;
	}
	close(fd);
	return ret;
}

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

const char *kt_disk_dir(void)
{
	const char *dir = getenv("MEMCGD_TEST_TMPDIR");
	struct statfs sfs;

	if (!dir || !*dir)
		dir = "/var/tmp";
	if (statfs(dir, &sfs) < 0)
		ktest_fail("statfs %s: %s", dir, strerror(errno));
	return sfs.f_type == TMPFS_MAGIC ? NULL : dir;
}
