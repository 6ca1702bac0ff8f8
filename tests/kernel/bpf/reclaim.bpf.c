// SPDX-License-Identifier: GPL-2.0
/*
 * Test r: background reclaim. memcg_charged() counts the charges of the
 * cgroup the ops are attached to; when the test has asked for a reclaim
 * (request_seq moved past started_seq) it starts a bpf_wq, whose callback
 * (sleepable) calls bpf_try_to_free_mem_cgroup_pages() on the victim and
 * publishes the result with done_seq.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "reclaim.h"

extern struct cgroup *bpf_cgroup_from_id(u64 cgid) __ksym;
extern void bpf_cgroup_release(struct cgroup *cgrp) __ksym;
extern struct mem_cgroup *bpf_get_mem_cgroup(struct cgroup_subsys_state *css) __ksym;
extern struct mem_cgroup *bpf_get_root_mem_cgroup(void) __ksym;
extern void bpf_put_mem_cgroup(struct mem_cgroup *memcg) __ksym;
extern long bpf_try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr_pages,
					     u32 flags) __ksym;
extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux__ign) __ksym;

struct work {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct work);
} works SEC(".maps");

/* Written by the test before it moves request_seq */
__u64 victim_id;	/* cgroup id, or KT_RECLAIM_ROOT */
__u64 request_pages;
__u32 request_flags;
__u64 request_seq;

/* Read by the test */
__u64 charged_calls;
__u64 charged_pages;
__u64 started_seq;	/* the request a work item was started for */
__u64 done_seq;		/* the request whose result is in result */
__s64 result;
__s64 wq_error;		/* last failure of bpf_wq_*(), 0 if none */
__u64 running_seq;	/* the request whose callback is about to call the kfunc */

static int reclaim_work(void *map, int *key, void *value)
{
	__u64 seq = started_seq;
	struct mem_cgroup *memcg;
	struct cgroup *cgrp;

	if (victim_id == KT_RECLAIM_ROOT) {
		memcg = bpf_get_root_mem_cgroup();
	} else {
		cgrp = bpf_cgroup_from_id(victim_id);
		if (!cgrp) {
			result = KT_RECLAIM_NO_MEMCG;
			done_seq = seq;
			return 0;
		}
		memcg = bpf_get_mem_cgroup(&cgrp->self);
		bpf_cgroup_release(cgrp);
	}
	if (!memcg) {
		result = KT_RECLAIM_NO_MEMCG;
		done_seq = seq;
		return 0;
	}
	running_seq = seq;
	result = bpf_try_to_free_mem_cgroup_pages(memcg, request_pages, request_flags);
	bpf_put_mem_cgroup(memcg);
	done_seq = seq;
	return 0;
}

SEC("struct_ops/memcg_charged")
void BPF_PROG(kt_charged, struct mem_cgroup *memcg, unsigned long nr_pages)
{
	__u64 want = request_seq, seen = started_seq;
	struct work *w;
	int key = 0, err;

	__sync_fetch_and_add(&charged_calls, 1);
	__sync_fetch_and_add(&charged_pages, nr_pages);

	/* one work item per request, whichever CPU sees it first */
	if (want == seen || __sync_val_compare_and_swap(&started_seq, seen, want) != seen)
		return;
	w = bpf_map_lookup_elem(&works, &key);
	if (!w)
		return;
	err = bpf_wq_init(&w->wq, &works, 0);
	if (err && err != -16 /* -EBUSY: initialised by an earlier request */) {
		wq_error = err;
		return;
	}
	err = bpf_wq_set_callback_impl(&w->wq, reclaim_work, 0, NULL);
	if (!err)
		err = bpf_wq_start(&w->wq, 0);
	if (err)
		wq_error = err;
}

SEC(".struct_ops.link")
struct memcg_bpf_ops reclaim_ops = {
	.memcg_charged = (void *)kt_charged,
};

char LICENSE[] SEC("license") = "GPL";
