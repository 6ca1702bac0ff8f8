// SPDX-License-Identifier: GPL-2.0-only
/* The manager's slices: from a slice name to its cgroup (bus or naming rule), slice_of, links,
 * retries; and the exempt cgroups. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup-files.h"
#include "exempt.h"
#include "link-store.h"
#include "log.h"
#include "manager-internal.h"
#include "util.h"
#include "systemd-bus.h"
#include "units-parse.h"

void mgr_set_attach(struct slice_rt *rt, enum attach_state attach, const char *reason)
{
	rt->attach = attach;
	snprintf(rt->reason, sizeof(rt->reason), "%.250s", reason ? reason : "");
}

const char *attach_state_to_string(enum attach_state a)
{
	static const char *const names[] = {
		[ATTACH_NOT_RUNNING] = "not-running",
		[ATTACH_ATTACHED] = "attached",
		[ATTACH_DRY_RUN] = "dry-run",
		[ATTACH_FAILED] = "failed",
		[ATTACH_REMOVED] = "removed",
	};

	return a < ARRAY_SIZE(names) && names[a] ? names[a] : "?";
}

/* 1 s, 2 s, 4 s ... at most 1 min after the n-th failure in a row */
uint64_t mgr_backoff_usec(unsigned n)
{
	return n == 0 ? 0 : n > 6 ? 60 * USEC_PER_SEC : (USEC_PER_SEC << (n - 1));
}

void mgr_schedule_resolve(struct manager *m)
{
	if (m->resolve_src)
		sd_event_source_set_enabled(m->resolve_src, SD_EVENT_ONESHOT);
}

/* ---- cgroups of a slice in slice_of ---- */

static bool is_other_slice_root(struct manager *m, uint64_t id, uint32_t slot)
{
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (k != slot && m->rt[k].in_use && m->rt[k].cgroup && m->rt[k].cgroup_id == id)
			return true;
	return false;
}

/* The cgroup ids a walk of a slice found; complete unless a directory could not be read. */
struct walk_seen {
	uint64_t *ids;
	size_t n, cap;
	bool complete;
};

static void walk_saw(struct walk_seen *w, uint64_t id)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		uint64_t *ids = reallocarray(w->ids, cap, sizeof(*ids));

		if (!ids) {
			w->complete = false;
			return;
		}
		w->ids = ids;
		w->cap = cap;
	}
	w->ids[w->n++] = id;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Maps every cgroup below dirfd to slot, except subtrees of other managed slices. */
static void map_descendants(struct manager *m, int dirfd, uint32_t slot, int depth, struct walk_seen *w)
{
	DIR *d;
	struct dirent *de;

	if (depth > 32) {
		close(dirfd);
		w->complete = false;
		return;
	}
	d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		w->complete = false;
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int fd;

		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT) /* not gone: unknown, so the walk cannot judge what is */
				w->complete = false;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		if (is_other_slice_root(m, st.st_ino, slot))
			continue;
		policy_maps_map_cgroup(&m->pm, st.st_ino, slot); /* writes only what changed */
		walk_saw(w, st.st_ino);
		fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			map_descendants(m, fd, slot, depth + 1, w);
		else if (errno != ENOENT)
			w->complete = false;
	}
	closedir(d);
}

/*
 * Maps the slice's cgroup and every cgroup below it. In a dry run it also removes the slot's
 * entries of cgroups the walk did not find: without links there is no offline hook, and they
 * would stay until the map is full. Only in a dry run: with a link, the online hook may add a
 * cgroup created after the walk passed its parent, which a sweep would wrongly delete (and the
 * offline hook removes what goes away).
 */
static void map_slice_cgroups(struct manager *m, uint32_t slot)
{
	struct slice_rt *rt = &m->rt[slot];
	struct walk_seen w = { .complete = true };
	_cleanup_free_ char *dir = NULL;
	int fd, r;

	if (!rt->cgroup)
		return;
	dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
	if (!dir)
		return;
	policy_maps_map_cgroup(&m->pm, rt->cgroup_id, slot);
	walk_saw(&w, rt->cgroup_id);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		map_descendants(m, fd, slot, 0, &w);
	else
		w.complete = false;
	if (m->dry_run && w.complete) {
		qsort(w.ids, w.n, sizeof(*w.ids), cmp_id);
		r = policy_maps_sweep_slot(&m->pm, slot, w.ids, w.n);
		if (r > 0)
			log_debug("%s: %d removed cgroup%s forgotten", rt->conf.name, r, r == 1 ? "" : "s");
	}
	free(w.ids);
}

/* ---- attaching ---- */

void mgr_detach_slice(struct manager *m, uint32_t slot, enum attach_state attach, const char *why)
{
	struct slice_rt *rt = &m->rt[slot];

	if (rt->link) {
		/* explicitly: systemd's file descriptor store holds a duplicate (link-store.h) */
		link_store_end(rt->cgroup_id, bpf_link__fd(rt->link));
		bpf_link__destroy(rt->link);
		rt->link = NULL;
		log_transition(LOG_NOTICE, "detached", rt->conf.name, rt->conf.priority, rt->cgroup_id,
			       "%s: detached from %s (%s); the kernel's own memory.low/min rules apply there again",
			       rt->conf.name, rt->cgroup ? rt->cgroup : "?", why);
	}
	policy_maps_set_slice_root(&m->pm, slot, 0);
	policy_maps_purge_slot(&m->pm, slot);
	free(rt->cgroup);
	rt->cgroup = NULL;
	rt->cgroup_id = 0;
	mgr_set_attach(rt, attach, why);
}

static const char *attach_error_reason(int err, char *buf, size_t len)
{
	switch (err) {
	case -EBUSY:
		return "EBUSY: another memcg_bpf_ops owner is attached to this cgroup, or to an ancestor "
		       "without BPF_F_ALLOW_OVERRIDE (see: bpftool link show)";
	case -ENOENT:
		return "ENOENT: the cgroup has no memory controller of its own (enable MemoryAccounting= "
		       "for the slice) or was just removed";
	case -EPERM:
	case -EACCES:
		return "permission denied: attaching memcg_bpf_ops needs CAP_BPF and CAP_PERFMON (or a "
		       "BPF token that delegates them), and a cgroup inside memcgd's cgroup namespace";
	case -EOPNOTSUPP:
		return "EOPNOTSUPP: this kernel cannot attach memcg_bpf_ops to cgroups";
	default:
		snprintf(buf, len, "%s", strerror(-err));
		return buf;
	}
}

static void try_link(struct manager *m, uint32_t slot, int fd)
{
	struct slice_rt *rt = &m->rt[slot];
	uint64_t start_ns = 0;
	int r, inherited;
	char buf[256];

	if (m->dry_run) {
		if (rt->attach != ATTACH_DRY_RUN)
			log_transition(LOG_INFO, "measuring", rt->conf.name, rt->conf.priority, rt->cgroup_id,
				       "%s: measuring %s (cgroup id %" PRIu64 "), dry run: nothing attached",
				       rt->conf.name, rt->cgroup, rt->cgroup_id);
		mgr_set_attach(rt, ATTACH_DRY_RUN, "");
		return;
	}
	inherited = link_store_take(&m->inherited, rt->cgroup_id);
	if (inherited >= 0) {
		/* the previous memcgd's link is still attached (systemd kept it while memcgd was down):
		 * a cgroup has one attachment of its own, so end it right before attaching ours */
		start_ns = mgr_now_ns(CLOCK_MONOTONIC);
		link_store_end(rt->cgroup_id, inherited);
	}
	rt->link = policy_maps_attach(&m->pm, fd, &r);
	if (inherited >= 0) {
		uint64_t gap_usec = (mgr_now_ns(CLOCK_MONOTONIC) - start_ns) / 1000;

		close(inherited);
		if (rt->link)
			log_transition(LOG_INFO, "took-over", rt->conf.name, rt->conf.priority, gap_usec,
				       "%s: took over the link the previous memcgd left attached to %s across its "
				       "restart (%" PRIu64 " us between its end and the new attachment)",
				       rt->conf.name, rt->cgroup, gap_usec);
	}
	if (!rt->link) {
		const char *why = attach_error_reason(r, buf, sizeof(buf));

		/* retried with a backoff (or when systemd signals a change); logged when the reason
		 * changes */
		rt->attach_failures++;
		rt->retry_at_usec = mgr_now_ns(CLOCK_MONOTONIC) / 1000 + mgr_backoff_usec(rt->attach_failures);
		if (rt->attach != ATTACH_FAILED || strcmp(rt->reason, why) != 0)
			log_transition(LOG_ERR, "attach-failed", rt->conf.name, rt->conf.priority, (uint64_t)-r,
				       "%s: cannot attach memcg_bpf_ops to %s: %s", rt->conf.name, rt->cgroup, why);
		mgr_set_attach(rt, ATTACH_FAILED, why);
		return;
	}
	mgr_set_attach(rt, ATTACH_ATTACHED, "");
	rt->attach_failures = 0;
	/* a duplicate in systemd's file descriptor store keeps it attached across a restart */
	r = link_store_keep(rt->cgroup_id, bpf_link__fd(rt->link));
	if (r < 0 && !m->fd_store_warned) {
		m->fd_store_warned = true;
		log_warning("%s: cannot hand the link to systemd's file descriptor store (%s): a restart of "
			    "memcgd will detach it for as long as the restart takes (FileDescriptorStoreMax= of "
			    "memcgd.service?)", rt->conf.name, strerror(-r));
	}
	policy_maps_set_slice_root(&m->pm, slot, rt->cgroup_id);
	/* the slice's cgroups were mapped before the link existed: one created in between had
	 * no online hook call. Walk again (only new entries are written). */
	map_slice_cgroups(m, slot);
	log_transition(LOG_INFO, "attached", rt->conf.name, rt->conf.priority, rt->cgroup_id,
		       "%s: attached to %s (cgroup id %" PRIu64 "), priority %ld", rt->conf.name, rt->cgroup,
		       rt->cgroup_id, rt->conf.priority);
}

/* Takes ownership of cgroup (path below the cgroup root). */
static void attach_slice(struct manager *m, uint32_t slot, char *cgroup)
{
	struct slice_rt *rt = &m->rt[slot];
	_cleanup_free_ char *dir = strjoin3(m->opt.cgroup_root, "", cgroup);
	_cleanup_close_ int fd = -1;
	char buf[512];
	struct stat st;
	uint64_t id;

	if (dir)
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* the id of the directory that was opened, not of whatever has its path by now */
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(buf, sizeof(buf), "cannot open %s: %s", dir ? dir : cgroup, strerror(errno));
		if (rt->cgroup)
			mgr_detach_slice(m, slot, ATTACH_NOT_RUNNING, buf);
		mgr_set_attach(rt, ATTACH_NOT_RUNNING, buf);
		free(cgroup);
		return;
	}
	id = (uint64_t)st.st_ino;
	if (rt->cgroup && streq(rt->cgroup, cgroup) && rt->cgroup_id == id) {
		free(cgroup);
		if (rt->link && policy_maps_link_detached(rt->link)) {
			link_store_end(rt->cgroup_id, bpf_link__fd(rt->link));
			bpf_link__destroy(rt->link);
			rt->link = NULL;
			log_transition(LOG_WARNING, "detached", rt->conf.name, rt->conf.priority, rt->cgroup_id,
				       "%s: the kernel detached the link of %s (its memory controller was "
				       "disabled and enabled again?); attaching again",
				       rt->conf.name, rt->cgroup);
		}
		map_slice_cgroups(m, slot); /* cgroups created meanwhile (dry run: no online hook) */
		if (!rt->link)
			try_link(m, slot, fd);
		return;
	}
	if (rt->cgroup)
		mgr_detach_slice(m, slot, ATTACH_NOT_RUNNING, "cgroup replaced");
	rt->cgroup = cgroup;
	rt->cgroup_id = id;
	/* measure first: the slice's cgroups are counted even if the attach fails */
	map_slice_cgroups(m, slot);
	try_link(m, slot, fd);
}

static int depth_of(const char *name)
{
	int n = 0;

	for (; *name; name++)
		n += *name == '-';
	return n;
}

/* The periodic re-check of a slice that is in place: its cgroup directory still exists with the
 * cgroup id it had, so asking systemd again would only repeat the answer (with hundreds of
 * slices, those bus round trips were the daemon's largest cost). */
static bool still_in_place(struct manager *m, struct slice_rt *rt)
{
	_cleanup_free_ char *dir = NULL;
	uint64_t id;

	if (!rt->cgroup || !(rt->link || rt->attach == ATTACH_DRY_RUN))
		return false;
	if (rt->link && policy_maps_link_detached(rt->link))
		return false;
	dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
	return dir && cgroup_id_of(dir, &id) == 0 && id == rt->cgroup_id;
}

/* Whether a slice is looked at in this round. With a bus, a slice that is not running costs no
 * bus call until systemd signals a change to it (dirty) or the periodic re-check; a failed
 * attach is retried with a backoff. */
static bool resolve_due(struct manager *m, const struct slice_rt *rt, enum resolve_scope scope, uint64_t now)
{
	if (rt->lookup.pending)
		return false; /* its answer schedules a resolve */
	if (rt->dirty || scope == RESOLVE_ALL)
		return true;
	if (rt->attach == ATTACH_FAILED)
		return now >= rt->retry_at_usec;
	if (scope == RESOLVE_CHECK)
		return true;
	/* without a bus the naming rule is one stat() */
	return !rt->cgroup && !mgr_bus_usable(m);
}

/* A managed slice that contains this one and whose lookup is on its way: this one waits for it,
 * so that parents are attached before their children whatever order the answers come in. */
static bool ancestor_pending(struct manager *m, uint32_t slot)
{
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (k != slot && m->rt[k].in_use && m->rt[k].lookup.pending &&
		    slice_is_ancestor(m->rt[k].conf.name, m->rt[slot].conf.name))
			return true;
	return false;
}

/* r: 1 the slice runs in cgroup (taken), 0 it does not (reason), -errno (reason): keep what is. */
static void apply_resolution(struct manager *m, uint32_t k, int r, char *cgroup, const char *reason)
{
	struct slice_rt *rt = &m->rt[k];

	if (r < 0) {
		log_warning("%s: %s", rt->conf.name, reason);
		rt->dirty = true; /* ask again */
		free(cgroup);
		return;
	}
	if (r == 0) {
		free(cgroup);
		if (rt->cgroup)
			mgr_detach_slice(m, k, ATTACH_NOT_RUNNING, reason);
		else
			mgr_set_attach(rt, ATTACH_NOT_RUNNING, reason);
		return;
	}
	attach_slice(m, k, cgroup);
}

/* No bus: systemd's naming rule, and the directory must exist. */
static void resolve_by_path(struct manager *m, uint32_t k)
{
	struct slice_rt *rt = &m->rt[k];
	_cleanup_free_ char *rel = slice_cgroup_path(rt->conf.name);
	_cleanup_free_ char *dir = rel ? strjoin3(m->opt.cgroup_root, "/", rel) : NULL;
	char reason[256];
	struct stat st;

	if (dir && stat(dir, &st) == 0) {
		apply_resolution(m, k, 1, strjoin3("/", rel, ""), "");
		return;
	}
	snprintf(reason, sizeof(reason), "no cgroup %s", dir ? dir : "?");
	apply_resolution(m, k, 0, NULL, reason);
}

/* Finds every managed slice's cgroup and (de)attaches; parents before children. With a bus,
 * a slice's cgroup is asked of systemd without waiting: the answer comes back through
 * rt->lookup and the next round applies it. */
void mgr_resolve_all(struct manager *m, enum resolve_scope scope)
{
	uint64_t now = mgr_now_ns(CLOCK_MONOTONIC) / 1000;

	for (int depth = 0; depth <= SLICE_NAME_MAX; depth++) {
		bool any_deeper = false;

		for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
			struct slice_rt *rt = &m->rt[k];
			int d, r;

			if (!rt->in_use)
				continue;
			d = depth_of(rt->conf.name);
			if (d > depth)
				any_deeper = true;
			if (d != depth)
				continue;
			if (rt->lookup.done) {
				bool again;

				if (ancestor_pending(m, k))
					continue;
				rt->lookup.done = false;
				/* a signal for it came while the answer was on its way (the slice
				 * went from loaded to active): ask again now, not at the next tick.
				 * After an error the next round asks (no tight loop). */
				again = rt->dirty && rt->lookup.r >= 0;
				apply_resolution(m, k, rt->lookup.r, rt->lookup.cgroup, rt->lookup.reason);
				rt->lookup.cgroup = NULL;
				if (!again)
					continue;
			}
			if (!resolve_due(m, rt, scope, now))
				continue;
			if (scope == RESOLVE_CHECK && !rt->dirty && still_in_place(m, rt)) {
				if (m->dry_run)
					map_slice_cgroups(m, k); /* no online hook in a dry run */
				continue;
			}
			rt->dirty = false;
			if (!mgr_bus_usable(m)) {
				resolve_by_path(m, k);
				continue;
			}
			r = mgr_lookup_slice(m, k);
			if (r < 0) {
				rt->dirty = true; /* ask again */
				log_warning("%s: cannot ask systemd for its cgroup: %s", rt->conf.name, strerror(-r));
				if (bus_error_is_lost(r) || !mgr_bus_usable(m))
					mgr_bus_lost(m, strerror(-r));
			}
		}
		if (!any_deeper)
			break;
	}
}

