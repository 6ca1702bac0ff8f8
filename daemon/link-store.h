/* SPDX-License-Identifier: GPL-2.0-only */
/* memcgd's memcg_bpf_ops links in systemd's file descriptor store (FileDescriptorStoreMax= of
 * memcgd.service), so that a restart, a crash or a package upgrade does not detach them: systemd
 * keeps a duplicate of each link while memcgd is down, and the next memcgd takes them over
 * (link_store_take) and swaps them for its own. A link memcgd means to end is detached
 * explicitly (the duplicate would keep it attached otherwise), which also makes systemd drop
 * it (POLLHUP). Without systemd (no NOTIFY_SOCKET), nothing is stored: the links end with the
 * process as before. See memcgd(8), RESTARTS. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINK_STORE_PREFIX "memcg-link-"

struct link_store_entry {
	uint64_t cgroup_id;
	int fd;
};

/* The links a previous memcgd left in the store, not yet taken over. */
struct link_store {
	struct link_store_entry *items;
	size_t n;
};

/* Takes the store's links from the file descriptors systemd passed (LISTEN_FDS, LISTEN_FDNAMES
 * named LINK_STORE_PREFIX<cgroup id>); a descriptor that is not an attached memcg_bpf_ops link
 * on the cgroup its name says is closed. Returns how many were taken, or -errno. */
int link_store_adopt(struct link_store *ls);
/* The previous memcgd's link on cgroup_id, removed from ls: an fd the caller owns, or -1. */
int link_store_take(struct link_store *ls, uint64_t cgroup_id);
/* Hands a duplicate of link_fd to systemd under the cgroup's name. 1 when stored, 0 without
 * a store (not under systemd), -errno on failure (logged by the caller). */
int link_store_keep(uint64_t cgroup_id, int link_fd);
/* Ends a link for good: BPF_LINK_DETACH (the store's duplicate sees POLLHUP), and the store's
 * entry removed. The caller still closes link_fd. */
void link_store_end(uint64_t cgroup_id, int link_fd);
/* Ends and closes every link not taken over (slices gone or not attached any more). Returns
 * how many. */
size_t link_store_release(struct link_store *ls);
/* The cgroup id of a store name, or 0 when it is not one. Pure, for the tests. */
uint64_t link_store_name_id(const char *name);
