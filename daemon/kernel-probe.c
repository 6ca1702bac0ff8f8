// SPDX-License-Identifier: GPL-2.0-only
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>

#include "kernel-probe.h"
#include "util.h"

static const struct {
	enum memcg_hook hook;
	const char *name;
} hook_names[] = {
	{ HOOK_HANDLE_CGROUP_ONLINE, "handle_cgroup_online" },
	{ HOOK_HANDLE_CGROUP_OFFLINE, "handle_cgroup_offline" },
	{ HOOK_BELOW_LOW, "below_low" },
	{ HOOK_BELOW_MIN, "below_min" },
	{ HOOK_GET_HIGH_DELAY_MS, "get_high_delay_ms" },
	{ HOOK_MEMCG_CHARGED, "memcg_charged" },
	{ HOOK_NUMA_BALANCING, "numa_balancing" },
	{ HOOK_GET_LOW, "get_low" },
	{ HOOK_GET_MIN, "get_min" },
};

const char *memcg_hook_name(enum memcg_hook h)
{
	for (size_t i = 0; i < ARRAY_SIZE(hook_names); i++)
		if (hook_names[i].hook == h)
			return hook_names[i].name;
	return "?";
}

int kernel_probe(const char *btf_path, struct kernel_support *ks)
{
	struct utsname u;
	struct btf *btf;
	const struct btf_type *t;
	const struct btf_member *m;
	size_t off = 0;
	int id;

	memset(ks, 0, sizeof(*ks));
	if (uname(&u) == 0)
		snprintf(ks->release, sizeof(ks->release), "%s", u.release);

	btf = btf_path ? btf__parse(btf_path, NULL) : btf__load_vmlinux_btf();
	if (!btf) {
		int r = -errno;

		snprintf(ks->error, sizeof(ks->error), "cannot read kernel BTF (%s): %s; memcgd needs "
			 "CONFIG_DEBUG_INFO_BTF=y", btf_path ? btf_path : "/sys/kernel/btf/vmlinux", strerror(-r));
		return r;
	}
	ks->btf = true;
	/* the BTF tracepoint memcgd attaches to (tp_btf/count_memcg_events) */
	ks->has_tracepoint = btf__find_by_name_kind(btf, "btf_trace_count_memcg_events", BTF_KIND_TYPEDEF) > 0;
	ks->has_reclaim_kfunc = btf__find_by_name_kind(btf, "bpf_try_to_free_mem_cgroup_pages", BTF_KIND_FUNC) > 0;
	id = btf__find_by_name_kind(btf, "memcg_bpf_ops", BTF_KIND_STRUCT);
	if (id > 0) {
		ks->has_ops = true;
		t = btf__type_by_id(btf, id);
		m = btf_members(t);
		for (unsigned i = 0; i < btf_vlen(t); i++, m++) {
			const char *name = btf__name_by_offset(btf, m->name_off);
			int w;

			if (!name || !name[0])
				continue;
			for (size_t k = 0; k < ARRAY_SIZE(hook_names); k++)
				if (streq(name, hook_names[k].name))
					ks->hooks |= hook_names[k].hook;
			w = snprintf(ks->hook_names + off, sizeof(ks->hook_names) - off, "%s%s", off ? " " : "", name);
			if (w > 0 && (size_t)w < sizeof(ks->hook_names) - off)
				off += (size_t)w;
		}
	}
	btf__free(btf);

	if (!ks->has_ops)
		snprintf(ks->error, sizeof(ks->error), "kernel %s has no memcg_bpf_ops in its BTF: it lacks the "
			 "memcg BPF hooks series, so memcgd cannot protect or throttle slices", ks->release);
	else if (!ks->has_tracepoint)
		snprintf(ks->error, sizeof(ks->error), "kernel %s has no memcg:count_memcg_events tracepoint: "
			 "memcgd cannot measure page-fault rates", ks->release);
	else if ((ks->hooks & HOOKS_PROTECT) != HOOKS_PROTECT)
		snprintf(ks->error, sizeof(ks->error), "kernel %s: memcg_bpf_ops lacks below_low/below_min "
			 "(has: %s)", ks->release, ks->hook_names);
	return ks->error[0] ? -EOPNOTSUPP : 0;
}
