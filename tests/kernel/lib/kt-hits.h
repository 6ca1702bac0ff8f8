/* SPDX-License-Identifier: GPL-2.0 */
/* Read the "hits" map of hooks.bpf.c: which ops callback ran for which cgroup. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kt-cgroup.h"

#include "../bpf/hooks.h"

/* Counters for one cgroup id (all zero when the cgroup never hit a callback). */
struct kt_hits kt_hits_of(int hits_fd, uint64_t cgid);
/* One counter. */
unsigned long long kt_hit(int hits_fd, uint64_t cgid, enum kt_ops_tag ops, enum kt_hook hook);
/* Delete every entry. */
void kt_hits_clear(int hits_fd);
/* Number of cgroup ids with a non-zero count of (ops, hook). */
int kt_hits_count_ids(int hits_fd, enum kt_ops_tag ops, enum kt_hook hook);
/* Print all entries (for failure diagnostics). */
void kt_hits_dump(int hits_fd);
const char *kt_hook_name(enum kt_hook hook);


#define KT_SEEN_A (1u << KT_OPS_A)
#define KT_SEEN_B (1u << KT_OPS_B)

/*
 * Run a short workload (fault `bytes` of anonymous memory) in cg and return
 * which ops maps ran get_high_delay_ms for cg's id meanwhile: a mask of
 * KT_SEEN_A / KT_SEEN_B, 0 when no ops are in force for cg.
 */
unsigned int kt_ops_seen(int hits_fd, const struct kt_cgroup *cg, size_t bytes);
/* Fail unless kt_ops_seen() reports exactly `want` for cg. */
void kt_expect_ops(int hits_fd, const struct kt_cgroup *cg, unsigned int want,
		   const char *when);
