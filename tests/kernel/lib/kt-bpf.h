/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf helpers: attach memcg_bpf_ops maps to cgroups, inspect links. */
#pragma once

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdint.h>

#include "kt-cgroup.h"

/*
 * Attach a struct_ops map through a new link to the cgroup with directory
 * fd cgroup_fd (BPF_F_CGROUP_FD is added to flags; fd 0 is a valid cgroup
 * fd) or, with cgroup_fd < 0, without a cgroup. Returns 0 and the link, or
 * -errno as reported by the kernel (or libbpf).
 */
int kt_attach_fd(const struct bpf_map *map, int cgroup_fd, uint32_t flags,
		 struct bpf_link **link);
/* kt_attach_fd() on cg->fd. */
int kt_attach(const struct bpf_map *map, const struct kt_cgroup *cg, uint32_t flags,
	      struct bpf_link **link);
/* Same, but the attachment must succeed. */
struct bpf_link *kt_attach_ok(const struct bpf_map *map, const struct kt_cgroup *cg,
			      uint32_t flags);
/* Destroy the link (closing its fd detaches) and clear the pointer. */
void kt_link_destroy(struct bpf_link **link);

/* bpf_link_info of a struct_ops link; fails the test on error or another link type. */
struct bpf_link_info kt_link_info(const struct bpf_link *link);
/* The cgroup id that BPF_OBJ_GET_INFO_BY_FD reports for the link, 0 if none. */
uint64_t kt_link_info_cgroup_id(const struct bpf_link *link);
/* The "cgroup_id:" line of the link's fdinfo, 0 if absent. */
uint64_t kt_link_cgroup_id(const struct bpf_link *link);

/* Number of struct_ops links in the whole system (bpf_link_get_next_id walk). */
int kt_count_struct_ops_links(void);
/* Number of open fds of this process. */
int kt_count_fds(void);

/* Abort the test with a clear message when an object fails to load. */
#define KT_SKEL_LOAD(skel_type)                                                   \
	({                                                                        \
		struct skel_type *__s = skel_type##__open_and_load();             \
		if (!__s)                                                         \
			ktest_fail("loading BPF object " #skel_type ": %s",      \
				   ktest_strerror(errno));                        \
		__s;                                                              \
	})
