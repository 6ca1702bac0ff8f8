/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Privilege and namespace helpers for the memcgd kernel tests: drop to an
 * unprivileged uid with chosen capabilities, pass fds over a unix socket,
 * and run a "token child": a process in its own user, mount and cgroup
 * namespaces that gets a delegating bpffs instance (BPF token) from the
 * privileged test process, as a container runtime would set it up.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kt-cgroup.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#define KT_CAP(c) (1ULL << (c))

/*
 * In a forked child: become uid/gid `id` (supplementary groups cleared)
 * keeping only the capabilities in `caps` (a KT_CAP() mask) in the permitted
 * and effective sets, via PR_SET_KEEPCAPS and capset(2). Returns 0 or -errno.
 */
int kt_drop_to(uid_t id, uint64_t caps);
/* The effective capability mask of the caller (capget(2)); fails the test on error. */
uint64_t kt_caps_effective(void);

/*
 * Send n fds (n <= KT_MAX_FDS, may be 0) with an integer message over a
 * unix socket: returns 0 or -errno. Receive one such message and up to n
 * fds (extra ones are closed): returns the number of fds received, or
 * -errno (-ECONNRESET when the peer closed the socket instead).
 */
#define KT_MAX_FDS 8
int kt_send_fds(int sock, int msg, const int *fds, int n);
int kt_recv_fds(int sock, int *msg, int *fds, int n);

/*
 * A token child, forked by kt_token_child_start(). It enters ns_root,
 * unshares its user namespace (uid/gid 0 inside mapped to 0 outside: no
 * capability in the initial namespace any more), then its mount and cgroup
 * namespaces (ns_root becomes the root of its cgroup namespace), creates a
 * bpffs context (fsopen) and sends it to the parent. The parent, still
 * init-namespace root, sets the delegation options, creates and mounts the
 * instance (kt_token_child_delegate()) and sends the detached mount back.
 * The child then runs fn(sock, mnt_fd, arg) and exits with its result;
 * fn loads BPF objects with bpf_object_open_opts.bpf_token_path =
 * kt_token_path(mnt_fd). Checks in fn use the usual KT_* macros: in a
 * child, a failure prints FAIL and exits 1.
 */
struct kt_token_child {
	pid_t pid;
	int sock;	/* parent's end of the socketpair */
	int fs_fd;	/* bpffs context from the child until delegated */
	char *why;	/* shared page: the reason when the child exits 77 */
};

/*
 * Fork the token child and wait for its bpffs context. Returns 0, or the
 * child's exit status when it ended before that: KTEST_EXIT_SKIP when the
 * kernel cannot do user namespaces or bpffs (reason in tc->why).
 */
int kt_token_child_start(struct kt_token_child *tc, const struct kt_cgroup *ns_root,
			 int (*fn)(int sock, int mnt_fd, void *arg), void *arg);
/*
 * Delegate the commands in cmds (a mask of 1ULL << enum bpf_cmd, ~0ULL:
 * "any") and every map, program and attach type; mount; send the mount.
 */
void kt_token_child_delegate(struct kt_token_child *tc, uint64_t cmds);
/* Wait up to timeout_s for the child; return its exit status (fails on timeout or signal). */
int kt_token_child_wait(struct kt_token_child *tc, double timeout_s);

/* "/proc/self/fd/<mnt_fd>" (static buffer): a bpf_token_path for libbpf. */
const char *kt_token_path(int mnt_fd);
