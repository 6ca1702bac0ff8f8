// SPDX-License-Identifier: GPL-2.0
/*
 * Test l: memory charged by io_uring workers is throttled like memory.high
 * throttles it. A child in the attached cgroup writes to a memfd through
 * io_uring with IOSQE_ASYNC, so that an io-wq worker (PF_IO_WORKER) runs
 * every write and charges the page cache. The worker never returns to user
 * space; it must still consult get_high_delay_ms() between work items. Raw
 * syscalls: the guest has no liburing.
 */
#include <errno.h>
#include <linux/io_uring.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "delay.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"

#define WRITE_BYTES (256 * 1024)	/* 64 pages: about one charge batch per write */
#define WRITES 16
#define DELAY_MS 20

static struct delay_bpf *skel;
static struct kt_report *report;

struct ring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* Child exit codes */
enum { CHILD_OK, CHILD_NO_URING = 10, CHILD_SETUP, CHILD_IO };

static int ring_init(struct ring *r, unsigned int entries)
{
	struct io_uring_params p;
	size_t sq_size, cq_size;
	void *sq, *cq, *sqes;

	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;
	sq_size = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq_size = cq_size = sq_size > cq_size ? sq_size : cq_size;
	sq = mmap(NULL, sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
			  IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return -errno;
	}
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)((char *)sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
	r->cq_head = (unsigned int *)((char *)cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)((char *)cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)((char *)cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);
	r->sqes = sqes;
	return 0;
}

/* One IORING_OP_WRITE forced to io-wq; waits for its completion, returns cqe->res. */
static int ring_write(struct ring *r, int fd, const void *buf, unsigned int len, uint64_t off)
{
	unsigned int tail = *r->sq_tail, idx = tail & *r->sq_mask, head;
	struct io_uring_sqe *sqe = &r->sqes[idx];
	int res;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_WRITE;
	sqe->flags = IOSQE_ASYNC;
	sqe->fd = fd;
	sqe->addr = (uint64_t)(uintptr_t)buf;
	sqe->len = len;
	sqe->off = off;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -errno;
	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* In the child, in the attached cgroup arg; reports calls, worker calls, shmem bytes. */
static int uring_child(void *arg)
{
	const struct kt_cgroup *cg = arg;
	uint64_t before;
	struct ring r = { .fd = -1 };
	char *buf;
	int mfd, err;

	err = ring_init(&r, 4);
	if (err == -ENOSYS || err == -EPERM)
		return CHILD_NO_URING;
	if (err) {
		fprintf(stderr, "io_uring setup: %s\n", strerror(-err));
		return CHILD_SETUP;
	}
	mfd = memfd_create("kt-io-uring", MFD_CLOEXEC);
	buf = malloc(WRITE_BYTES);
	if (mfd < 0 || !buf)
		return CHILD_SETUP;
	memset(buf, 0x5a, WRITE_BYTES);
	before = __atomic_load_n(&skel->bss->delay_calls, __ATOMIC_SEQ_CST);
	report->value[1] = __atomic_load_n(&skel->bss->io_worker_calls, __ATOMIC_SEQ_CST);
	for (int i = 0; i < WRITES; i++) {
		err = ring_write(&r, mfd, buf, WRITE_BYTES, (uint64_t)i * WRITE_BYTES);
		if (err != WRITE_BYTES) {
			fprintf(stderr, "io_uring write %d: %d (%s)\n", i, err,
				err < 0 ? strerror(-err) : "short write");
			return CHILD_IO;
		}
	}
	/* The last write's worker consults the hook before its next item: give it time. */
	ktest_sleep_ms(500);
	if (!kt_cg_read_key(cg, "memory.stat", "shmem", &report->value[2]))
		return CHILD_SETUP;
	report->value[0] = __atomic_load_n(&skel->bss->delay_calls, __ATOMIC_SEQ_CST) - before;
	report->value[1] = __atomic_load_n(&skel->bss->io_worker_calls, __ATOMIC_SEQ_CST) -
			   report->value[1];
	return CHILD_OK;
}

int main(void)
{
	struct kt_cgroup *parent, *cg;
	struct bpf_link *link;
	struct kt_child child;
	uint64_t charged;
	int code;

	ktest_init("l-io-uring");
	report = kt_report_alloc();
	parent = kt_cg_parent();
	cg = kt_cg_create(parent, "uring", false);

	skel = KT_SKEL_LOAD(delay_bpf);
	skel->bss->delay_ms = DELAY_MS;
	link = kt_attach_ok(skel->maps.delay_ops, cg, 0);

	child = kt_spawn(cg, uring_child, cg);
	code = kt_child_wait(&child, 300);
	if (code == CHILD_NO_URING)
		ktest_skip("io_uring is not available to the test (io_uring_setup: ENOSYS/EPERM)");
	if (code)
		ktest_fail("the io_uring child in %s failed with exit code %d", cg->path, code);
	charged = report->value[2];
	ktest_log("%d async writes of %d KiB to a memfd: shmem %llu KiB in %s, get_high_delay_ms called %llu x, %llu x by an io_uring worker",
		  WRITES, WRITE_BYTES / 1024, (unsigned long long)charged / 1024, cg->path,
		  (unsigned long long)report->value[0], (unsigned long long)report->value[1]);
	KT_ASSERT(charged >= (uint64_t)WRITES * WRITE_BYTES / 2,
		  "the memfd's pages are charged to %s (shmem %llu bytes)", cg->path,
		  (unsigned long long)charged);
	KT_ASSERT(report->value[1] > 0,
		  "get_high_delay_ms() is consulted for charges made by io_uring workers (%llu calls in all, none from a worker)",
		  (unsigned long long)report->value[0]);

	kt_link_destroy(&link);
	delay_bpf__destroy(skel);
	ktest_pass();
}
