// SPDX-License-Identifier: GPL-2.0
/*
 * Test p: a zombie memory cgroup never runs ops whose link is gone.
 *
 *   parent/          ops_b of skeleton B, BPF_F_ALLOW_OVERRIDE
 *   parent/zombie/   ops_a of skeleton A (overrides), writes FILE_BYTES of
 *                    page cache, then its task exits
 *
 * rmdir of zombie leaves its memory cgroup alive but offline (a dying
 * descendant of parent) as long as the page cache is charged to it. The
 * attachment ends with the memory cgroup: the link reports EPOLLHUP.
 * Then skeleton A is destroyed (its link, map and programs freed) and
 * parent is reclaimed, which walks the zombie: nothing may run for it,
 * neither A's freed ops (KASAN on the debug kernel would report the use
 * after free; the harness fails the boot on any splat) nor parent's ops_b
 * (an offline memory cgroup runs no ops), and its page cache is reclaimed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "kt-proc.h"
#include "ktest.h"

#define FILE_BYTES (16 * KT_MiB)
#define FILE_PATH "/var/tmp/memcgd-ktest-zombie"

static int write_file(void *arg)
{
	static char buf[64 * 1024];
	int fd = open(FILE_PATH, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	(void)arg;
	if (fd < 0)
		return 10;
	memset(buf, 0x5a, sizeof(buf));
	for (size_t done = 0; done < FILE_BYTES; done += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return 11;
	/* clean pages: reclaim must not have to wait for writeback */
	if (fsync(fd))
		return 12;
	return close(fd) ? 13 : 0;	/* the page cache stays charged to zombie */
}

static void remove_file(void *arg)
{
	(void)arg;
	unlink(FILE_PATH);
}

static bool hung_up(const struct bpf_link *link, int timeout_ms)
{
	struct pollfd pfd = { .fd = bpf_link__fd(link) };

	return poll(&pfd, 1, timeout_ms) == 1 && (pfd.revents & POLLHUP);
}

int main(void)
{
	struct hooks_bpf *skel_a, *skel_b;
	struct bpf_link *link_a, *link_b;
	struct kt_cgroup *parent, *zombie;
	uint64_t zid, dying, current, before, after;
	unsigned long long low_b;
	struct kt_child child;
	int hits_b, err;

	ktest_init("p-zombie");
	ktest_on_exit(remove_file, NULL);
	parent = kt_cg_parent();
	zombie = kt_cg_create(parent, "zombie", false);
	zid = zombie->id;

	skel_a = KT_SKEL_LOAD(hooks_bpf);
	skel_b = KT_SKEL_LOAD(hooks_bpf);
	hits_b = bpf_map__fd(skel_b->maps.hits);
	link_b = kt_attach_ok(skel_b->maps.ops_b, parent, BPF_F_ALLOW_OVERRIDE);
	link_a = kt_attach_ok(skel_a->maps.ops_a, zombie, 0);

	child = kt_spawn(zombie, write_file, NULL);
	if (kt_child_wait(&child, 300))
		ktest_fail("writing %s from %s failed", FILE_PATH, zombie->path);
	current = kt_cg_read_u64(zombie, "memory.current");
	ktest_log("%s holds %llu KiB after writing %lu KiB of page cache", zombie->path,
		  (unsigned long long)current / 1024, FILE_BYTES / 1024);
	KT_ASSERT(current >= FILE_BYTES / 2, "the page cache is charged to %s", zombie->path);

	KT_OK(kt_cg_remove(zombie), "rmdir of the attached cgroup");
	dying = kt_cg_stat(parent, "cgroup.stat", "nr_dying_descendants");
	ktest_log("%s removed: parent has %llu dying descendant(s)", zombie->path,
		  (unsigned long long)dying);
	KT_ASSERT(dying >= 1, "the removed cgroup lives on as a zombie (nr_dying_descendants %llu)",
		  (unsigned long long)dying);
	KT_ASSERT(hung_up(link_a, 5000), "the zombie's link reports EPOLLHUP after rmdir");
	ktest_log("ok: EPOLLHUP on the zombie's link");

	/* Free everything of A: link, struct_ops map, programs. */
	kt_link_destroy(&link_a);
	hooks_bpf__destroy(skel_a);

	kt_hits_clear(hits_b);
	before = kt_cg_read_u64(parent, "memory.current");
	err = kt_cg_write(parent, "memory.reclaim", "%lu", 2 * FILE_BYTES);
	after = kt_cg_read_u64(parent, "memory.current");
	ktest_log("memory.reclaim on %s: %d (%s), memory.current %llu -> %llu KiB", parent->path,
		  err, err ? ktest_strerror(err) : "ok", (unsigned long long)before / 1024,
		  (unsigned long long)after / 1024);
	KT_ASSERT(after + FILE_BYTES / 2 <= before,
		  "reclaim took the zombie's page cache (%llu -> %llu KiB)",
		  (unsigned long long)before / 1024, (unsigned long long)after / 1024);
	low_b = kt_hit(hits_b, zid, KT_OPS_B, KT_BELOW_LOW) + kt_hit(hits_b, zid, KT_OPS_B, KT_BELOW_MIN);
	if (low_b)
		kt_hits_dump(hits_b);
	KT_ASSERT(low_b == 0, "an offline memory cgroup runs no ops: parent's ops ran %llu times for it",
		  low_b);
	ktest_log("ok: reclaim walked the zombie without running any ops for it");

	kt_link_destroy(&link_b);
	hooks_bpf__destroy(skel_b);
	kt_cg_free(zombie);
	ktest_pass();
}
