// SPDX-License-Identifier: GPL-2.0
/*
 * Test n: the lifecycle of a memcg_bpf_ops link and its cgroup.
 *
 *  a. fd 0 is a valid cgroup fd: BPF_F_CGROUP_FD, not the fd's value, says
 *     that target_fd names a cgroup.
 *  b. bpf_link_info.struct_ops.cgroup_id and the fdinfo "cgroup_id:" line
 *     report the attach point's cgroup id (its directory's inode number).
 *  c. rmdir of an attached cgroup detaches the link: poll() on the link fd
 *     returns POLLHUP within 2 s, the link info shows map_id 0, an
 *     unrelated link stays, BPF_LINK_DETACH and close still succeed, and
 *     the map can be attached again.
 *  d. Disabling the memory controller in P's cgroup.subtree_control takes
 *     C's memcg offline and detaches C's link (POLLHUP). A cgroup's own
 *     earlier attachment never comes back: after attaching to P without
 *     BPF_F_ALLOW_OVERRIDE and re-enabling memory, C runs P's ops. While
 *     C's link is live, that attachment to P is refused (-EBUSY).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "ktest.h"

#define HUP_TIMEOUT_S 2.0

static int hits_fd;

/* poll() the link fd for up to timeout_s; true when it reports POLLHUP. */
static bool link_hup(const struct bpf_link *link, double timeout_s)
{
	struct pollfd pfd = { .fd = bpf_link__fd(link), .events = POLLIN };
	double deadline = ktest_now() + timeout_s;
	int n;

	for (;;) {
		double left = deadline - ktest_now();

		pfd.revents = 0;
		n = poll(&pfd, 1, left > 0 ? (int)(left * 1000) : 0);
		if (n < 0 && errno != EINTR)
			ktest_fail("poll link fd: %s", strerror(errno));
		if (n > 0) {
			if (pfd.revents & POLLNVAL)
				ktest_fail("poll link fd: POLLNVAL");
			if (pfd.revents & POLLHUP)
				return true;
			ktest_fail("poll link fd: revents %#x without POLLHUP", pfd.revents);
		}
		if (ktest_now() >= deadline)
			return false;
	}
}

static uint64_t dir_ino(const struct kt_cgroup *cg)
{
	struct stat st;

	if (fstat(cg->fd, &st) < 0)
		ktest_fail("fstat %s: %s", cg->path, strerror(errno));
	return st.st_ino;
}

/*
 * Wait for POLLHUP on a link whose cgroup's memcg went offline. The info of
 * the detached link has no map any more but still names its cgroup.
 */
static void expect_detached(const struct bpf_link *link, uint64_t cgid, const char *why)
{
	double start = ktest_now();
	struct bpf_link_info info;

	if (!link_hup(link, HUP_TIMEOUT_S))
		ktest_fail("%s: no POLLHUP on the link fd within %.0f s", why, HUP_TIMEOUT_S);
	ktest_log("%s: POLLHUP after %.3f s", why, ktest_now() - start);
	info = kt_link_info(link);
	KT_ASSERT_EQ(info.struct_ops.map_id, 0, "map_id in the info of an auto-detached link");
	KT_ASSERT_EQ(info.struct_ops.cgroup_id, cgid, "cgroup_id in the info of an auto-detached link");
	ktest_log("%s: link info map_id 0, cgroup_id %llu", why, (unsigned long long)cgid);
}

static void check_fd0(const struct bpf_map *map, const struct kt_cgroup *cg,
		      const struct kt_cgroup *other)
{
	struct bpf_link *link;
	int saved, err;

	ktest_log("--- a. fd 0 as the cgroup fd");
	saved = fcntl(0, F_DUPFD_CLOEXEC, 3);	/* stdin, restored below */
	if (dup2(cg->fd, 0) < 0)
		ktest_fail("dup2 cgroup fd to 0: %s", strerror(errno));
	err = kt_attach_fd(map, 0, 0, &link);
	if (saved >= 0) {
		dup2(saved, 0);
		close(saved);
	} else {
		close(0);
	}
	KT_OK(err, "attach with target_fd 0 (a dup of the cgroup fd) and BPF_F_CGROUP_FD");
	KT_ASSERT_EQ(kt_link_info_cgroup_id(link), cg->id, "link info cgroup_id of the fd-0 link");
	kt_expect_ops(hits_fd, cg, KT_SEEN_A, "attached through fd 0");
	kt_expect_ops(hits_fd, other, 0, "sibling of the fd-0 attach point");
	kt_link_destroy(&link);
	kt_expect_ops(hits_fd, cg, 0, "fd-0 link destroyed");
}

static void check_ids(const struct bpf_map *a, const struct bpf_map *b,
		      const struct kt_cgroup *x, const struct kt_cgroup *y)
{
	struct bpf_link *lx = kt_attach_ok(a, x, 0), *ly = kt_attach_ok(b, y, 0);
	uint64_t ino_x = dir_ino(x), ino_y = dir_ino(y);

	ktest_log("--- b. cgroup_id in bpf_link_info and fdinfo");
	KT_ASSERT(ino_x && ino_y && ino_x != ino_y, "distinct inode numbers (%llu, %llu)",
		  (unsigned long long)ino_x, (unsigned long long)ino_y);
	KT_ASSERT_EQ(kt_link_info_cgroup_id(lx), ino_x, "bpf_link_info cgroup_id of x's link");
	KT_ASSERT_EQ(kt_link_info_cgroup_id(ly), ino_y, "bpf_link_info cgroup_id of y's link");
	KT_ASSERT_EQ(kt_link_cgroup_id(lx), ino_x, "fdinfo cgroup_id of x's link");
	KT_ASSERT_EQ(kt_link_cgroup_id(ly), ino_y, "fdinfo cgroup_id of y's link");
	KT_ASSERT(kt_link_info(lx).struct_ops.map_id != 0, "x's live link reports its map id");
	ktest_log("cgroup ids %llu and %llu reported by link info and fdinfo",
		  (unsigned long long)ino_x, (unsigned long long)ino_y);
	kt_link_destroy(&lx);
	kt_link_destroy(&ly);
}

static void check_rmdir(const struct bpf_map *a, const struct bpf_map *b,
			const struct kt_cgroup *parent)
{
	struct kt_cgroup *doomed, *keeper, *again;
	struct bpf_link *ld, *lk, *la;
	uint64_t doomed_id;

	ktest_log("--- c. rmdir of an attached cgroup detaches its link");
	doomed = kt_cg_create(parent, "doomed", false);
	keeper = kt_cg_create(parent, "keeper", false);
	ld = kt_attach_ok(a, doomed, 0);
	lk = kt_attach_ok(b, keeper, 0);
	KT_ASSERT(!link_hup(ld, 0), "no POLLHUP on a live link");
	KT_ASSERT_EQ(kt_link_info_cgroup_id(ld), doomed->id, "cgroup_id before rmdir");
	doomed_id = doomed->id;

	KT_OK(kt_cg_remove(doomed), "rmdir of the attached (empty) cgroup");
	expect_detached(ld, doomed_id, "rmdir of the attach point");

	KT_ASSERT(!link_hup(lk, 0), "no POLLHUP on the sibling's link");
	KT_ASSERT(kt_link_info(lk).struct_ops.map_id != 0, "the sibling's link keeps its map");
	kt_expect_ops(hits_fd, keeper, KT_SEEN_B, "sibling after the rmdir");

	KT_OK(bpf_link__detach(ld), "BPF_LINK_DETACH of the auto-detached link");
	kt_link_destroy(&ld);
	ktest_log("ok: detach and close of the auto-detached link");

	again = kt_cg_create(parent, "again", false);
	la = kt_attach_ok(a, again, 0);
	kt_expect_ops(hits_fd, again, KT_SEEN_A, "ops_a attached again after its link was auto-detached");
	kt_link_destroy(&la);
	kt_link_destroy(&lk);
	kt_cg_free(doomed);
	kt_cg_free(keeper);
	kt_cg_free(again);
}

static void check_controller_toggle(const struct bpf_map *a, const struct bpf_map *b,
				    const struct kt_cgroup *parent)
{
	struct bpf_link *lc, *lp = NULL, *extra = NULL;
	struct kt_cgroup *p, *c;
	struct kt_hits h;

	ktest_log("--- d. memory controller toggled around attachments (no-override bypass)");
	p = kt_cg_create(parent, "p", true);
	c = kt_cg_create(p, "c", false);
	lc = kt_attach_ok(b, c, 0);
	kt_expect_ops(hits_fd, c, KT_SEEN_B, "ops_b attached to C");
	KT_ERRNO(kt_attach(a, p, 0, &extra), EBUSY,
		 "attach without BPF_F_ALLOW_OVERRIDE to P while C has a live attachment");

	KT_OK(kt_cg_write(p, "cgroup.subtree_control", "-memory"), "disable memory in P's subtree");
	expect_detached(lc, c->id, "memory controller disabled in C's parent");

	lp = kt_attach_ok(a, p, 0);
	ktest_log("ok: ops_a attached to P without BPF_F_ALLOW_OVERRIDE after C's link went away");

	kt_hits_clear(hits_fd);
	KT_OK(kt_cg_write(p, "cgroup.subtree_control", "+memory"), "re-enable memory in P's subtree");
	h = kt_hits_of(hits_fd, c->id);
	if (h.n[KT_OPS_B][KT_ONLINE] || h.n[KT_OPS_A][KT_ONLINE] != 1) {
		kt_hits_dump(hits_fd);
		ktest_fail("C's new memcg came online with ops_b online=%llu, ops_a online=%llu; expected only ops_a, once",
			   h.n[KT_OPS_B][KT_ONLINE], h.n[KT_OPS_A][KT_ONLINE]);
	}
	kt_expect_ops(hits_fd, c, KT_SEEN_A, "memory re-enabled: C inherits P's ops, not its old ops_b");
	KT_ERRNO(kt_attach(b, c, 0, &extra), EBUSY,
		 "attach to C below P's no-override attachment");

	KT_ASSERT_EQ(kt_link_info(lc).struct_ops.map_id, 0, "C's old link stays detached");
	KT_ASSERT(!link_hup(lp, 0), "no POLLHUP on P's link");
	KT_OK(bpf_link__detach(lc), "BPF_LINK_DETACH of C's old link");
	kt_link_destroy(&lc);
	kt_expect_ops(hits_fd, c, KT_SEEN_A, "C's old link closed");
	kt_link_destroy(&lp);
	kt_expect_ops(hits_fd, c, 0, "P's link destroyed");
	kt_cg_free(c);
	kt_cg_free(p);
}

int main(void)
{
	struct kt_cgroup *parent, *fd0, *other, *x, *y;
	struct hooks_bpf *skel;

	ktest_init("n-lifecycle");
	parent = kt_cg_parent();
	fd0 = kt_cg_create(parent, "fd0", false);
	other = kt_cg_create(parent, "other", false);
	x = kt_cg_create(parent, "x", false);
	y = kt_cg_create(parent, "y", false);

	skel = KT_SKEL_LOAD(hooks_bpf);
	hits_fd = bpf_map__fd(skel->maps.hits);

	check_fd0(skel->maps.ops_a, fd0, other);
	check_ids(skel->maps.ops_a, skel->maps.ops_b, x, y);
	check_rmdir(skel->maps.ops_a, skel->maps.ops_b, parent);
	check_controller_toggle(skel->maps.ops_a, skel->maps.ops_b, parent);

	hooks_bpf__destroy(skel);
	ktest_pass();
}
