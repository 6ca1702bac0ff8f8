// SPDX-License-Identifier: GPL-2.0
/*
 * Test g: a struct_ops type that is not cgroup-aware. Attaching it with a
 * cgroup fd must fail (-EOPNOTSUPP) instead of registering the congestion
 * control globally.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("struct_ops/ssthresh")
__u32 BPF_PROG(kt_cc_ssthresh, struct sock *sk)
{
	return 2;
}

SEC("struct_ops/cong_avoid")
void BPF_PROG(kt_cc_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
}

SEC("struct_ops/undo_cwnd")
__u32 BPF_PROG(kt_cc_undo_cwnd, struct sock *sk)
{
	return 2;
}

SEC(".struct_ops.link")
struct tcp_congestion_ops kt_cc = {
	.ssthresh = (void *)kt_cc_ssthresh,
	.cong_avoid = (void *)kt_cc_cong_avoid,
	.undo_cwnd = (void *)kt_cc_undo_cwnd,
	.name = "memcgd_ktest",
};

char LICENSE[] SEC("license") = "GPL";
