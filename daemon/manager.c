// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include "caps.h"
#include "cgroup-files.h"
#include "log.h"
#include "manager.h"
#include "policy.h"
#include "state.h"
#include "systemd-bus.h"
#include "units-parse.h"
#include "util.h"

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void set_attach(struct slice_rt *rt, enum attach_state attach, const char *reason)
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
static uint64_t backoff_usec(unsigned n)
{
	return n == 0 ? 0 : n > 6 ? 60 * USEC_PER_SEC : (USEC_PER_SEC << (n - 1));
}

static void schedule_resolve(struct manager *m)
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

/* Maps every cgroup below dirfd to slot, except subtrees of other managed slices. */
static void map_descendants(struct manager *m, int dirfd, uint32_t slot, int depth)
{
	DIR *d;
	struct dirent *de;

	if (depth > 32)
		return;
	d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int fd;

		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (is_other_slice_root(m, st.st_ino, slot))
			continue;
		policy_maps_map_cgroup(&m->pm, st.st_ino, slot); /* writes only what changed */
		fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			map_descendants(m, fd, slot, depth + 1);
	}
	closedir(d);
}

static void map_slice_cgroups(struct manager *m, uint32_t slot)
{
	struct slice_rt *rt = &m->rt[slot];
	_cleanup_free_ char *dir = NULL;
	int fd;

	if (!rt->cgroup)
		return;
	dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
	if (!dir)
		return;
	policy_maps_map_cgroup(&m->pm, rt->cgroup_id, slot);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		map_descendants(m, fd, slot, 0);
}

/* ---- attaching ---- */

static void detach_slice(struct manager *m, uint32_t slot, enum attach_state attach, const char *why)
{
	struct slice_rt *rt = &m->rt[slot];

	if (rt->link) {
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
	set_attach(rt, attach, why);
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
		return "permission denied: attaching memcg_bpf_ops needs CAP_BPF and CAP_PERFMON";
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
	char buf[256];
	int r;

	if (m->dry_run) {
		if (rt->attach != ATTACH_DRY_RUN)
			log_transition(LOG_INFO, "measuring", rt->conf.name, rt->conf.priority, rt->cgroup_id,
				       "%s: measuring %s (cgroup id %" PRIu64 "), dry run: nothing attached",
				       rt->conf.name, rt->cgroup, rt->cgroup_id);
		set_attach(rt, ATTACH_DRY_RUN, "");
		return;
	}
	rt->link = policy_maps_attach(&m->pm, fd, &r);
	if (!rt->link) {
		const char *why = attach_error_reason(r, buf, sizeof(buf));

		/* retried with a backoff (or when systemd signals a change); logged when the reason
		 * changes */
		rt->attach_failures++;
		rt->retry_at_usec = now_ns(CLOCK_MONOTONIC) / 1000 + backoff_usec(rt->attach_failures);
		if (rt->attach != ATTACH_FAILED || strcmp(rt->reason, why) != 0)
			log_transition(LOG_ERR, "attach-failed", rt->conf.name, rt->conf.priority, (uint64_t)-r,
				       "%s: cannot attach memcg_bpf_ops to %s: %s", rt->conf.name, rt->cgroup, why);
		set_attach(rt, ATTACH_FAILED, why);
		return;
	}
	set_attach(rt, ATTACH_ATTACHED, "");
	rt->attach_failures = 0;
	policy_maps_set_slice_root(&m->pm, slot, rt->cgroup_id);
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
	uint64_t id;

	if (dir)
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || cgroup_id_of(dir, &id) < 0) {
		snprintf(buf, sizeof(buf), "cannot open %s: %s", dir ? dir : cgroup, strerror(errno));
		if (rt->cgroup)
			detach_slice(m, slot, ATTACH_NOT_RUNNING, buf);
		set_attach(rt, ATTACH_NOT_RUNNING, buf);
		free(cgroup);
		return;
	}
	if (rt->cgroup && streq(rt->cgroup, cgroup) && rt->cgroup_id == id) {
		free(cgroup);
		map_slice_cgroups(m, slot); /* cgroups created meanwhile (dry run: no online hook) */
		if (!rt->link)
			try_link(m, slot, fd);
		return;
	}
	if (rt->cgroup)
		detach_slice(m, slot, ATTACH_NOT_RUNNING, "cgroup replaced");
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
	dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
	return dir && cgroup_id_of(dir, &id) == 0 && id == rt->cgroup_id;
}

enum resolve_scope {
	RESOLVE_PENDING,   /* slices marked dirty, not running or failed */
	RESOLVE_CHECK,     /* and every other one whose cgroup directory changed */
	RESOLVE_ALL,       /* every slice asks systemd (start, reload) */
};

/* Whether a slice is looked at in this round. With a bus, a slice that is not running costs no
 * bus call until systemd signals a change to it (dirty) or the periodic re-check; a failed
 * attach is retried with a backoff. */
static bool resolve_due(struct manager *m, const struct slice_rt *rt, enum resolve_scope scope, uint64_t now)
{
	if (rt->dirty || scope == RESOLVE_ALL)
		return true;
	if (rt->attach == ATTACH_FAILED)
		return now >= rt->retry_at_usec;
	if (scope == RESOLVE_CHECK)
		return true;
	/* without a bus the naming rule is one stat() */
	return !rt->cgroup && !(m->bus && sd_bus_is_open(m->bus) > 0);
}

static void bus_lost(struct manager *m, const char *why);

/* Finds every managed slice's cgroup and (de)attaches; parents before children. */
static void resolve_all(struct manager *m, enum resolve_scope scope)
{
	uint64_t now = now_ns(CLOCK_MONOTONIC) / 1000;

	for (int depth = 0; depth <= SLICE_NAME_MAX; depth++) {
		bool any_deeper = false;

		for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
			struct slice_rt *rt = &m->rt[k];
			char reason[256] = "";
			char *cgroup = NULL;
			int d, r;

			if (!rt->in_use)
				continue;
			d = depth_of(rt->conf.name);
			if (d > depth)
				any_deeper = true;
			if (d != depth || !resolve_due(m, rt, scope, now))
				continue;
			if (scope == RESOLVE_CHECK && !rt->dirty && still_in_place(m, rt)) {
				if (m->dry_run)
					map_slice_cgroups(m, k); /* no online hook in a dry run */
				continue;
			}
			rt->dirty = false;
			if (m->bus && sd_bus_is_open(m->bus) > 0) {
				r = bus_slice_cgroup(m->bus, rt->conf.name, &cgroup, reason, sizeof(reason));
				if (r < 0) {
					log_warning("%s: %s", rt->conf.name, reason);
					rt->dirty = true; /* ask again */
					if (r == -ECONNRESET || r == -ENOTCONN || r == -EPIPE || sd_bus_is_open(m->bus) <= 0)
						bus_lost(m, reason);
					continue; /* keep what we have */
				}
			} else {
				/* no bus: systemd's naming rule, and the directory must exist */
				_cleanup_free_ char *rel = slice_cgroup_path(rt->conf.name);
				_cleanup_free_ char *dir = rel ? strjoin3(m->opt.cgroup_root, "/", rel) : NULL;
				struct stat st;

				if (dir && stat(dir, &st) == 0) {
					cgroup = strjoin3("/", rel, "");
					r = 1;
				} else {
					snprintf(reason, sizeof(reason), "no cgroup %s", dir ? dir : "?");
					r = 0;
				}
			}
			if (r == 0) {
				if (rt->cgroup)
					detach_slice(m, k, ATTACH_NOT_RUNNING, reason);
				else
					set_attach(rt, ATTACH_NOT_RUNNING, reason);
				continue;
			}
			attach_slice(m, k, cgroup);
		}
		if (!any_deeper)
			break;
	}
}

/* ---- self-protection ---- */

/* memcgd's own cgroup, PID 1's and those of journald, dbus and logind are never delayed,
 * whatever the policy of the slice around them (bpf/memcgd.h, exempt). Their cgroups can change
 * when those units restart: refreshed with the periodic re-check. */
static void refresh_exempt(struct manager *m)
{
	struct exempt_set e;
	int r;

	exempt_collect(m->bus, m->opt.cgroup_root, &e);
	r = policy_maps_set_exempt(&m->pm, e.ids, e.n);
	if (r < 0)
		log_error("cannot write the exempt map: %s", strerror(-r));
	for (size_t i = 0; i < e.n; i++) {
		bool known = false;

		for (size_t j = 0; j < m->exempt.n; j++)
			known |= m->exempt.ids[j] == e.ids[i];
		if (!known)
			log_info("%s: exempt, never delayed whatever the policy of its slice", e.paths[i]);
	}
	exempt_set_done(&m->exempt);
	m->exempt = e;
}

/* ---- configuration ---- */

static int apply_config(struct manager *m, struct memcgd_config *c)
{
	uint32_t levels[MEMCGD_MAX_SLICES];
	int slot_of[MEMCGD_MAX_SLICES];
	bool fresh[MEMCGD_MAX_SLICES];
	struct memcgd_policy pols[MEMCGD_MAX_SLICES] = {};
	struct memcgd_slice_state states[MEMCGD_MAX_SLICES] = {};
	struct memcgd_levels lv;
	bool keep[MEMCGD_MAX_SLICES] = {};
	uint32_t gen;
	int r;

	r = policy_levels(c, levels);
	if (r < 0)
		return r;
	/* slices that disappear give up their links first, so that a reused slot never applies
	 * a new policy to an old cgroup */
	for (size_t i = 0; i < c->n_slices; i++)
		for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
			if (m->slots[k] && streq(m->slots[k], c->slices[i].name))
				keep[k] = true;
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && !keep[k]) {
			detach_slice(m, k, ATTACH_REMOVED, "no longer configured");
			log_transition(LOG_NOTICE, "removed", m->rt[k].conf.name, m->rt[k].conf.priority, 0,
				       "%s: no longer managed", m->rt[k].conf.name);
			slice_conf_done(&m->rt[k].conf);
			m->rt[k].in_use = false;
		}
	r = policy_assign_slots(m->slots, c, slot_of, fresh);
	if (r < 0)
		return r;

	gen = policy_maps_active_gen(&m->pm) ^ 1;
	for (size_t i = 0; i < c->n_slices; i++) {
		uint32_t k = (uint32_t)slot_of[i];

		c->slices[i].settings.protect_max_usage = policy_max_usage(&c->slices[i].settings, m->ram_bytes);

		if (fresh[i]) {
			policy_maps_reset_state(&m->pm, k);
			policy_maps_clear_cpu_active(&m->pm, k);
			m->rt[k].last_cpu_ns = 0;
			m->rt[k].cpu_percent = -1;
		}
		policy_compile(&c->slices[i], levels[i], m->rt[k].cgroup_id, &pols[k]);
	}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		r = policy_maps_write_policy(&m->pm, gen, k, &pols[k]);
		if (r < 0) {
			log_error("cannot write policy map: %s", strerror(-r));
			return r;
		}
		if (pols[k].flags & MEMCGD_POLICY_IN_USE)
			policy_maps_read_state(&m->pm, k, &states[k]);
	}
	policy_levels_rebuild(states, pols, MEMCGD_MAX_SLICES, now_ns(CLOCK_MONOTONIC), &lv);
	r = policy_maps_write_levels(&m->pm, gen, &lv);
	if (r < 0) {
		log_error("cannot write levels map: %s", strerror(-r));
		return r;
	}
	/* write_levels started the generation's CPU activity empty: carry over every slice that
	 * CPUUsage= keeps active, at its new level, so that the switch drops no throttling */
	for (size_t i = 0; i < c->n_slices; i++) {
		uint32_t k = (uint32_t)slot_of[i];
		uint64_t until = policy_maps_cpu_active_until(&m->pm, k);

		if (!fresh[i] && until > now_ns(CLOCK_MONOTONIC))
			policy_maps_mark_cpu_active(&m->pm, gen, k, levels[i], until);
	}
	policy_maps_set_active_gen(&m->pm, gen);

	/* the new policy is in force; now the bookkeeping */
	for (size_t i = 0; i < c->n_slices; i++) {
		uint32_t k = (uint32_t)slot_of[i];
		struct slice_rt *rt = &m->rt[k];
		struct slice_conf *s = &c->slices[i];

		slice_conf_done(&rt->conf);
		rt->conf = *s;
		rt->conf.name = strdup(s->name);
		rt->conf.file = strdup(s->file);
		rt->level = levels[i];
		if (!rt->in_use) {
			rt->in_use = true;
			rt->dirty = true;
			rt->last_faults = 0;
			rt->last_sample_ns = 0;
			set_attach(rt, ATTACH_NOT_RUNNING, "not resolved yet");
		}
	}
	memcgd_config_done(&m->config);
	m->config = *c;
	memset(c, 0, sizeof(*c));
	m->generation++;
	return 0;
}

static void log_diagnostics(const struct diag_list *d, char *first, size_t len)
{
	char buf[1024];

	for (size_t i = 0; i < d->n; i++) {
		diag_format(&d->items[i], buf, sizeof(buf));
		log_error("%s", buf);
		if (i == 0)
			snprintf(first, len, "%.400s%s", buf, d->n > 1 ? " (and more, see the journal)" : "");
	}
}

static void notify_status(struct manager *m)
{
	unsigned attached = 0, active = 0, total = 0;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		if (!m->rt[k].in_use)
			continue;
		total++;
		attached += m->rt[k].attach == ATTACH_ATTACHED || m->rt[k].attach == ATTACH_DRY_RUN;
		active += m->rt[k].active;
	}
	sd_notifyf(0, "STATUS=%s%u of %u slices %s, %u active%s", m->dry_run ? "dry run: " : "", attached, total,
		   m->dry_run ? "measured" : "attached", active, m->reload_error[0] ? "; last reload failed" : "");
}

/* [Daemon] DryRun= on reload. Enforcing -> dry run drops every link (the slices are measured
 * only from then on); dry run -> enforcing needs the memcg_bpf_ops programs, which a dry run
 * never loads, and the capabilities it dropped: that takes a restart, and the reload is refused
 * saying so. Returns 0 or -EPERM with the reason in why. */
static int reload_mode(struct manager *m, const struct memcgd_config *c, char *why, size_t len)
{
	bool dry = m->opt.dry_run || c->daemon.dry_run;

	if (dry == m->dry_run)
		return 0;
	if (!dry && m->pm.dry_run) {
		snprintf(why, len, "%s: DryRun=no needs a restart (memcgd started as a dry run, without "
			 "the memcg_bpf_ops programs and their capabilities): systemctl restart memcgd",
			 c->daemon.file ? c->daemon.file : "memcgd.conf");
		return -EPERM;
	}
	if (dry) {
		for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
			if (m->rt[k].in_use && m->rt[k].link)
				detach_slice(m, k, ATTACH_NOT_RUNNING, "switching to a dry run");
		log_transition(LOG_NOTICE, "dry-run", NULL, 0, 1, "DryRun=yes: detached everything, measuring only");
	} else {
		log_transition(LOG_NOTICE, "dry-run", NULL, 0, 0, "DryRun=no: enforcing again");
	}
	m->dry_run = dry;
	return 0;
}

static void reload_refused(struct manager *m)
{
	log_transition(LOG_ERR, "reload-failed", NULL, 0, 0,
		       "reload refused, previous policy (generation %" PRIu64 ") kept: %s", m->generation,
		       m->reload_error);
	/* no RELOADING=1/READY=1 pair: nothing was reloaded. The unit's ExecReload=memcgctl reload
	 * reports the refusal to systemctl reload (memcgd(8), RELOADING). */
	sd_notifyf(0, "STATUS=reload refused, previous policy kept: %.400s", m->reload_error);
}

static void reload(struct manager *m)
{
	struct memcgd_config c;
	struct diag_list d = {};
	int r;

	m->reloads++;
	/* everything is checked before anything changes: a refused reload changes nothing */
	r = config_load(m->opt.root, &c, &d);
	if (r < 0) {
		log_diagnostics(&d, m->reload_error, sizeof(m->reload_error));
		if (!d.n)
			snprintf(m->reload_error, sizeof(m->reload_error), "%s", strerror(-r));
		reload_refused(m);
		goto out;
	}
	if (reload_mode(m, &c, m->reload_error, sizeof(m->reload_error)) < 0) {
		log_error("%s", m->reload_error);
		reload_refused(m);
		goto out;
	}

	sd_notifyf(0, "RELOADING=1\nSTATUS=reloading configuration\nMONOTONIC_USEC=%" PRIu64,
		   now_ns(CLOCK_MONOTONIC) / 1000);
	m->state = "reloading";
	if (c.daemon.update_interval_usec != m->interval_usec) {
		/* the new interval starts with an update, which also re-marks CPUUsage= activity
		 * for as long as the new interval needs */
		m->interval_usec = c.daemon.update_interval_usec;
		sd_event_source_set_time_relative(m->tick_src, 0);
	}
	r = apply_config(m, &c);
	if (r < 0) {
		snprintf(m->reload_error, sizeof(m->reload_error), "cannot apply: %s", strerror(-r));
		log_error("reload: %s", m->reload_error);
	} else {
		m->reload_error[0] = '\0';
		diag_list_clear(&m->skipped); /* this configuration is valid as a whole */
		log_transition(LOG_NOTICE, "reloaded", NULL, 0, m->generation,
			       "configuration reloaded: generation %" PRIu64 ", %zu slices", m->generation,
			       m->config.n_slices);
		resolve_all(m, RESOLVE_ALL);
	}
	m->state = "running";
	sd_notify(0, "READY=1");
out:
	memcgd_config_done(&c);
	diag_list_clear(&d);
	notify_status(m);
}

/* ---- the update tick ---- */

static const char *highest_active_above(struct manager *m, uint32_t level)
{
	const char *name = NULL;
	uint32_t best = level;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && m->rt[k].active && m->rt[k].level > best) {
			best = m->rt[k].level;
			name = m->rt[k].conf.name;
		}
	return name;
}

static void write_state(struct manager *m)
{
	struct daemon_status s = {};
	struct slice_status sl[MEMCGD_MAX_SLICES];
	size_t n = 0;
	int r;

	s.pid = getpid();
	s.state = (char *)m->state;
	s.mode = (char *)(m->dry_run ? "dry-run" : "enforce");
	s.started_usec = m->started_usec;
	s.updated_usec = now_ns(CLOCK_REALTIME) / 1000;
	s.update_interval_usec = m->interval_usec;
	s.config_generation = m->generation;
	s.reloads = m->reloads;
	s.reload_error = m->reload_error;
	s.kernel_release = m->ks.release;
	s.kernel_supported = m->ks.error[0] == '\0';
	s.hooks = m->ks.hook_names;
	s.libbpf = (char *)libbpf_version_string();
	s.events_dropped = policy_maps_events_dropped(&m->pm);
	s.exempt_skips = policy_maps_exempt_skips(&m->pm);
	{
		size_t len = 0;

		for (size_t i = 0; i < m->exempt.n; i++)
			len += strlen(m->exempt.paths[i]) + 1;
		s.exempt = calloc(1, len + 1);
		for (size_t i = 0; s.exempt && i < m->exempt.n; i++) {
			if (i)
				strcat(s.exempt, " ");
			strcat(s.exempt, m->exempt.paths[i]);
		}
	}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		const struct slice_settings *st = &rt->conf.settings;

		if (!rt->in_use)
			continue;
		sl[n] = (struct slice_status){
			.name = rt->conf.name,
			.priority = rt->conf.priority,
			.level = rt->level,
			.slot = (int)k,
			.file = rt->conf.file,
			.cgroup = rt->cgroup ? rt->cgroup : (char *)"",
			.cgroup_id = rt->cgroup_id,
			.attach = (char *)attach_state_to_string(rt->attach),
			.reason = rt->reason,
			.protect = (char *)protect_mode_to_string(st->protect),
			.fault_rate_threshold = st->fault_rate,
			.cpu_usage_threshold = st->cpu_usage_percent,
			.window_usec = st->window_usec,
			.hold_usec = st->hold_usec,
			.delay_ms = st->throttle_delay_usec / 1000,
			.max_continuous_usec = st->throttle_max_usec == USEC_INFINITY ? UINT64_MAX : st->throttle_max_usec,
			.max_usage = st->protect_max_usage,
			.fault_rate = rt->rate,
			.cpu_percent = rt->cpu_percent,
			.active = rt->active,
			.throttling = rt->throttling,
			.guard_tripped = rt->st.guard_tripped,
			.protect_suspended = rt->suspended,
			.faults = rt->st.faults,
			.activations = rt->st.activations,
			.active_usec = rt->st.active_ns / 1000,
			.protect_decisions = rt->st.protect_decisions,
			.throttle_decisions = rt->st.throttle_decisions,
			.throttle_ms = rt->st.throttle_ms,
			.guard_trips = rt->st.guard_trips,
			.ceiling_refusals = rt->st.ceiling_refusals,
		};
		n++;
	}
	s.slices = sl;
	s.n_slices = n;
	s.n_skipped = m->skipped.n < 64 ? m->skipped.n : 64;
	s.skipped = s.n_skipped ? calloc(s.n_skipped, sizeof(*s.skipped)) : NULL;
	if (!s.skipped)
		s.n_skipped = 0;
	for (size_t i = 0; i < s.n_skipped; i++)
		s.skipped[i] = (struct config_problem){
			.file = m->skipped.items[i].file,
			.line = m->skipped.items[i].line,
			.message = m->skipped.items[i].message,
		};
	r = state_write_file(m->opt.state_file, &s);
	free(s.skipped);
	free(s.exempt);
	if (r < 0)
		log_warning("cannot write %s: %s", m->opt.state_file, strerror(-r));
}

/* [Activity] CPUUsage=: a slice busy on memory it already has takes no page faults; its CPU
 * time shows the work. Marks the slice active (through the next window plus the hold time,
 * like a window over the fault threshold) while it uses at least the configured share. */
static void sample_cpu(struct manager *m, uint32_t gen, uint32_t slot, uint64_t now)
{
	struct slice_rt *rt = &m->rt[slot];
	const struct slice_settings *st = &rt->conf.settings;
	_cleanup_free_ char *dir = NULL;
	uint64_t usage;

	if (st->cpu_usage_percent && rt->cgroup)
		dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
	if (!dir || cgroup_read_cpu_usage_usec(dir, &usage) < 0) {
		rt->last_cpu_ns = 0;
		rt->cpu_percent = -1; /* not measured */
		return;
	}
	if (rt->last_cpu_ns && now > rt->last_cpu_ns && usage >= rt->last_cpu_usec) {
		rt->cpu_percent = (double)(usage - rt->last_cpu_usec) * 1e5 / (double)(now - rt->last_cpu_ns);
		/* until the tick after next at least: with UpdateInterval= above Window= + Hold= the
		 * activity would otherwise lapse between two measurements */
		uint64_t span = st->window_usec + st->hold_usec;

		if (span < 2 * m->interval_usec)
			span = 2 * m->interval_usec;
		if (rt->cpu_percent >= (double)st->cpu_usage_percent)
			policy_maps_mark_cpu_active(&m->pm, gen, slot, rt->level, now + span * 1000);
	}
	rt->last_cpu_usec = usage;
	rt->last_cpu_ns = now;
}

static void sample(struct manager *m)
{
	uint64_t now = now_ns(CLOCK_MONOTONIC);
	struct memcgd_levels lv = {};
	uint32_t gen = policy_maps_active_gen(&m->pm);

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use)
			sample_cpu(m, gen, k, now);
	policy_maps_expire_cpu_levels(&m->pm, gen, now);
	policy_maps_read_levels(&m->pm, gen, &lv);
	policy_maps_merge_cpu_levels(&m->pm, gen, &lv);
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		bool was_active = rt->active;

		if (!rt->in_use)
			continue;
		if (policy_maps_read_state(&m->pm, k, &rt->st) < 0)
			continue;
		if (rt->last_sample_ns && now > rt->last_sample_ns && rt->st.faults >= rt->last_faults)
			rt->rate = (double)(rt->st.faults - rt->last_faults) * 1e9 / (double)(now - rt->last_sample_ns);
		rt->last_faults = rt->st.faults;
		rt->last_sample_ns = now;
		rt->active = rt->st.active_until_ns > now || policy_maps_cpu_active_until(&m->pm, k) > now;
		if (!was_active && rt->active && rt->st.active_until_ns <= now)
			log_transition(LOG_INFO, "active", rt->conf.name, rt->conf.priority, (uint64_t)rt->cpu_percent,
				       "%s: active, using %.0f%% CPU (threshold %" PRIu64 "%%)%s%s", rt->conf.name,
				       rt->cpu_percent, rt->conf.settings.cpu_usage_percent,
				       rt->conf.settings.protect == PROTECT_NONE ? "" : m->dry_run ? ", would protect (" : ", protected (",
				       rt->conf.settings.protect == PROTECT_NONE ? "" : rt->conf.settings.protect == PROTECT_MIN ? "min)" : "low)");
		/* active time includes the running episode */
		if (rt->st.active_since_ns && rt->st.active_until_ns > rt->st.active_since_ns)
			rt->st.active_ns += (rt->active ? now : rt->st.active_until_ns) - rt->st.active_since_ns;
		if (was_active && !rt->active)
			log_transition(LOG_INFO, "inactive", rt->conf.name, rt->conf.priority, 0,
				       "%s: inactive (fault rate below %" PRIu64 "/s for the window and hold time)",
				       rt->conf.name, rt->conf.settings.fault_rate);
	}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		struct slice_rt *rt = &m->rt[k];
		bool throttling, suspended = false;

		if (!rt->in_use)
			continue;
		throttling = rt->conf.settings.throttle_delay_usec && !rt->st.guard_tripped &&
			     policy_higher_level_active(&lv, rt->level, now) && rt->cgroup;
		if (throttling != rt->throttling) {
			const char *why = highest_active_above(m, rt->level);

			if (throttling)
				log_transition(LOG_INFO, m->dry_run ? "would-throttle" : "throttle", rt->conf.name,
					       rt->conf.priority, rt->conf.settings.throttle_delay_usec / 1000,
					       "%s: %sthrottled by %" PRIu64 "ms per charge because %s (higher priority) is active",
					       rt->conf.name, m->dry_run ? "would be " : "",
					       rt->conf.settings.throttle_delay_usec / 1000, why ? why : "a higher priority slice");
			else
				log_transition(LOG_INFO, "unthrottle", rt->conf.name, rt->conf.priority, 0,
					       "%s: no longer throttled", rt->conf.name);
		}
		rt->throttling = throttling;

		/* [Protect] MaxUsage=: no protection while the slice is above it */
		if (rt->conf.settings.protect_max_usage != SIZE_INFINITY && rt->cgroup) {
			_cleanup_free_ char *dir = strjoin3(m->opt.cgroup_root, "", rt->cgroup);
			uint64_t cur;

			if (dir && cgroup_read_memory_value(dir, "memory.current", &cur) == 0)
				suspended = cur > rt->conf.settings.protect_max_usage;
		}
		if (suspended != rt->suspended) {
			policy_maps_set_protect_suspended(&m->pm, k, suspended);
			log_transition(LOG_NOTICE, suspended ? "protect-suspended" : "protect-resumed", rt->conf.name,
				       rt->conf.priority, rt->conf.settings.protect_max_usage,
				       suspended ? "%s: uses more than MaxUsage=, not protected until it shrinks"
						 : "%s: back under MaxUsage=, protected again while active", rt->conf.name);
			rt->suspended = suspended;
		}
	}
}

static int on_ring_event(void *ctx, void *data, size_t size)
{
	struct manager *m = ctx;
	const struct memcgd_event *e = data;
	struct slice_rt *rt;
	char a[64];

	if (size < sizeof(*e) || e->slot >= MEMCGD_MAX_SLICES)
		return 0;
	rt = &m->rt[e->slot];
	if (!rt->in_use)
		return 0;
	switch (e->type) {
	case MEMCGD_EV_ACTIVATED:
		rt->active = true;
		log_transition(LOG_INFO, "active", rt->conf.name, rt->conf.priority, e->value,
			       "%s: active, %" PRIu64 " page faults within %s (threshold %" PRIu64 "/s)%s%s",
			       rt->conf.name, (uint64_t)e->value, format_duration(a, sizeof(a), rt->conf.settings.window_usec),
			       rt->conf.settings.fault_rate,
			       rt->conf.settings.protect == PROTECT_NONE ? "" : m->dry_run ? ", would protect (" : ", protected (",
			       rt->conf.settings.protect == PROTECT_NONE ? "" : rt->conf.settings.protect == PROTECT_MIN ? "min)" : "low)");
		break;
	case MEMCGD_EV_GUARD_TRIPPED:
		log_transition(LOG_WARNING, "guard-tripped", rt->conf.name, rt->conf.priority, e->value / 1000,
			       "%s: throttled continuously for %s, longer than MaxContinuous=; throttling stopped "
			       "until the higher-priority activity ends", rt->conf.name,
			       format_duration(a, sizeof(a), e->value / 1000 - e->value / 1000 % USEC_PER_MSEC));
		break;
	case MEMCGD_EV_GUARD_CLEARED:
		log_transition(LOG_NOTICE, "guard-cleared", rt->conf.name, rt->conf.priority, 0,
			       "%s: higher-priority activity ended, guard reset", rt->conf.name);
		break;
	}
	return 0;
}

static int on_events_fd(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct manager *m = userdata;

	ring_buffer__consume(m->pm.events);
	return 0;
}

/* ---- the bus: reconnect with a backoff ---- */

static void on_unit_changed(const char *unit, void *userdata);

static int on_reconnect(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;
	int r;

	if (m->bus) {
		sd_bus_flush_close_unref(m->bus);
		m->bus = NULL;
	}
	r = bus_connect(m->event, on_unit_changed, m, &m->bus);
	if (r < 0) {
		m->bus_failures++;
		log_warning("cannot connect to systemd's bus (%s), attempt %u; next in %" PRIu64 " s, finding slices "
			    "by their cgroup paths meanwhile", strerror(-r), m->bus_failures,
			    backoff_usec(m->bus_failures) / USEC_PER_SEC);
		sd_event_source_set_time_relative(s, backoff_usec(m->bus_failures));
		sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
		return 0;
	}
	log_transition(LOG_NOTICE, "bus-connected", NULL, 0, m->bus_failures,
		       "connected to the system bus again after %u attempt%s", m->bus_failures,
		       m->bus_failures == 1 ? "" : "s");
	m->bus_failures = 0;
	/* signals may have been missed meanwhile */
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use)
			m->rt[k].dirty = true;
	schedule_resolve(m);
	return 0;
}

/* The bus connection broke: slices are found by their paths until a reconnect succeeds. */
static void bus_lost(struct manager *m, const char *why)
{
	int enabled = SD_EVENT_OFF;

	if (m->reconnect_src)
		(void)sd_event_source_get_enabled(m->reconnect_src, &enabled);
	if (!m->opt.use_bus || enabled != SD_EVENT_OFF)
		return;
	log_transition(LOG_WARNING, "bus-lost", NULL, 0, 0, "lost the system bus (%s): reconnecting", why);
	m->bus_failures = 1;
	if (!m->reconnect_src &&
	    sd_event_add_time_relative(m->event, &m->reconnect_src, CLOCK_MONOTONIC, backoff_usec(1), 0,
				       on_reconnect, m) < 0)
		return;
	sd_event_source_set_time_relative(m->reconnect_src, backoff_usec(1));
	sd_event_source_set_enabled(m->reconnect_src, SD_EVENT_ONESHOT);
	/* the dead connection is dropped by on_reconnect, outside its own dispatch */
	if (m->bus)
		sd_bus_close(m->bus);
}

static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;
	static unsigned n;

	ring_buffer__consume(m->pm.events);
	if (m->bus && sd_bus_is_open(m->bus) <= 0)
		bus_lost(m, "connection closed");
	/* unresolved slices every tick (the 1 s attach bound even without bus signals), all of
	 * them every 10 ticks (to notice slices that stopped while signals were missed) */
	if (++n % 10 == 0)
		refresh_exempt(m);
	resolve_all(m, n % 10 == 0 ? RESOLVE_CHECK : RESOLVE_PENDING);
	sample(m);
	write_state(m);
	notify_status(m);
	sd_event_source_set_time(s, usec + m->interval_usec);
	return 0;
}

static int on_resolve(sd_event_source *s, void *userdata)
{
	struct manager *m = userdata;

	resolve_all(m, RESOLVE_PENDING);
	write_state(m);
	return 0;
}

static void on_unit_changed(const char *unit, void *userdata)
{
	struct manager *m = userdata;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && streq(m->rt[k].conf.name, unit)) {
			m->rt[k].dirty = true;
			schedule_resolve(m);
		}
}

static int on_sighup(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	reload(userdata);
	write_state(userdata);
	return 0;
}

static int on_sigterm(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct manager *m = userdata;

	sd_notify(0, "STOPPING=1\nSTATUS=detaching; the kernel's own memory.low/min rules apply again");
	m->state = "stopping";
	return sd_event_exit(m->event, 0);
}

int manager_start(struct manager *m, const struct manager_options *opt)
{
	struct memcgd_config c;
	struct diag_list d = {};
	sigset_t mask;
	int r;

	memset(m, 0, sizeof(*m));
	m->opt = *opt;
	m->state = "starting";
	m->started_usec = now_ns(CLOCK_REALTIME) / 1000;
	{
		struct sysinfo si;

		m->ram_bytes = sysinfo(&si) == 0 ? (uint64_t)si.totalram * si.mem_unit : 0;
	}

	/* before anything slow (configuration, BPF load): a SIGHUP or SIGTERM that arrives early
	 * waits for the event loop instead of killing the daemon by its default action */
	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;

	r = config_load_skipping(opt->root, &c, &d);
	if (r < 0) {
		char first[512] = "";

		log_diagnostics(&d, first, sizeof(first));
		log_error("invalid configuration, not starting (check with: memcgctl check)");
		sd_notifyf(0, "STATUS=invalid configuration: %s", first);
		memcgd_config_done(&c);
		diag_list_clear(&d);
		return r == -ENOMEM ? r : -EINVAL;
	}
	if (r > 0) {
		char first[512] = "";

		/* one bad drop-in does not stop the others (memcgd.d(5), "Invalid files") */
		log_diagnostics(&d, first, sizeof(first));
		log_transition(LOG_ERR, "skipped", NULL, 0, d.n,
			       "left out invalid configuration (%zu problem%s), the other slices are managed: %s",
			       d.n, d.n == 1 ? "" : "s", first);
		m->skipped = d;
		memset(&d, 0, sizeof(d));
	}
	diag_list_clear(&d);
	m->dry_run = opt->dry_run || c.daemon.dry_run;
	m->interval_usec = c.daemon.update_interval_usec;

	r = kernel_probe(NULL, &m->ks);
	log_info("kernel %s: memcg_bpf_ops hooks: %s; memcg:count_memcg_events tracepoint: %s", m->ks.release,
		 m->ks.hook_names[0] ? m->ks.hook_names : "none", m->ks.has_tracepoint ? "yes" : "no");
	if (r < 0 && !(m->dry_run && m->ks.has_tracepoint)) {
		log_error("%s", m->ks.error[0] ? m->ks.error : strerror(-r));
		sd_notifyf(0, "STATUS=unsupported kernel: %s", m->ks.error);
		memcgd_config_done(&c);
		return r == -EOPNOTSUPP ? r : -ENOSYS;
	}
	if (!m->dry_run && (m->ks.hooks & (HOOK_HANDLE_CGROUP_ONLINE | HOOK_HANDLE_CGROUP_OFFLINE | HOOK_GET_HIGH_DELAY_MS)) !=
				    (HOOK_HANDLE_CGROUP_ONLINE | HOOK_HANDLE_CGROUP_OFFLINE | HOOK_GET_HIGH_DELAY_MS)) {
		log_error("kernel %s: memcg_bpf_ops lacks hooks memcgd needs (has: %s; needs handle_cgroup_online "
			  "handle_cgroup_offline below_low below_min get_high_delay_ms); --dry-run still measures",
			  m->ks.release, m->ks.hook_names);
		memcgd_config_done(&c);
		return -EOPNOTSUPP;
	}

	r = policy_maps_open(&m->pm, m->dry_run, on_ring_event, m);
	if (r < 0) {
		memcgd_config_done(&c);
		return r;
	}
	r = apply_config(m, &c);
	memcgd_config_done(&c);
	if (r < 0) {
		log_error("cannot apply the configuration: %s", strerror(-r));
		return r;
	}

	r = sd_event_default(&m->event);
	if (r < 0)
		return r;
	if ((r = sd_event_add_signal(m->event, NULL, SIGHUP, on_sighup, m)) < 0 ||
	    (r = sd_event_add_signal(m->event, NULL, SIGTERM, on_sigterm, m)) < 0 ||
	    (r = sd_event_add_signal(m->event, NULL, SIGINT, on_sigterm, m)) < 0)
		return r;
	r = sd_event_add_io(m->event, &m->events_src, policy_maps_events_fd(&m->pm), EPOLLIN, on_events_fd, m);
	if (r < 0)
		return r;
	r = sd_event_add_defer(m->event, &m->resolve_src, on_resolve, m);
	if (r < 0)
		return r;
	sd_event_source_set_enabled(m->resolve_src, SD_EVENT_OFF);
	r = sd_event_add_time_relative(m->event, &m->tick_src, CLOCK_MONOTONIC, m->interval_usec, 10000, on_tick, m);
	if (r < 0)
		return r;
	sd_event_source_set_enabled(m->tick_src, SD_EVENT_ON);
	/* WATCHDOG=1 pings from the loop itself, when WatchdogSec= is set */
	sd_event_set_watchdog(m->event, true);

	if (opt->use_bus) {
		r = bus_connect(m->event, on_unit_changed, m, &m->bus);
		if (r < 0) {
			log_warning("cannot connect to systemd's bus (%s): finding slices by their cgroup "
				    "paths until it is back", strerror(-r));
			bus_lost(m, strerror(-r));
		}
	}
	refresh_exempt(m);
	resolve_all(m, RESOLVE_ALL);

	/* everything privileged is done except creating links for slices that start later */
	r = caps_drop_to_runtime_set(!m->dry_run);
	if (r < 0)
		log_warning("continuing with the capabilities memcgd was started with");

	m->state = "running";
	write_state(m);
	sd_notify(0, "READY=1");
	notify_status(m);
	log_info("memcgd %s: %zu slices configured, %s", m->dry_run ? "dry run" : "running", m->config.n_slices,
		 m->dry_run ? "measuring only (no memcg_bpf_ops attached)" : "enforcing");
	return 0;
}

int manager_run(struct manager *m)
{
	return sd_event_loop(m->event);
}

void manager_free(struct manager *m)
{
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		if (m->rt[k].link)
			bpf_link__destroy(m->rt[k].link);
		slice_conf_done(&m->rt[k].conf);
		free(m->rt[k].cgroup);
		free(m->slots[k]);
	}
	if (m->opt.state_file && m->state && streq(m->state, "stopping"))
		unlink(m->opt.state_file);
	sd_event_source_unref(m->tick_src);
	sd_event_source_unref(m->resolve_src);
	sd_event_source_unref(m->events_src);
	sd_event_source_unref(m->reconnect_src);
	sd_bus_flush_close_unref(m->bus);
	sd_event_unref(m->event);
	if (m->pm.skel)
		policy_maps_close(&m->pm);
	memcgd_config_done(&m->config);
	diag_list_clear(&m->skipped);
	exempt_set_done(&m->exempt);
}
