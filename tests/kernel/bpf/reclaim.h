/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between reclaim.bpf.c and s-reclaim.c. */
#pragma once

/* victim_id value that asks for the root memory cgroup */
#define KT_RECLAIM_ROOT 0
/* result when the work item found no memory cgroup for victim_id */
#define KT_RECLAIM_NO_MEMCG (-100000)
