// SPDX-License-Identifier: GPL-2.0-only
/* BTF of a stock 6.13+ kernel: the tracepoint, no memcg_bpf_ops. */
struct mem_cgroup;
typedef void (*btf_trace_count_memcg_events)(void *, struct mem_cgroup *, int, unsigned long);
btf_trace_count_memcg_events tp;
