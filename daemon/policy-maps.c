// SPDX-License-Identifier: GPL-2.0-only
#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bpf/reclaim-plan.h"
#include "log.h"
#include "policy-maps.h"
/* after the headers that define the types of its .bss */
#include "memcgd.bpf.skel.h"
#include "util.h"

/* libbpf hands over a failed program's whole verifier log in one message: log it line by line,
 * and of a long one the head and the tail (the tail says why the program was rejected). */
#define LIBBPF_LOG_HEAD 10
#define LIBBPF_LOG_TAIL 40

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int prio = level == LIBBPF_WARN ? LOG_WARNING : LOG_DEBUG;
	_cleanup_free_ char *msg = NULL;
	size_t n_lines = 0, i = 0;
	char *line, *next;

	if (level == LIBBPF_DEBUG && log_max_level < LOG_DEBUG)
		return 0;
	if (vasprintf(&msg, fmt, ap) < 0) {
		msg = NULL;
		return 0;
	}
	for (const char *p = msg; *p; p++)
		n_lines += *p == '\n' || !p[1];
	for (line = msg; line && *line; line = next, i++) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (n_lines > LIBBPF_LOG_HEAD + LIBBPF_LOG_TAIL && i >= LIBBPF_LOG_HEAD &&
		    i < n_lines - LIBBPF_LOG_TAIL) {
			if (i == LIBBPF_LOG_HEAD)
				log_msg(prio, "libbpf: ... %zu lines left out ...", n_lines - LIBBPF_LOG_HEAD - LIBBPF_LOG_TAIL);
			continue;
		}
		/* libbpf's own messages carry the prefix already, verifier log lines do not */
		log_msg(prio, "%s%s", strncmp(line, "libbpf: ", 8) ? "libbpf: " : "", line);
	}
	return 0;
}

int policy_maps_open(struct policy_maps *pm, bool dry_run, uint32_t max_cgroups, bool reclaim_kernel, bool numa,
		     bool sized, ring_buffer_sample_fn on_event, void *ctx)
{
	struct memcgd_bpf *skel;
	int r;

	memset(pm, 0, sizeof(*pm));
	pm->dry_run = dry_run;
	libbpf_set_print(libbpf_log);

	pm->n_cpus = libbpf_num_possible_cpus();
	if (pm->n_cpus <= 0) {
		r = pm->n_cpus < 0 ? pm->n_cpus : -EINVAL;
		log_error("cannot count the possible CPUs (/sys/devices/system/cpu/possible): %s", strerror(-r));
		return r;
	}
	pm->busy_faults = calloc((size_t)pm->n_cpus, sizeof(*pm->busy_faults));
	if (!pm->busy_faults) {
		log_error("out of memory");
		return -ENOMEM;
	}

	skel = memcgd_bpf__open();
	if (!skel) {
		r = -errno;
		log_error("cannot open the embedded BPF object: %s", strerror(-r));
		return r;
	}
	pm->skel = skel;
	pm->max_cgroups = max_cgroups;
	r = bpf_map__set_max_entries(skel->maps.slice_of, max_cgroups);
	if (r) {
		log_error("cannot size slice_of for MaxCgroups=%" PRIu32 ": %s", max_cgroups, strerror(-r));
		goto fail;
	}
	skel->rodata->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	pm->reclaim_kernel = reclaim_kernel && !dry_run;
	if (!pm->reclaim_kernel) {
		/* a kernel without memcg_charged (or background reclaim not done by the kernel):
		 * the ops go without that member */
		skel->struct_ops.memcgd_ops->memcg_charged = NULL;
		bpf_program__set_autoload(skel->progs.memcgd_memcg_charged, false);
	}
	pm->numa = numa && !dry_run;
	if (!pm->numa) {
		/* a kernel without numa_balancing: every slice follows kernel.numa_balancing */
		skel->struct_ops.memcgd_ops->numa_balancing = NULL;
		bpf_program__set_autoload(skel->progs.memcgd_numa_balancing, false);
	}
	pm->sized = sized && !dry_run;
	if (!pm->sized) {
		/* a kernel without get_low/get_min: protection is all or nothing (below_low/below_min),
		 * and the manager compiles no policy with MEMCGD_POLICY_SIZED */
		skel->struct_ops.memcgd_ops->get_low = NULL;
		skel->struct_ops.memcgd_ops->get_min = NULL;
		bpf_program__set_autoload(skel->progs.memcgd_get_low, false);
		bpf_program__set_autoload(skel->progs.memcgd_get_min, false);
	}
	if (dry_run) {
		/* measure only: the memcg_bpf_ops map and its programs never reach the kernel */
		bpf_map__set_autocreate(skel->maps.memcgd_ops, false);
		bpf_program__set_autoload(skel->progs.memcgd_below_low, false);
		bpf_program__set_autoload(skel->progs.memcgd_below_min, false);
		bpf_program__set_autoload(skel->progs.memcgd_get_high_delay_ms, false);
		bpf_program__set_autoload(skel->progs.memcgd_cgroup_online, false);
		bpf_program__set_autoload(skel->progs.memcgd_cgroup_offline, false);
	}
	r = memcgd_bpf__load(skel);
	if (r) {
		log_error("cannot load the BPF programs: %s (the libbpf messages above name the reason; "
			  "loading needs CAP_BPF and CAP_PERFMON)", strerror(-r));
		goto fail;
	}
	pm->tracepoint = bpf_program__attach(skel->progs.memcgd_count_events);
	if (!pm->tracepoint) {
		r = -errno;
		log_error("cannot attach to tracepoint memcg:count_memcg_events: %s", strerror(-r));
		goto fail;
	}
	pm->events = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, ctx, NULL);
	if (!pm->events) {
		r = -errno;
		log_error("cannot open the event ring buffer: %s", strerror(-r));
		goto fail;
	}
	return 0;

fail:
	policy_maps_close(pm);
	return r;
}

void policy_maps_close(struct policy_maps *pm)
{
	ring_buffer__free(pm->events);
	bpf_link__destroy(pm->tracepoint);
	memcgd_bpf__destroy(pm->skel);
	free(pm->busy_faults);
	memset(pm, 0, sizeof(*pm));
}

uint32_t policy_maps_active_gen(const struct policy_maps *pm)
{
	return __atomic_load_n(&pm->skel->bss->active_gen, __ATOMIC_ACQUIRE) & 1;
}

void policy_maps_set_active_gen(struct policy_maps *pm, uint32_t gen)
{
	/* every write to the new generation is complete before programs can see it */
	__atomic_store_n(&pm->skel->bss->active_gen, gen & 1, __ATOMIC_RELEASE);
}

void policy_maps_mark_cpu_active(struct policy_maps *pm, uint32_t gen, uint32_t slot, uint32_t level,
				 uint64_t until_ns)
{
	struct memcgd_bpf__bss *bss = pm->skel->bss;
	uint32_t g = gen & 1;

	if (slot >= MEMCGD_MAX_SLICES || level >= MEMCGD_MAX_LEVELS)
		return;
	/* "until" before the mask bit: a hook that sees the bit finds the time (see expire) */
	if (until_ns > __atomic_load_n(&bss->cpu_active_until_ns[slot], __ATOMIC_RELAXED))
		__atomic_store_n(&bss->cpu_active_until_ns[slot], until_ns, __ATOMIC_RELEASE);
	if (until_ns > __atomic_load_n(&bss->cpu_level_until_ns[g][level], __ATOMIC_RELAXED))
		__atomic_store_n(&bss->cpu_level_until_ns[g][level], until_ns, __ATOMIC_RELEASE);
	__atomic_fetch_or(&bss->cpu_level_mask[g], UINT64_C(1) << level, __ATOMIC_RELEASE);
}

void policy_maps_set_protection(struct policy_maps *pm, uint32_t slot, uint64_t footprint, uint64_t reserve)
{
	struct memcgd_bpf__bss *bss = pm->skel->bss;

	if (slot >= MEMCGD_MAX_SLICES)
		return;
	__atomic_store_n(&bss->protect_footprint_bytes[slot], footprint, __ATOMIC_RELAXED);
	__atomic_store_n(&bss->protect_reserve_bytes[slot], reserve, __ATOMIC_RELAXED);
}

void policy_maps_set_pressure(struct policy_maps *pm, uint32_t gen, uint32_t level, uint64_t until_ns)
{
	struct memcgd_bpf__bss *bss = pm->skel->bss;
	uint32_t g = gen & 1;

	if (level >= MEMCGD_MAX_LEVELS)
		return;
	/* "until" before the mask bit, as for the CPU levels */
	__atomic_store_n(&bss->pressure_level_until_ns[g][level], until_ns, __ATOMIC_RELEASE);
	if (until_ns)
		__atomic_fetch_or(&bss->pressure_level_mask[g], UINT64_C(1) << level, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&bss->pressure_level_mask[g], ~(UINT64_C(1) << level), __ATOMIC_RELEASE);
}

uint64_t policy_maps_cpu_active_until(const struct policy_maps *pm, uint32_t slot)
{
	if (slot >= MEMCGD_MAX_SLICES)
		return 0;
	return __atomic_load_n(&pm->skel->bss->cpu_active_until_ns[slot], __ATOMIC_ACQUIRE);
}

void policy_maps_expire_cpu_levels(struct policy_maps *pm, uint32_t gen, uint64_t now_ns)
{
	struct memcgd_bpf__bss *bss = pm->skel->bss;
	uint32_t g = gen & 1;
	uint64_t mask = __atomic_load_n(&bss->cpu_level_mask[g], __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < MEMCGD_MAX_LEVELS; i++)
		if ((mask & (UINT64_C(1) << i)) && __atomic_load_n(&bss->cpu_level_until_ns[g][i], __ATOMIC_ACQUIRE) <= now_ns)
			__atomic_fetch_and(&bss->cpu_level_mask[g], ~(UINT64_C(1) << i), __ATOMIC_RELEASE);
}

void policy_maps_merge_cpu_levels(const struct policy_maps *pm, uint32_t gen, struct memcgd_levels *l)
{
	const struct memcgd_bpf__bss *bss = pm->skel->bss;
	uint32_t g = gen & 1;
	uint64_t mask = __atomic_load_n(&bss->cpu_level_mask[g], __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < MEMCGD_MAX_LEVELS; i++) {
		uint64_t until;

		if (!(mask & (UINT64_C(1) << i)))
			continue;
		until = __atomic_load_n(&bss->cpu_level_until_ns[g][i], __ATOMIC_ACQUIRE);
		l->active_mask |= UINT64_C(1) << i;
		if (until > l->until_ns[i])
			l->until_ns[i] = until;
	}
}

void policy_maps_clear_cpu_active(struct policy_maps *pm, uint32_t slot)
{
	if (slot < MEMCGD_MAX_SLICES)
		__atomic_store_n(&pm->skel->bss->cpu_active_until_ns[slot], 0, __ATOMIC_RELEASE);
}

uint64_t policy_maps_events_dropped(const struct policy_maps *pm)
{
	return __atomic_load_n(&pm->skel->bss->events_dropped, __ATOMIC_RELAXED);
}

int policy_maps_events_fd(const struct policy_maps *pm)
{
	return ring_buffer__epoll_fd(pm->events);
}

static int update(struct bpf_map *map, const void *key, const void *value)
{
	int r = bpf_map_update_elem(bpf_map__fd(map), key, value, BPF_ANY);

	return r < 0 ? -errno : 0;
}

static int lookup(struct bpf_map *map, const void *key, void *value)
{
	int r = bpf_map_lookup_elem(bpf_map__fd(map), key, value);

	return r < 0 ? -errno : 0;
}

int policy_maps_write_policy(struct policy_maps *pm, uint32_t gen, uint32_t slot, const struct memcgd_policy *p)
{
	uint32_t key = (gen & 1) * MEMCGD_MAX_SLICES + slot;

	return update(pm->skel->maps.policies, &key, p);
}

int policy_maps_read_policy(struct policy_maps *pm, uint32_t gen, uint32_t slot, struct memcgd_policy *p)
{
	uint32_t key = (gen & 1) * MEMCGD_MAX_SLICES + slot;

	return lookup(pm->skel->maps.policies, &key, p);
}

int policy_maps_write_levels(struct policy_maps *pm, uint32_t gen, const struct memcgd_levels *l)
{
	struct memcgd_bpf__bss *bss = pm->skel->bss;
	uint32_t key = gen & 1;

	/* the generation is not active yet: its CPU activity starts over with its level numbers */
	__atomic_store_n(&bss->cpu_level_mask[key], 0, __ATOMIC_RELEASE);
	for (uint32_t i = 0; i < MEMCGD_MAX_LEVELS; i++)
		__atomic_store_n(&bss->cpu_level_until_ns[key][i], 0, __ATOMIC_RELAXED);
	return update(pm->skel->maps.levels, &key, l);
}

int policy_maps_read_levels(struct policy_maps *pm, uint32_t gen, struct memcgd_levels *l)
{
	uint32_t key = gen & 1;

	return lookup(pm->skel->maps.levels, &key, l);
}

int policy_maps_read_state(struct policy_maps *pm, uint32_t slot, struct memcgd_slice_state *s)
{
	int r = lookup(pm->skel->maps.slice_state, &slot, s);

	if (r < 0)
		return r;
	/* faults counted per CPU while the slice was already marked active */
	r = lookup(pm->skel->maps.busy_faults, &slot, pm->busy_faults);
	if (r < 0)
		return r;
	for (int cpu = 0; cpu < pm->n_cpus; cpu++)
		s->faults += pm->busy_faults[cpu];
	return 0;
}

int policy_maps_reset_state(struct policy_maps *pm, uint32_t slot)
{
	struct memcgd_slice_state zero = {};
	uint32_t off = 0;
	int r;

	r = update(pm->skel->maps.slice_state, &slot, &zero);
	if (r < 0)
		return r;
	memset(pm->busy_faults, 0, sizeof(*pm->busy_faults) * (size_t)pm->n_cpus);
	r = update(pm->skel->maps.busy_faults, &slot, pm->busy_faults);
	return r < 0 ? r : update(pm->skel->maps.protect_suspended, &slot, &off);
}

int policy_maps_set_protect_suspended(struct policy_maps *pm, uint32_t slot, bool suspended)
{
	uint32_t v = suspended;

	return update(pm->skel->maps.protect_suspended, &slot, &v);
}

/* Each CPU caches the slot of the cgroup that faulted last; a new epoch voids those entries. The
 * map change is complete (the syscall returned) before the epoch moves. */
static void slice_of_changed(struct policy_maps *pm)
{
	__atomic_add_fetch(&pm->skel->bss->slice_of_epoch, 1, __ATOMIC_RELEASE);
}

int policy_maps_map_cgroup(struct policy_maps *pm, uint64_t cgroup_id, uint32_t slot)
{
	uint32_t cur;
	int r;

	if (lookup(pm->skel->maps.slice_of, &cgroup_id, &cur) == 0 && cur == slot)
		return 0; /* no change: the CPUs' cached slots stay valid */
	r = update(pm->skel->maps.slice_of, &cgroup_id, &slot);
	if (r == -E2BIG)
		pm->map_refused++;
	slice_of_changed(pm);
	return r;
}

uint64_t policy_maps_unmapped(const struct policy_maps *pm)
{
	return __atomic_load_n(&pm->skel->bss->slice_of_full, __ATOMIC_RELAXED) + pm->map_refused;
}

int policy_maps_cgroup_slot(struct policy_maps *pm, uint64_t cgroup_id, uint32_t *slot)
{
	return lookup(pm->skel->maps.slice_of, &cgroup_id, slot);
}

int policy_maps_unmap_cgroup(struct policy_maps *pm, uint64_t cgroup_id)
{
	int r = bpf_map_delete_elem(bpf_map__fd(pm->skel->maps.slice_of), &cgroup_id);

	if (r < 0)
		return errno == ENOENT ? 0 : -errno;
	slice_of_changed(pm);
	return 0;
}

int policy_maps_purge_slot(struct policy_maps *pm, uint32_t slot)
{
	int fd = bpf_map__fd(pm->skel->maps.slice_of);
	uint64_t key, next, *prev = NULL;
	uint64_t doomed[256];
	size_t n, n_deleted = 0;

	/* delete in batches: deleting while iterating would restart the walk */
	do {
		n = 0;
		prev = NULL;
		while (n < sizeof(doomed) / sizeof(doomed[0]) && bpf_map_get_next_key(fd, prev, &next) == 0) {
			uint32_t v;

			key = next;
			prev = &key;
			if (bpf_map_lookup_elem(fd, &key, &v) == 0 && v == slot)
				doomed[n++] = key;
		}
		for (size_t i = 0; i < n; i++)
			bpf_map_delete_elem(fd, &doomed[i]);
		n_deleted += n;
	} while (n == sizeof(doomed) / sizeof(doomed[0]));
	if (n_deleted)
		slice_of_changed(pm);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int policy_maps_sweep_slot(struct policy_maps *pm, uint32_t slot, const uint64_t *seen, size_t n_seen)
{
	int fd = bpf_map__fd(pm->skel->maps.slice_of);
	uint64_t key, next, *prev = NULL;
	uint64_t doomed[256];
	size_t n = 0, n_deleted = 0;
	bool more;

	/* as purge_slot: collect a batch, delete it, walk again while batches come back full */
	do {
		n = 0;
		prev = NULL;
		more = false;
		while (bpf_map_get_next_key(fd, prev, &next) == 0) {
			uint32_t v;

			key = next;
			prev = &key;
			if (bpf_map_lookup_elem(fd, &key, &v) < 0 || v != slot ||
			    bsearch(&key, seen, n_seen, sizeof(*seen), cmp_u64))
				continue;
			if (n == sizeof(doomed) / sizeof(doomed[0])) {
				more = true;
				break;
			}
			doomed[n++] = key;
		}
		for (size_t i = 0; i < n; i++)
			if (bpf_map_delete_elem(fd, &doomed[i]) == 0)
				n_deleted++;
	} while (more);
	if (n_deleted)
		slice_of_changed(pm);
	return (int)(n_deleted < INT32_MAX ? n_deleted : INT32_MAX);
}

struct bpf_link *policy_maps_attach(struct policy_maps *pm, int cgroup_fd, int *err)
{
	LIBBPF_OPTS(bpf_struct_ops_opts, opts, .flags = BPF_F_CGROUP_FD | BPF_F_ALLOW_OVERRIDE,
		    .target_fd = (__u32)cgroup_fd);
	struct bpf_link *link;

	link = bpf_map__attach_struct_ops_opts(pm->skel->maps.memcgd_ops, &opts);
	*err = link ? 0 : -errno;
	return link;
}

bool policy_maps_link_detached(const struct bpf_link *link)
{
	struct pollfd pfd = { .fd = bpf_link__fd(link), .events = 0 };

	/* the kernel detaches the link when the cgroup's memory cgroup goes offline (rmdir, or
	 * the memory controller disabled for it) and reports EPOLLHUP */
	return poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLNVAL));
}

int policy_maps_set_exempt(struct policy_maps *pm, const uint64_t *ids, size_t n)
{
	int fd = bpf_map__fd(pm->skel->maps.exempt);
	uint64_t key, next, stale[MEMCGD_MAX_EXEMPT];
	size_t n_stale = 0;
	uint32_t one = 1;
	int r = 0;

	/* add first, then remove what left: a cgroup in both sets is exempt throughout */
	for (size_t i = 0; i < n; i++)
		if (bpf_map_update_elem(fd, &ids[i], &one, BPF_ANY) < 0)
			r = -errno;
	for (uint64_t *prev = NULL; n_stale < MEMCGD_MAX_EXEMPT && bpf_map_get_next_key(fd, prev, &next) == 0;
	     prev = &key) {
		bool keep = false;

		key = next;
		for (size_t i = 0; i < n; i++)
			keep |= ids[i] == key;
		if (!keep)
			stale[n_stale++] = key;
	}
	for (size_t i = 0; i < n_stale; i++)
		bpf_map_delete_elem(fd, &stale[i]);
	return r;
}

uint64_t policy_maps_exempt_skips(const struct policy_maps *pm)
{
	return __atomic_load_n(&pm->skel->bss->exempt_skips, __ATOMIC_RELAXED);
}

int policy_maps_set_slice_root(struct policy_maps *pm, uint32_t slot, uint64_t cgroup_id)
{
	return update(pm->skel->maps.slice_root, &slot, &cgroup_id);
}

void policy_maps_write_reclaim_order(struct policy_maps *pm, uint32_t gen, const uint32_t *order, size_t n,
				     uint64_t max_headroom)
{
	struct memcgd_bpf__bss *bss = pm->skel->bss;
	uint32_t g = gen & 1;

	if (n > MEMCGD_MAX_RECLAIM_SLICES)
		n = MEMCGD_MAX_RECLAIM_SLICES;
	/* the generation is not active yet: no program reads it */
	for (size_t i = 0; i < n; i++)
		__atomic_store_n(&bss->reclaim_order[g][i], order[i], __ATOMIC_RELAXED);
	__atomic_store_n(&bss->reclaim_order_n[g], (uint32_t)n, __ATOMIC_RELAXED);
	__atomic_store_n(&bss->reclaim_max_headroom[g], max_headroom, __ATOMIC_RELEASE);
}

void policy_maps_set_reclaim_enabled(struct policy_maps *pm, bool enabled)
{
	__atomic_store_n(&pm->skel->bss->reclaim_enabled, enabled && pm->reclaim_kernel, __ATOMIC_RELEASE);
}

void policy_maps_publish_free(struct policy_maps *pm, uint64_t free_bytes, uint64_t room_bytes)
{
	struct memcgd_bpf__bss *bss = pm->skel->bss;

	__atomic_store_n(&bss->reclaim_room_bytes, room_bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&bss->reclaim_avail_bytes, free_bytes, __ATOMIC_RELAXED);
	__atomic_add_fetch(&bss->reclaim_avail_seq, 1, __ATOMIC_RELEASE);
}
