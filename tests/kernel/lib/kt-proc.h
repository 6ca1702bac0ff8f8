/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workload child processes: fork a child into a cgroup, let it fault or hold
 * memory, synchronise on "ready", collect its result. Children are killed
 * and reaped on every exit path of the test.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kt-cgroup.h"

struct kt_child {
	pid_t pid;
	int ready_fd;	/* read end: the child writes one byte when ready */
};

/* Shared with children through a MAP_SHARED page mapped before fork(). */
struct kt_report {
	double seconds;		/* wall time of the timed part of a workload */
	uint64_t value[8];
};

/*
 * Fork a child that moves itself into cg (NULL: stays where the test is)
 * and exits with fn(arg). Fails the test if fork fails.
 */
struct kt_child kt_spawn(const struct kt_cgroup *cg, int (*fn)(void *arg), void *arg);
/*
 * Children killed (SIGKILL) and reaped when the test ends, however it ends:
 * kt_spawn() registers its own; a helper that forks otherwise registers its
 * children here and forgets them once it has reaped them.
 */
void kt_remember_child(pid_t pid);
void kt_forget_child(pid_t pid);
/* In the child: tell the parent that the workload reached its steady state. */
void kt_child_ready(void);
/* Wait up to timeout_s for kt_child_ready(); false if the child died or timed out. */
bool kt_child_wait_ready(struct kt_child *c, double timeout_s);
/*
 * Wait up to timeout_s for the child to exit; return its exit code. Fails the
 * test on timeout or when the child was killed by a signal.
 */
int kt_child_wait(struct kt_child *c, double timeout_s);
/*
 * Wait up to timeout_s for pid (a registered child) to exit and forget it;
 * return its exit code. Fails the test, naming it `what`, on timeout (after
 * killing it) or when it was killed by a signal.
 */
int kt_wait_pid(pid_t pid, double timeout_s, const char *what);
/* SIGKILL and reap. */
void kt_child_kill(struct kt_child *c);

/* A zeroed MAP_SHARED report page (never freed; tests are short-lived). */
struct kt_report *kt_report_alloc(void);

/*
 * Map `bytes` of private anonymous memory without THP (one fault per 4 KiB
 * page) and write every page. Returns the mapping; fails the test on error.
 */
void *kt_touch_anon(size_t bytes);
/* Read every page of a mapping made by kt_touch_anon(); returns a checksum. */
unsigned long kt_read_pages(const void *p, size_t bytes);
void kt_unmap(void *p, size_t bytes);

/*
 * Write `bytes` to a new file at path and fsync it: clean page cache charged
 * to the caller's memory cgroup. Returns 0, or 1 after logging why.
 */
int kt_write_clean_file(const char *path, size_t bytes);
/*
 * Create a sparse file of `bytes` at path (all hole): reading it puts zeroed
 * pages in the page cache, charged to the reader's memory cgroup like data
 * pages, without disk I/O (slow under emulation). Returns 0, or 1 after
 * logging why.
 */
int kt_make_sparse_file(const char *path, size_t bytes);
/*
 * The directory for files whose page cache must be reclaimable without swap:
 * $MEMCGD_TEST_TMPDIR or /var/tmp; NULL when it is on tmpfs.
 */
const char *kt_disk_dir(void);

/* Ready-made workloads for kt_spawn(); arg points to a struct kt_work. */
struct kt_work {
	size_t bytes;			/* how much anonymous memory to touch */
	struct kt_report *report;	/* optional: seconds of the timed part */
};
/* Touch work->bytes, unmap, exit 0; reports the time taken. */
int kt_work_fault(void *work);
/* Touch work->bytes, signal ready, then sleep until killed. */
int kt_work_hold(void *work);
/* Fault and unmap work->bytes in a loop until killed; signals ready after the first round. */
int kt_work_fault_loop(void *work);

#define KT_MiB (1024UL * 1024UL)
