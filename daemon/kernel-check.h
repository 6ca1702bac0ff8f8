/* SPDX-License-Identifier: GPL-2.0-only */
/* memcgd --check-kernel, the unit's ExecCondition=: on a kernel without the memcg BPF hooks
 * series memcgd.service is skipped (a condition), not failed. */
#pragma once

#include <stddef.h>

#define KERNEL_CHECK_RUN 0  /* memcg_bpf_ops is in the kernel's BTF: start memcgd */
#define KERNEL_CHECK_SKIP 1 /* it is not (or there is no BTF): skip the unit; 1..254 for ExecCondition= */

/* btf_path: NULL for the running kernel. Returns KERNEL_CHECK_RUN or KERNEL_CHECK_SKIP, with one
 * line saying why in why. A kernel with memcg_bpf_ops but not every hook memcgd needs runs it:
 * memcgd then fails with the reason (exit 78), which is worth a failed unit. */
int kernel_check(const char *btf_path, char *why, size_t len);
