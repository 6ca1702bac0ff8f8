// SPDX-License-Identifier: GPL-2.0-only
/* BTF of a stock 6.13+ kernel: the tracepoint, no memcg_bpf_ops. */
struct trace_event_raw_memcg_rstat_events {
	unsigned long long id;
};
struct trace_event_raw_memcg_rstat_events tp;
