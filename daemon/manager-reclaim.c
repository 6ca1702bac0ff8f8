// SPDX-License-Identifier: GPL-2.0-only
/* Background reclaim ([Reclaim] Background=): which path runs it, the free memory the kernel
 * path starts from, and the fallback through memory.reclaim. The plan is the same function
 * either way (bpf/reclaim-plan.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "../bpf/reclaim-plan.h"
#include "cgroup-files.h"
#include "log.h"
#include "manager-internal.h"
#include "policy.h"
#include "units-parse.h"
#include "util.h"

void mgr_choose_reclaim_path(struct manager *m, enum reclaim_path want)
{
	bool kernel = (m->ks.hooks & HOOK_MEMCG_CHARGED) && m->ks.has_reclaim_kfunc;

	m->reclaim_want = want;
	if (m->dry_run) {
		m->reclaim_path = RECLAIM_OFF;
		snprintf(m->reclaim_note, sizeof(m->reclaim_note), "dry run: nothing is reclaimed");
		return;
	}
	switch (want) {
	case RECLAIM_PATH_AUTO:
	case RECLAIM_PATH_KERNEL:
		if (kernel) {
			m->reclaim_path = RECLAIM_KERNEL;
			snprintf(m->reclaim_note, sizeof(m->reclaim_note),
				 "in the kernel: memcg_charged starts a bpf_wq that calls bpf_try_to_free_mem_cgroup_pages()");
		} else if (want == RECLAIM_PATH_AUTO) {
			m->reclaim_path = RECLAIM_DAEMON;
			snprintf(m->reclaim_note, sizeof(m->reclaim_note),
				 "memcgd writes memory.reclaim every update: kernel %s lacks %s", m->ks.release,
				 m->ks.hooks & HOOK_MEMCG_CHARGED ? "bpf_try_to_free_mem_cgroup_pages()"
								   : "memcg_bpf_ops::memcg_charged");
		} else {
			m->reclaim_path = RECLAIM_OFF;
			snprintf(m->reclaim_note, sizeof(m->reclaim_note),
				 "off: ReclaimPath=kernel, but kernel %s lacks %s", m->ks.release,
				 m->ks.hooks & HOOK_MEMCG_CHARGED ? "bpf_try_to_free_mem_cgroup_pages()"
								   : "memcg_bpf_ops::memcg_charged");
		}
		break;
	case RECLAIM_PATH_DAEMON:
		m->reclaim_path = RECLAIM_DAEMON;
		snprintf(m->reclaim_note, sizeof(m->reclaim_note), "memcgd writes memory.reclaim every update (ReclaimPath=memory.reclaim)");
		break;
	}
}

const char *mgr_reclaim_path_name(const struct manager *m)
{
	if (!m->reclaim_n)
		return "none";
	switch (m->reclaim_path) {
	case RECLAIM_KERNEL:
		return "kernel";
	case RECLAIM_DAEMON:
		return "memory.reclaim";
	case RECLAIM_OFF:
		break;
	}
	return "off";
}

void mgr_reclaim_order(struct manager *m, const struct memcgd_config *c, const uint32_t *levels, const int *slot_of,
		       uint32_t gen)
{
	m->reclaim_n = policy_reclaim_order(c, levels, slot_of, m->reclaim_slots, &m->reclaim_headroom);
	policy_maps_write_reclaim_order(&m->pm, gen, m->reclaim_slots, m->reclaim_n, m->reclaim_headroom);
	policy_maps_set_reclaim_enabled(&m->pm, m->reclaim_path == RECLAIM_KERNEL && m->reclaim_n);
}

uint64_t mgr_watermark_bytes(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/zoneinfo", "re");
	uint64_t pages = 0, v;
	char key[32];
	int c;

	if (!f)
		return 0;
	/* "        high     4241" lines, one per zone (the "protection:" lines hold no "high") */
	while (fscanf(f, "%31s", key) == 1) {
		if (streq(key, "high") && fscanf(f, "%" SCNu64, &v) == 1)
			pages += v;
		while ((c = fgetc(f)) != EOF && c != '\n')
			;
	}
	return pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

uint64_t mgr_free_memory(void)
{
	struct sysinfo si;

	return sysinfo(&si) == 0 ? (uint64_t)si.freeram * si.mem_unit : 0;
}

/* The highest level that is active now (by page faults or CPUUsage=), -1 if none. */
static int top_active_level(const struct manager *m)
{
	int top = -1;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && m->rt[k].active && (int)m->rt[k].level > top)
			top = (int)m->rt[k].level;
	return top;
}

/* memory.reclaim of one slice: 0, or -errno (-EAGAIN: the kernel reclaimed less than asked) */
static int write_reclaim(const char *dir, uint64_t bytes)
{
	_cleanup_free_ char *path = strjoin3(dir, "/", "memory.reclaim");
	char buf[32];
	int fd, n, r = 0;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%" PRIu64, bytes);
	if (write(fd, buf, (size_t)n) != n)
		r = -errno;
	close(fd);
	return r;
}

/* One pass of the fallback: the plan from memory.current/min/low, then memory.reclaim. */
static void reclaim_through_files(struct manager *m, uint64_t free_bytes, uint64_t page, uint64_t now_ns)
{
	struct memcgd_reclaim_plan *pl = &m->reclaim_plan;
	uint64_t current[MEMCGD_MAX_RECLAIM_SLICES] = {};
	int top = top_active_level(m);

	if (top < 0)
		return;
	pl->n = (uint32_t)m->reclaim_n;
	for (size_t i = 0; i < m->reclaim_n; i++) {
		struct memcgd_reclaim_entry *e = &pl->e[i];
		struct slice_rt *rt = &m->rt[m->reclaim_slots[i]];
		const struct slice_settings *st = &rt->conf.settings;
		_cleanup_free_ char *dir = NULL;
		uint64_t cur, min = 0, low = 0, prot;

		*e = (struct memcgd_reclaim_entry){ .slot = m->reclaim_slots[i], .level = rt->level };
		/* Background= slices only: giving an idle protected slice's memory back needs the
		 * kernel path (memcgd.service may not write memory.reclaim anyway) */
		if (!rt->in_use || !rt->cgroup || !st->reclaim_background || top <= (int)rt->level)
			continue;
		dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
		if (!dir || cgroup_read_memory_value(dir, "memory.current", &cur) < 0)
			continue;
		current[i] = cur;
		cgroup_read_memory_value(dir, "memory.min", &min);
		cgroup_read_memory_value(dir, "memory.low", &low);
		prot = min > low ? min : low;
		e->headroom = st->reclaim_headroom / page;
		e->excess = cur > prot ? (cur - prot) / page : 0;
		/* Rate=: what one update interval allows */
		e->budget = st->reclaim_rate == SIZE_INFINITY ? UINT64_MAX
			    : st->reclaim_rate / page * m->interval_usec / USEC_PER_SEC;
	}
	if (!memcgd_reclaim_plan(pl, free_bytes / page))
		return;
	for (size_t i = 0; i < m->reclaim_n; i++) {
		struct slice_rt *rt = &m->rt[pl->e[i].slot];
		uint64_t before = current[i], after = before;
		_cleanup_free_ char *dir = NULL;
		int r;

		if (!pl->e[i].take || !rt->cgroup)
			continue;
		dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
		r = dir ? write_reclaim(dir, pl->e[i].take * page) : -ENOMEM;
		if (dir)
			cgroup_read_memory_value(dir, "memory.current", &after);
		rt->reclaim.last_ns = now_ns;
		rt->reclaim.last_free = free_bytes;
		rt->reclaim.last_level = (uint32_t)top;
		if (r < 0 && r != -EAGAIN) {
			rt->reclaim.errors++;
			rt->reclaim.last_error = r;
			if (!rt->reclaim.denied_logged && (r == -EACCES || r == -EPERM || r == -EROFS)) {
				log_transition(LOG_WARNING, "reclaim-denied", rt->conf.name, rt->conf.priority, 0,
					       "%s: cannot write %s/memory.reclaim: %s; background reclaim through "
					       "memory.reclaim needs write access to it, which memcgd.service does not "
					       "grant (memcgd.d(5), [Reclaim])", rt->conf.name, rt->cgroup, strerror(-r));
				rt->reclaim.denied_logged = true;
			}
			continue;
		}
		/* memory.current also moves with the slice's own charges: count what it lost */
		rt->reclaim.bytes += before > after ? before - after : 0;
		rt->reclaim.passes++;
	}
}

void mgr_reclaim_tick(struct manager *m)
{
	/* free memory as the sampler read it in this update */
	uint64_t free_bytes = m->free_bytes, page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (!m->reclaim_n || m->reclaim_path == RECLAIM_OFF)
		return;
	if (m->reclaim_path == RECLAIM_DAEMON) {
		reclaim_through_files(m, free_bytes, page, mgr_now_ns(CLOCK_MONOTONIC));
		return;
	}
	policy_maps_publish_free(&m->pm, free_bytes, m->reclaim_room);
	/* the work item's record of each slice, as the sampler read it */
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];

		if (!rt->in_use)
			continue;
		rt->reclaim.bytes = rt->st.reclaimed_pages * page;
		rt->reclaim.passes = rt->st.reclaim_passes;
		rt->reclaim.errors = rt->st.reclaim_errors;
		rt->reclaim.last_error = rt->st.reclaim_last_error;
		rt->reclaim.last_ns = rt->st.reclaim_last_ns;
		rt->reclaim.last_free = rt->st.reclaim_last_avail;
		rt->reclaim.last_level = (uint32_t)rt->st.reclaim_last_level;
	}
}
