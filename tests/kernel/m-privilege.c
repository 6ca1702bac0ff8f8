// SPDX-License-Identifier: GPL-2.0
/*
 * Test m: who may attach memcg_bpf_ops to which cgroup, and how far a
 * delegated attachment reaches.
 *
 *  a. "Full" attachers hold CAP_BPF and CAP_PERFMON in the initial user
 *     namespace: uid 65534 with only one of them (or none) is refused
 *     (-EPERM) attaching a map that root loaded; with both it succeeds.
 *     A full attacher in its own cgroup namespace may attach only inside it.
 *  b. "Delegated" attachers load their programs with a BPF token: a process
 *     in its own user (uid 0 -> 0), mount and cgroup namespaces, rooted at
 *     cgroup D, gets a bpffs with delegate_* options from the privileged
 *     test process. Without the token its load fails; with a token that
 *     does not delegate BPF_LINK_CREATE its attach fails (-EPERM); with a
 *     full token it attaches at D and at a child of D, never at D's parent
 *     or at a sibling of D (-EPERM). A program that calls the background
 *     reclaim kfunc does not load with the token (-EACCES): which memory
 *     cgroups were delegated is not known to the kfunc.
 *  c. A delegated below_min/below_low protects no more than D's effective
 *     memory.min: with P's memory.max forcing reclaim, D's page cache
 *     (far above its memory.min) is reclaimed down towards memory.min
 *     although the delegated program always answers "protected"; the same
 *     program attached by init-namespace root keeps all of D resident.
 *     The same for get_min (protection by amount): a delegated program that
 *     asks for all of D's pages is ignored in reclaim from P (outside D), so
 *     D is reclaimed towards memory.min; root's keeps D resident.
 *
 * A sub-case the machine cannot run (no user namespaces, no bpffs, no
 * disk-backed directory) is reported and the test exits 77 after running
 * the others; it never passes in that case.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hooks.bpf.skel.h"
#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-hits.h"
#include "kt-ns.h"
#include "kt-proc.h"
#include "ktest.h"
#include "protect.bpf.skel.h"
#include "reclaim.bpf.skel.h"

#define NOBODY 65534

/* Commands a token must delegate for libbpf to load an object, and to attach it. */
#define CMDS_LOAD ((1ULL << BPF_MAP_CREATE) | (1ULL << BPF_PROG_LOAD) | (1ULL << BPF_BTF_LOAD))
#define CMDS_ATTACH (CMDS_LOAD | (1ULL << BPF_LINK_CREATE))

/* c: sizes for a 2 GiB guest */
#define P_MAX (160 * KT_MiB)	/* memory.max of the common parent */
#define D_MIN (32 * KT_MiB)	/* memory.min of the delegated cgroup */
#define D_FILL (100 * KT_MiB)	/* page cache written in D */
#define S_FILE (256 * KT_MiB)	/* file the sibling streams ... */
#define S_READS 2		/* ... this often, uncached first */

static char skipped[512];

static void skip_subcase(const char *sub, const char *why)
{
	size_t len = strlen(skipped);

	ktest_log("SKIPPED sub-case %s: %s", sub, why);
	snprintf(skipped + len, sizeof(skipped) - len, "%s%s: %s", len ? "; " : "", sub, why);
}

/* Receive n fds from a token child that was told to attach, then reap it; fail on any shortfall. */
static void token_child_fds(struct kt_token_child *tc, int *fds, int n, const char *what)
{
	int msg = 0, got = kt_recv_fds(tc->sock, &msg, fds, n);
	int code = kt_token_child_wait(tc, 300);

	if (got != n || code)
		ktest_fail("%s failed (received %d of %d fds, exit %d; see above)", what, got, n, code);
}

/* Attach that must fail: an unexpected link is destroyed right away. */
static int try_attach(const struct bpf_map *map, const struct kt_cgroup *cg, uint32_t flags)
{
	struct bpf_link *link;
	int err = kt_attach(map, cg, flags, &link);

	if (!err)
		bpf_link__destroy(link);
	return err;
}

static uint64_t link_fd_cgroup_id(int fd)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_link_get_info_by_fd(fd, &info, &len))
		ktest_fail("bpf_link_get_info_by_fd(%d): %s", fd, strerror(errno));
	if (info.type != BPF_LINK_TYPE_STRUCT_OPS)
		ktest_fail("fd %d is a link of type %u, not struct_ops", fd, info.type);
	return info.struct_ops.cgroup_id;
}

/* Does the link's fdinfo carry the "delegated:" line (rights from a BPF token)? */
static bool fdinfo_delegated(int fd)
{
	char path[64], line[256];
	bool delegated = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		ktest_fail("open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "delegated:", 10))
			delegated = strtoul(line + 10, NULL, 10) != 0;
	fclose(f);
	return delegated;
}

static int wait_exit(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			ktest_fail("waitpid %s: %s", what, strerror(errno));
	if (!WIFEXITED(status))
		ktest_fail("%s killed by signal %d", what, WTERMSIG(status));
	return WEXITSTATUS(status);
}

/* ---------------------------------------------------------------- a */

/*
 * Fork a child connected to this process by a socket pair: returns 0 in the
 * child and the pid in the parent, *sock being the caller's end.
 */
static pid_t fork_connected(int *sock)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		ktest_fail("socketpair: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ktest_fail("fork: %s", strerror(errno));
	close(sv[pid ? 1 : 0]);
	*sock = sv[pid ? 0 : 1];
	return pid;
}

/* Receive a message and at most one fd from a fork_connected() child, then reap it. */
static int recv_and_reap(int sock, pid_t pid, const char *what, int *msg, int *fd, int *code)
{
	int n = kt_recv_fds(sock, msg, fd, 1);

	close(sock);
	*code = wait_exit(pid, what);
	return n;
}

/*
 * Fork a child that becomes uid 65534 with exactly `caps` and attaches map
 * to cg. Returns the attach result; on success *link_fd is the link,
 * passed back to this process (the child has exited).
 */
static int attach_as_nobody(const struct bpf_map *map, const struct kt_cgroup *cg,
			    uint64_t caps, int *link_fd)
{
	int sock, msg = 0, n, code;
	pid_t pid;

	*link_fd = -1;
	pid = fork_connected(&sock);
	if (pid == 0) {
		struct bpf_link *link;
		int err, fd = -1;

		err = kt_drop_to(NOBODY, caps);
		if (err)
			ktest_fail("child: become uid %d with capabilities %#llx: %s", NOBODY,
				   (unsigned long long)caps, ktest_strerror(err));
		if (geteuid() != NOBODY || getegid() != NOBODY)
			ktest_fail("child: still euid %d egid %d", (int)geteuid(), (int)getegid());
		err = kt_attach(map, cg, 0, &link);
		if (!err)
			fd = bpf_link__fd(link);
		if (kt_send_fds(sock, err, &fd, err ? 0 : 1))
			_exit(1);
		_exit(0);
	}
	n = recv_and_reap(sock, pid, "uid 65534 child", &msg, link_fd, &code);
	if (n < 0 || code)
		ktest_fail("uid 65534 child (capabilities %#llx) reported nothing (recv %d, exit %d)",
			   (unsigned long long)caps, n, code);
	if (!msg && n != 1)
		ktest_fail("uid 65534 child attached but passed no link fd back");
	return msg;
}

static void check_capabilities(const struct bpf_map *map, int hits_fd,
			       const struct kt_cgroup *cg)
{
	static const struct {
		const char *name;
		uint64_t caps;
	} refused[] = {
		{ "no capabilities", 0 },
		{ "CAP_BPF only", KT_CAP(CAP_BPF) },
		{ "CAP_PERFMON only", KT_CAP(CAP_PERFMON) },
	};
	struct bpf_link *link;
	char what[128];
	int fd;

	ktest_log("--- a. capabilities of a full (initial user namespace) attacher");
	/* root attaches once: the map's value is then set, the children only create links */
	link = kt_attach_ok(map, cg, 0);
	kt_expect_ops(hits_fd, cg, KT_SEEN_A, "attached by root");
	kt_link_destroy(&link);
	kt_expect_ops(hits_fd, cg, 0, "root's link destroyed");

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(what, sizeof(what), "attach as uid %d with %s", NOBODY, refused[i].name);
		KT_ERRNO(attach_as_nobody(map, cg, refused[i].caps, &fd), EPERM, what);
	}
	kt_expect_ops(hits_fd, cg, 0, "after the refused attachments");

	KT_OK(attach_as_nobody(map, cg, KT_CAP(CAP_BPF) | KT_CAP(CAP_PERFMON), &fd),
	      "attach as uid 65534 with CAP_BPF and CAP_PERFMON");
	KT_ASSERT_EQ(link_fd_cgroup_id(fd), cg->id, "cgroup_id of the uid 65534 link");
	KT_ASSERT(!fdinfo_delegated(fd), "a link made with init-namespace capabilities is not marked delegated in fdinfo");
	kt_expect_ops(hits_fd, cg, KT_SEEN_A, "attached by uid 65534 with CAP_BPF + CAP_PERFMON");
	close(fd);
	kt_expect_ops(hits_fd, cg, 0, "uid 65534's link closed");
}

/* A full attacher (root) in a cgroup namespace rooted at ns: only inside ns. */
static void check_full_cgroupns(const struct bpf_map *map, int hits_fd,
				const struct kt_cgroup *up, const struct kt_cgroup *ns,
				const struct kt_cgroup *sibling)
{
	int sock, fd = -1, msg = 0, n, code;
	pid_t pid;

	ktest_log("--- a. a full attacher in its own cgroup namespace");
	pid = fork_connected(&sock);
	if (pid == 0) {
		struct bpf_link *link;

		KT_OK(kt_cg_enter(ns, 0), "child: enter the namespace root");
		if (unshare(CLONE_NEWCGROUP) < 0)
			ktest_fail("child: unshare(CLONE_NEWCGROUP): %s", strerror(errno));
		KT_ERRNO(try_attach(map, up, 0), EPERM,
			 "root in a cgroup namespace: attach at the parent of its namespace root");
		KT_ERRNO(try_attach(map, up, BPF_F_ALLOW_OVERRIDE), EPERM,
			 "root in a cgroup namespace: attach at the parent, BPF_F_ALLOW_OVERRIDE");
		KT_ERRNO(try_attach(map, sibling, 0), EPERM,
			 "root in a cgroup namespace: attach at a sibling of its namespace root");
		KT_OK(kt_attach(map, ns, 0, &link), "root in a cgroup namespace: attach at its root");
		fd = bpf_link__fd(link);
		_exit(kt_send_fds(sock, 0, &fd, 1) ? 1 : 0);
	}
	n = recv_and_reap(sock, pid, "cgroup namespace child", &msg, &fd, &code);
	if (n != 1 || code)
		ktest_fail("cgroup namespace child failed (exit %d, see above)", code);
	KT_ASSERT_EQ(link_fd_cgroup_id(fd), ns->id, "cgroup_id of the namespaced root's link");
	kt_expect_ops(hits_fd, ns, KT_SEEN_A, "attached by root inside its cgroup namespace");
	kt_expect_ops(hits_fd, sibling, 0, "sibling of the namespaced attachment");
	close(fd);
}

/* ---------------------------------------------------------------- b */

struct deleg_ctx {
	const struct kt_cgroup *d, *sub, *up, *sibling;
	bool may_link;		/* the token delegates BPF_LINK_CREATE */
};

static struct hooks_bpf *load_hooks(const char *token_path, int *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .bpf_token_path = token_path);
	struct hooks_bpf *skel = hooks_bpf__open_opts(&opts);

	if (!skel) {
		*err = -errno;
		return NULL;
	}
	*err = hooks_bpf__load(skel);
	if (*err) {
		hooks_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/* Load reclaim.bpf.c with the BPF token at token_path: 0 or -errno. */
static int load_reclaim(const char *token_path)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .bpf_token_path = token_path);
	struct reclaim_bpf *skel = reclaim_bpf__open_opts(&opts);
	int err;

	if (!skel)
		return -errno;
	err = reclaim_bpf__load(skel);
	reclaim_bpf__destroy(skel);
	return err;
}

/* Runs in the token child (user, mount and cgroup namespaces; ns root D). */
static int deleg_child(int sock, int mnt_fd, void *arg)
{
	const struct deleg_ctx *ctx = arg;
	struct bpf_link *ld, *ls;
	struct hooks_bpf *skel;
	int err, fds[3];

	/* "" stops libbpf from looking for a token: the namespace alone must not do */
	skel = load_hooks("", &err);
	if (skel)
		ktest_fail("token child: loaded hooks.bpf.c without a BPF token: the child has BPF privileges of its own, the token checks below prove nothing");
	ktest_log("ok: token child: load without the token fails: %d (%s)", err, ktest_strerror(err));

	skel = load_hooks(kt_token_path(mnt_fd), &err);
	if (!skel)
		ktest_fail("token child: load hooks.bpf.c with the BPF token of the delegating bpffs: %d (%s)",
			   err, ktest_strerror(err));
	ktest_log("ok: token child: hooks.bpf.c loaded with the BPF token");

	if (!ctx->may_link) {
		KT_ERRNO(load_reclaim(kt_token_path(mnt_fd)), EACCES,
			 "token child: load a program calling bpf_try_to_free_mem_cgroup_pages() with the BPF token");
		KT_ERRNO(try_attach(skel->maps.ops_a, ctx->d, 0), EPERM,
			 "token without BPF_LINK_CREATE: attach at the namespace root D");
		hooks_bpf__destroy(skel);
		return 0;
	}
	KT_ERRNO(try_attach(skel->maps.ops_a, ctx->up, 0), EPERM,
		 "delegated attach at D's parent (outside the cgroup namespace)");
	KT_ERRNO(try_attach(skel->maps.ops_a, ctx->up, BPF_F_ALLOW_OVERRIDE), EPERM,
		 "delegated attach at D's parent with BPF_F_ALLOW_OVERRIDE");
	KT_ERRNO(try_attach(skel->maps.ops_a, ctx->sibling, 0), EPERM,
		 "delegated attach at a sibling of D");
	KT_OK(kt_attach(skel->maps.ops_a, ctx->d, BPF_F_ALLOW_OVERRIDE, &ld),
	      "delegated attach at the namespace root D");
	KT_OK(kt_attach(skel->maps.ops_b, ctx->sub, 0, &ls), "delegated attach at D's child");
	ktest_log("ok: token child: attached ops_a at D, ops_b at D/sub");

	fds[0] = bpf_map__fd(skel->maps.hits);
	fds[1] = bpf_link__fd(ld);
	fds[2] = bpf_link__fd(ls);
	KT_OK(kt_send_fds(sock, 0, fds, 3), "token child: send the hits map and links");
	return 0;
}

static void check_delegated(const struct kt_cgroup *top)
{
	struct kt_cgroup *up, *d, *w, *sub, *sibling;
	struct kt_token_child neg, pos;
	struct deleg_ctx ctx_neg, ctx_pos;
	int fds[3], code;

	ktest_log("--- b. a delegated (BPF token) attacher in user, mount and cgroup namespaces");
	up = kt_cg_create(top, "up", true);
	d = kt_cg_create(up, "d", false);
	sibling = kt_cg_create(up, "sibling", false);
	w = kt_cg_create(d, "w", false);
	sub = kt_cg_create(d, "sub", false);
	ctx_neg = (struct deleg_ctx){ .d = d, .sub = sub, .up = up, .sibling = sibling };
	ctx_pos = ctx_neg;
	ctx_pos.may_link = true;

	/* Both children enter D (no controllers in its subtree yet) and make it their namespace root. */
	code = kt_token_child_start(&neg, d, deleg_child, &ctx_neg);
	if (code == KTEST_EXIT_SKIP) {
		skip_subcase("b (delegated attacher)", neg.why);
		return;
	}
	KT_ASSERT_EQ(code, 0, "token child set-up (exit status)");
	code = kt_token_child_start(&pos, d, deleg_child, &ctx_pos);
	KT_ASSERT_EQ(code, 0, "second token child set-up (exit status)");
	/* Then move them below D so that D can enable memory for D/w and D/sub. */
	KT_OK(kt_cg_enter(w, neg.pid), "move the token child into D/w");
	KT_OK(kt_cg_enter(w, pos.pid), "move the second token child into D/w");
	KT_OK(kt_cg_write(d, "cgroup.subtree_control", "+memory"), "enable memory in D's subtree");

	kt_token_child_delegate(&neg, CMDS_LOAD);
	code = kt_token_child_wait(&neg, 300);
	KT_ASSERT_EQ(code, 0, "token child with a token that does not delegate BPF_LINK_CREATE (see above)");

	kt_token_child_delegate(&pos, CMDS_ATTACH);
	token_child_fds(&pos, fds, 3, "delegated token child");

	KT_ASSERT_EQ(link_fd_cgroup_id(fds[1]), d->id, "cgroup_id of the delegated link at D");
	KT_ASSERT_EQ(link_fd_cgroup_id(fds[2]), sub->id, "cgroup_id of the delegated link at D/sub");
	KT_ASSERT(fdinfo_delegated(fds[1]) && fdinfo_delegated(fds[2]),
		  "links made with a BPF token's rights are marked delegated in fdinfo");
	kt_expect_ops(fds[0], w, KT_SEEN_A, "delegated ops_a at D, seen in D/w");
	kt_expect_ops(fds[0], sub, KT_SEEN_B, "delegated ops_b at D/sub");
	kt_expect_ops(fds[0], sibling, 0, "sibling of D");
	close(fds[2]);
	kt_expect_ops(fds[0], sub, KT_SEEN_A, "D/sub's delegated link closed: D's ops apply");
	close(fds[1]);
	kt_expect_ops(fds[0], w, 0, "D's delegated link closed");
	close(fds[0]);
}

/* ---------------------------------------------------------------- c */

struct file_work {
	char path[PATH_MAX];
	size_t bytes;	/* create a sparse file of this size and read it once */
	int reads;	/* or read the existing file this often, uncached first */
};

/* Drop a file's clean pages from the page cache (and so from its memcg). */
static int uncache(int fd)
{
	int err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	if (err)
		ktest_log("posix_fadvise(DONTNEED): %s", strerror(err));
	return err;
}

/*
 * kt_spawn() workload: fill the page cache from a new sparse file, or stream an
 * existing one through it. Either way clean page cache charged to the child,
 * read from holes: no disk I/O, which took minutes of this test under TCG.
 */
static int file_work(void *arg)
{
	const struct file_work *fw = arg;
	int reads = fw->reads;
	char buf[64 * 1024];
	int fd;

	if (!reads) {
		if (kt_make_sparse_file(fw->path, fw->bytes))
			return 1;
		reads = 1;
	}
	fd = open(fw->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ktest_log("child: open %s: %s", fw->path, strerror(errno));
		return 1;
	}
	if (uncache(fd))
		return 1;
	for (int i = 0; i < reads; i++) {
		ssize_t n;

		if (lseek(fd, 0, SEEK_SET) < 0)
			return 1;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0)
			return 1;
	}
	close(fd);
	return 0;
}

static void drop_cache(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		ktest_fail("open %s: %s", path, strerror(errno));
	if (uncache(fd))
		ktest_fail("cannot drop %s from the page cache", path);
	close(fd);
}

static void unlink_file(void *path)
{
	unlink(path);
}

struct clamp_result {
	uint64_t filled, after;		/* D's memory.current */
	uint64_t file_after;		/* D's memory.stat file */
	uint64_t s_after, p_max_events, calls;
};

/* Calls of the ops' below_min and get_min */
static uint64_t below_min_calls(int bss_fd)
{
	struct protect_bpf__bss bss;
	int zero = 0;

	if (bpf_map_lookup_elem(bss_fd, &zero, &bss))
		ktest_fail("read the protect ops' .bss: %s", strerror(errno));
	return bss.below_min_calls + bss.get_min_calls;
}

/* Fill D with page cache (d_path), let S stream s_path through P's limit, measure D. */
static struct clamp_result pressure_run(const char *label, const char *d_path, const char *s_path,
					const struct kt_cgroup *p, const struct kt_cgroup *d,
					const struct kt_cgroup *s, int bss_fd)
{
	struct file_work fill = { .bytes = D_FILL }, stream = { .reads = S_READS };
	struct clamp_result r = { 0 };
	struct kt_child c;
	uint64_t events0, calls0 = below_min_calls(bss_fd);
	int code;

	snprintf(fill.path, sizeof(fill.path), "%s", d_path);
	snprintf(stream.path, sizeof(stream.path), "%s", s_path);
	drop_cache(s_path);	/* S's pages from an earlier run: P starts with D's fill only */

	c = kt_spawn(d, file_work, &fill);
	code = kt_child_wait(&c, 600);
	if (code)
		ktest_fail("%s: writing %lu MiB in D failed (exit %d)", label, D_FILL / KT_MiB, code);
	r.filled = kt_cg_read_u64(d, "memory.current");
	KT_ASSERT(r.filled >= D_FILL * 9 / 10,
		  "%s: D holds the %lu MiB it wrote before the pressure (memory.current %llu MiB)",
		  label, D_FILL / KT_MiB, (unsigned long long)(r.filled / KT_MiB));

	events0 = kt_cg_stat(p, "memory.events", "max");
	c = kt_spawn(s, file_work, &stream);
	code = kt_child_wait(&c, 900);
	if (code)
		ktest_fail("%s: streaming %lu MiB in S failed (exit %d)", label, S_FILE / KT_MiB, code);
	r.after = kt_cg_read_u64(d, "memory.current");
	r.file_after = kt_cg_stat(d, "memory.stat", "file");
	r.s_after = kt_cg_read_u64(s, "memory.current");
	r.p_max_events = kt_cg_stat(p, "memory.events", "max") - events0;
	r.calls = below_min_calls(bss_fd) - calls0;

	ktest_log("%s: D memory.current %llu MiB after filling, %llu MiB after S read %lu MiB %d times (file %llu MiB); S %llu MiB; P max events %llu; below_min calls %llu",
		  label, (unsigned long long)(r.filled / KT_MiB),
		  (unsigned long long)(r.after / KT_MiB), S_FILE / KT_MiB, S_READS,
		  (unsigned long long)(r.file_after / KT_MiB),
		  (unsigned long long)(r.s_after / KT_MiB), (unsigned long long)r.p_max_events,
		  (unsigned long long)r.calls);
	KT_ASSERT(r.p_max_events > 0, "%s: S's stream drove P to its memory.max", label);

	/* removing D's file uncharges its page cache: the next run starts empty */
	unlink(fill.path);
	return r;
}

struct clamp_arg {
	const struct kt_cgroup *d;
	bool sized;	/* get_min asking for everything, not below_min/below_low */
};

/* Every page of any memory cgroup: far above any usage, clamped by the kernel */
#define SIZE_ALL (~0ULL >> 12)

/* Runs in the token child (ns root D): attach always-protect ops, pass the link back. */
static int clamp_child(int sock, int mnt_fd, void *arg)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .bpf_token_path = kt_token_path(mnt_fd));
	const struct clamp_arg *ca = arg;
	struct protect_bpf *skel;
	struct bpf_link *link;
	int fds[2];

	skel = protect_bpf__open_opts(&opts);
	if (!skel)
		ktest_fail("token child: open protect.bpf.c: %s", strerror(errno));
	skel->bss->protect_min = true;
	skel->bss->protect_low = true;
	skel->bss->size_pages = SIZE_ALL;
	KT_OK(protect_bpf__load(skel), "token child: load protect.bpf.c with the BPF token");
	KT_OK(kt_attach(ca->sized ? skel->maps.size_ops : skel->maps.protect_ops, ca->d, 0, &link),
	      "token child: attach the always-protect ops at D");
	fds[0] = bpf_link__fd(link);
	fds[1] = bpf_map__fd(skel->maps.bss);
	KT_OK(kt_send_fds(sock, 0, fds, 2), "token child: send the link and .bss map");
	return 0;
}

/* One pair of runs: the always-protect ops attached at D by the token child, then by root. */
static void clamp_pair(bool sized, const char *d_path, const char *s_path, struct kt_cgroup *p,
		       struct kt_cgroup *d, struct kt_cgroup *s)
{
	struct clamp_arg ca = { .d = d, .sized = sized };
	const char *what = sized ? "get_min" : "below_min/below_low";
	struct clamp_result deleg, full;
	struct kt_token_child tc;
	struct protect_bpf *skel;
	struct bpf_link *link;
	char label[96];
	uint64_t ceiling;
	int fds[2], code;

	code = kt_token_child_start(&tc, d, clamp_child, &ca);
	if (code == KTEST_EXIT_SKIP) {
		skip_subcase("c (clamp)", tc.why);
		return;
	}
	KT_ASSERT_EQ(code, 0, "token child set-up (exit status)");
	kt_token_child_delegate(&tc, CMDS_ATTACH);
	token_child_fds(&tc, fds, 2, "token child");
	KT_ASSERT_EQ(link_fd_cgroup_id(fds[0]), d->id, "cgroup_id of the delegated link");
	KT_ASSERT(fdinfo_delegated(fds[0]), "the token child's link is marked delegated in fdinfo");
	snprintf(label, sizeof(label), "delegated always-protect %s at D", what);
	deleg = pressure_run(label, d_path, s_path, p, d, s, fds[1]);
	close(fds[0]);
	close(fds[1]);

	skel = KT_SKEL_LOAD(protect_bpf);
	skel->bss->protect_min = true;
	skel->bss->protect_low = true;
	skel->bss->size_pages = SIZE_ALL;
	link = kt_attach_ok(sized ? skel->maps.size_ops : skel->maps.protect_ops, d, 0);
	snprintf(label, sizeof(label), "root's always-protect %s at D", what);
	full = pressure_run(label, d_path, s_path, p, d, s, bpf_map__fd(skel->maps.bss));
	kt_link_destroy(&link);
	protect_bpf__destroy(skel);

	/* control: the program does protect all of D when root attaches it */
	KT_ASSERT(full.calls > 0, "%s ran during the pressure with root's attachment", what);
	KT_ASSERT(full.after >= full.filled * 85 / 100,
		  "root's always-protect %s keeps D resident: %llu MiB of %llu MiB (otherwise the workload, not the clamp, decides)",
		  what, (unsigned long long)(full.after / KT_MiB), (unsigned long long)(full.filled / KT_MiB));
	/* delegated: reclaimed towards memory.min, far below what it holds */
	ceiling = D_MIN + (deleg.filled - D_MIN) / 2;
	KT_ASSERT(deleg.after <= ceiling,
		  "the delegated %s protects no more than D's memory.min (%lu MiB): D kept %llu MiB of %llu MiB, expected <= %llu MiB",
		  what, D_MIN / KT_MiB, (unsigned long long)(deleg.after / KT_MiB),
		  (unsigned long long)(deleg.filled / KT_MiB), (unsigned long long)(ceiling / KT_MiB));
	KT_ASSERT(deleg.after >= D_MIN * 3 / 4,
		  "D keeps about its memory.min (%lu MiB) with the delegated %s: %llu MiB",
		  D_MIN / KT_MiB, what, (unsigned long long)(deleg.after / KT_MiB));
	ktest_log("clamp (%s): D kept %llu MiB with the delegated ops vs %llu MiB with root's (memory.min %lu MiB)",
		  what, (unsigned long long)(deleg.after / KT_MiB), (unsigned long long)(full.after / KT_MiB),
		  D_MIN / KT_MiB);
}

static void check_clamp(const struct kt_cgroup *top)
{
	struct kt_cgroup *p, *d, *s;
	const char *dir = kt_disk_dir();
	static char d_path[PATH_MAX], s_path[PATH_MAX];	/* unlinked at exit */

	ktest_log("--- c. delegated protection is clamped to the granted memory.min");
	if (!dir) {
		skip_subcase("c (clamp)", "the work directory is on tmpfs: its page cache is not reclaimable without swapping");
		return;
	}
	p = kt_cg_create(top, "p", true);
	KT_OK(kt_cg_write(p, "memory.max", "%lu", P_MAX), "set P's memory.max");
	d = kt_cg_create(p, "d", false);
	KT_OK(kt_cg_write(d, "memory.min", "%lu", D_MIN), "set D's memory.min");
	s = kt_cg_create(p, "s", false);
	ktest_log("P memory.max %lu MiB; D memory.min %lu MiB, fills %lu MiB; S reads %lu MiB %d times (files in %s)",
		  P_MAX / KT_MiB, D_MIN / KT_MiB, D_FILL / KT_MiB, S_FILE / KT_MiB, S_READS, dir);
	/* S's file, sparse, made here (outside P) and not cached: S's reads charge S */
	snprintf(d_path, sizeof(d_path), "%s/m-privilege-d.dat", dir);
	snprintf(s_path, sizeof(s_path), "%s/m-privilege-s.dat", dir);
	ktest_on_exit(unlink_file, d_path);
	ktest_on_exit(unlink_file, s_path);
	if (kt_make_sparse_file(s_path, S_FILE))
		ktest_fail("cannot create a sparse file of %lu MiB at %s", S_FILE / KT_MiB, s_path);

	clamp_pair(false, d_path, s_path, p, d, s);
	clamp_pair(true, d_path, s_path, p, d, s);
}

int main(void)
{
	struct kt_cgroup *top, *a, *leaf, *ns, *sibling;
	struct hooks_bpf *skel;
	int hits_fd;

	ktest_init("m-privilege");
	top = kt_cg_parent();
	a = kt_cg_create(top, "a", true);
	leaf = kt_cg_create(a, "leaf", false);
	ns = kt_cg_create(a, "ns", false);
	sibling = kt_cg_create(a, "sibling", false);

	skel = KT_SKEL_LOAD(hooks_bpf);
	hits_fd = bpf_map__fd(skel->maps.hits);
	check_capabilities(skel->maps.ops_a, hits_fd, leaf);
	check_full_cgroupns(skel->maps.ops_a, hits_fd, a, ns, sibling);
	hooks_bpf__destroy(skel);

	check_delegated(top);
	check_clamp(top);

	if (skipped[0])
		ktest_skip("not every sub-case could run (%s)", skipped);
	ktest_pass();
}
