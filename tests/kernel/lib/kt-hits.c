// SPDX-License-Identifier: GPL-2.0
/* Reading the hooks.bpf.c "hits" map. */
#include "kt-hits.h"
#include "kt-proc.h"
#include "ktest.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <string.h>

struct kt_hits kt_hits_of(int hits_fd, uint64_t cgid)
{
	struct kt_hits h;
	__u64 key = cgid;

	memset(&h, 0, sizeof(h));
	if (bpf_map_lookup_elem(hits_fd, &key, &h) && errno != ENOENT)
		ktest_fail("lookup hits[%llu]: %s", (unsigned long long)cgid, strerror(errno));
	return h;
}

unsigned long long kt_hit(int hits_fd, uint64_t cgid, enum kt_ops_tag ops, enum kt_hook hook)
{
	return kt_hits_of(hits_fd, cgid).n[ops][hook];
}

void kt_hits_clear(int hits_fd)
{
	__u64 key, next;

	while (!bpf_map_get_next_key(hits_fd, NULL, &next)) {
		key = next;
		if (bpf_map_delete_elem(hits_fd, &key))
			ktest_fail("delete hits[%llu]: %s", (unsigned long long)key,
				   strerror(errno));
	}
}

int kt_hits_count_ids(int hits_fd, enum kt_ops_tag ops, enum kt_hook hook)
{
	__u64 key, next;
	int count = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(hits_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (kt_hit(hits_fd, key, ops, hook))
			count++;
	}
	return count;
}

const char *kt_hook_name(enum kt_hook hook)
{
	static const char *const names[KT_NR_HOOKS] = {
		[KT_ONLINE] = "online",
		[KT_OFFLINE] = "offline",
		[KT_BELOW_LOW] = "below_low",
		[KT_BELOW_MIN] = "below_min",
		[KT_HIGH_DELAY] = "get_high_delay_ms",
	};
	return hook < KT_NR_HOOKS ? names[hook] : "?";
}

void kt_hits_dump(int hits_fd)
{
	__u64 key, next;
	void *prev = NULL;

	while (!bpf_map_get_next_key(hits_fd, prev, &next)) {
		struct kt_hits h;

		key = next;
		prev = &key;
		h = kt_hits_of(hits_fd, key);
		for (int ops = 0; ops < KT_NR_OPS; ops++)
			for (int hook = 0; hook < KT_NR_HOOKS; hook++)
				if (h.n[ops][hook])
					ktest_log("  hits[cgroup %llu] ops_%c %s = %llu",
						  (unsigned long long)key, 'a' + ops,
						  kt_hook_name(hook), h.n[ops][hook]);
	}
}


unsigned int kt_ops_seen(int hits_fd, const struct kt_cgroup *cg, size_t bytes)
{
	struct kt_work work = { .bytes = bytes };
	struct kt_child child;
	unsigned int mask = 0;
	struct kt_hits h;
	__u64 key = cg->id;
	int code;

	bpf_map_delete_elem(hits_fd, &key);
	child = kt_spawn(cg, kt_work_fault, &work);
	code = kt_child_wait(&child, 300);
	if (code)
		ktest_fail("workload in %s exited with %d", cg->path, code);
	h = kt_hits_of(hits_fd, cg->id);
	for (int ops = 0; ops < KT_NR_OPS; ops++)
		if (h.n[ops][KT_HIGH_DELAY])
			mask |= 1u << ops;
	return mask;
}

static const char *mask_name(unsigned int mask)
{
	static const char *const names[] = { "no ops", "ops_a", "ops_b", "ops_a and ops_b" };

	return names[mask & 3];
}

void kt_expect_ops(int hits_fd, const struct kt_cgroup *cg, unsigned int want,
		   const char *when)
{
	unsigned int seen = kt_ops_seen(hits_fd, cg, 1 * 1024 * 1024);

	if (seen != want) {
		kt_hits_dump(hits_fd);
		ktest_fail("%s: charges in %s (id %llu) ran %s, expected %s", when, cg->path,
			   (unsigned long long)cg->id, mask_name(seen), mask_name(want));
	}
	ktest_log("%s: %s runs %s", when, cg->path, mask_name(seen));
}
