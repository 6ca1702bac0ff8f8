// SPDX-License-Identifier: GPL-2.0
/*
 * Test g: bad input fails cleanly with the documented errno and never
 * oopses (the harness fails the run on any splat on the console):
 *  - a memcg_bpf_ops map without BPF_F_LINK       -EOPNOTSUPP (seed bug C1)
 *  - unknown attach flags                           -EINVAL
 *  - non-zero expected_revision (reserved)          -EINVAL
 *  - no BPF_F_CGROUP_FD (no cgroup)                  -EINVAL
 *  - a target_fd without BPF_F_CGROUP_FD            -EINVAL
 *  - an fd that is not a cgroup                     -EBADF
 *  - a cgroup without its own memory controller     -ENOENT (seed bug C3)
 *  - a removed cgroup                               -ENOENT
 *  - a sleepable program                            -EINVAL at load
 *  - rmdir of an attached cgroup, then detach       no error, no oops (C2)
 *  - a cgroup fd for tcp_congestion_ops             -EOPNOTSUPP
 *  - BPF_LINK_UPDATE to another map                 -EOPNOTSUPP
 * and afterwards a normal attachment still works.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "ktest.h"
#include "legacy_ops.bpf.skel.h"
#include "sleepable_ops.bpf.skel.h"
#include "tcp_cc.bpf.skel.h"

static int attach_raw(const struct bpf_map *map, int cgroup_fd, uint32_t flags,
		      uint64_t expected_revision, struct bpf_link **link)
{
	LIBBPF_OPTS(bpf_struct_ops_opts, opts, .flags = flags | BPF_F_CGROUP_FD,
		    .target_fd = (uint32_t)cgroup_fd,
		    .expected_revision = expected_revision);

	*link = bpf_map__attach_struct_ops_opts(map, &opts);
	return *link ? 0 : -errno;
}

/* Attach that is expected to fail: an unexpected link is destroyed right away. */
static int try_attach(const struct bpf_map *map, int cgroup_fd, uint32_t flags)
{
	struct bpf_link *link;
	int err = kt_attach_fd(map, cgroup_fd, flags, &link);

	if (!err)
		kt_link_destroy(&link);
	return err;
}

static int try_attach_revision(const struct bpf_map *map, int cgroup_fd, uint64_t revision)
{
	struct bpf_link *link;
	int err = attach_raw(map, cgroup_fd, 0, revision, &link);

	if (!err)
		kt_link_destroy(&link);
	return err;
}

static void check_legacy_map(const struct kt_cgroup *cg)
{
	struct legacy_ops_bpf *skel = KT_SKEL_LOAD(legacy_ops_bpf);
	LIBBPF_OPTS(bpf_link_create_opts, lopts);
	struct bpf_link *link;
	int fd;

	/* Registration by map update: the kernel's reg() sees no link. */
	link = bpf_map__attach_struct_ops(skel->maps.legacy_ops);
	if (link) {
		bpf_link__destroy(link);
		ktest_error("a memcg_bpf_ops map without BPF_F_LINK was registered");
	} else {
		KT_EXPECT_ERRNO(-errno, EOPNOTSUPP, "register a memcg_bpf_ops map without BPF_F_LINK");
	}

	/* The same map through BPF_LINK_CREATE with a cgroup: refused too. */
	lopts.flags = BPF_F_CGROUP_FD;
	fd = bpf_link_create(bpf_map__fd(skel->maps.legacy_ops), cg->fd, BPF_STRUCT_OPS, &lopts);
	if (fd >= 0) {
		close(fd);
		ktest_error("BPF_LINK_CREATE accepted a memcg_bpf_ops map without BPF_F_LINK");
	} else if (fd != -EINVAL && fd != -EOPNOTSUPP) {
		ktest_error("BPF_LINK_CREATE of a map without BPF_F_LINK: expected -EINVAL or -EOPNOTSUPP, got %d (%s)",
			    fd, ktest_strerror(fd));
	} else {
		ktest_log("ok: BPF_LINK_CREATE of a map without BPF_F_LINK -> %d (%s)", fd,
			  ktest_strerror(fd));
	}
	legacy_ops_bpf__destroy(skel);
}

static void check_sleepable(void)
{
	struct sleepable_ops_bpf *skel = sleepable_ops_bpf__open_and_load();

	if (skel) {
		sleepable_ops_bpf__destroy(skel);
		ktest_error("a sleepable memcg_bpf_ops program loaded");
		return;
	}
	KT_EXPECT_ERRNO(-errno, EINVAL, "load a sleepable (struct_ops.s) memcg_bpf_ops program");
}

static void check_tcp_cc(const struct kt_cgroup *cg)
{
	struct tcp_cc_bpf *skel = tcp_cc_bpf__open_and_load();
	int err;

	if (!skel) {
		ktest_log("SKIPPED sub-case: tcp_congestion_ops object does not load (%s); cannot check a non-cgroup-aware struct_ops type",
			  ktest_strerror(errno));
		return;
	}
	err = try_attach(skel->maps.kt_cc, cg->fd, 0);
	KT_EXPECT_ERRNO(err, EOPNOTSUPP, "attach tcp_congestion_ops with a cgroup fd");
	tcp_cc_bpf__destroy(skel);
}

static void check_rmdir_then_detach(struct hooks_bpf *skel, const struct kt_cgroup *parent,
				    bool explicit_detach)
{
	struct kt_cgroup *doomed = kt_cg_create(parent, explicit_detach ? "doomed1" : "doomed2", false);
	int fd = dup(doomed->fd);
	struct bpf_link *link;
	int err;

	err = kt_attach(skel->maps.ops_b, doomed, 0, &link);
	if (err) {
		ktest_error("attach ops_b to %s: %d (%s); rmdir-then-detach not checked",
			    doomed->path, err, ktest_strerror(err));
		close(fd);
		kt_cg_free(doomed);
		return;
	}
	KT_OK(kt_cg_remove(doomed), "rmdir of a cgroup with an attached link");
	ktest_log("removed %s while attached", doomed->path);
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, fd, 0), ENOENT,
			"attach to a removed cgroup (fd still open)");
	if (explicit_detach) {
		KT_OK(bpf_link__detach(link), "BPF_LINK_DETACH after rmdir");
		ktest_log("ok: BPF_LINK_DETACH of the removed cgroup's link");
	}
	kt_link_destroy(&link);
	close(fd);
	kt_cg_free(doomed);
}

int main(void)
{
	struct kt_cgroup *parent, *cg, *nomem, *nomem_child, *fresh;
	struct hooks_bpf *skel;
	struct bpf_link *link;
	int fd;

	ktest_init("g-bad-input");
	parent = kt_cg_parent();
	cg = kt_cg_create(parent, "good", false);
	nomem = kt_cg_create(parent, "nomem", false);	/* memory not enabled for its children */
	nomem_child = kt_cg_create(nomem, "child", false);

	skel = KT_SKEL_LOAD(hooks_bpf);

	check_legacy_map(cg);
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, cg->fd, 1u << 31), EINVAL, "unknown flag 1<<31");
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, cg->fd, 0x100), EINVAL, "unknown flag 0x100");
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, cg->fd, BPF_F_ID), EINVAL,
			"BPF_F_ID (a cgroup is named by fd only)");
	KT_EXPECT_ERRNO(try_attach_revision(skel->maps.ops_a, cg->fd, 1), EINVAL,
			"non-zero expected_revision");
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, -1, 0), EINVAL, "no BPF_F_CGROUP_FD");
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, -1, BPF_F_ALLOW_OVERRIDE), EINVAL,
			"BPF_F_ALLOW_OVERRIDE without BPF_F_CGROUP_FD");
	fd = bpf_link_create(bpf_map__fd(skel->maps.ops_a), cg->fd, BPF_STRUCT_OPS, NULL);
	if (fd >= 0)
		close(fd);
	KT_EXPECT_ERRNO(fd >= 0 ? 0 : fd, EINVAL, "a cgroup in target_fd without BPF_F_CGROUP_FD");

	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, fd, 0), EBADF,
			"fd of / (a directory that is not a cgroup)");
	close(fd);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, fd, 0), EBADF, "fd of /dev/null");
	close(fd);

	KT_EXPECT_ERRNO(try_attach(skel->maps.ops_a, nomem_child->fd, 0), ENOENT,
			"cgroup whose parent does not enable the memory controller");

	check_sleepable();
	check_rmdir_then_detach(skel, parent, true);
	check_rmdir_then_detach(skel, parent, false);
	check_tcp_cc(cg);

	/* Nothing above left the kernel in a bad state: a normal attachment works. */
	fresh = kt_cg_create(parent, "fresh", false);
	link = kt_attach_ok(skel->maps.ops_a, fresh, 0);
	/* memcg_bpf_ops has no update(): swapping the map of a live link is refused */
	KT_EXPECT_ERRNO(bpf_link__update_map(link, skel->maps.ops_b), EOPNOTSUPP,
			"BPF_LINK_UPDATE of a memcg_bpf_ops link to another map");
	kt_expect_ops(bpf_map__fd(skel->maps.hits), fresh, KT_SEEN_A, "after all bad input");
	kt_expect_ops(bpf_map__fd(skel->maps.hits), cg, 0, "after all bad input");
	kt_link_destroy(&link);

	hooks_bpf__destroy(skel);
	ktest_pass();
}
