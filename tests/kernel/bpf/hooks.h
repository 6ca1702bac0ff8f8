/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between hooks.bpf.c and the tests that read its "hits" map: which
 * memcg_bpf_ops callback of which ops map ran for which cgroup.
 */
#pragma once

enum kt_hook {
	KT_ONLINE,
	KT_OFFLINE,
	KT_BELOW_LOW,
	KT_BELOW_MIN,
	KT_HIGH_DELAY,
	KT_NR_HOOKS,
};

/* hooks.bpf.c defines two ops maps with the same callbacks: ops_a and ops_b. */
enum kt_ops_tag {
	KT_OPS_A,
	KT_OPS_B,
	KT_NR_OPS,
};

/* Value of the "hits" hash map, keyed by cgroup id (u64). */
struct kt_hits {
	unsigned long long n[KT_NR_OPS][KT_NR_HOOKS];
};
