// SPDX-License-Identifier: GPL-2.0
/*
 * Unprivileged attachers for the memcgd kernel tests: capability drops and
 * BPF-token children in their own user/mount/cgroup namespaces. The token
 * set-up follows the sequence of the kernel's BPF token selftest
 * (tools/testing/selftests/bpf/prog_tests/token.c): the child creates the
 * bpffs context in its user namespace, the privileged parent sets the
 * delegate_* options that only it may set, and mounts it for the child.
 */
#include "kt-ns.h"
#include "kt-proc.h"
#include "ktest.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHY_SIZE 4096

int kt_drop_to(uid_t id, uint64_t caps)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return -errno;
	if (setgroups(0, NULL) < 0)
		return -errno;
	if (setresgid(id, id, id) < 0)
		return -errno;
	/* keeps the permitted set (PR_SET_KEEPCAPS), clears the effective one */
	if (setresuid(id, id, id) < 0)
		return -errno;
	memset(data, 0, sizeof(data));
	data[0].permitted = data[0].effective = (uint32_t)caps;
	data[1].permitted = data[1].effective = (uint32_t)(caps >> 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -errno;
	return kt_caps_effective() == caps ? 0 : -EIO;
}

uint64_t kt_caps_effective(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) < 0)
		ktest_fail("capget: %s", strerror(errno));
	return data[0].effective | ((uint64_t)data[1].effective << 32);
}

int kt_send_fds(int sock, int msg, const int *fds, int n)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * KT_MAX_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec io = { .iov_base = &msg, .iov_len = sizeof(msg) };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;
	ssize_t sent;

	if (n < 0 || n > KT_MAX_FDS)
		return -EINVAL;
	if (n) {
		memset(&u, 0, sizeof(u));
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * n);
		cmsg = CMSG_FIRSTHDR(&mh);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int) * n);
		memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * n);
	}
	do {
		sent = sendmsg(sock, &mh, MSG_NOSIGNAL);
	} while (sent < 0 && errno == EINTR);
	if (sent < 0)
		return -errno;
	return sent == sizeof(msg) ? 0 : -EIO;
}

int kt_recv_fds(int sock, int *msg, int *fds, int n)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * KT_MAX_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec io = { .iov_base = msg, .iov_len = sizeof(*msg) };
	struct msghdr mh = {
		.msg_iov = &io, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cmsg;
	int got = 0;
	ssize_t len;

	if (n < 0 || n > KT_MAX_FDS)
		return -EINVAL;
	do {
		len = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	} while (len < 0 && errno == EINTR);
	if (len < 0)
		return -errno;
	if (len == 0)
		return -ECONNRESET;
	for (cmsg = CMSG_FIRSTHDR(&mh); cmsg; cmsg = CMSG_NXTHDR(&mh, cmsg)) {
		int count;

		if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (int i = 0; i < count; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cmsg) + sizeof(int) * i, sizeof(int));
			if (got < n)
				fds[got++] = fd;
			else
				close(fd);
		}
	}
	if (len != sizeof(*msg) || (mh.msg_flags & MSG_CTRUNC)) {
		for (int i = 0; i < got; i++)
			close(fds[i]);
		return -EIO;
	}
	return got;
}

const char *kt_token_path(int mnt_fd)
{
	static char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", mnt_fd);
	return path;
}

static _Noreturn void child_skip(struct kt_token_child *tc, const char *fmt, int err)
{
	snprintf(tc->why, WHY_SIZE, fmt, ktest_strerror(err));
	ktest_log("token child: cannot run: %s", tc->why);
	_exit(KTEST_EXIT_SKIP);
}

static _Noreturn void token_child_main(struct kt_token_child *tc, int sock,
				       const struct kt_cgroup *ns_root,
				       int (*fn)(int sock, int mnt_fd, void *arg), void *arg)
{
	int fs_fd, mnt_fd = -1, msg = -1, err;

	err = kt_cg_enter(ns_root, 0);
	if (err)
		ktest_fail("token child: enter %s: %s", ns_root->path, ktest_strerror(err));
	if (unshare(CLONE_NEWUSER) < 0) {
		if (errno == EINVAL || errno == ENOSPC)
			child_skip(tc, "unshare(CLONE_NEWUSER): %s (no user namespaces)", -errno);
		ktest_fail("token child: unshare(CLONE_NEWUSER): %s", strerror(errno));
	}
	/* uid/gid 0 inside = 0 outside: only the namespace differs */
	err = kt_write_file("/proc/self/setgroups", "deny");
	if (!err)
		err = kt_write_file("/proc/self/uid_map", "0 0 1");
	if (!err)
		err = kt_write_file("/proc/self/gid_map", "0 0 1");
	if (err)
		ktest_fail("token child: set up the user namespace id maps: %s", ktest_strerror(err));
	if (unshare(CLONE_NEWNS | CLONE_NEWCGROUP) < 0)
		ktest_fail("token child: unshare(CLONE_NEWNS | CLONE_NEWCGROUP): %s", strerror(errno));
	if (syscall(SYS_mount, NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		ktest_fail("token child: make / private: %s", strerror(errno));

	fs_fd = syscall(SYS_fsopen, "bpf", FSOPEN_CLOEXEC);
	if (fs_fd < 0) {
		if (errno == ENOSYS || errno == ENODEV)
			child_skip(tc, "fsopen(\"bpf\"): %s (no fs context API or no bpffs)", -errno);
		ktest_fail("token child: fsopen(\"bpf\") in a user namespace: %s", strerror(errno));
	}
	err = kt_send_fds(sock, 0, &fs_fd, 1);
	if (err)
		ktest_fail("token child: send the bpffs context: %s", ktest_strerror(err));
	close(fs_fd);
	err = kt_recv_fds(sock, &msg, &mnt_fd, 1);
	if (err != 1)
		ktest_fail("token child: receive the bpffs mount: %s",
			   err < 0 ? ktest_strerror(err) : "no fd");
	_exit(fn(sock, mnt_fd, arg));
}

int kt_token_child_start(struct kt_token_child *tc, const struct kt_cgroup *ns_root,
			 int (*fn)(int sock, int mnt_fd, void *arg), void *arg)
{
	int sv[2], msg = -1, err;

	tc->pid = -1;
	tc->sock = -1;
	tc->fs_fd = -1;
	tc->why = mmap(NULL, WHY_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tc->why == MAP_FAILED)
		ktest_fail("mmap: %s", strerror(errno));
	tc->why[0] = '\0';
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		ktest_fail("socketpair: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	tc->pid = fork();
	if (tc->pid < 0)
		ktest_fail("fork: %s", strerror(errno));
	if (tc->pid == 0) {
		close(sv[0]);
		token_child_main(tc, sv[1], ns_root, fn, arg);
	}
	close(sv[1]);
	tc->sock = sv[0];
	kt_remember_child(tc->pid);

	err = kt_recv_fds(tc->sock, &msg, &tc->fs_fd, 1);
	if (err == -ECONNRESET)
		return kt_token_child_wait(tc, 30);
	if (err != 1)
		ktest_fail("receive the token child's bpffs context: %s",
			   err < 0 ? ktest_strerror(err) : "no fd");
	return 0;
}

static void set_delegate(int fs_fd, const char *key, uint64_t mask)
{
	char value[32];

	if (mask == ~0ULL)
		snprintf(value, sizeof(value), "any");
	else
		snprintf(value, sizeof(value), "0x%llx", (unsigned long long)mask);
	if (syscall(SYS_fsconfig, fs_fd, FSCONFIG_SET_STRING, key, value, 0) < 0)
		ktest_fail("fsconfig bpffs %s=%s: %s", key, value, strerror(errno));
}

void kt_token_child_delegate(struct kt_token_child *tc, uint64_t cmds)
{
	int mnt_fd, err;

	set_delegate(tc->fs_fd, "delegate_cmds", cmds);
	set_delegate(tc->fs_fd, "delegate_maps", ~0ULL);
	/*
	 * Every program type, not only struct_ops: libbpf probes features
	 * (global data, ...) by loading socket filters with the token.
	 */
	set_delegate(tc->fs_fd, "delegate_progs", ~0ULL);
	set_delegate(tc->fs_fd, "delegate_attachs", ~0ULL);
	if (syscall(SYS_fsconfig, tc->fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		ktest_fail("fsconfig(FSCONFIG_CMD_CREATE) of the delegating bpffs: %s",
			   strerror(errno));
	mnt_fd = syscall(SYS_fsmount, tc->fs_fd, FSMOUNT_CLOEXEC, 0);
	if (mnt_fd < 0)
		ktest_fail("fsmount of the delegating bpffs: %s", strerror(errno));
	close(tc->fs_fd);
	tc->fs_fd = -1;
	err = kt_send_fds(tc->sock, 0, &mnt_fd, 1);
	if (err)
		ktest_fail("send the bpffs mount to the token child: %s", ktest_strerror(err));
	close(mnt_fd);
}

int kt_token_child_wait(struct kt_token_child *tc, double timeout_s)
{
	int code = kt_wait_pid(tc->pid, timeout_s, "token child");

	tc->pid = -1;
	if (tc->sock >= 0)
		close(tc->sock);
	tc->sock = -1;
	if (tc->fs_fd >= 0)
		close(tc->fs_fd);
	tc->fs_fd = -1;
	return code;
}
